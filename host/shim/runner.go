package shim

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/plan"
)

// ChildConfig is the host/child description of inv: the request on stdin,
// the plan on stdout decoded under limits (the host's own bound, the one a
// tier-2 extension also meets), the outer deadline, a stderr cap that
// keeps the shim's outcome line, and the cgroup memory bound.
func (inv Invocation) ChildConfig(req []byte, limits plan.Limits) child.Config {
	return child.Config{
		Path:      inv.Path,
		Args:      append([]string(nil), inv.Args...),
		Env:       append([]string{}, inv.Env...),
		Stdin:     req,
		Deadline:  inv.Deadline,
		Grace:     child.DefaultGrace,
		StderrCap: inv.StderrCap,
		Stdout:    child.StdoutPlan,
		Limits:    limits,
		// The whole child tree's memory on the cgroup v2 path, beside the
		// shim's own RLIMIT_DATA (which a descendant would not inherit
		// charged to the same account; the shim starts none, seccomp
		// forbids it, but the bound should not rest on that alone).
		MemoryMax: inv.MemoryMax,
	}
}

// RunModule runs one tier-1 module through host/child and reads the
// shim's report from its stderr. The child.Result says how the process
// ended (a plan received, a non-zero exit, a host kill); the Report says
// which shim step or limit stopped the module. When the host killed the
// child (outer deadline, stdout bound) there is no outcome line and the
// error is ErrNoOutcome.
func RunModule(ctx context.Context, inv Invocation, req []byte, limits plan.Limits) (child.Result, Report, error) {
	spec, err := child.NewSpec(inv.ChildConfig(req, limits))
	if err != nil {
		return child.Result{}, Report{}, err
	}
	res := child.Run(ctx, spec)
	rep, err := ParseReport(res.Diagnostics)
	if errors.Is(err, ErrNoOutcome) && res.Outcome == child.OutcomeExitNonZero && runtimeOutOfMemory(res.Diagnostics) {
		// The shim's data limit (RLIMIT_DATA) refused an allocation and the
		// Go runtime ended the process before any outcome line: the memory
		// limit, of the whole child rather than the module's linear memory.
		d := Diagnostic{Kind: KindMemoryLimit, Detail: "the shim process reached its data limit (RLIMIT_DATA)"}
		if rep.Confinement != nil && rep.Confinement.DataLimit > 0 {
			d.Detail += fmt.Sprintf(" of %d bytes", rep.Confinement.DataLimit)
		}
		rep.Outcome, err = d, nil
	}
	return res, rep, err
}

// runtimeOutOfMemory reports whether stderr holds the Go runtime's own
// fatal out-of-memory line. Only unprefixed lines count: everything the
// guest writes is prefixed (GuestPrefix), so a guest cannot forge it.
func runtimeOutOfMemory(stderr []byte) bool {
	for _, line := range bytes.Split(stderr, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("fatal error: "))
		if ok && (bytes.Contains(rest, []byte("out of memory")) || bytes.Contains(rest, []byte("cannot allocate memory"))) {
			return true
		}
	}
	return false
}
