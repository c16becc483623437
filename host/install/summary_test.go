package install

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// The --json outcome says how far the install got; violations are listed
// only for a rejected plan; an error drops a record the install did not
// write.
func TestSummarize(t *testing.T) {
	rec := &Record{Module: "m"}
	rejected := rejection.New(schema.RuleConflictUnowned, "x", rejection.IntentRef{Index: 2, Op: schema.OpWrite})
	for _, tc := range []struct {
		name           string
		rep            Report
		err            error
		outcome        string
		violations     int
		record, errSet bool
	}{
		{"committed", Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeCommitted}, Record: rec}, nil, "committed", 0, true, false},
		{"rejected", Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeRejected, Err: rejected}, Record: rec}, nil, "rejected", 1, true, false},
		{"rolled back", Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeRolledBack, Err: errors.New("disk")}}, nil, "rolled-back", 0, false, true},
		{"hook failed", Report{Record: rec}, fmt.Errorf("x: %w", ErrPreInstallFailed), "hook-failed", 0, false, true},
		{"target failed", Report{Launched: &pipeline.Launched{Child: child.Result{Outcome: child.OutcomeExitNonZero}}, Record: rec}, ErrTargetFailed, "extension-failed", 0, false, true},
		{"refused", Report{Record: rec}, ErrUnknownAssistant, "refused", 0, false, true},
	} {
		s := Summarize(tc.rep, tc.err)
		if s.Outcome != tc.outcome || len(s.Violations) != tc.violations || (s.Record != nil) != tc.record || (s.Error != "") != tc.errSet {
			t.Errorf("%s: %+v", tc.name, s)
		}
		if s.Hooks == nil || s.Changes == nil {
			t.Errorf("%s: hooks and changes must be [] rather than null", tc.name)
		}
	}
	s := Summarize(Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeRejected, Err: rejected}}, nil)
	if v := s.Violations[0]; v.Rule != schema.RuleConflictUnowned || len(v.Intents) != 1 || v.Intents[0] != 2 || v.Detail != "x" {
		t.Errorf("violation %+v", v)
	}
}
