package remote

import (
	"context"
	"net/netip"
	"net/url"
	"testing"
)

// FuzzResolve: whatever host a URL carries and whatever address a resolver
// answers for it, the policy never returns a destination that is neither
// globally routable nor re-admitted.
func FuzzResolve(f *testing.F) {
	f.Add("example.org", "127.0.0.1")
	f.Add("0x7f.1", "8.8.8.8")
	f.Add("[::ffff:127.0.0.1]", "::1")
	f.Add("2130706433", "10.0.0.1")
	f.Add("a.test", "64:ff9b::808:808")
	p := policyFor(f, []string{"[127.0.0.1/32]:8443"}, 0)
	f.Fuzz(func(t *testing.T, host, answer string) {
		u, err := url.Parse("https://" + host + "/")
		if err != nil {
			return
		}
		r := newResolver()
		if a, err := netip.ParseAddr(answer); err == nil {
			r.set(u.Hostname(), []netip.Addr{a})
		}
		for _, port := range []uint16{443, 8443} {
			ds, err := p.Resolve(context.Background(), r, u.Hostname(), port)
			if err != nil {
				continue
			}
			for _, d := range ds {
				_, global := Classify(d.Addr().Addr())
				admitted := d.Addr() == netip.MustParseAddrPort("127.0.0.1:8443")
				if !global && !admitted {
					t.Fatalf("host %q answer %q: destination %v is neither global nor admitted", host, answer, d.Addr())
				}
			}
		}
	})
}
