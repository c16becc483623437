package shim

import (
	"context"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/shim/shimtest"
)

func childInvocation(t *testing.T, module string, l Limits, cacheDir string) Invocation {
	t.Helper()
	a, err := NewArgs(module, nil, l, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	inv, err := SelfInvocation(a)
	if err != nil {
		t.Fatal(err)
	}
	inv.Env = append(inv.Env, childEnv+"=shim")
	return inv
}

// Through the real parent path (host/child): a plan is received and
// decoded by the host's bounded decoder.
func TestRunModuleThroughHostChild(t *testing.T) {
	want := `{"protocol":1,"intents":[{"op":"write","path":"a/b","content":"c"}]}`
	mod := writeModule(t, shimtest.Reactor(1, 0, []byte(want)).Bytes())
	res, rep, err := RunModule(context.Background(), childInvocation(t, mod, testLimits(t, nil), ""), []byte("{}"), plan.DefaultLimits())
	if err != nil || res.Outcome != child.OutcomePlanReceived || rep.Outcome.Kind != KindOK {
		t.Fatalf("outcome %s, report %+v, err %v, child err %v", res.Outcome, rep.Outcome, err, res.Err)
	}
	if res.Plan.Len() != 1 || res.Plan.Intent(0).Write.Path != "a/b" {
		t.Fatalf("plan %+v", res.Plan.Intents())
	}
}

// The outer deadline exceeds the inner clock: a spinning module is stopped
// by the shim (exit 4, timeout), never killed by the host.
func TestSpinningModuleIsStoppedByTheShimNotTheHost(t *testing.T) {
	m := shimtest.Reactor(1, 0, nil).Replace("lola_run", shimtest.Func{Name: "lola_run", Params: 2, Results: 1, Body: shimtest.Concat(shimtest.Spin, shimtest.I32(0))})
	l := testLimits(t, func(l *Limits) { l.timeout = 200 * time.Millisecond; l.compileTimeout = 2 * time.Second })
	res, rep, err := RunModule(context.Background(), childInvocation(t, writeModule(t, m.Bytes()), l, ""), nil, plan.DefaultLimits())
	if err != nil {
		t.Fatalf("no report (%v): outcome %s\n%s", err, res.Outcome, res.Diagnostics)
	}
	if res.Outcome != child.OutcomeExitNonZero || res.ExitStatus != ExitExtension || rep.Outcome.Kind != KindTimeout {
		t.Fatalf("outcome %s status %d report %s", res.Outcome, res.ExitStatus, rep.Outcome.Code())
	}
	if res.Elapsed >= l.OuterDeadline() {
		t.Fatalf("took %s, outer deadline %s", res.Elapsed, l.OuterDeadline())
	}
}

// The host's bound applies to whatever the shim writes: a plan under the
// shim's bound but over the host's is killed by the host.
func TestHostPlanBoundStillApplies(t *testing.T) {
	big := make([]byte, 2048)
	for i := range big {
		big[i] = ' '
	}
	mod := writeModule(t, shimtest.Reactor(1, 0, big).Bytes())
	hl, err := plan.NewLimits(1024, 10, 512)
	if err != nil {
		t.Fatal(err)
	}
	res, _, _ := RunModule(context.Background(), childInvocation(t, mod, testLimits(t, nil), ""), nil, hl)
	if res.Outcome != child.OutcomeKilledStdoutBound {
		t.Fatalf("outcome %s, want killed-stdout-bound", res.Outcome)
	}
}
