package pipeline

import (
	"reflect"
	"testing"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/shim"
)

// A tier-1 run's guest log is the shim's forwarded guest lines, never the
// shim's own lines from the same stderr; a tier-2 run's is its stderr.
func TestGuestLogIsTheExtensionsOwnLines(t *testing.T) {
	t1 := Launched{
		Child: child.Result{Diagnostics: []byte("guest: hello\nshim-outcome: ok\n"), DiagnosticsTruncated: true},
		Shim:  &shim.Report{Guest: []string{"hello\n", "world"}},
	}
	if lines, cut := t1.GuestLog(); !reflect.DeepEqual(lines, []string{"hello", "world"}) || !cut {
		t.Errorf("tier 1: %q %v", lines, cut)
	}
	t2 := Launched{Child: child.Result{Diagnostics: []byte("a\n\nb")}}
	if lines, cut := t2.GuestLog(); !reflect.DeepEqual(lines, []string{"a", "b"}) || cut {
		t.Errorf("tier 2: %q %v", lines, cut)
	}
	if lines, _ := (Launched{}).GuestLog(); len(lines) != 0 {
		t.Errorf("no stderr: %q", lines)
	}
}

// The log is shown for every outcome but success unless verbose.
func TestShowGuestLog(t *testing.T) {
	for _, c := range []struct {
		r       *Result
		verbose bool
		want    bool
	}{
		{nil, false, true},
		{&Result{Outcome: OutcomeRejected}, false, true},
		{&Result{Outcome: OutcomeRolledBack}, false, true},
		{&Result{Outcome: OutcomeCommitted}, false, false},
		{&Result{Outcome: OutcomeDryRun}, false, false},
		{&Result{Outcome: OutcomeCommitted}, true, true},
	} {
		if got := ShowGuestLog(c.r, c.verbose); got != c.want {
			t.Errorf("ShowGuestLog(%v, %v) = %v", c.r, c.verbose, got)
		}
	}
}
