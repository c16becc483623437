package remote

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A clone attaches the stored credential per request, for that request's
// URL: a private repository is cloned with it, the redirect from one host to
// another does not carry it, and no error or report holds it.
func TestCloneCredentialsPerRequest(t *testing.T) {
	const secret = "clone-pass-7f3a"
	ca := newTestCA(t)
	srv := gitFixture(t, map[string]string{"README.md": "private\n"}, false)
	backend := gitServerHandler(t, srv)

	var mu sync.Mutex
	var seenB []string
	_, b := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seenB = append(seenB, r.Header.Get("Authorization"))
		mu.Unlock()
		backend.ServeHTTP(w, r)
	}), "b.test")
	var seenA []string
	_, a := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seenA = append(seenA, r.Header.Get("Authorization"))
		mu.Unlock()
		if u, p, ok := r.BasicAuth(); !ok || u != "alice" || p != secret {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "auth", http.StatusUnauthorized)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/moved/") {
			target := urlFor("b.test", b, strings.TrimPrefix(r.URL.Path, "/moved"))
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusFound)
			return
		}
		backend.ServeHTTP(w, r)
	}), "a.test")
	res := newResolver()
	res.set("a.test", addrs("127.0.0.1"))
	res.set("b.test", addrs("127.0.0.1"))
	l, _ := NewLimits(1<<20, 10*time.Second, 64<<20, 20*time.Second)
	creds, err := ParseCredentials([]byte("- remote: " + urlFor("a.test", a, "/") + "\n  username: alice\n  password: " + secret + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	with := newClient(t, Options{Policy: policyFor(t, []string{admit(a), admit(b)}, 0), Limits: l, Resolver: res, RootCAs: ca.pool, Credentials: creds})
	without := newClient(t, Options{Policy: policyFor(t, []string{admit(a), admit(b)}, 0), Limits: l, Resolver: res, RootCAs: ca.pool})

	rep, err := with.Clone(context.Background(), cloneReq(urlFor("a.test", a, "/repo.git"), "", 1), filepath.Join(t.TempDir(), "s"), nil)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecret(t, secret, rep)
	assertNoSecret(t, encodedBasic("alice", secret), rep)

	_, err = without.Clone(context.Background(), cloneReq(urlFor("a.test", a, "/repo.git"), "", 1), filepath.Join(t.TempDir(), "s"), nil)
	if err == nil {
		t.Fatal("a private repository was cloned without credentials")
	}

	mu.Lock()
	seenB = nil
	mu.Unlock()
	rep, err = with.Clone(context.Background(), cloneReq(urlFor("a.test", a, "/moved/repo.git"), "", 1), filepath.Join(t.TempDir(), "s"), nil)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seenB) == 0 {
		t.Fatal("the redirect target was never reached")
	}
	for _, h := range seenB {
		if h != "" {
			t.Fatalf("the cross-host redirect target received Authorization %q", h)
		}
	}
	if len(rep.Hops) < 2 || rep.Hops[0].Dialled != a || rep.Hops[len(rep.Hops)-1].Dialled != b {
		t.Fatalf("hops %+v", rep.Hops)
	}
	attached := false
	for _, h := range seenA {
		attached = attached || h == "Basic "+encodedBasic("alice", secret)
	}
	if !attached {
		t.Fatal("the stored credential was never attached for a.test")
	}
	assertNoSecret(t, secret, rep, err)
}
