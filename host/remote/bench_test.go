package remote

import (
	"context"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func BenchmarkClassify(b *testing.B) {
	as := addrs("8.8.8.8", "10.1.2.3", "2606:4700:4700::1111", "64:ff9b::7f00:1", "198.51.100.7", "fd00:ec2::254")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Classify(as[i%len(as)])
	}
}

func BenchmarkPolicyResolve(b *testing.B) {
	r := newResolver()
	r.set("public.test", addrs("8.8.8.8", "2606:4700:4700::1111"))
	p := policyFor(b, []string{"[127.0.0.1/32]:8443", "10.0.0.0/8"}, 0)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Resolve(ctx, r, "public.test", 443); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetch measures one complete fetch over loopback: resolution,
// check, pinned dial, TLS handshake (no connection reuse: every fetch and
// every hop dials afresh, by design), a 64 KiB body written to staging.
func BenchmarkFetch(b *testing.B) {
	ca := newTestCA(b)
	body := strings.Repeat("x", 64<<10)
	_, ap := tlsServer(b, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }), "bench.test")
	res := newResolver()
	res.set("bench.test", []netip.Addr{ap.Addr()})
	c := newClient(b, Options{Policy: policyFor(b, []string{admit(ap)}, 0), Limits: testLimits(b, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	dst := stagingFile(b)
	u := urlFor("bench.test", ap, "/")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		dst.Truncate(0)
		dst.Seek(0, 0)
		if _, err := c.Fetch(context.Background(), fetchReq("e", u, nil), dst, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCloneHTTPS measures one depth-1 clone of a small repository from
// git http-backend over pinned TLS on loopback (the CGI backend's own cost
// included).
func BenchmarkCloneHTTPS(b *testing.B) {
	ca := newTestCA(b)
	srv := gitFixture(b, map[string]string{"skills/foo/SKILL.md": "# foo\n"}, false)
	ap := gitServer(b, ca, srv, "git.test")
	res := newResolver()
	res.set("git.test", addrs("127.0.0.1"))
	c := cloneClient(b, ca, []string{admit(ap)}, 64<<20, res)
	u := urlFor("git.test", ap, "/repo.git")
	parent := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		if _, err := c.Clone(context.Background(), cloneReq(u, "main", 1), filepath.Join(parent, itoa(i)), nil); err != nil {
			b.Fatal(err)
		}
	}
}
