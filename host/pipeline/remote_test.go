package pipeline

import (
	"context"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema"
)

// testRemote is a client for a TLS server on 127.0.0.1, re-admitted by the
// operator allowlist (the default refuses loopback), trusting only the
// server's test certificate.
func testRemote(t *testing.T, srv *httptest.Server, limits remote.Limits) *remote.Client {
	t.Helper()
	adm, err := config.ParseAdmission("127.0.0.1/32")
	if err != nil {
		t.Fatal(err)
	}
	r, err := config.NewRemote([]config.Admission{adm}, 3)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := remote.NewPolicy(r)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	c, err := remote.New(remote.Options{Policy: pol, Limits: limits, RootCAs: pool})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fetchPlanFor(srv *httptest.Server, path string) string {
	u := srv.URL + path
	return `{"protocol":1,"intents":[
		{"op":"delete","path":"vendor"},
		{"op":"write","path":"vendor/README","content":"fetched below"},
		{"op":"fetch","url":"` + u + `","dest":"vendor/x.tgz","headers":{"Authorization":"Bearer extension-secret"}}]}`
}

// TestFetchAppliedWithItsHopLogged: a fetch intent is performed by the
// host, the body lands at dest, the extension's Authorization header never
// reaches the server, and the dialled address is appended to the audit log
// under the plan's correlation id.
func TestFetchAppliedWithItsHopLogged(t *testing.T) {
	var sawAuth string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawAuth = r.Header.Get("Authorization")
		w.Write([]byte("tarball bytes"))
	}))
	defer srv.Close()
	root := t.TempDir()
	log, logPath := openLog(t)
	who := proposer(t, []string{string(schema.CapNetHTTP)}, nil)
	client := testRemote(t, srv, remote.DefaultLimits())
	flushes := durable.Calls()
	res, err := Apply(context.Background(), root, decode(t, fetchPlanFor(srv, "/x.tgz")), who,
		Options{FS: "bytes", Log: log, Warn: failOnWarn(t), Remote: client})
	if err != nil {
		t.Fatal(err)
	}
	flushes = durable.Calls() - flushes
	if res.Outcome != OutcomeCommitted {
		t.Fatalf("outcome %v: %v", res.Outcome, res.Err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "vendor/x.tgz")); err != nil || string(b) != "tarball bytes" {
		t.Fatalf("dest %q %v", b, err)
	}
	if sawAuth != "" {
		t.Fatalf("the extension's Authorization header reached the server: %q", sawAuth)
	}
	es, err := audit.Read(logPath, audit.Filter{Correlation: res.Correlation})
	if err != nil {
		t.Fatal(err)
	}
	hops := 0
	for _, e := range es {
		if e.Event != nil && e.Event.Kind == audit.EventHop {
			hops++
		}
	}
	if hops != 1 {
		t.Fatalf("%d hop records under the correlation, want 1", hops)
	}
	// Open's directory sync, the pre-apply record, one hop, the outcome.
	if n := log.Syncs(); n > 3+uint64(hops) {
		t.Fatalf("%d audit fsyncs for a plan with %d remote hop(s), want at most %d", n, hops, 3+hops)
	}
	// The whole apply, every flush of the process: with syncfs (Linux) and
	// the log beside the root, 3 + one per hop (the hop record's fsync,
	// which makes the pre-apply record durable too).
	if runtime.GOOS == "linux" && flushes != 3+uint64(hops) {
		t.Fatalf("%d flushes for a plan with %d remote hop(s), want %d", flushes, hops, 3+hops)
	}
	raw, _ := os.ReadFile(logPath)
	if strings.Contains(string(raw), "extension-secret") || strings.Contains(string(raw), "tarball bytes") {
		t.Fatal("a credential or body reached the audit log")
	}
}

// TestOversizedAndStalledFetchesLeaveThePrePlanTree: a body over the byte
// bound and a server that never answers each abandon the operation and
// roll the whole plan back (the delete and the write included).
func TestOversizedAndStalledFetchesLeaveThePrePlanTree(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stall" {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		}
		w.Write([]byte(strings.Repeat("x", 4096)))
	}))
	defer srv.Close()
	limits, err := remote.NewLimits(1024, 500*time.Millisecond, 1<<20, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/big", "/stall"} {
		t.Run(path, func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, "vendor/old"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "vendor/old/file"), []byte("pre-plan"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, root)
			log, logPath := openLog(t)
			who := proposer(t, []string{string(schema.CapNetHTTP)}, nil)
			res, err := Apply(context.Background(), root, decode(t, fetchPlanFor(srv, path)), who,
				Options{FS: "bytes", Log: log, Warn: failOnWarn(t), Remote: testRemote(t, srv, limits)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != OutcomeRolledBack || res.Trigger == nil || res.Trigger.Op != schema.OpFetch {
				t.Fatalf("outcome %v trigger %+v err %v", res.Outcome, res.Trigger, res.Err)
			}
			if !errors.Is(res.Err, rejection.Rule(schema.RuleRemoteBound)) {
				t.Fatalf("cause %v, want remote.bound", res.Err)
			}
			if !same(before, snapshot(t, root)) {
				t.Fatalf("the tree is not pre-plan: %v", snapshot(t, root))
			}
			// The rollback is logged under the pre-apply record's own
			// correlation id, naming the fetch and its rule, so the pair
			// cannot be read as a successful change.
			es, err := audit.Read(logPath, audit.Filter{Correlation: res.Correlation})
			if err != nil {
				t.Fatal(err)
			}
			if len(es) < 2 || es[0].Kind != audit.KindPlan || es[len(es)-1].Kind != audit.KindOutcome {
				t.Fatalf("records under the correlation: %v", kinds(t, logPath))
			}
			out := es[len(es)-1].Outcome
			if out.Outcome != audit.OutcomeRolledBack || out.Intent == nil || out.Intent.Index != 2 || out.Intent.Op != schema.OpFetch ||
				len(out.Rules) != 1 || out.Rules[0] != schema.RuleRemoteBound {
				t.Fatalf("outcome record %+v", out)
			}
		})
	}
}
