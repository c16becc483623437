package exitcode

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/install"
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

// Every child outcome maps into {3, 4}: a run without a plan is never a
// success, a usage error or an apply outcome.
func TestForChildEveryOutcome(t *testing.T) {
	for _, o := range child.Outcomes() {
		got := ForChild(child.Result{Outcome: o})
		if got != Extension {
			t.Errorf("%s without a rejection: %d, want %d", o, got, Extension)
		}
	}
}

func TestForApply(t *testing.T) {
	if got := ForApply(fmt.Errorf("x: %w", pipeline.ErrRelationMismatch)); got != Usage {
		t.Errorf("relation mismatch: %d, want %d", got, Usage)
	}
	if got := ForApply(errors.New("disk on fire")); got != Internal {
		t.Errorf("other: %d, want %d", got, Internal)
	}
}

// Each of host/install's sentinels, wrapped as the install wraps them, maps
// to the code its doc comment names; a pin or trust refusal is 4 like ext
// run's; a target that produced no plan takes its run's code.
func TestForInstall(t *testing.T) {
	wrap := func(e error) error { return fmt.Errorf("install: x: %w", e) }
	refusedByPolicy := &pipeline.Launched{Child: child.Result{Outcome: child.OutcomePlanRefused, Err: rejection.New(schema.RuleRemoteMethod, "x")}}
	killed := &pipeline.Launched{Child: child.Result{Outcome: child.OutcomeKilledDeadline}}
	checkReportCodes(t, ForInstall, []reportCase{
		{"module not found", install.Report{}, wrap(install.ErrModuleNotFound), Internal},
		{"usage", install.Report{}, wrap(install.ErrUsage), Usage},
		{"unknown assistant", install.Report{}, wrap(install.ErrUnknownAssistant), Usage},
		{"hook invalid", install.Report{}, wrap(install.ErrHookInvalid), Usage},
		{"native dry run", install.Report{}, wrap(install.ErrNativeDryRun), Usage},
		{"not installed", install.Report{}, wrap(install.ErrNotInstalled), Usage},
		{"append context", install.Report{}, wrap(install.ErrAppendContext), Usage},
		{"pre-install failed", install.Report{}, wrap(install.ErrPreInstallFailed), Extension},
		{"target failed, not launched", install.Report{}, wrap(install.ErrTargetFailed), Extension},
		{"target failed, killed", install.Report{Launched: killed}, wrap(install.ErrTargetFailed), Extension},
		{"target failed, plan refused by policy", install.Report{Launched: refusedByPolicy}, wrap(install.ErrTargetFailed), Rejected},
		{"pin changed", install.Report{}, wrap(rejection.New(schema.RuleExtensionChanged, "x")), Extension},
		{"refused before it ran", install.Report{}, wrap(install.ErrTargetRefused), Extension},
		{"refused by a path rule before it ran", install.Report{}, errors.Join(install.ErrTargetRefused, rejection.New(schema.RulePathSymlink, "x")), Extension},
		{"unsigned", install.Report{}, wrap(rejection.New(schema.RuleExtensionUnsigned, "x")), Extension},
		{"other rejection", install.Report{}, wrap(rejection.New(schema.RulePathSymlink, "x")), Rejected},
		{"untyped", install.Report{}, errors.New("x"), Internal},
		{"no error, no result", install.Report{}, nil, Internal},
		{"committed", install.Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeCommitted}}, nil, OK},
		{"dry run", install.Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeDryRun}}, nil, OK},
		{"rejected", install.Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeRejected}}, nil, Rejected},
		{"rolled back", install.Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeRolledBack}}, nil, RolledBack},
		{"rollback failed", install.Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeRollbackFailed}}, nil, RollbackFailed},
	})
}

// reportCase is what an install or uninstall returned, and its code.
type reportCase struct {
	name string
	rep  install.Report
	err  error
	want int
}

func checkReportCodes(t *testing.T, f func(install.Report, error) int, cases []reportCase) {
	t.Helper()
	for _, tc := range cases {
		if got := f(tc.rep, tc.err); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestErrorCarriesItsCode(t *testing.T) {
	if Wrap(Usage, nil) != nil || Of(nil) != OK {
		t.Fatal("nil is success")
	}
	inner := rejection.New(schema.RulePathSymlink, "x")
	err := fmt.Errorf("context: %w", Wrap(Extension, inner))
	if Of(err) != Extension || err.Error() != "context: "+inner.Error() {
		t.Fatalf("%d %q", Of(err), err)
	}
	if !errors.Is(err, rejection.Rule(schema.RulePathSymlink)) || len(rejection.All(err)) != 1 {
		t.Fatal("the rejection is hidden behind the code")
	}
	if Of(errors.New("x")) != Internal {
		t.Fatal("an undecided failure is internal")
	}
}
