package shim

import (
	"io"

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
//  1. read the artifact under the size bound (stat, then a capped read);
//  2. confine the process (Landlock: no filesystem access at all, TCP bind
//     and connect denied; a seccomp filter; a no-op off Linux that says so),
//     and report the level achieved;
//  3. instantiate the module from the bytes with no preopens, no
//     environment, no argv, no stdin;
//  4. run it under the memory ceiling and the wall clock;
//  5. copy the plan out under the plan bound and write it to stdout.
//
// With a compilation cache the module is compiled between steps 1 and 2,
// while the cache directory is still reachable (see the package doc).
// Every limit stops the module, never the shim: whichever is hit is
// reported and Main returns normally. Main confines the calling process
// for good; call it only in a process that exists to run one module.
func Main(a Args, stdin io.Reader, stdout, stderr io.Writer) int {
	log := newGuestLog(stderr)
	d := mainSteps(a, stdin, stdout, stderr, log)
	log.finish()
	stderr.Write(formatOutcome(d))
	return d.Kind.ExitCode()
}

func mainSteps(a Args, stdin io.Reader, stdout, stderr io.Writer, log *guestLog) Diagnostic {
	l := a.limits
	// Step 1.
	wasm, d := readModule(a.module, l.maxModule)
	if d != nil {
		return *d
	}
	// The cache is read (and a miss written) before confinement.
	var eng *engine
	cacheState := "off"
	cache, cacheDir, err := openCache(a.cacheDir)
	if err != nil {
		cacheState = "refused"
	}
	if cache != nil {
		eng, d = compile(wasm, l, cache, cacheDir)
		if d != nil {
			return *d
		}
		cacheState = eng.cache
	}
	// Step 2.
	if !a.test.noConfine {
		c, err := confine(a.test)
		c.Caps = schema.JoinCapabilities(a.caps)
		stderr.Write(formatConfinement(c))
		if err != nil {
			return Diagnostic{Kind: KindConfinementFailed, Detail: firstLine(err.Error())}
		}
	}
	req, err := io.ReadAll(io.LimitReader(stdin, l.maxRequest+1))
	if err != nil {
		return Diagnostic{Kind: KindInternal, Detail: "reading the request: " + firstLine(err.Error())}
	}
	if int64(len(req)) > l.maxRequest {
		return Diagnostic{Kind: KindRequestTooLarge, Limit: l.maxRequest}
	}
	if eng == nil {
		eng, d = compile(wasm, l, nil, "")
		if d != nil {
			return *d
		}
	}
	wasm = nil
	if d := checkShape(eng.compiled); d != nil {
		d.Cache = cacheState
		return *d
	}
	// Steps 3 to 5.
	plan, elapsed, d := execute(eng, req, l, a.test, log)
	if d != nil {
		d.Cache = cacheState
		return *d
	}
	if _, err := stdout.Write(plan); err != nil {
		return Diagnostic{Kind: KindOutputFailed, Detail: firstLine(err.Error())}
	}
	return Diagnostic{Kind: KindOK, Cache: cacheState, Elapsed: elapsed.Microseconds()}
}
