package pipeline

import "fmt"

// Outcome is how one run through the pipeline ended. Its string form is the
// "outcome" member of --json output.
type Outcome uint8

// The outcomes.
const (
	outcomeUnknown         Outcome = iota
	OutcomeCommitted               // the plan is applied
	OutcomeRolledBack              // applied, failed, rolled back: the tree is pre-plan
	OutcomeRollbackFailed          // rollback failed: the tree is in neither state
	OutcomeRejected                // a rule refused the plan: nothing applied
	OutcomeDryRun                  // the plan passed every check and was not applied
	OutcomeExtensionFailed         // the extension produced no plan: nothing applied
	outcomeEnd
)

var outcomeNames = [...]string{
	outcomeUnknown:         "",
	OutcomeCommitted:       "committed",
	OutcomeRolledBack:      "rolled-back",
	OutcomeRollbackFailed:  "rollback-failed",
	OutcomeRejected:        "rejected",
	OutcomeDryRun:          "dry-run",
	OutcomeExtensionFailed: "extension-failed",
}

// Outcomes lists every outcome.
func Outcomes() []Outcome {
	out := make([]Outcome, 0, int(outcomeEnd)-1)
	for o := outcomeUnknown + 1; o < outcomeEnd; o++ {
		out = append(out, o)
	}
	return out
}

// String returns the outcome's stable spelling.
func (o Outcome) String() string {
	if o < outcomeEnd {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// ParseOutcome returns the outcome spelled s, or false.
func ParseOutcome(s string) (Outcome, bool) {
	for o := outcomeUnknown + 1; o < outcomeEnd; o++ {
		if outcomeNames[o] == s {
			return o, true
		}
	}
	return outcomeUnknown, false
}

// MarshalText spells the outcome; the zero value is an error.
func (o Outcome) MarshalText() ([]byte, error) {
	if o == outcomeUnknown || o >= outcomeEnd {
		return nil, fmt.Errorf("pipeline: %d is not an outcome", uint8(o))
	}
	return []byte(o.String()), nil
}
