package child

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/lola-pm/lola/host/plan"
)

// StdoutMode says what a child's stdout carries.
type StdoutMode uint8

// The stdout modes.
const (
	stdoutModeUnknown StdoutMode = iota

	// StdoutPlan: stdout is a plan, decoded under Config.Limits. A child
	// exceeding a bound is killed.
	StdoutPlan
	// StdoutDiagnostics: stdout is diagnostics, kept up to Config.StdoutCap
	// and drained past it like stderr; the exit status is the result. This
	// is how install hooks run.
	StdoutDiagnostics

	stdoutModeEnd
)

var stdoutModeNames = [...]string{
	stdoutModeUnknown: "",
	StdoutPlan:        "plan",
	StdoutDiagnostics: "diagnostics",
}

// String returns the mode's stable spelling: "plan" or "diagnostics".
func (m StdoutMode) String() string {
	if m < stdoutModeEnd {
		return stdoutModeNames[m]
	}
	return fmt.Sprintf("stdout-mode(%d)", uint8(m))
}

// ParseStdoutMode returns the mode spelled s, or false if s is not one.
func ParseStdoutMode(s string) (StdoutMode, bool) {
	for m := stdoutModeUnknown + 1; m < stdoutModeEnd; m++ {
		if stdoutModeNames[m] == s {
			return m, true
		}
	}
	return stdoutModeUnknown, false
}

// Defaults callers may use. None is implied: Config's zero values are errors.
const (
	DefaultDeadline  = 30 * time.Second
	DefaultGrace     = 2 * time.Second
	DefaultStderrCap = 64 << 10
	DefaultStdoutCap = 64 << 10 // for StdoutDiagnostics
)

// Config is the raw description of one child run; NewSpec validates it.
type Config struct {
	// Path is the executable, an absolute path. It is never looked up in
	// PATH, so a relative name cannot pick up whatever PATH offers.
	Path string
	// Args are the arguments after argv[0] (which is Path).
	Args []string
	// Env is the child's whole environment as KEY=VALUE; nil means empty.
	// The host's environment is never inherited implicitly.
	Env []string
	// Dir is the working directory; empty means the host's.
	Dir string
	// Stdin is written to the child's stdin, which is then closed. NewSpec
	// copies it.
	Stdin []byte
	// Deadline is the outer deadline, counted from spawn. Must be positive.
	// For a tier-1 shim child it must exceed the shim's own module clock
	// plus its start-up and exit, or the host's kill would pre-empt the
	// shim's "module timed out" report.
	Deadline time.Duration
	// Grace bounds the cleanup after a kill (reaping the child, closing the
	// pipes) and the wait for stderr's end once the child has exited and
	// its stdout is done. Must be positive.
	Grace time.Duration
	// StderrCap is how many stderr bytes are kept. Must be positive.
	StderrCap int
	// Stdout says what stdout carries.
	Stdout StdoutMode
	// Limits bounds the plan on stdout (StdoutPlan only); build it with
	// plan.NewLimits or plan.DefaultLimits.
	Limits plan.Limits
	// StdoutCap is how many stdout bytes are kept (StdoutDiagnostics only).
	StdoutCap int
	// MemoryMax, when positive, is the memory.max in bytes of the child's
	// cgroup on the cgroup v2 path, covering the child and every
	// descendant. Best effort: where the delegated subtree does not enable
	// the memory controller, or on another containment, nothing is set and
	// Result.MemoryMax says 0. Never negative.
	MemoryMax int64
}

// Spec is a validated Config: the only thing Run accepts. Its fields are
// unexported so that a Spec that exists has passed NewSpec.
type Spec struct {
	path      string
	args      []string
	env       []string
	dir       string
	stdin     []byte
	deadline  time.Duration
	grace     time.Duration
	stderrCap int
	mode      StdoutMode
	limits    plan.Limits
	stdoutCap int
	memoryMax int64
}

// NewSpec validates c and returns the Spec to pass to Run. It refuses a
// relative or empty Path, a non-positive Deadline, Grace or cap, an unknown
// StdoutMode, zero Limits in StdoutPlan mode, and environment entries that
// are not KEY=VALUE. Slices are copied.
func NewSpec(c Config) (Spec, error) {
	var errs []error
	if c.Path == "" || !filepath.IsAbs(c.Path) {
		errs = append(errs, errors.New("path must be absolute"))
	}
	if c.Deadline <= 0 {
		errs = append(errs, fmt.Errorf("deadline must be positive, not %s", c.Deadline))
	}
	if c.Grace <= 0 {
		errs = append(errs, fmt.Errorf("grace must be positive, not %s", c.Grace))
	}
	if c.StderrCap <= 0 {
		errs = append(errs, fmt.Errorf("stderr cap must be positive, not %d", c.StderrCap))
	}
	switch c.Stdout {
	case StdoutPlan:
		if c.Limits.MaxBytes() <= 0 || c.Limits.MaxIntents() <= 0 || c.Limits.MaxField() <= 0 {
			errs = append(errs, errors.New("plan mode needs limits from plan.NewLimits or plan.DefaultLimits"))
		}
	case StdoutDiagnostics:
		if c.StdoutCap <= 0 {
			errs = append(errs, fmt.Errorf("stdout cap must be positive, not %d", c.StdoutCap))
		}
	default:
		errs = append(errs, fmt.Errorf("unknown stdout mode %d", uint8(c.Stdout)))
	}
	if c.MemoryMax < 0 {
		errs = append(errs, fmt.Errorf("memory max must not be negative, not %d", c.MemoryMax))
	}
	for i, kv := range c.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.ContainsRune(kv, 0) {
			errs = append(errs, fmt.Errorf("environment entry %d is not KEY=VALUE", i))
		}
	}
	for i, a := range c.Args {
		if strings.ContainsRune(a, 0) {
			errs = append(errs, fmt.Errorf("argument %d contains NUL", i))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Spec{}, fmt.Errorf("child: invalid spec: %w", err)
	}
	return Spec{
		path:      c.Path,
		args:      append([]string(nil), c.Args...),
		env:       append([]string{}, c.Env...), // non-nil: exec.Cmd inherits on nil
		dir:       c.Dir,
		stdin:     append([]byte(nil), c.Stdin...),
		deadline:  c.Deadline,
		grace:     c.Grace,
		stderrCap: c.StderrCap,
		mode:      c.Stdout,
		limits:    c.Limits,
		stdoutCap: c.StdoutCap,
		memoryMax: c.MemoryMax,
	}, nil
}

// Deadline is the outer deadline, counted from spawn.
func (s Spec) Deadline() time.Duration { return s.deadline }

// Grace is the cleanup bound after a kill.
func (s Spec) Grace() time.Duration { return s.grace }

// Mode is what the child's stdout carries.
func (s Spec) Mode() StdoutMode { return s.mode }
