//go:build linux

package child_test

import (
	"context"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
)

// BenchmarkContainedRoundTrip is BenchmarkNativeRoundTrip under each Linux
// containment: what a fresh cgroup per run (mkdir, clone3 into it, rmdir)
// or the subreaper's sweep costs over the bare process group.
func BenchmarkContainedRoundTrip(b *testing.B) {
	req := []byte(`{"protocol":1,"operation":"generate","modules":[]}`)
	for _, c := range []child.Containment{child.ContainmentProcessGroup, child.ContainmentCgroup, child.ContainmentSubreaper} {
		b.Run(c.String(), func(b *testing.B) {
			if c == child.ContainmentCgroup {
				if _, err := child.CgroupSubtree(); err != nil {
					b.Skipf("no usable cgroup v2 subtree: %v", err)
				}
			}
			defer child.ForceContainment(c)()
			s := fixtureSpec(b, "plan", withStdin(req), withDeadline(10*time.Second))
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res := child.Run(ctx, s)
				if res.Outcome != child.OutcomePlanReceived {
					b.Fatalf("outcome %s: %v", res.Outcome, res.Err)
				}
			}
		})
	}
}
