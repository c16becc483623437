package extension

import (
	"context"
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/remote"
)

// These helpers build a real host/remote client (the one `lola ext add`
// uses) against httptest TLS servers on 127.0.0.1. The client trusts the
// servers' certificate through Options.RootCAs, never by disabling
// verification, and the servers are reachable only because the test's
// remote policy admits their exact address and port: loopback is refused
// otherwise, as it is for a user.

// tlsSite is one https server on 127.0.0.1 whose handler can be swapped.
type tlsSite struct {
	srv *httptest.Server
	ap  netip.AddrPort
	mu  sync.Mutex
	h   http.Handler
}

func newTLSSite(t *testing.T) *tlsSite {
	t.Helper()
	s := &tlsSite{}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		h := s.h
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	}))
	s.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	s.srv.StartTLS()
	t.Cleanup(s.srv.Close)
	s.ap = netip.MustParseAddrPort(s.srv.Listener.Addr().String())
	return s
}

func (s *tlsSite) handle(h http.Handler) {
	s.mu.Lock()
	s.h = h
	s.mu.Unlock()
}

// serveBytes makes the site answer every GET with body.
func (s *tlsSite) serveBytes(body []byte) {
	s.handle(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(body)
	}))
}

// url names path on the site by the host name the certificate holds
// (httptest's certificate is for example.com; testResolver answers it with
// 127.0.0.1).
func (s *tlsSite) url(path string) string {
	return "https://example.com:" + portOf(s.ap) + path
}

// admit is the remote.allow entry admitting exactly this site.
func (s *tlsSite) admit() string { return "[127.0.0.1/32]:" + portOf(s.ap) }

func portOf(ap netip.AddrPort) string { return strconv.Itoa(int(ap.Port())) }

// testResolver answers example.com with loopback and private.example with
// a private address; anything else does not resolve.
type testResolver struct{}

func (testResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	switch host {
	case "example.com":
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	case "private.example":
		return []netip.Addr{netip.MustParseAddr("10.20.30.40")}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// remoteClient is a host/remote client trusting the sites' certificate,
// under a policy written as config.yaml's remote section with allow.
func remoteClient(t *testing.T, allow []string, sites ...*tlsSite) *remote.Client {
	t.Helper()
	var y strings.Builder
	y.WriteString("remote:\n  allow: [")
	for i, a := range allow {
		if i > 0 {
			y.WriteString(", ")
		}
		y.WriteString("'" + a + "'")
	}
	y.WriteString("]\n")
	cfg, err := config.Parse(strings.NewReader(y.String()))
	if err != nil {
		t.Fatal(err)
	}
	p, err := remote.NewPolicy(cfg.Remote())
	if err != nil {
		t.Fatal(err)
	}
	l, err := remote.NewLimits(64<<20, time.Minute, 64<<20, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	for _, s := range sites {
		pool.AddCert(s.srv.Certificate())
	}
	c, err := remote.New(remote.Options{Policy: p, Limits: l, Resolver: testResolver{}, RootCAs: pool})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// archiveBytes is a tar.gz (or zip, by name) of files.
func archiveBytes(t *testing.T, name string, files, links map[string]string) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	writeArchive(t, p, files, links)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// assertNothingInstalled: no entry under $LOLA_HOME/extensions (not even a
// staging directory) and no lock file.
func assertNothingInstalled(t *testing.T, home string) {
	t.Helper()
	if es := homeEntries(t, home); len(es) != 0 {
		t.Fatalf("left under $LOLA_HOME/extensions: %v", es)
	}
	if _, err := os.Stat(filepath.Join(home, LockFile)); err == nil {
		t.Fatal("the lock file was written")
	}
}
