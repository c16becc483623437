package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// heapPlan is a plan of n small writes.
func heapPlan(t *testing.T, n int) string {
	t.Helper()
	var sb strings.Builder
	sb.WriteString(`{"protocol":1,"intents":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"op":"write","path":"d%02d/f%05d.md","content":"x"}`, i%100, i)
	}
	sb.WriteString(`]}`)
	return sb.String()
}

// A plan of reserveHeapFrom intents or more has heapPerIntent bytes per
// intent, at most heapReserveMax, reserved in huge pages before the checks
// start (hugeheap tests that a reservation is advised); a smaller one has
// none, its run touching less than the reservation's collection costs.
// Not parallel: reserve is swapped for the test.
func TestLargePlanReservesItsHeapInHugePages(t *testing.T) {
	var asked []int
	defer func(was func(int)) { reserve = was }(reserve)
	reserve = func(n int) { asked = append(asked, n) }
	for _, c := range []struct {
		intents int
		want    []int
	}{
		{reserveHeapFrom - 1, nil},
		{reserveHeapFrom, []int{reserveHeapFrom * heapPerIntent}},
		{heapReserveMax/heapPerIntent + 1, []int{heapReserveMax}},
	} {
		asked = nil
		p := decode(t, heapPlan(t, c.intents))
		res, err := Apply(context.Background(), t.TempDir(), p, proposer(t, nil, nil), Options{FS: "bytes", DryRun: true})
		if err != nil || res.Outcome != OutcomeDryRun {
			t.Fatalf("%d intents: %v %v", c.intents, res.Outcome, err)
		}
		if fmt.Sprint(asked) != fmt.Sprint(c.want) {
			t.Errorf("%d intents: reserved %v, want %v", c.intents, asked, c.want)
		}
	}
}
