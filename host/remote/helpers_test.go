package remote

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// testCA is a throwaway certificate authority; the client trusts it through
// Options.RootCAs, never by disabling verification.
type testCA struct {
	key  *ecdsa.PrivateKey
	cert *x509.Certificate
	pool *x509.CertPool
}

func newTestCA(t testing.TB) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "lola test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{key: key, cert: cert, pool: pool}
}

// leaf issues a server certificate valid for names only (no IP SANs, so a
// check against the dialled IP could never pass by accident).
func (ca *testCA) leaf(t testing.TB, names ...string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: names[0]},
		DNSNames:     names,
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// tlsServer starts an https server on 127.0.0.1 presenting a certificate for
// names.
func tlsServer(t testing.TB, ca *testCA, h http.Handler, names ...string) (*httptest.Server, netip.AddrPort) {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{ca.leaf(t, names...)}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are the point
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ap := netip.MustParseAddrPort(srv.Listener.Addr().String())
	return srv, ap
}

// fakeResolver answers from a table; a name with several answer lists gives
// the next list on each call (the last one repeats), which models rebinding.
type fakeResolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	calls   map[string]int
}

func newResolver() *fakeResolver {
	return &fakeResolver{answers: map[string][][]netip.Addr{}, calls: map[string]int{}}
}

func (r *fakeResolver) set(host string, lists ...[]netip.Addr) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers[host] = lists
}

func (r *fakeResolver) LookupNetIP(_ context.Context, network, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if network != "ip" {
		return nil, errors.New("unexpected network " + network)
	}
	lists, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := r.calls[host]
	r.calls[host]++
	if i >= len(lists) {
		i = len(lists) - 1
	}
	return append([]netip.Addr(nil), lists[i]...), nil
}

func (r *fakeResolver) count(host string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[host]
}

func addrs(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddr(a)
	}
	return out
}

// policyFor builds a policy from config.yaml text, as the operator would.
func policyFor(t testing.TB, allow []string, maxRedirects int) *Policy {
	t.Helper()
	var b strings.Builder
	b.WriteString("remote:\n  allow: [")
	for i, a := range allow {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("'" + a + "'")
	}
	b.WriteString("]\n")
	if maxRedirects > 0 {
		b.WriteString("  max_redirects: " + itoa(maxRedirects) + "\n")
	}
	cfg, err := config.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPolicy(cfg.Remote())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// admit spells the admission of exactly one test server's address and port.
func admit(ap netip.AddrPort) string {
	return "[" + netip.PrefixFrom(ap.Addr(), ap.Addr().BitLen()).String() + "]:" + itoa(int(ap.Port()))
}

func testLimits(t testing.TB, fetchBytes int64, timeout time.Duration) Limits {
	t.Helper()
	l, err := NewLimits(fetchBytes, timeout, 64<<20, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func stagingFile(t testing.TB) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "staged"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func fileSize(t testing.TB, f *os.File) int64 {
	t.Helper()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func readStaged(t testing.TB, f *os.File) string {
	t.Helper()
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func wantRule(t testing.TB, err error, r schema.Rule) {
	t.Helper()
	if err == nil {
		t.Fatalf("succeeded; want %s", r)
	}
	if !errors.Is(err, rejection.Rule(r)) {
		t.Fatalf("error %q; want rule %s", err, r)
	}
}

var ref0 = rejection.IntentRef{Index: 0, Op: schema.OpFetch}

func fetchReq(ext, url string, headers map[string]string) FetchRequest {
	return FetchRequest{Extension: ext, Intent: ref0, Fetch: schema.Fetch{URL: url, Dest: "vendor/x", Headers: headers}}
}

func urlFor(host string, ap netip.AddrPort, path string) string {
	return "https://" + net.JoinHostPort(host, itoa(int(ap.Port()))) + path
}

// httpHandlerFunc is a handler that runs stall until the request ends.
func httpHandlerFunc(stall func(done <-chan struct{})) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { stall(r.Context().Done()) })
}
