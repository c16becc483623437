package apply

import "fmt"

// Outcome is how an apply ended. Its string form is what the CLI's --json,
// the audit log and the exit code mapping spell.
type Outcome uint8

// Outcomes. OutcomeUnknown is the zero value and not an outcome.
const (
	OutcomeUnknown        Outcome = iota
	OutcomeCommitted              // the tree is the post-plan tree
	OutcomeRolledBack             // a failure occurred; the tree is the pre-plan tree
	OutcomeRollbackFailed         // the tree is in neither state
	outcomeEnd
)

var outcomeNames = [...]string{
	OutcomeUnknown:        "",
	OutcomeCommitted:      "committed",
	OutcomeRolledBack:     "rolled-back",
	OutcomeRollbackFailed: "rollback-failed",
}

// Outcomes lists every outcome.
func Outcomes() []Outcome {
	return []Outcome{OutcomeCommitted, OutcomeRolledBack, OutcomeRollbackFailed}
}

// String returns the outcome's stable spelling.
func (o Outcome) String() string {
	if o < outcomeEnd {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// ParseOutcome returns the outcome spelled s.
func ParseOutcome(s string) (Outcome, bool) {
	for o := OutcomeUnknown + 1; o < outcomeEnd; o++ {
		if outcomeNames[o] == s {
			return o, true
		}
	}
	return OutcomeUnknown, false
}

// MarshalText spells the outcome; the zero value is an error.
func (o Outcome) MarshalText() ([]byte, error) {
	if o == OutcomeUnknown || o >= outcomeEnd {
		return nil, fmt.Errorf("apply: %d is not an outcome", uint8(o))
	}
	return []byte(outcomeNames[o]), nil
}

// UnmarshalText parses an outcome spelling.
func (o *Outcome) UnmarshalText(b []byte) error {
	v, ok := ParseOutcome(string(b))
	if !ok {
		return fmt.Errorf("apply: %q is not an outcome", b)
	}
	*o = v
	return nil
}

// Recovery is what Recover did with an interrupted apply.
type Recovery uint8

// Recoveries. RecoveryNone: nothing was pending.
const (
	RecoveryNone       Recovery = iota
	RecoveryDiscarded           // staging held no change to the tree; it was removed
	RecoveryRolledBack          // the tree was restored to its pre-plan state
	RecoveryCompleted           // the commit point had passed; the commit was completed
	RecoveryFailed              // the journal could not be undone; staging is kept
	recoveryEnd
)

var recoveryNames = [...]string{
	RecoveryNone:       "none",
	RecoveryDiscarded:  "discarded",
	RecoveryRolledBack: "rolled-back",
	RecoveryCompleted:  "completed",
	RecoveryFailed:     "failed",
}

// Recoveries lists every recovery kind.
func Recoveries() []Recovery {
	return []Recovery{RecoveryNone, RecoveryDiscarded, RecoveryRolledBack, RecoveryCompleted, RecoveryFailed}
}

// String returns the recovery's stable spelling.
func (r Recovery) String() string {
	if r < recoveryEnd {
		return recoveryNames[r]
	}
	return fmt.Sprintf("recovery(%d)", uint8(r))
}

// ParseRecovery returns the recovery spelled s.
func ParseRecovery(s string) (Recovery, bool) {
	for r := RecoveryNone; r < recoveryEnd; r++ {
		if recoveryNames[r] == s {
			return r, true
		}
	}
	return RecoveryNone, false
}

// MarshalText spells the recovery.
func (r Recovery) MarshalText() ([]byte, error) {
	if r >= recoveryEnd {
		return nil, fmt.Errorf("apply: %d is not a recovery", uint8(r))
	}
	return []byte(recoveryNames[r]), nil
}

// UnmarshalText parses a recovery spelling.
func (r *Recovery) UnmarshalText(b []byte) error {
	v, ok := ParseRecovery(string(b))
	if !ok {
		return fmt.Errorf("apply: %q is not a recovery", b)
	}
	*r = v
	return nil
}
