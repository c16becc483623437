package remote

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lola-pm/lola/schema"
)

type hopLog struct {
	mu   sync.Mutex
	hops []Hop
}

func (l *hopLog) Hop(n int, u *url.URL, d netip.AddrPort) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n != len(l.hops) {
		panic("hops out of order")
	}
	l.hops = append(l.hops, Hop{URL: u.String(), Dialled: d})
}

func newClient(t testing.TB, o Options) *Client {
	t.Helper()
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFetchWritesBodyAndReportsHop(t *testing.T) {
	ca := newTestCA(t)
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.Header.Get("Accept") != "*/*" {
			http.Error(w, "bad request", 400)
			return
		}
		w.Write([]byte("payload"))
	}), "fetch.test")
	res := newResolver()
	res.set("fetch.test", addrs("127.0.0.1"))
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	dst := stagingFile(t)
	var obs hopLog
	rep, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("fetch.test", ap, "/x"), map[string]string{"Accept": "*/*"}), dst, &obs)
	if err != nil {
		t.Fatal(err)
	}
	if got := readStaged(t, dst); got != "payload" {
		t.Fatalf("body = %q", got)
	}
	if rep.Bytes != 7 || len(rep.SHA256) != 64 || len(rep.Hops) != 1 || rep.Hops[0].Dialled != ap {
		t.Fatalf("report = %+v", rep)
	}
	if len(obs.hops) != 1 || obs.hops[0].Dialled != ap || !strings.Contains(obs.hops[0].URL, "fetch.test") {
		t.Fatalf("observer saw %+v", obs.hops)
	}
}

func TestFetchRefusesUnadmittedLoopback(t *testing.T) {
	ca := newTestCA(t)
	hit := false
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit = true }), "fetch.test")
	res := newResolver()
	res.set("fetch.test", addrs("127.0.0.1"))
	c := newClient(t, Options{Policy: policyFor(t, nil, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	dst := stagingFile(t)
	var obs hopLog
	_, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("fetch.test", ap, "/"), nil), dst, &obs)
	wantRule(t, err, schema.RuleRemoteDestination)
	if hit || len(obs.hops) != 0 || fileSize(t, dst) != 0 {
		t.Fatalf("refused destination was reached: hit=%v hops=%v size=%d", hit, obs.hops, fileSize(t, dst))
	}
}

// A redirect from an allowed host to a private-range address is refused at
// the hop, before anything is dialled there.
func TestRedirectToPrivateRangeRefused(t *testing.T) {
	ca := newTestCA(t)
	var mu sync.Mutex
	innerHit := false
	_, inner := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		innerHit = true
		mu.Unlock()
		w.Write([]byte("internal secrets"))
	}), "internal.test")
	targets := []string{
		urlFor("internal.test", inner, "/admin"),   // resolves to loopback, port not admitted
		"https://10.20.30.40/latest",               // private literal
		"https://169.254.169.254/latest/meta-data", // metadata literal
		"https://[::ffff:127.0.0.1]:" + itoa(int(inner.Port())) + "/",
	}
	for _, target := range targets {
		t.Run(target, func(t *testing.T) {
			_, outer := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target, http.StatusFound)
			}), "public.test")
			res := newResolver()
			res.set("public.test", addrs("127.0.0.1"))
			res.set("internal.test", addrs("127.0.0.1"))
			c := newClient(t, Options{Policy: policyFor(t, []string{admit(outer)}, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool})
			dst := stagingFile(t)
			var obs hopLog
			_, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("public.test", outer, "/start"), nil), dst, &obs)
			wantRule(t, err, schema.RuleRemoteDestination)
			mu.Lock()
			defer mu.Unlock()
			if innerHit || fileSize(t, dst) != 0 || len(obs.hops) != 1 || obs.hops[0].Dialled != outer {
				t.Fatalf("inner hit=%v size=%d hops=%+v", innerHit, fileSize(t, dst), obs.hops)
			}
		})
	}
}

// A cross-host redirect does not replay the Authorization header: the host
// attaches the first host's credential to the first hop only; the extension's
// own Authorization and Cookie headers never leave at all.
func TestCrossHostRedirectDoesNotReplayAuthorization(t *testing.T) {
	const secret = "s3cret-token-value"
	ca := newTestCA(t)
	var mu sync.Mutex
	seen := map[string]http.Header{}
	record := func(name string, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen[name] = r.Header.Clone()
	}
	_, b := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record("b", r)
		w.Write([]byte("from b"))
	}), "b.test")
	_, a := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record("a", r)
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "cookie-from-a"})
		http.Redirect(w, r, urlFor("b.test", b, "/moved"), http.StatusTemporaryRedirect)
	}), "a.test")
	creds, err := ParseCredentials([]byte("- remote: " + urlFor("a.test", a, "/") + "\n  bearer: " + secret + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := newResolver()
	res.set("a.test", addrs("127.0.0.1"))
	res.set("b.test", addrs("127.0.0.1"))
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(a), admit(b)}, 0), Limits: testLimits(t, 1<<20, 10*time.Second),
		Resolver: res, RootCAs: ca.pool, Credentials: creds})
	dst := stagingFile(t)
	var obs hopLog
	rep, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("a.test", a, "/start"),
		map[string]string{"authorization": "Bearer smuggled", "Cookie": "x=1", "X-Trace": "t1"}), dst, &obs)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := seen["a"].Get("Authorization"); got != "Bearer "+secret {
		t.Fatalf("first hop Authorization = %q; the host credential was not attached", got)
	}
	if seen["a"].Get("Cookie") != "" {
		t.Fatal("the extension's Cookie header was sent")
	}
	if got := seen["b"].Get("Authorization"); got != "" {
		t.Fatalf("cross-host hop carried Authorization %q", got)
	}
	if got := seen["b"].Get("Cookie"); got != "" {
		t.Fatalf("cross-host hop carried Cookie %q", got)
	}
	if seen["b"].Get("X-Trace") != "t1" {
		t.Fatal("an ordinary extension header was not carried")
	}
	if readStaged(t, dst) != "from b" || len(obs.hops) != 2 || obs.hops[1].Dialled != b {
		t.Fatalf("body %q hops %+v", readStaged(t, dst), obs.hops)
	}
	assertNoSecret(t, secret, rep, obs.hops)
}

// A name whose second resolution returns loopback is dialled at the address
// the first, checked resolution gave: the name is resolved once per hop and
// never again at dial time. A listener on the rebound address proves nothing
// connected there.
func TestRebindingDialsThePinnedAddress(t *testing.T) {
	ca := newTestCA(t)
	_, pinned := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("pinned"))
	}), "rebind.test")
	rebound := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.2"), pinned.Port())
	ln, err := net.Listen("tcp", rebound.String())
	if err != nil {
		t.Fatalf("cannot listen on the rebound address: %v", err)
	}
	defer ln.Close()
	var reboundHits sync.WaitGroup
	reboundHit := make(chan struct{}, 1)
	reboundHits.Add(1)
	go func() {
		defer reboundHits.Done()
		if conn, err := ln.Accept(); err == nil {
			reboundHit <- struct{}{}
			conn.Close()
		}
	}()
	res := newResolver()
	// First answer: the re-admitted test address (standing in for a public
	// one). Every later answer: another loopback address.
	res.set("rebind.test", addrs("127.0.0.1"), addrs("127.0.0.2"))
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(pinned)}, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	dst := stagingFile(t)
	var obs hopLog
	rep, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("rebind.test", pinned, "/"), nil), dst, &obs)
	if err != nil {
		t.Fatal(err)
	}
	if res.count("rebind.test") != 1 {
		t.Fatalf("the name was resolved %d times for one hop", res.count("rebind.test"))
	}
	if rep.Hops[0].Dialled != pinned || obs.hops[0].Dialled != pinned || readStaged(t, dst) != "pinned" {
		t.Fatalf("dialled %v (observer %v), body %q; want %v", rep.Hops[0].Dialled, obs.hops[0].Dialled, readStaged(t, dst), pinned)
	}
	ln.Close()
	reboundHits.Wait()
	select {
	case <-reboundHit:
		t.Fatal("a connection reached the rebound address")
	default:
	}
	// A second fetch resolves afresh (the rebound answer) and is refused:
	// the check runs on every resolution.
	_, err = c.Fetch(context.Background(), fetchReq("ext", urlFor("rebind.test", pinned, "/"), nil), stagingFile(t), nil)
	wantRule(t, err, schema.RuleRemoteDestination)
}

// Pinning must not launder a name mismatch: the pinned address presents a
// certificate valid for another host name, and the handshake fails.
func TestPinnedAddressWithWrongCertificateFails(t *testing.T) {
	ca := newTestCA(t)
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("impostor"))
	}), "other.test")
	res := newResolver()
	res.set("fetch.test", addrs("127.0.0.1"))
	res.set("other.test", addrs("127.0.0.1"))
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	dst := stagingFile(t)
	_, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("fetch.test", ap, "/"), nil), dst, nil)
	wantRule(t, err, schema.RuleRemoteTransportAuth)
	if fileSize(t, dst) != 0 {
		t.Fatal("a body was written after a failed handshake")
	}
	// The IP literal is not in the certificate either (no IP SANs).
	_, err = c.Fetch(context.Background(), fetchReq("ext", "https://"+ap.String()+"/", nil), dst, nil)
	wantRule(t, err, schema.RuleRemoteTransportAuth)
	// The same server under its own name, with a CA the client does not
	// trust (system roots), fails too.
	untrusting := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res})
	_, err = untrusting.Fetch(context.Background(), fetchReq("ext", urlFor("other.test", ap, "/"), nil), dst, nil)
	wantRule(t, err, schema.RuleRemoteTransportAuth)
	// And under its own name with the test CA it works: the failures above
	// are about identity, not about the server.
	if _, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("other.test", ap, "/"), nil), dst, nil); err != nil {
		t.Fatal(err)
	}
}

func TestOversizedBodyIsBound(t *testing.T) {
	ca := newTestCA(t)
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/declared" {
			w.Header().Set("Content-Length", "4096")
		}
		w.WriteHeader(200)
		w.Write([]byte(strings.Repeat("x", 4096)))
	}), "big.test")
	res := newResolver()
	res.set("big.test", addrs("127.0.0.1"))
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 1024, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	for _, path := range []string{"/streamed", "/declared"} {
		_, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("big.test", ap, path), nil), stagingFile(t), nil)
		wantRule(t, err, schema.RuleRemoteBound)
	}
	// Exactly at the bound is fine.
	c2 := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 4096, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	if rep, err := c2.Fetch(context.Background(), fetchReq("ext", urlFor("big.test", ap, "/streamed"), nil), stagingFile(t), nil); err != nil || rep.Bytes != 4096 {
		t.Fatalf("at the bound: %+v %v", rep, err)
	}
}

// TestRequestMaxBytesOnlyTightens: a request's MaxBytes below the client's
// bound refuses the body past it; one above the client's bound does not
// widen it.
func TestRequestMaxBytesOnlyTightens(t *testing.T) {
	ca := newTestCA(t)
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 2048)))
	}), "big.test")
	res := newResolver()
	res.set("big.test", addrs("127.0.0.1"))
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 4096, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	req := fetchReq("ext", urlFor("big.test", ap, "/"), nil)
	req.MaxBytes = 1024
	_, err := c.Fetch(context.Background(), req, stagingFile(t), nil)
	wantRule(t, err, schema.RuleRemoteBound)
	req.MaxBytes = 2048
	if rep, err := c.Fetch(context.Background(), req, stagingFile(t), nil); err != nil || rep.Bytes != 2048 {
		t.Fatalf("at the request's bound: %+v %v", rep, err)
	}
	c2 := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 1024, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	req.MaxBytes = 1 << 20
	_, err = c2.Fetch(context.Background(), req, stagingFile(t), nil)
	wantRule(t, err, schema.RuleRemoteBound)
}

func TestStalledServerIsBound(t *testing.T) {
	ca := newTestCA(t)
	release := make(chan struct{})
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mid-body" {
			w.Write([]byte("partial"))
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), "slow.test")
	defer close(release)
	res := newResolver()
	res.set("slow.test", addrs("127.0.0.1"))
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 1<<20, 300*time.Millisecond), Resolver: res, RootCAs: ca.pool})
	for _, path := range []string{"/before-headers", "/mid-body"} {
		_, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("slow.test", ap, path), nil), stagingFile(t), nil)
		wantRule(t, err, schema.RuleRemoteBound)
	}
}

func TestRedirectRules(t *testing.T) {
	ca := newTestCA(t)
	var self string
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/downgrade":
			http.Redirect(w, r, "http"+strings.TrimPrefix(self, "https")+"/", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, self+"/loop", http.StatusFound)
		case "/nolocation":
			w.WriteHeader(http.StatusFound)
		case "/ftp":
			http.Redirect(w, r, "ftp://loop.test/x", http.StatusFound)
		default:
			w.Write([]byte("ok"))
		}
	}), "loop.test")
	self = "https://loop.test:" + itoa(int(ap.Port()))
	res := newResolver()
	res.set("loop.test", addrs("127.0.0.1"))
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 2), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	cases := map[string]schema.Rule{
		"/loop":       schema.RuleRemoteRedirect,
		"/nolocation": schema.RuleRemoteRedirect,
		"/ftp":        schema.RuleRemoteScheme,
	}
	for path, rule := range cases {
		var obs hopLog
		_, err := c.Fetch(context.Background(), fetchReq("ext", self+path, nil), stagingFile(t), &obs)
		wantRule(t, err, rule)
		if path == "/loop" && len(obs.hops) != 3 {
			t.Errorf("loop: %d hops dialled; want the first plus max_redirects=2", len(obs.hops))
		}
	}
	// https -> http is refused, not followed or upgraded.
	_, err := c.Fetch(context.Background(), fetchReq("ext", self+"/downgrade", nil), stagingFile(t), nil)
	wantRule(t, err, schema.RuleRemoteScheme)
}

func TestFetchDefensiveRequestChecks(t *testing.T) {
	c := newClient(t, Options{Policy: policyFor(t, nil, 0), Limits: DefaultLimits(), Resolver: newResolver()})
	cases := []struct {
		f    schema.Fetch
		rule schema.Rule
	}{
		{schema.Fetch{URL: "https://x.test/", Method: "POST"}, schema.RuleRemoteMethod},
		{schema.Fetch{URL: "https://x.test/", Method: "HEAD"}, schema.RuleRemoteMethod},
		{schema.Fetch{URL: "https://x.test/", Method: "get"}, schema.RuleRemoteMethod},
		{schema.Fetch{URL: "http://x.test/"}, schema.RuleRemoteScheme},
		{schema.Fetch{URL: "HTTP://x.test/"}, schema.RuleRemoteScheme},
		{schema.Fetch{URL: "file:///etc/passwd"}, schema.RuleRemoteScheme},
		{schema.Fetch{URL: "https://user:pw@x.test/"}, schema.RuleRemoteURL},
		{schema.Fetch{URL: "https://x.test/team/../other"}, schema.RuleRemoteURL},
		{schema.Fetch{URL: "https://x.test/team/%2e%2e/other"}, schema.RuleRemoteURL},
		{schema.Fetch{URL: "https:///nohost"}, schema.RuleRemoteURL},
		{schema.Fetch{URL: "https://x.test/", Headers: map[string]string{"Host": "evil.test"}}, schema.RuleRemoteHeader},
		{schema.Fetch{URL: "https://x.test/", Headers: map[string]string{"transfer-encoding": "chunked"}}, schema.RuleRemoteHeader},
		{schema.Fetch{URL: "https://x.test/", Headers: map[string]string{"Connection": "close"}}, schema.RuleRemoteHeader},
		{schema.Fetch{URL: "https://x.test/", Headers: map[string]string{"X-A": "v\r\nHost: evil"}}, schema.RuleRemoteHeader},
		{schema.Fetch{URL: "https://x.test/", Headers: map[string]string{"Bad Name": "v"}}, schema.RuleRemoteHeader},
	}
	for _, tc := range cases {
		dst := stagingFile(t)
		_, err := c.Fetch(context.Background(), FetchRequest{Extension: "e", Intent: ref0, Fetch: tc.f}, dst, nil)
		wantRule(t, err, tc.rule)
		for _, v := range tc.f.Headers {
			if len(v) >= 4 && err != nil && strings.Contains(err.Error(), v) {
				t.Errorf("%+v: the error carries a header value: %v", tc.f, err)
			}
		}
		if fileSize(t, dst) != 0 {
			t.Errorf("%+v wrote to staging", tc.f)
		}
	}
}

func TestNewRefusesIncompleteOptions(t *testing.T) {
	if _, err := New(Options{Limits: DefaultLimits()}); err == nil {
		t.Error("New accepted a nil Policy")
	}
	if _, err := New(Options{Policy: policyFor(t, nil, 0)}); err == nil {
		t.Error("New accepted zero Limits")
	}
	for _, l := range [][4]int64{{0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, -1, 1}, {1, 1, 1, 0}} {
		if _, err := NewLimits(l[0], time.Duration(l[1]), l[2], time.Duration(l[3])); err == nil {
			t.Errorf("NewLimits%v accepted", l)
		}
	}
}

// An IPv6 loopback server is reachable only through its admission, like the
// IPv4 one; the mapped spelling of 127.0.0.1 never is.
func TestFetchIPv6LoopbackAdmission(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skip("this machine has no IPv6 loopback")
	}
	ca := newTestCA(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("v6")) }))
	srv.Listener.Close()
	srv.Listener = ln
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{ca.leaf(t, "six.test")}}
	srv.StartTLS()
	defer srv.Close()
	ap := netip.MustParseAddrPort(ln.Addr().String())
	res := newResolver()
	res.set("six.test", addrs("::1"))
	u := urlFor("six.test", ap, "/")
	refused := newClient(t, Options{Policy: policyFor(t, nil, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	_, err = refused.Fetch(context.Background(), fetchReq("e", u, nil), stagingFile(t), nil)
	wantRule(t, err, schema.RuleRemoteDestination)
	admitted := newClient(t, Options{Policy: policyFor(t, []string{"[::1]/128:" + itoa(int(ap.Port()))}, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool})
	dst := stagingFile(t)
	rep, err := admitted.Fetch(context.Background(), fetchReq("e", u, nil), dst, nil)
	if err != nil || readStaged(t, dst) != "v6" || rep.Hops[0].Dialled != ap {
		t.Fatalf("%+v %v", rep, err)
	}
}
