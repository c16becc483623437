package child

import "fmt"

// Outcome is how one run of a child ended: a closed vocabulary with stable
// spellings, used by the CLI, --json output and the audit log.
type Outcome uint8

// The outcomes. Add a member only together with its spelling in
// outcomeNames; the round-trip test enforces that every member has one.
const (
	OutcomeUnknown Outcome = iota // not an outcome; the zero value

	// OutcomePlanReceived: the child exited with status 0 and its stdout
	// decoded as a plan within the limits. Result.Plan is set.
	OutcomePlanReceived
	// OutcomeCompleted: a child run in StdoutDiagnostics mode (an install
	// hook) exited with status 0.
	OutcomeCompleted
	// OutcomeExitNonZero: the child exited by itself with a non-zero status
	// or was terminated by a signal the host did not send. Result.ExitStatus
	// holds the status (-1 for a signal). Whatever it printed is discarded.
	OutcomeExitNonZero
	// OutcomeKilledDeadline: the outer deadline passed before the child
	// exited and closed its stdout; the host killed it.
	OutcomeKilledDeadline
	// OutcomeKilledStdoutBound: the child's stdout exceeded a plan bound; the
	// host killed it at once. Result.Err is the *rejection.Violation
	// (plan.too-large, plan.too-many-intents or plan.field-too-large).
	OutcomeKilledStdoutBound
	// OutcomePlanRefused: the child exited with status 0 but plan.Decode
	// refused its stdout: malformed (plan.* rules) or against a lexical rule
	// the decoder applies (remote.method, remote.scheme, ...). Result.Err is
	// the *rejection.Violation saying which.
	OutcomePlanRefused
	// OutcomeStartFailed: the child could not be started (no such file, not
	// executable, pipes unavailable). Nothing ran.
	OutcomeStartFailed
	// OutcomeCanceled: the caller's context was canceled (for example on
	// Ctrl-C) before the child finished; the host killed it. It is distinct
	// from the deadline because the extension did nothing wrong.
	OutcomeCanceled

	outcomeEnd
)

var outcomeNames = [...]string{
	OutcomeUnknown:           "",
	OutcomePlanReceived:      "plan-received",
	OutcomeCompleted:         "completed",
	OutcomeExitNonZero:       "exit-non-zero",
	OutcomeKilledDeadline:    "killed-deadline",
	OutcomeKilledStdoutBound: "killed-stdout-bound",
	OutcomePlanRefused:       "plan-refused",
	OutcomeStartFailed:       "start-failed",
	OutcomeCanceled:          "canceled",
}

// Outcomes lists every member of the vocabulary, in declaration order.
func Outcomes() []Outcome {
	out := make([]Outcome, 0, int(outcomeEnd)-1)
	for o := OutcomeUnknown + 1; o < outcomeEnd; o++ {
		out = append(out, o)
	}
	return out
}

// String returns the outcome's stable spelling, e.g. "killed-deadline".
func (o Outcome) String() string {
	if o < outcomeEnd {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// Success reports whether the outcome is the child doing its job:
// OutcomePlanReceived or OutcomeCompleted.
func (o Outcome) Success() bool { return o == OutcomePlanReceived || o == OutcomeCompleted }

// ParseOutcome returns the outcome spelled s, or false if s is not one.
func ParseOutcome(s string) (Outcome, bool) {
	for o := OutcomeUnknown + 1; o < outcomeEnd; o++ {
		if outcomeNames[o] == s {
			return o, true
		}
	}
	return OutcomeUnknown, false
}

// MarshalText spells the outcome; the zero value and out-of-range values are errors.
func (o Outcome) MarshalText() ([]byte, error) {
	if o == OutcomeUnknown || o >= outcomeEnd {
		return nil, fmt.Errorf("child: %d is not an outcome", uint8(o))
	}
	return []byte(outcomeNames[o]), nil
}

// UnmarshalText parses an outcome spelling, refusing anything outside the vocabulary.
func (o *Outcome) UnmarshalText(b []byte) error {
	v, ok := ParseOutcome(string(b))
	if !ok {
		return fmt.Errorf("child: %q is not an outcome", b)
	}
	*o = v
	return nil
}
