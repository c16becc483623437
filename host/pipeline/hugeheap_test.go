package pipeline

import (
	"context"
	"fmt"
	"testing"
)

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
		p := decode(t, manyWrites(c.intents))
		res, err := Apply(context.Background(), t.TempDir(), p, proposer(t, nil, nil), Options{FS: "bytes", DryRun: true})
		if err != nil || res.Outcome != OutcomeDryRun {
			t.Fatalf("%d intents: %v %v", c.intents, res.Outcome, err)
		}
		if fmt.Sprint(asked) != fmt.Sprint(c.want) {
			t.Errorf("%d intents: reserved %v, want %v", c.intents, asked, c.want)
		}
	}
}
