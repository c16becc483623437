package benchtest

import (
	"slices"
	"testing"
	"time"
)

// Each side runs n times, the order alternating pair by pair, and its
// times come back in its own slice.
func TestPairsAlternates(t *testing.T) {
	var order []string
	ta, tb := Pairs(4, func() { order = append(order, "a") }, func() { order = append(order, "b") })
	if want := []string{"a", "b", "b", "a", "a", "b", "b", "a"}; !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	if len(ta) != 4 || len(tb) != 4 {
		t.Fatalf("%d and %d times, want 4 each", len(ta), len(tb))
	}
}

func TestMedianMS(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var out []time.Duration
		for _, x := range v {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	for _, c := range []struct {
		in   []time.Duration
		want float64
	}{{ms(9, 1, 5), 5}, {ms(4, 2, 8, 6), 6}, {nil, 0}} {
		if got := MedianMS(c.in); got != c.want {
			t.Errorf("MedianMS(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	in := ms(3, 1, 2)
	MedianMS(in)
	if !slices.Equal(in, ms(3, 1, 2)) {
		t.Error("MedianMS reordered its argument")
	}
}
