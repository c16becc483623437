package exitcode

import (
	"errors"
	"testing"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// A plan refused under a plan.* rule is the extension failing the protocol
// (4); one refused only under policy rules is a rejected plan (3); every
// other run without a plan is 4.
func TestForChild(t *testing.T) {
	var both rejection.Set
	both.Add(rejection.New(schema.RuleRemoteMethod, "x"))
	both.Add(rejection.New(schema.RulePlanMalformed, "x"))
	planRule := rejection.New(schema.RulePlanMalformed, "x")
	policyRule := rejection.New(schema.RuleRemoteMethod, "x")
	for _, tc := range []struct {
		name string
		res  child.Result
		want int
	}{
		{"malformed plan", child.Result{Outcome: child.OutcomePlanRefused, Err: planRule}, Extension},
		{"policy-refused plan", child.Result{Outcome: child.OutcomePlanRefused, Err: policyRule}, Rejected},
		{"both", child.Result{Outcome: child.OutcomePlanRefused, Err: both.Err()}, Extension},
		{"untyped refusal", child.Result{Outcome: child.OutcomePlanRefused, Err: errors.New("x")}, Extension},
		{"killed", child.Result{Outcome: child.OutcomeKilledDeadline}, Extension},
		{"exit non-zero", child.Result{Outcome: child.OutcomeExitNonZero}, Extension},
	} {
		if got := ForChild(tc.res); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestForOutcome(t *testing.T) {
	for o, want := range map[pipeline.Outcome]int{
		pipeline.OutcomeCommitted: OK, pipeline.OutcomeDryRun: OK, pipeline.OutcomeRejected: Rejected,
		pipeline.OutcomeExtensionFailed: Extension, pipeline.OutcomeRolledBack: RolledBack,
		pipeline.OutcomeRollbackFailed: RollbackFailed,
	} {
		if got := ForOutcome(o); got != want {
			t.Errorf("%s: %d, want %d", o, got, want)
		}
	}
}
