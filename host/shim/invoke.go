package shim

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/lola-pm/lola/host/sibling"
)

// Subcommand is the hidden lola subcommand the shim runs as.
const Subcommand = "__extension-host"

// Invocation is how a parent runs one module through the shim: it execs
// Path with Args, no inherited environment, the request on stdin, and reads
// the plan on stdout through its own bounded decoder and the report on
// stderr (ParseReport). It is meant for host/child: ChildConfig is its
// child.Config, and RunModule runs it and parses the report.
type Invocation struct {
	Path      string        // the lola executable, absolute
	Args      []string      // after argv[0]: Subcommand, then Args.Argv()
	Env       []string      // empty: the child needs and inherits nothing
	Deadline  time.Duration // the outer deadline, Limits.OuterDeadline
	StderrCap int           // at least StderrBound, so the outcome line survives
	MemoryMax int64         // the child cgroup's memory.max where available: DataLimit
}

// NewInvocation builds the invocation of exe (the lola binary, re-executed)
// for a. The deadline is a.Limits().OuterDeadline(), strictly greater than
// every inner clock of the shim.
func NewInvocation(exe string, a Args) (Invocation, error) {
	if !filepath.IsAbs(exe) {
		return Invocation{}, errors.New("shim: the executable path must be absolute")
	}
	if a.module == "" {
		return Invocation{}, errors.New("shim: arguments are not set")
	}
	return Invocation{
		Path:      exe,
		Args:      append([]string{Subcommand}, a.Argv()...),
		Env:       []string{},
		Deadline:  a.limits.OuterDeadline(),
		StderrCap: StderrBound,
		MemoryMax: int64(DataLimit(a.limits)),
	}, nil
}

// ShimExecutable is the dedicated shim binary's name (cmd/lola-shim):
// the same code as the Subcommand, linked without the rest of the CLI, so
// a tier-1 child starts in about a millisecond instead of paying for every
// package the CLI initialises (about 5 ms on the reference machine).
const ShimExecutable = "lola-shim"

// SelfInvocation is NewInvocation for the dedicated shim beside the
// running executable (ShimExecutable, a regular file, not a symlink,
// executable), or for the running executable itself when there is none.
// The sibling is trusted exactly as much as the executable: it lies in the
// same directory, written by the same installation.
func SelfInvocation(a Args) (Invocation, error) {
	exe, err := os.Executable()
	if err != nil {
		return Invocation{}, err
	}
	if p, ok := sibling.Find(exe, ShimExecutable); ok {
		return NewInvocation(p, a)
	}
	return NewInvocation(exe, a)
}
