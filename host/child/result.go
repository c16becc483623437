package child

import (
	"time"

	"github.com/lola-pm/lola/host/plan"
)

// Result is what one run of a child produced.
type Result struct {
	// Outcome is how the run ended.
	Outcome Outcome
	// Plan is the decoded plan, set for OutcomePlanReceived only.
	Plan *plan.Plan
	// ExitStatus is the direct child's exit status once reaped; -1 when it
	// was terminated by a signal, was not reaped, or never started.
	ExitStatus int
	// Reaped reports that the direct child was waited for before Run
	// returned. After a kill it is false only if the child outlived the
	// grace period (a process stuck in the kernel).
	Reaped bool
	// Diagnostics is the child's stderr: at most StderrCap bytes, followed
	// by a TruncationMarker line when more was written. Untrusted bytes.
	Diagnostics []byte
	// DiagnosticsTruncated reports that stderr went past StderrCap.
	DiagnosticsTruncated bool
	// Output is the child's stdout in StdoutDiagnostics mode, bounded like
	// Diagnostics by StdoutCap. Empty in StdoutPlan mode.
	Output []byte
	// OutputTruncated reports that stdout went past StdoutCap.
	OutputTruncated bool
	// Err says why the run did not succeed; nil on success. For
	// OutcomeKilledStdoutBound and OutcomePlanRefused it is a
	// *rejection.Violation, so errors.Is(err, rejection.Rule(r)) works.
	// It never carries a host absolute path.
	Err error
	// Containment is the descendant containment the child ran in (see
	// CurrentContainment), for the audit record; ContainmentUnknown when
	// the child never started.
	Containment Containment
	// MemoryMax is the memory.max in bytes the child's cgroup had
	// (Config.MemoryMax), 0 when none was set.
	MemoryMax int64
	// Elapsed is the wall time Run took.
	Elapsed time.Duration
}
