package child_test

import (
	"context"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
)

// BenchmarkNativeRoundTrip is one tier-2 round trip: spawn a native child
// (this Go test binary), write a request, decode the plan it returns, reap
// it. It is dominated by process creation and the Go runtime's start.
func BenchmarkNativeRoundTrip(b *testing.B) {
	req := []byte(`{"protocol":1,"operation":"generate","modules":[]}`)
	s := fixtureSpec(b, "plan", withStdin(req), withDeadline(10*time.Second))
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res := child.Run(ctx, s)
		if res.Outcome != child.OutcomePlanReceived {
			b.Fatalf("outcome %s: %v", res.Outcome, res.Err)
		}
	}
}
