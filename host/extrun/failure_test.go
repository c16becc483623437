package extrun

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/shim"
	"github.com/lola-pm/lola/schema"
)

// A failed run is told once: the diagnostic's code appears one time, with
// the status's meaning from the SDKs' shared table; a native exit status
// of that table is named too. (Moved from cmd/lola with the code.)
func TestFailureSaysItOnce(t *testing.T) {
	tier1 := pipeline.Launched{
		Child: child.Result{Outcome: child.OutcomeExitNonZero, ExitStatus: 1, Err: errors.New("exit status 1")},
		Shim:  &shim.Report{Outcome: shim.Diagnostic{Kind: shim.KindGuestStatus, Number: 2, Detail: "the extension's handler returned an error"}},
	}
	msg := failure("demo", tier1).Error()
	if n := strings.Count(msg, "guest-status-2"); n != 1 || !strings.Contains(msg, "handler returned an error") {
		t.Errorf("tier 1: %q names guest-status-2 %d times, want once with its meaning", msg, n)
	}
	tier2 := pipeline.Launched{Child: child.Result{Outcome: child.OutcomeExitNonZero, ExitStatus: 2, Err: errors.New("exit status 2")}}
	if msg := failure("demo", tier2).Error(); !strings.Contains(msg, "exit status 2 (the extension's handler returned an error, as the SDKs number it)") {
		t.Errorf("tier 2: %q", msg)
	}
	odd := pipeline.Launched{Child: child.Result{Outcome: child.OutcomeExitNonZero, ExitStatus: 77, Err: errors.New("exit status 77")}}
	if msg := failure("demo", odd).Error(); strings.Contains(msg, "SDKs") {
		t.Errorf("a status outside the table is given a meaning: %q", msg)
	}
}

// What happened is worded by outcome, a plan refused under policy rules
// as rejected, and a hostile name escaped (lexical.Printable).
func TestFailureWording(t *testing.T) {
	for _, tc := range []struct {
		res  child.Result
		want string
	}{
		{child.Result{Outcome: child.OutcomeKilledDeadline}, "extension demo was killed (nothing applied)"},
		{child.Result{Outcome: child.OutcomeKilledStdoutBound}, "extension demo was killed (nothing applied)"},
		{child.Result{Outcome: child.OutcomeStartFailed}, "extension demo could not be started (nothing applied)"},
		{child.Result{Outcome: child.OutcomeCanceled}, "extension demo was interrupted (nothing applied)"},
		{child.Result{Outcome: child.OutcomePlanRefused, Err: rejection.New(schema.RulePlanMalformed, "bad")},
			"extension demo returned no plan lola accepts: plan.malformed: bad (nothing applied)"},
		{child.Result{Outcome: child.OutcomePlanRefused, Err: rejection.New(schema.RuleRemoteMethod, "HEAD")},
			"extension demo returned a plan that was rejected: remote.method: HEAD (nothing applied)"},
	} {
		if got := failure("demo", pipeline.Launched{Child: tc.res}).Error(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.res.Outcome, got, tc.want)
		}
	}
	if got := failure("evil\x1b[2J\nlola: ok", pipeline.Launched{Child: child.Result{Outcome: child.OutcomeCanceled}}).Error(); !strings.HasPrefix(got, `extension evil\x1b[2J\x0alola: ok was interrupted`) {
		t.Errorf("a hostile name is not escaped: %q", got)
	}
}
