package audit

import (
	"errors"
	"fmt"
	"time"
)

// RunResult is how a run that returns no plan ended: an install hook,
// whose exit status is its whole result. Closed; the spellings are
// host/child's outcomes for such a run.
type RunResult string

// Run results.
const (
	RunCompleted         RunResult = "completed"           // exited with status 0
	RunExitNonZero       RunResult = "exit-non-zero"       // exited with another status, or a signal it was not sent
	RunKilledDeadline    RunResult = "killed-deadline"     // killed by the host at the outer deadline
	RunKilledOutputBound RunResult = "killed-stdout-bound" // killed by the host for overrunning an output bound
	RunStartFailed       RunResult = "start-failed"        // could not be started: nothing ran
	RunCanceled          RunResult = "canceled"            // killed because the user interrupted lola
)

// RunResults lists every run result.
func RunResults() []RunResult {
	return []RunResult{RunCompleted, RunExitNonZero, RunKilledDeadline, RunKilledOutputBound, RunStartFailed, RunCanceled}
}

// ParseRunResult returns the run result spelled s, or an error.
func ParseRunResult(s string) (RunResult, error) { return parse("run result", s, RunResults()) }

// String returns the wire spelling.
func (r RunResult) String() string { return string(r) }

// MarshalText refuses a value outside the vocabulary.
func (r RunResult) MarshalText() ([]byte, error) { return marshal("run result", r, RunResults()) }

// UnmarshalText refuses a spelling outside the vocabulary.
func (r *RunResult) UnmarshalText(b []byte) (err error) {
	*r, err = ParseRunResult(string(b))
	return
}

// RunRecord is what Log.Run writes after a run that returns no plan: who
// ran (an install hook is named "hook:<module>:<point>", tier TierHook), the
// containment it ran under, and how it ended. Its output is not logged.
type RunRecord struct {
	Extension Extension // required
	Tier      Tier      // required
	Layers    []Layer   // containment achieved; may be empty
	Result    RunResult // required
	// ExitStatus is the exit status once reaped; negative when there is
	// none (killed by a signal, never started).
	ExitStatus int
	Elapsed    time.Duration
}

// RunEntry is a run record as stored.
type RunEntry struct {
	Extension  ExtensionEntry `json:"extension"`
	Tier       Tier           `json:"tier"`
	Layers     []Layer        `json:"layers"`
	Result     RunResult      `json:"result"`
	ExitStatus *int           `json:"exit_status,omitempty"`
	ElapsedMS  int64          `json:"elapsed_ms"`
}

func (r RunRecord) entry() (*RunEntry, error) {
	if r.Extension.IsZero() {
		return nil, errors.New("audit: run record without an extension identity")
	}
	if !member(r.Tier, Tiers()) {
		return nil, fmt.Errorf("audit: %q is not a tier", string(r.Tier))
	}
	if !member(r.Result, RunResults()) {
		return nil, fmt.Errorf("audit: %q is not a run result", string(r.Result))
	}
	layers := make([]Layer, 0, len(r.Layers))
	for _, l := range r.Layers {
		if !member(l, Layers()) {
			return nil, fmt.Errorf("audit: %q is not a confinement layer", string(l))
		}
		layers = append(layers, l)
	}
	e := &RunEntry{Extension: r.Extension.entry(), Tier: r.Tier, Layers: layers, Result: r.Result, ElapsedMS: r.Elapsed.Milliseconds()}
	if r.ExitStatus >= 0 {
		s := r.ExitStatus
		e.ExitStatus = &s
	}
	return e, nil
}

// Run appends the record of a run that returned no plan, under c (when
// zero: the id set by Correlate, else a fresh one), and returns the id.
func (l *Log) Run(c Correlation, r RunRecord) (Correlation, error) {
	re, err := r.entry()
	if err != nil {
		return Correlation{}, err
	}
	if c.IsZero() {
		if c, err = l.correlation(); err != nil {
			return Correlation{}, err
		}
	}
	if err := l.append(Entry{Kind: KindRun, Correlation: c, Run: re}); err != nil {
		return Correlation{}, err
	}
	return c, nil
}
