package hook

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/schema"
)

// Bounds of one hook run.
const (
	DefaultDeadline = 300 * time.Second // today's Lola waits five minutes
	Grace           = 2 * time.Second
	OutputCap       = 64 << 10 // stdout kept as diagnostics
	StderrCap       = 64 << 10
)

// Invocation is everything one hook run needs.
type Invocation struct {
	Script     Script
	ModuleName string
	// ModulePath is LOLA_MODULE_PATH: the module's directory as the hook
	// should see it.
	ModulePath string
	// ProjectPath is the project directory for a project-scope install
	// (the hook's working directory and LOLA_PROJECT_PATH); empty for a
	// user-scope install, where the hook runs in the user's home.
	ProjectPath string
	Assistant   string
	Scope       schema.Scope
	// Deadline overrides DefaultDeadline when positive.
	Deadline time.Duration
	// Environ is the user's environment; nil means os.Environ().
	Environ []string
}

// Env is the hook's environment: environ with every LOLA_* variable a hook
// receives set to its value for this run (replacing any inherited one).
func (in Invocation) Env(environ []string) []string {
	set := [...][2]string{
		{"LOLA_MODULE_NAME", in.ModuleName},
		{"LOLA_MODULE_PATH", in.ModulePath},
		{"LOLA_PROJECT_PATH", in.ProjectPath},
		{"LOLA_ASSISTANT", in.Assistant},
		{"LOLA_SCOPE", string(in.Scope)},
		{"LOLA_HOOK", in.Script.point.String()},
	}
	out := make([]string, 0, len(environ)+len(set))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(set[:], func(e [2]string) bool { return e[0] == k }) {
			out = append(out, kv)
		}
	}
	for _, e := range set {
		out = append(out, e[0]+"="+e[1])
	}
	return out
}

// Signature is how a hook is vouched for, in the install report and in
// its run's audit record (extension.signature): it is not — a module's
// hook is a bash script lola neither signs, verifies nor confines, and it
// runs with the user's own rights.
const Signature = "native, unsigned (runs unconfined as you)"

// Identity is how the audit log names a hook run: a native extension
// called "hook:<module>:<point>".
func (in Invocation) Identity() string {
	return "hook:" + in.ModuleName + ":" + in.Script.point.String()
}

// Describe is the one line a dry run prints instead of running the hook.
func (in Invocation) Describe() string {
	dir := in.ProjectPath
	if dir == "" {
		dir = "~"
	}
	return fmt.Sprintf("%s hook of %s: bash %s (in %s, native, unsigned, unconfined, deadline %s)",
		in.Script.point, in.ModuleName, in.Script.rel, dir, in.deadline())
}

func (in Invocation) deadline() time.Duration {
	if in.Deadline > 0 {
		return in.Deadline
	}
	return DefaultDeadline
}

// Run runs the hook once and returns the child's result. Success is
// Outcome == child.OutcomeCompleted (exit status 0); every other outcome is
// a failure whose meaning the caller decides.
func Run(ctx context.Context, in Invocation) (child.Result, error) {
	if in.Script.abs == "" {
		return child.Result{}, errors.New("hook: unresolved script (use Resolve)")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		return child.Result{}, fmt.Errorf("hook: bash not found on PATH: %w", err)
	}
	if bash, err = filepath.Abs(bash); err != nil {
		return child.Result{}, err
	}
	dir := in.ProjectPath
	if dir == "" {
		if dir, err = os.UserHomeDir(); err != nil {
			return child.Result{}, fmt.Errorf("hook: user-scope hook needs a home directory: %w", err)
		}
	}
	environ := in.Environ
	if environ == nil {
		environ = os.Environ()
	}
	spec, err := child.NewSpec(child.Config{
		Path:      bash,
		Args:      []string{in.Script.abs},
		Env:       in.Env(environ),
		Dir:       dir,
		Deadline:  in.deadline(),
		Grace:     Grace,
		StderrCap: StderrCap,
		Stdout:    child.StdoutDiagnostics,
		StdoutCap: OutputCap,
	})
	if err != nil {
		return child.Result{}, err
	}
	return child.Run(ctx, spec), nil
}
