// Package benchtest is shared by benchmarks that compare two sides (lola
// and its floor, tier 1 and tier 2): it runs them in alternating pairs and
// reduces their times to medians.
//
// Why pairs: on the machines lola is measured on (ext4 without a journal)
// creating a file costs up to tenfold more while many inodes nearby were
// freed in the last minutes, and any run of tens of milliseconds is at the
// mercy of what else the machine did meanwhile. Two sides measured one
// after the other mostly measure when each ran; alternating them, the
// order swapped every other pair, gives both the same conditions.
//
// Non-guarantee: it measures wall time only; a side that needs other
// figures (CPU time) records them in its own function.
package benchtest

import (
	"slices"
	"time"
)

// Pairs runs a and b n times each, alternately, b first in every other
// pair, and returns the wall time of each run, side by side.
func Pairs(n int, a, b func()) (ta, tb []time.Duration) {
	timed := func(f func()) time.Duration {
		start := time.Now()
		f()
		return time.Since(start)
	}
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			ta = append(ta, timed(a))
			tb = append(tb, timed(b))
		} else {
			tb = append(tb, timed(b))
			ta = append(ta, timed(a))
		}
	}
	return ta, tb
}

// MedianMS is the median of v, in milliseconds (0 for none).
func MedianMS(v []time.Duration) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}
