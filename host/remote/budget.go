package remote

import (
	"fmt"
	"io"
	"sync/atomic"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// budget is one operation's byte bound, shared by every reader and writer
// that moves its bytes.
type budget struct {
	max int64
	n   atomic.Int64
	ref rejection.IntentRef
}

func newBudget(max int64, ref rejection.IntentRef) *budget { return &budget{max: max, ref: ref} }

// spend accounts n bytes and refuses once the total passes the bound.
func (b *budget) spend(n int) error {
	if b.n.Add(int64(n)) > b.max {
		return rejection.New(schema.RuleRemoteBound, fmt.Sprintf("the clone exceeds its %d-byte bound", b.max), b.ref)
	}
	return nil
}

func (b *budget) used() int64 { return b.n.Load() }

// countingReader charges every byte read to the session's budget and fails
// the session when the bound is passed.
type countingReader struct {
	r io.Reader
	s *cloneSession
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		if berr := c.s.budget.spend(n); berr != nil {
			return 0, c.s.failErr(berr)
		}
	}
	return n, err
}

type countingReadCloser struct {
	countingReader
	c io.Closer
}

func (c *countingReadCloser) Close() error { return c.c.Close() }
