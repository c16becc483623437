package remote

import (
	"fmt"
	"time"
)

// Limits bounds every remote operation host-side, in bytes and in time. The
// zero value is not valid; build with NewLimits or DefaultLimits.
type Limits struct {
	fetchBytes   int64
	fetchTimeout time.Duration
	cloneBytes   int64
	cloneTimeout time.Duration
}

// NewLimits validates and returns limits: every bound must be positive.
// fetchBytes bounds one response body; cloneBytes bounds everything one
// clone moves: bytes received over the transport and bytes it writes to disk
// (a packfile expands on checkout, so the wire count alone is not a bound).
// Each timeout is the whole operation's deadline, every hop included.
func NewLimits(fetchBytes int64, fetchTimeout time.Duration, cloneBytes int64, cloneTimeout time.Duration) (Limits, error) {
	l := Limits{fetchBytes, fetchTimeout, cloneBytes, cloneTimeout}
	if !l.valid() {
		return Limits{}, fmt.Errorf("remote limits must be positive (fetch %d bytes in %s, clone %d bytes in %s)",
			fetchBytes, fetchTimeout, cloneBytes, cloneTimeout)
	}
	return l, nil
}

// DefaultLimits: a fetch of at most 256 MiB within 5 minutes; a clone of at
// most 1 GiB within 15 minutes.
func DefaultLimits() Limits {
	return Limits{fetchBytes: 256 << 20, fetchTimeout: 5 * time.Minute, cloneBytes: 1 << 30, cloneTimeout: 15 * time.Minute}
}

// FetchBytes is the bound on one fetched body.
func (l Limits) FetchBytes() int64 { return l.fetchBytes }

// FetchTimeout is one fetch's deadline.
func (l Limits) FetchTimeout() time.Duration { return l.fetchTimeout }

// CloneBytes is the bound on one clone, received and written bytes together.
func (l Limits) CloneBytes() int64 { return l.cloneBytes }

// CloneTimeout is one clone's deadline.
func (l Limits) CloneTimeout() time.Duration { return l.cloneTimeout }

func (l Limits) valid() bool {
	return l.fetchBytes > 0 && l.fetchTimeout > 0 && l.cloneBytes > 0 && l.cloneTimeout > 0
}
