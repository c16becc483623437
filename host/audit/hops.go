package audit

import (
	"net/netip"
	"net/url"
	"sync"

	"github.com/lola-pm/lola/host/rejection"
)

// HopLog appends one hop event per dialled address of one fetch or clone
// intent. Its Hop method has the shape of host/remote's HopObserver, which
// returns nothing; the first append error is kept, and the caller must
// check Err after the fetch and fail the step when it is not nil (a hop that
// could not be logged is a plan that was not logged).
type HopLog struct {
	l   *Log
	c   Correlation
	ref rejection.IntentRef

	mu  sync.Mutex
	err error
}

// Hops returns the hop recorder for intent ref of the plan c.
func (l *Log) Hops(c Correlation, ref rejection.IntentRef) *HopLog {
	return &HopLog{l: l, c: c, ref: ref}
}

// Hop logs that hop n (0 is the first request) to u dialled the address
// dialled. Only u's host[:port] is logged.
func (h *HopLog) Hop(n int, u *url.URL, dialled netip.AddrPort) {
	err := h.l.Event(h.c, Hop(h.ref, n, u, dialled))
	if err != nil {
		h.mu.Lock()
		if h.err == nil {
			h.err = err
		}
		h.mu.Unlock()
	}
}

// Err is the first error an append met, or nil.
func (h *HopLog) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}
