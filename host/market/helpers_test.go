package market

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/remote"
)

// testTLS is a throwaway CA and an https server on 127.0.0.1 with a
// certificate for catalog.test; the client trusts the CA through
// remote.Options.RootCAs, never by turning verification off.
type testTLS struct {
	pool *x509.CertPool
	key  *ecdsa.PrivateKey
	ca   *x509.Certificate
}

func newTestTLS(t *testing.T) *testTLS {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "market test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return &testTLS{pool: pool, key: key, ca: ca}
}

func (tt *testTLS) server(t *testing.T, h http.Handler) (*httptest.Server, netip.AddrPort) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "catalog.test"},
		DNSNames: []string{"catalog.test"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tt.ca, &key.PublicKey, tt.key)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, netip.MustParseAddrPort(srv.Listener.Addr().String())
}

// loopbackResolver answers 127.0.0.1 for catalog.test.
type loopbackResolver struct{}

func (loopbackResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if host == "catalog.test" {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	return nil, &net404{host}
}

type net404 struct{ h string }

func (e *net404) Error() string { return "no such host " + e.h }

// registry builds a Registry whose client admits exactly the given
// loopback ports through config.yaml's remote.allow, as an operator would;
// with no ports it is the default configuration.
func (tt *testTLS) registry(t *testing.T, ports ...uint16) (*Registry, string) {
	t.Helper()
	home := t.TempDir()
	var allow []string
	for _, p := range ports {
		allow = append(allow, "'[127.0.0.1/32]:"+strconv.Itoa(int(p))+"'")
	}
	cfg, err := config.Parse(strings.NewReader("remote:\n  allow: [" + strings.Join(allow, ", ") + "]\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := remote.NewPolicy(cfg.Remote())
	if err != nil {
		t.Fatal(err)
	}
	lim, err := remote.NewLimits(MaxCatalogBytes, 10*time.Second, 1<<20, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c, err := remote.New(remote.Options{Policy: p, Limits: lim, Resolver: loopbackResolver{}, RootCAs: tt.pool})
	if err != nil {
		t.Fatal(err)
	}
	return Open(home, c, p), home
}

func serveBody(body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, body) })
}

func catalogURL(ap netip.AddrPort) string {
	return "https://catalog.test:" + strconv.Itoa(int(ap.Port())) + "/catalog.yml"
}

const goodCatalog = `name: Test Marketplace
description: a test
version: 1.0.0
modules:
  - name: git-tools
    description: Git helpers
    version: 1.0.0
    repository: https://example.com/git-tools.git
    tags: [git]
  - name: python-lint
    description: Lint Python
    version: 2.0.0
    repository: https://example.com/python-lint.git
`
