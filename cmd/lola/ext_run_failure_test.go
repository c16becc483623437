package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/shim"
)

// A failed run is told once: the diagnostic's code appears one time, with
// the status's meaning from the SDKs' shared table; a native exit status
// of that table is named too.
func TestExtRunFailureSaysItOnce(t *testing.T) {
	tier1 := pipeline.Launched{
		Child: child.Result{Outcome: child.OutcomeExitNonZero, ExitStatus: 1, Err: errors.New("exit status 1")},
		Shim:  &shim.Report{Outcome: shim.Diagnostic{Kind: shim.KindGuestStatus, Number: 2, Detail: "the extension's handler returned an error"}},
	}
	msg := extRunFailure("demo", tier1).Error()
	if n := strings.Count(msg, "guest-status-2"); n != 1 || !strings.Contains(msg, "handler returned an error") {
		t.Errorf("tier 1: %q names guest-status-2 %d times, want once with its meaning", msg, n)
	}
	tier2 := pipeline.Launched{Child: child.Result{Outcome: child.OutcomeExitNonZero, ExitStatus: 2, Err: errors.New("exit status 2")}}
	if msg := extRunFailure("demo", tier2).Error(); !strings.Contains(msg, "exit status 2 (the extension's handler returned an error, as the SDKs number it)") {
		t.Errorf("tier 2: %q", msg)
	}
	odd := pipeline.Launched{Child: child.Result{Outcome: child.OutcomeExitNonZero, ExitStatus: 77, Err: errors.New("exit status 77")}}
	if msg := extRunFailure("demo", odd).Error(); strings.Contains(msg, "SDKs") {
		t.Errorf("a status outside the table is given a meaning: %q", msg)
	}
}
