package shim

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is the closed vocabulary of shim outcomes: which step refused, or
// which limit stopped the module. Its String form is the stable spelling on
// stderr; guest-status and guest-exit carry their number in the spelling
// (guest-status-3), rendered by Diagnostic.Code.
type Kind string

// Every outcome the shim reports. Nothing else is ever written.
const (
	KindOK                 Kind = "ok"                   // plan written to stdout
	KindUsage              Kind = "usage"                // bad flags
	KindModuleUnreadable   Kind = "module-unreadable"    // the artifact could not be opened or read
	KindModuleTooLarge     Kind = "module-too-large"     // step 1: stat or capped read over the maximum
	KindRequestTooLarge    Kind = "request-too-large"    // the request on stdin exceeds its bound
	KindConfinementFailed  Kind = "confinement-failed"   // step 2 could not be applied: nothing ran
	KindModuleInvalid      Kind = "module-invalid"       // wazero refused to compile the bytes
	KindModuleLimit        Kind = "module-limit"         // a declaration exceeds a module-shape limit (LimitName)
	KindCompileTimeout     Kind = "compile-timeout"      // compilation exceeded its budget
	KindCommandModule      Kind = "command-module"       // exports _start and no _initialize
	KindUnsupportedImport  Kind = "unsupported-import"   // imports something other than WASI preview 1
	KindMissingExport      Kind = "missing-export"       // an ABI export is absent
	KindExportSignature    Kind = "export-signature"     // an ABI export has the wrong type
	KindABIVersionMismatch Kind = "abi-version-mismatch" // lola_abi_version is not one the shim implements
	KindAllocOutOfBounds   Kind = "alloc-out-of-bounds"  // lola_alloc returned a buffer outside memory
	KindMemoryLimit        Kind = "memory-limit"         // the module failed at the memory ceiling
	KindTimeout            Kind = "timeout"              // the wall clock stopped the module
	KindTrap               Kind = "trap"                 // the module trapped
	KindGuestExit          Kind = "guest-exit"           // the module called proc_exit (a Go panic does)
	KindGuestStatus        Kind = "guest-status"         // lola_run returned a non-zero status
	KindPlanTooLarge       Kind = "plan-too-large"       // declared plan length over the maximum
	KindPlanOutOfBounds    Kind = "plan-out-of-bounds"   // declared plan extent outside linear memory
	KindOutputFailed       Kind = "output-failed"        // writing the plan to stdout failed
	KindInternal           Kind = "internal"             // a shim bug or an unexpected host error
)

// Kinds lists the vocabulary in a fixed order.
func Kinds() []Kind {
	return []Kind{KindOK, KindUsage, KindModuleUnreadable, KindModuleTooLarge, KindRequestTooLarge,
		KindConfinementFailed, KindModuleInvalid, KindModuleLimit, KindCompileTimeout, KindCommandModule,
		KindUnsupportedImport, KindMissingExport, KindExportSignature, KindABIVersionMismatch,
		KindAllocOutOfBounds, KindMemoryLimit, KindTimeout, KindTrap, KindGuestExit, KindGuestStatus,
		KindPlanTooLarge, KindPlanOutOfBounds, KindOutputFailed, KindInternal}
}

func (k Kind) String() string { return string(k) }

// numbered reports whether the kind's spelling carries a number.
func (k Kind) numbered() bool { return k == KindGuestStatus || k == KindGuestExit }

// ExitCode is the shim's documented exit status for an outcome:
// 0 the plan was written; 2 usage; 4 the extension failed or hit a limit
// (the diagnostic says which); 1 anything else (confinement failure,
// internal error, a request or output problem on the host's side). The
// numbers are lola's own exit codes, so the parent can pass them through.
func (k Kind) ExitCode() int {
	switch k {
	case KindOK:
		return ExitOK
	case KindUsage:
		return ExitUsage
	case KindModuleUnreadable, KindConfinementFailed, KindRequestTooLarge, KindOutputFailed, KindInternal:
		return ExitInternal
	}
	return ExitExtension
}

// Exit codes of the shim process.
const (
	ExitOK        = 0
	ExitInternal  = 1
	ExitUsage     = 2
	ExitExtension = 4
)

// Diagnostic is the shim's one structured outcome. Fields other than Kind are
// set only where the kind gives them a meaning. Detail is for people and
// never carries a host absolute path, a credential or the guest's data (its
// output, request or plan bytes). It can carry a name the module chose (an
// import or export name), only quoted: by guestName, or by wazero's %q in
// the first line of a module-invalid or trap error, cut at 200 bytes.
type Diagnostic struct {
	Kind   Kind
	Detail string
	Export string // missing-export, export-signature
	Want   int    // abi-version-mismatch: the version the shim implements
	Got    int    // abi-version-mismatch: the version the module exports
	Number int64  // guest-status (the status) and guest-exit (the exit code)
	Limit  int64  // the bound that was hit: bytes, pages, milliseconds or a count
	// LimitName names the module-shape limit of a module-limit
	// ("locals-per-function", "table-elements", ...; see prescan.go).
	LimitName string
	Pages     uint32 // memory-limit: the module's pages when it failed
	Cache     string // ok: "off", "hit", "miss", "recovered" or "refused"
	Elapsed   int64  // ok, timeout: microseconds of module execution
	// Phases (ok only) is where the shim's time went, in microseconds.
	Phases *Phases
}

// Code is the diagnostic's spelling: the kind, with its number for
// guest-status and guest-exit ("guest-status-3").
func (d Diagnostic) Code() string {
	if d.Kind.numbered() {
		return d.Kind.String() + "-" + strconv.FormatInt(d.Number, 10)
	}
	return d.Kind.String()
}

// Error renders the diagnostic by explicit text.
func (d Diagnostic) Error() string {
	var b strings.Builder
	b.WriteString(d.Code())
	switch d.Kind {
	case KindABIVersionMismatch:
		fmt.Fprintf(&b, ": module exports lola ABI version %d, this host implements version %d", d.Got, d.Want)
	case KindMissingExport, KindExportSignature:
		b.WriteString(": " + d.Export)
	case KindMemoryLimit:
		fmt.Fprintf(&b, ": the module hit its memory ceiling of %d pages (%d MiB)", d.Limit, d.Limit/16)
	}
	if d.Detail != "" {
		b.WriteString(": " + d.Detail)
	}
	// The figure of the bound that was hit, so a message names the limit
	// by name and figure even when Detail does not.
	if d.Limit > 0 {
		switch d.Kind {
		case KindTimeout, KindCompileTimeout:
			fmt.Fprintf(&b, " (limit: %s)", time.Duration(d.Limit)*time.Millisecond)
		case KindModuleTooLarge, KindRequestTooLarge, KindPlanTooLarge:
			fmt.Fprintf(&b, " (limit: %d bytes)", d.Limit)
		}
	}
	return b.String()
}

// ParseCode parses a diagnostic's spelling back into its kind and number.
func ParseCode(s string) (Kind, int64, error) {
	for _, k := range Kinds() {
		if k.numbered() {
			if rest, ok := strings.CutPrefix(s, string(k)+"-"); ok {
				n, err := strconv.ParseInt(rest, 10, 64)
				if err != nil || strconv.FormatInt(n, 10) != rest {
					return "", 0, fmt.Errorf("shim: malformed diagnostic code %q", s)
				}
				return k, n, nil
			}
			continue
		}
		if s == string(k) {
			return k, 0, nil
		}
	}
	return "", 0, fmt.Errorf("shim: unknown diagnostic code %q", s)
}

// Confinement is what step 2 achieved, reported before the module runs so
// that the audit record can name each layer.
type Confinement struct {
	OS          string `json:"os"`
	LandlockABI int    `json:"landlock_abi"` // 0: none
	LandlockFS  bool   `json:"landlock_fs"`  // no filesystem access at all
	LandlockTCP bool   `json:"landlock_tcp"` // TCP bind and connect denied
	Seccomp     bool   `json:"seccomp"`      // the syscall filter is installed
	Note        string `json:"note,omitempty"`
	Caps        string `json:"caps"` // the granted capabilities, recorded, not interpreted
	// DataLimit is the RLIMIT_DATA in bytes the shim set on itself (0: none,
	// off Linux).
	DataLimit uint64 `json:"data_limit,omitempty"`
}

// Stderr protocol. Every line the shim itself writes starts with LinePrefix
// and carries one JSON object; every line the guest writes (its WASI stdout
// and stderr) starts with GuestPrefix, so a guest can never forge a shim
// line. Guest output is capped at GuestLogCap bytes by the shim, so a host
// stderr cap of at least StderrBound never truncates the outcome line.
const (
	LinePrefix  = "lola-shim: "
	GuestPrefix = "guest: "
	GuestLogCap = 16 << 10
	StderrBound = GuestLogCap + 8<<10
)

// Phases is where one successful shim run spent its time, in microseconds
// from Main's start: reading and hashing the artifact, pre-scanning it,
// the compilation cache lookup (or compilation), confinement, reading the
// request, instantiation (with _initialize), and the ABI calls through
// lola_run and the plan copy. Process start before Main and the exit after
// it are not covered: a parent measures them as its wall time minus Total.
type Phases struct {
	Read        int64 `json:"read"`
	Scan        int64 `json:"scan"`
	Compile     int64 `json:"compile"`
	Confine     int64 `json:"confine"`
	Request     int64 `json:"request"`
	Instantiate int64 `json:"instantiate"`
	Run         int64 `json:"run"`
	Total       int64 `json:"total"`
}

type wireLine struct {
	Event       string       `json:"event"` // "module", "confinement" or "outcome"
	Diag        string       `json:"diag,omitempty"`
	Detail      string       `json:"detail,omitempty"`
	Export      string       `json:"export,omitempty"`
	Want        int          `json:"want,omitempty"`
	Got         int          `json:"got,omitempty"`
	Limit       int64        `json:"limit,omitempty"`
	LimitName   string       `json:"limit_name,omitempty"`
	SHA256      string       `json:"sha256,omitempty"`
	Bytes       int          `json:"bytes,omitempty"`
	Pages       uint32       `json:"pages,omitempty"`
	Cache       string       `json:"cache,omitempty"`
	ElapsedUS   int64        `json:"elapsed_us,omitempty"`
	Phases      *Phases      `json:"phases_us,omitempty"`
	Confinement *Confinement `json:"confinement,omitempty"`
}

func formatOutcome(d Diagnostic) []byte {
	return formatLine(wireLine{Event: "outcome", Diag: d.Code(), Detail: d.Detail, Export: d.Export,
		Want: d.Want, Got: d.Got, Limit: d.Limit, LimitName: d.LimitName, Pages: d.Pages, Cache: d.Cache, ElapsedUS: d.Elapsed, Phases: d.Phases})
}

// formatModule is the line that says which bytes the shim read: written
// right after step 1, before any of them is compiled or run, so the host
// can record the digest of exactly what ran without reading the artifact
// itself (and a guest, whose lines are all prefixed, cannot forge it).
func formatModule(sum [32]byte, n int) []byte {
	return formatLine(wireLine{Event: "module", SHA256: hex.EncodeToString(sum[:]), Bytes: n})
}

func formatConfinement(c Confinement) []byte {
	return formatLine(wireLine{Event: "confinement", Confinement: &c})
}

func formatLine(w wireLine) []byte {
	b, err := json.Marshal(w)
	if err != nil { // only plain fields: cannot happen
		b = []byte(`{"event":"outcome","diag":"internal"}`)
	}
	return append(append([]byte(LinePrefix), b...), '\n')
}

// Report is what a parent learns from a shim child's stderr.
type Report struct {
	Confinement *Confinement // nil when the shim stopped before step 2
	// Module is the SHA-256 of the artifact bytes the shim read, and ran
	// if it ran anything; ModuleBytes their number. HasModule is false when
	// the shim stopped before reading them whole.
	Module      [32]byte
	ModuleBytes int
	HasModule   bool
	Outcome     Diagnostic
	Guest       []string // the guest's own lines, prefix removed
}

// ErrNoOutcome is returned by ParseReport when stderr holds no outcome line:
// the child was killed (outer deadline, stdout bound) or is not a shim.
var ErrNoOutcome = errors.New("shim: no outcome diagnostic on stderr")

// ParseReport reads a shim child's stderr. It accepts only lines that start
// with LinePrefix; the last outcome line wins (a shim writes exactly one).
// Unknown codes are an error: the vocabulary is closed.
func ParseReport(stderr []byte) (Report, error) {
	var r Report
	found := false
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	sc.Buffer(make([]byte, 0, 4096), StderrBound+4096)
	for sc.Scan() {
		line := sc.Text()
		if g, ok := strings.CutPrefix(line, GuestPrefix); ok {
			r.Guest = append(r.Guest, g)
			continue
		}
		body, ok := strings.CutPrefix(line, LinePrefix)
		if !ok {
			continue
		}
		var w wireLine
		dec := json.NewDecoder(strings.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&w); err != nil {
			return r, fmt.Errorf("shim: malformed diagnostic line: %w", err)
		}
		switch w.Event {
		case "module":
			if r.HasModule { // the first line wins: a shim writes one
				continue
			}
			b, err := hex.DecodeString(w.SHA256)
			if err != nil || len(b) != 32 || w.Bytes < 0 {
				return r, errors.New("shim: malformed module line")
			}
			copy(r.Module[:], b)
			r.ModuleBytes, r.HasModule = w.Bytes, true
		case "confinement":
			r.Confinement = w.Confinement
		case "outcome":
			k, n, err := ParseCode(w.Diag)
			if err != nil {
				return r, err
			}
			r.Outcome = Diagnostic{Kind: k, Number: n, Detail: w.Detail, Export: w.Export, Want: w.Want,
				Got: w.Got, Limit: w.Limit, LimitName: w.LimitName, Pages: w.Pages, Cache: w.Cache, Elapsed: w.ElapsedUS, Phases: w.Phases}
			found = true
		default:
			return r, fmt.Errorf("shim: unknown diagnostic event %q", w.Event)
		}
	}
	if !found {
		return r, ErrNoOutcome
	}
	return r, nil
}
