package shim

import (
	"errors"
	"flag"
	"io"
	"strconv"

	"github.com/lola-pm/lola/schema"
)

// Args is one shim invocation: what `lola __extension-host` was asked to
// run. Build it with ParseArgs (the child) or NewArgs (the parent); Argv
// renders it back, and ParseArgs(a.Argv()) == a.
type Args struct {
	module   string
	caps     []schema.Capability
	limits   Limits
	cacheDir string

	// Test-only knobs: unexported, so only this package's tests set them.
	test testKnobs
}

type testKnobs struct {
	preopenEtc   bool   // mount the host's /etc into the guest, to prove Landlock stops it
	noConfine    bool   // skip step 2, the control for the preopen test
	landlockOnly bool   // skip seccomp, to prove the Landlock TCP layer alone
	dataLimit    uint64 // replace DataLimit, to prove the rlimit with a small module
	stall        bool   // block past the outer deadline before instantiating, like a host call no cancellation interrupts
}

// NewArgs validates and returns the arguments of one invocation. module is
// the artifact's path; cacheDir is the compilation cache root ("" for none).
func NewArgs(module string, caps []schema.Capability, l Limits, cacheDir string) (Args, error) {
	if module == "" {
		return Args{}, errors.New("shim: --module is required")
	}
	if l == (Limits{}) {
		return Args{}, errors.New("shim: limits are not set")
	}
	for _, c := range caps {
		if _, err := schema.ParseCapability(string(c)); err != nil {
			return Args{}, err
		}
	}
	return Args{module: module, caps: append([]schema.Capability(nil), caps...), limits: l, cacheDir: cacheDir}, nil
}

// Module is the artifact path.
func (a Args) Module() string { return a.module }

// Caps are the granted capabilities, recorded in the confinement report and
// never interpreted: both defined capabilities are exercised by the host.
func (a Args) Caps() []schema.Capability { return append([]schema.Capability(nil), a.caps...) }

// Limits are the bounds of the run.
func (a Args) Limits() Limits { return a.limits }

// CacheDir is the compilation cache root, or "".
func (a Args) CacheDir() string { return a.cacheDir }

// Argv renders the arguments that follow the subcommand name.
func (a Args) Argv() []string {
	l := a.limits
	return []string{
		"--module", a.module,
		"--caps", schema.JoinCapabilities(a.caps),
		"--max-module", strconv.FormatInt(l.maxModule, 10),
		"--max-request", strconv.FormatInt(l.maxRequest, 10),
		"--max-plan", strconv.FormatInt(l.maxPlan, 10),
		"--memory-pages", strconv.FormatUint(uint64(l.memoryPages), 10),
		"--compile-timeout", l.compileTimeout.String(),
		"--timeout", l.timeout.String(),
		"--cache", a.cacheDir,
	}
}

// ParseArgs parses the arguments that follow the subcommand name. Omitted
// limits take DefaultLimits' values; unknown flags and capabilities are
// refused.
func ParseArgs(argv []string) (Args, error) {
	d := DefaultLimits()
	fs := flag.NewFlagSet("__extension-host", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	module := fs.String("module", "", "path of the WASI preview 1 module")
	caps := fs.String("caps", "", "granted capabilities, comma-separated (recorded, not interpreted)")
	maxModule := fs.Int64("max-module", d.maxModule, "maximum module size in bytes")
	maxRequest := fs.Int64("max-request", d.maxRequest, "maximum request size in bytes")
	maxPlan := fs.Int64("max-plan", d.maxPlan, "maximum plan size in bytes")
	pages := fs.Uint64("memory-pages", uint64(d.memoryPages), "linear memory ceiling in 64 KiB pages")
	compile := fs.Duration("compile-timeout", d.compileTimeout, "compilation budget")
	timeout := fs.Duration("timeout", d.timeout, "module wall-clock budget")
	cache := fs.String("cache", "", "compilation cache directory (empty: none)")
	if err := fs.Parse(argv); err != nil {
		return Args{}, err
	}
	if fs.NArg() != 0 {
		return Args{}, errors.New("shim: unexpected arguments")
	}
	cs, err := schema.ParseCapabilityList(*caps)
	if err != nil {
		return Args{}, err
	}
	if *pages > 65536 {
		return Args{}, errors.New("shim: --memory-pages exceeds 65536")
	}
	l, err := NewLimits(*maxModule, *maxRequest, *maxPlan, uint32(*pages), *compile, *timeout)
	if err != nil {
		return Args{}, err
	}
	return NewArgs(*module, cs, l, *cache)
}
