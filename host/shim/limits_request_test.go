package shim

import (
	"testing"
	"time"
)

// A run's clock grows with its request: 2 s per whole MiB, over the
// default 20 s; the host's outer deadline follows, still after the clock
// and its watchdog; nothing else changes.
func TestForRequestRaisesTheClock(t *testing.T) {
	d := DefaultLimits()
	for _, c := range []struct {
		n    int64
		want time.Duration
	}{
		{0, 20 * time.Second},
		{1, 20 * time.Second},
		{1<<20 - 1, 20 * time.Second},
		{1 << 20, 22 * time.Second},
		{28 << 20, 76 * time.Second},
		{d.MaxRequest(), 20*time.Second + 128*time.Second},
	} {
		l := d.ForRequest(c.n)
		if l.Timeout() != c.want {
			t.Errorf("ForRequest(%d).Timeout() = %s, want %s", c.n, l.Timeout(), c.want)
		}
		if l.OuterDeadline() <= l.Timeout()+WatchdogGrace {
			t.Errorf("ForRequest(%d): outer deadline %s not after the clock %s and its grace", c.n, l.OuterDeadline(), l.Timeout())
		}
		if l.CompileTimeout() != d.CompileTimeout() || l.MemoryPages() != d.MemoryPages() || l.MaxPlan() != d.MaxPlan() || l.MaxRequest() != d.MaxRequest() {
			t.Errorf("ForRequest(%d) changed another bound: %+v", c.n, l)
		}
	}
}
