package remote

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// HopObserver is told the address actually dialled at each hop of a fetch or
// clone, once resolution and pinning have run, so the audit log can append
// it under the plan's correlation id. For a fetch a hop is one request of
// the redirect chain, n counting from 0 (the URL the intent named); for a
// clone it is each request go-git makes (reference discovery, pack, and any
// redirect between) or the one ssh connection. u carries no userinfo and no
// credential. A hop is reported whenever a connection was made, even if the
// TLS handshake or the request then failed. Calls are sequential per
// operation. A nil HopObserver is allowed.
type HopObserver interface {
	Hop(n int, u *url.URL, dialled netip.AddrPort)
}

// HopFunc adapts a function to HopObserver.
type HopFunc func(n int, u *url.URL, dialled netip.AddrPort)

// Hop calls f.
func (f HopFunc) Hop(n int, u *url.URL, dialled netip.AddrPort) { f(n, u, dialled) }

// dialPinned connects to the first of dests that accepts a TCP connection.
// Every candidate was checked by the policy; the dialer's Control hook
// asserts the socket really connects to the pinned address, so no code path
// between here and connect(2) can substitute another.
func dialPinned(ctx context.Context, dests []Destination, connectTimeout time.Duration) (net.Conn, Destination, error) {
	if len(dests) == 0 {
		return nil, Destination{}, rejection.New(schema.RuleRemoteDestination, "no checked destination to dial")
	}
	var last error
	for _, d := range dests {
		if d.IsZero() {
			return nil, Destination{}, rejection.New(schema.RuleRemoteDestination, "unchecked destination")
		}
		want := d.addr
		dialer := net.Dialer{
			Timeout: connectTimeout,
			Control: func(network, address string, _ syscall.RawConn) error {
				got, err := netip.ParseAddrPort(address)
				if err != nil || got != want {
					return fmt.Errorf("dial to %s is not the pinned %s", address, want)
				}
				return nil
			},
		}
		conn, err := dialer.DialContext(ctx, "tcp", want.String())
		if err == nil {
			return conn, d, nil
		}
		if ctx.Err() != nil {
			return nil, Destination{}, ctx.Err()
		}
		last = err
	}
	var op *net.OpError
	if errors.As(last, &op) {
		return nil, Destination{}, fmt.Errorf("connect %s: %v", redactHost(dests[0].host), op.Err)
	}
	return nil, Destination{}, fmt.Errorf("connect %s failed", redactHost(dests[0].host))
}

// hopURL is u without userinfo, for observers and diagnostics.
func hopURL(u *url.URL) *url.URL {
	c := *u
	c.User = nil
	return &c
}
