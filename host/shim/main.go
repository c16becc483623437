package shim

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/lola-pm/lola/schema"
)

// Run is the `lola __extension-host` command: it parses argv (the
// arguments after the subcommand name) and runs Main. It returns the exit
// status.
func Run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a, err := ParseArgs(argv)
	if err != nil {
		d := Diagnostic{Kind: KindUsage, Detail: err.Error()}
		stderr.Write(formatOutcome(d))
		return d.Kind.ExitCode()
	}
	return Main(a, stdin, stdout, stderr)
}

// Main is the tier-1 child. It reads the request from stdin, writes the
// plan to stdout and exactly one outcome line to stderr (see ParseReport),
// and returns the exit status (Kind.ExitCode). The steps run in this order:
//
//  0. bound the process's data (RLIMIT_DATA, DataLimit) and start the
//     clock (Limits.Timeout) and its watchdog;
//  1. read the artifact under the size bound (stat, then a capped read),
//     pre-scan its declarations (prescan), and report its SHA-256 (before
//     step 2, computed beside the pre-scan and the cache lookup);
//  2. confine the process (Landlock: no filesystem access at all, TCP bind
//     and connect denied; a seccomp filter; a no-op off Linux that says so),
//     and report the level achieved;
//  3. instantiate the module from the bytes with no preopens, no
//     environment, no argv, no stdin;
//  4. run it under the memory ceiling and the clock;
//  5. copy the plan out under the plan bound and write it to stdout.
//
// With a compilation cache the module is compiled between steps 1 and 2,
// while the cache directory is still reachable (see the package doc).
// Every limit stops the module, never the shim: whichever is hit is
// reported and Main returns normally, except that the watchdog ends the
// process (exit 4, outcome timeout) when the module is still running
// WatchdogGrace after the clock expired. Main confines the calling process
// for good; call it only in a process that exists to run one module.
func Main(a Args, stdin io.Reader, stdout, stderr io.Writer) int {
	start := time.Now()
	log := newGuestLog(stderr)
	dataLimit := DataLimit(a.limits)
	if a.test.dataLimit != 0 {
		dataLimit = a.test.dataLimit
	}
	if _, err := limitData(dataLimit); err != nil {
		d := Diagnostic{Kind: KindConfinementFailed, Detail: "setting RLIMIT_DATA: " + firstLine(err.Error())}
		log.outcome(d)
		return d.Kind.ExitCode()
	}
	tuneGC()
	if st, err := os.Stat(a.module); err == nil {
		prepareHeap(st.Size())
	}
	deadline := start.Add(a.limits.timeout)
	stop := startWatchdog(deadline, a.limits, log)
	defer stop()
	d := mainSteps(a, dataLimit, start, deadline, stdin, stdout, log)
	log.outcome(d)
	return d.Kind.ExitCode()
}

// DataLimit is the RLIMIT_DATA the shim sets on itself for l: twice the
// linear memory ceiling (where linear memory is a Go slice, a growth
// copies the old buffer into the new one) plus DataOverhead for the Go runtime, wazero's compiler and the module's
// tables.
func DataLimit(l Limits) uint64 {
	return 2*uint64(l.memoryPages)*65536 + DataOverhead
}

// DataOverhead is the part of DataLimit that is not linear memory. The
// largest module the SDKs build (a 4 MiB Go module) compiles and runs in
// about a quarter of it.
const DataOverhead = 768 << 20

// startWatchdog ends the process with the timeout outcome when it is still
// running WatchdogGrace after deadline: a host call that the context's
// cancellation cannot interrupt (a huge allocation, compilation) must not
// outlive the shim's clock. The returned func disarms it.
func startWatchdog(deadline time.Time, l Limits, log *guestLog) func() {
	t := time.AfterFunc(time.Until(deadline)+WatchdogGrace, func() {
		d := Diagnostic{Kind: KindTimeout, Limit: l.timeout.Milliseconds(),
			Detail: WatchdogDetail}
		if log.outcome(d) {
			os.Exit(d.Kind.ExitCode())
		}
	})
	return func() { t.Stop() }
}

func mainSteps(a Args, dataLimit uint64, start, deadline time.Time, stdin io.Reader, stdout io.Writer, log *guestLog) Diagnostic {
	l := a.limits
	var ph Phases
	mark := start
	lap := func(p *int64) {
		now := time.Now()
		*p += now.Sub(mark).Microseconds()
		mark = now
	}
	// Step 1.
	wasm, d := readModule(a.module, l.maxModule)
	if d != nil {
		return *d
	}
	size := len(wasm)
	lap(&ph.Read)
	wasm, orig, d := checkDeclarations(wasm, l)
	if d != nil {
		return *d
	}
	// The digest, of the bytes as read (orig: the rewritten table section
	// as it was), is computed beside the cache lookup (a second core is the
	// norm) and reported before anything is confined or run.
	sumDone := make(chan [sha256.Size]byte, 1)
	go func() {
		h := sha256.New()
		for _, p := range orig {
			h.Write(p)
		}
		var sum [sha256.Size]byte
		h.Sum(sum[:0])
		sumDone <- sum
	}()
	reportSum := func() {
		if sumDone != nil {
			log.shimLine(formatModule(<-sumDone, size))
			sumDone = nil
		}
	}
	lap(&ph.Scan)
	// The cache is read (and a miss written) before confinement.
	var eng *engine
	cacheState := "off"
	cache, cacheDir, err := openCache(a.cacheDir)
	if err != nil {
		cacheState = "refused"
	}
	if cache != nil {
		eng, d = compile(wasm, l, deadline, cache, cacheDir)
		if d != nil {
			return *d
		}
		cacheState = eng.cache
	}
	reportSum()
	lap(&ph.Compile)
	// Step 2.
	if !a.test.noConfine {
		c, err := confine(a.test)
		c.Caps = schema.JoinCapabilities(a.caps)
		if runtime.GOOS == "linux" {
			c.DataLimit = dataLimit
		}
		log.shimLine(formatConfinement(c))
		if err != nil {
			return Diagnostic{Kind: KindConfinementFailed, Detail: firstLine(err.Error())}
		}
	}
	lap(&ph.Confine)
	req, err := io.ReadAll(io.LimitReader(stdin, l.maxRequest+1))
	if err != nil {
		return Diagnostic{Kind: KindInternal, Detail: "reading the request: " + firstLine(err.Error())}
	}
	if int64(len(req)) > l.maxRequest {
		return Diagnostic{Kind: KindRequestTooLarge, Limit: l.maxRequest}
	}
	lap(&ph.Request)
	if eng == nil {
		eng, d = compile(wasm, l, deadline, nil, "")
		if d != nil {
			return *d
		}
	}
	wasm = nil
	if d := checkShape(eng.compiled); d != nil {
		d.Cache = cacheState
		return *d
	}
	lap(&ph.Compile)
	if a.test.stall {
		time.Sleep(l.OuterDeadline())
	}
	// Steps 3 to 5.
	plan, elapsed, d := execute(eng, req, l, deadline, a.test, log, &ph)
	mark = time.Now()
	if d != nil {
		d.Cache = cacheState
		return *d
	}
	if _, err := stdout.Write(plan); err != nil {
		return Diagnostic{Kind: KindOutputFailed, Detail: firstLine(err.Error())}
	}
	lap(&ph.Run)
	ph.Total = time.Since(start).Microseconds()
	return Diagnostic{Kind: KindOK, Cache: cacheState, Elapsed: elapsed.Microseconds(), Phases: &ph}
}

// checkDeclarations runs prescan and names the limit a module exceeds; a
// module whose tables declare no maximum is returned with the maximum
// MaxTableElements (boundTables, in place where the buffer allows), and
// orig is the artifact's bytes as read, in pieces, for its digest. Bytes whose section structure prescan
// cannot follow are module-invalid here, before wazero decodes any of it:
// a limit beyond the fault would otherwise go unchecked.
func checkDeclarations(wasm []byte, l Limits) (out []byte, orig [][]byte, d *Diagnostic) {
	s, err := prescan(wasm, l.memoryPages)
	var le *limitError
	var me *memoryMinError
	switch {
	case errors.As(err, &le):
		return nil, nil, &Diagnostic{Kind: KindModuleLimit, LimitName: le.Name, Limit: int64(le.Max), Detail: le.Error()}
	case errors.As(err, &me):
		return nil, nil, &Diagnostic{Kind: KindMemoryLimit, Limit: int64(l.memoryPages), Pages: uint32(min(me.Min, 1<<32-1)),
			Detail: fmt.Sprintf("the module declares a minimum of %d pages, over its %d-page memory ceiling", me.Min, l.memoryPages)}
	case err != nil:
		return nil, nil, malformed(err)
	}
	if !s.unboundedTable {
		return wasm, [][]byte{wasm}, nil
	}
	section := bytes.Clone(wasm[s.tableHeader:s.tableEnd])
	tail := len(wasm) - s.tableEnd
	out, err = boundTables(wasm, s)
	if err != nil {
		return nil, nil, malformed(err)
	}
	return out, [][]byte{out[:s.tableHeader], section, out[len(out)-tail:]}, nil
}

func malformed(err error) *Diagnostic {
	return &Diagnostic{Kind: KindModuleInvalid, Detail: "the module's sections are malformed (" + err.Error() + ")"}
}
