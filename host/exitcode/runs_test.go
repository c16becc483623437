package exitcode

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/exttest"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/market"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/sync"
	"github.com/lola-pm/lola/schema"
)

// A stopped run never exits 0; otherwise it is the failed install's code.
func TestForStopped(t *testing.T) {
	committed := install.Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeCommitted}}
	rolledBack := install.Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeRolledBack}}
	killed := install.Report{Launched: &pipeline.Launched{Child: child.Result{Outcome: child.OutcomeKilledDeadline}}}
	checkReportCodes(t, ForStopped, []reportCase{
		{"committed, yet stopped", committed, nil, Internal},
		{"rolled back", rolledBack, nil, RolledBack},
		{"target killed", killed, wrapped(install.ErrTargetFailed), Extension},
		{"not installed", install.Report{}, wrapped(install.ErrNotInstalled), Usage},
		{"cleanup failed", committed, anyOther, Internal},
	})
}

// A run that went on past its failures exits with the most severe: a
// failed rollback is never hidden behind a refusal, nor a refusal behind
// a missing module.
func TestWorst(t *testing.T) {
	for _, tc := range []struct {
		codes []int
		want  int
	}{
		{nil, OK},
		{[]int{OK, OK}, OK},
		{[]int{Internal, Rejected}, Rejected},
		{[]int{Rejected, Usage, Internal}, Rejected},
		{[]int{Extension, RollbackFailed, RolledBack}, RollbackFailed},
		{[]int{RolledBack, Extension}, RolledBack},
	} {
		if got := Worst(tc.codes...); got != tc.want {
			t.Errorf("Worst(%v) = %d, want %d", tc.codes, got, tc.want)
		}
	}
}

func TestForSyncFile(t *testing.T) {
	checkCodes(t, ForSyncFile, []codeCase{
		{"nil", nil, OK},
		{"no file", wrapped(sync.ErrNoFile), Internal},
		{"a line does not parse", wrapped(sync.ErrParse), Usage},
		{"other", anyOther, Internal},
	})
}

// The step that stopped a sync: not found and no matching version are 1;
// a module several marketplaces offer is 2, as for install; an install's
// own code otherwise; a marketplace's refusal where the install's mapping
// has none.
func TestForSync(t *testing.T) {
	refused := install.Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeRejected}}
	checkReportCodes(t, ForSync, []reportCase{
		{"module not found", install.Report{}, wrapped(install.ErrModuleNotFound), Internal},
		{"no matching version", install.Report{}, wrapped(sync.ErrVersion), Internal},
		{"plan rejected", refused, nil, Rejected},
		{"unknown assistant", install.Report{}, wrapped(install.ErrUnknownAssistant), Usage},
		{"pin changed", install.Report{}, wrapped(rejection.New(schema.RuleExtensionChanged, "x")), Extension},
		{"catalog refused", install.Report{}, wrapped(market.ErrCatalog), Rejected},
		{"marketplace name taken", install.Report{}, wrapped(market.ErrExists), Usage},
		{"offered by several marketplaces", install.Report{}, wrapped(market.ErrAmbiguous), Usage},
		{"held from another source", install.Report{}, wrapped(market.ErrOtherSource), Usage},
		{"other", install.Report{}, anyOther, Internal},
		{"committed, yet stopped", install.Report{Result: &pipeline.Result{Outcome: pipeline.OutcomeCommitted}}, nil, Internal},
	})
}

func TestForValidate(t *testing.T) {
	var set rejection.Set
	set.Add(aRule)
	set.Add(rejection.New(schema.RuleConflictNested, "x"))
	checkCodes(t, ForValidate, []codeCase{
		{"nil", nil, OK},
		{"one rule", aRule, Rejected},
		{"several", set.Err(), Rejected},
		{"unreadable", anyOther, Internal},
	})
}

func TestForRecover(t *testing.T) {
	checkCodes(t, ForRecover, []codeCase{
		{"nil", nil, OK},
		{"could not be undone", fmt.Errorf("recover: %w", &apply.RecoveryError{Err: anyOther}), RollbackFailed},
		{"other", anyOther, Internal},
	})
}

func TestForVerify(t *testing.T) {
	checkCodes(t, ForVerify, []codeCase{
		{"intact", nil, OK},
		{"no log yet", wrapped(fs.ErrNotExist), OK},
		{"broken chain", &audit.ChainError{Seq: 3}, Internal},
		{"unreadable", anyOther, Internal},
	})
}

func TestForExtTest(t *testing.T) {
	for _, tc := range []struct {
		name string
		rs   []exttest.Result
		want int
	}{
		{"none", nil, OK},
		{"passed and wrote", []exttest.Result{{Case: "a"}, {Case: "b", Wrote: true}}, OK},
		{"one failed", []exttest.Result{{Case: "a"}, {Case: "b", Err: errors.New("differs")}}, Rejected},
	} {
		if got := ForExtTest(tc.rs); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
