package module

import (
	"context"
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/host/remote/remotetest"
)

// gitSource publishes repo over https (git http-backend behind a TLS
// server on loopback) and returns the source naming it and host/remote's
// client admitted to it, as mod add would build them.
func gitSource(t *testing.T, repo *remotetest.GitRepo) (Source, *remote.Client) {
	t.Helper()
	srv := httptest.NewUnstartedServer(repo.Handler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ap := netip.MustParseAddrPort(srv.Listener.Addr().String())
	port := strconv.Itoa(int(ap.Port()))
	adm, err := config.ParseAdmission("[127.0.0.1/32]:" + port)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := config.NewRemote([]config.Admission{adm}, 3)
	if err != nil {
		t.Fatal(err)
	}
	p, err := remote.NewPolicy(rc)
	if err != nil {
		t.Fatal(err)
	}
	l, err := remote.NewLimits(64<<20, time.Minute, 64<<20, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	c, err := remote.New(remote.Options{Policy: p, Limits: l, Resolver: loopbackResolver{}, RootCAs: pool})
	if err != nil {
		t.Fatal(err)
	}
	// httptest's certificate names example.com; the resolver answers it
	// with loopback.
	return mustSource(t, "https://example.com:"+port+"/repo.git"), c
}

type loopbackResolver struct{}

func (loopbackResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if host == "example.com" {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}
