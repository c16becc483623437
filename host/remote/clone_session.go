package remote

import (
	"context"
	"errors"
	"net/netip"
	"net/url"
	"sync"

	"github.com/lola-pm/lola/host/rejection"
)

// cloneSession is one clone's state, reached by the transports through the
// request context.
type cloneSession struct {
	client *Client
	ref    rejection.IntentRef
	origin *url.URL
	obs    HopObserver
	budget *budget
	links  bool // the checkout keeps symbolic links (CloneRequest.KeepLinks)

	mu   sync.Mutex
	hops []Hop
	err  *rejection.Violation
}

func (s *cloneSession) hop(u *url.URL, dialled netip.AddrPort) {
	s.mu.Lock()
	n := len(s.hops)
	h := hopURL(u)
	s.hops = append(s.hops, Hop{URL: h.String(), Dialled: dialled})
	s.mu.Unlock()
	if s.obs != nil {
		s.obs.Hop(n, h, dialled)
	}
}

func (s *cloneSession) hopsCopy() []Hop {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Hop(nil), s.hops...)
}

// fail records the first violation of the session and returns it.
func (s *cloneSession) fail(v *rejection.Violation) *rejection.Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(v.Intents) == 0 {
		v = withRef(v, s.ref).(*rejection.Violation)
	}
	if s.err == nil {
		s.err = v
	}
	return s.err
}

func (s *cloneSession) violation() *rejection.Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// failErr records err if it is a violation and returns it unchanged otherwise.
func (s *cloneSession) failErr(err error) error {
	var v *rejection.Violation
	if errors.As(err, &v) {
		return s.fail(v)
	}
	return err
}

type sessionKey struct{}

func withSession(ctx context.Context, s *cloneSession) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

func sessionFrom(ctx context.Context) *cloneSession {
	s, _ := ctx.Value(sessionKey{}).(*cloneSession)
	return s
}
