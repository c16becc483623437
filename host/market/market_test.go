package market

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
)

func ruleOf(err error) string {
	if vs := rejection.All(err); len(vs) > 0 {
		return vs[0].Rule.String()
	}
	return ""
}

// nothingRegistered: a refused add leaves no file behind.
func nothingRegistered(t *testing.T, home string) {
	t.Helper()
	for _, p := range []string{filepath.Join(home, Dir, "community.yml"), filepath.Join(home, CacheDir, "community.yml")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("a refused add wrote %s", p)
		}
	}
}

func TestAddSearchSetRemove(t *testing.T) {
	tt := newTestTLS(t)
	_, ap := tt.server(t, serveBody(goodCatalog))
	r, home := tt.registry(t, ap.Port())
	c, err := r.Add(context.Background(), "community", catalogURL(ap))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Modules) != 2 {
		t.Fatalf("%+v", c)
	}
	for _, p := range []string{filepath.Join(home, "market", "community.yml"), filepath.Join(home, "market", "cache", "community.yml")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Add(context.Background(), "community", catalogURL(ap)); !errors.Is(err, ErrExists) {
		t.Fatalf("second add: %v", err)
	}
	hits, err := r.Search("git")
	if err != nil || len(hits) != 1 || hits[0].Entry.Name != "git-tools" || hits[0].Market != "community" {
		t.Fatalf("search: %+v %v", hits, err)
	}
	if err := r.SetEnabled("community", false); err != nil {
		t.Fatal(err)
	}
	if hits, _ := r.Search("git"); len(hits) != 0 {
		t.Fatalf("a disabled marketplace was searched: %+v", hits)
	}
	if h, err := r.Lookup("community", "python-lint"); err != nil || h.Entry.Version != "2.0.0" {
		t.Fatalf("lookup: %+v %v", h, err)
	}
	if _, err := r.Update(context.Background(), "community"); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove("community"); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove("community"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second remove: %v", err)
	}
	nothingRegistered(t, home)
}

// The default configuration does not admit a loopback catalog server.
func TestAddDefaultConfigRefusesLoopback(t *testing.T) {
	tt := newTestTLS(t)
	_, ap := tt.server(t, serveBody(goodCatalog))
	r, home := tt.registry(t)
	_, err := r.Add(context.Background(), "community", catalogURL(ap))
	if ruleOf(err) != "remote.destination" {
		t.Fatalf("got %v (%s), want remote.destination", err, ruleOf(err))
	}
	nothingRegistered(t, home)
}

func TestAddRefusesHostileCatalogs(t *testing.T) {
	tt := newTestTLS(t)
	huge := "name: x\nversion: '1'\nmodules: []\ndescription: '" + strings.Repeat("a", MaxCatalogBytes) + "'\n"
	entry := func(repo string) string {
		return "name: x\nversion: '1'\nmodules:\n  - name: m\n    description: d\n    version: '1'\n    repository: " + repo + "\n"
	}
	for _, tc := range []struct {
		name, body, rule string
		catalogErr       bool
	}{
		{"oversized", huge, "remote.bound", false},
		{"malformed", "name: [unclosed\n", "", true},
		{"unknown key", "name: x\nmodules: []\nbackdoor: 1\n", "", true},
		{"module at a private address", entry("https://10.1.2.3/m.git"), "remote.destination", true},
		{"module at loopback", entry("https://127.0.0.1/m.git"), "remote.destination", true},
		{"module over http", entry("http://example.com/m.git"), "remote.scheme", true},
		{"module with credentials", entry("https://u:p@example.com/m.git"), "remote.url", true},
		{"bad module name", "name: x\nmodules:\n  - name: ../evil\n    description: d\n    version: '1'\n    repository: https://example.com/m.git\n", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ap := tt.server(t, serveBody(tc.body))
			r, home := tt.registry(t, ap.Port())
			_, err := r.Add(context.Background(), "community", catalogURL(ap))
			if err == nil || ruleOf(err) != tc.rule || errors.Is(err, ErrCatalog) != tc.catalogErr {
				t.Fatalf("got %v (rule %q), want rule %q, catalog error %v", err, ruleOf(err), tc.rule, tc.catalogErr)
			}
			nothingRegistered(t, home)
		})
	}
}

func TestAddRefusesHTTPAndRedirectToLoopback(t *testing.T) {
	tt := newTestTLS(t)
	r, home := tt.registry(t)
	if _, err := r.Add(context.Background(), "community", "http://example.com/catalog.yml"); ruleOf(err) != "remote.scheme" {
		t.Fatalf("http catalog: %v", err)
	}
	nothingRegistered(t, home)

	_, inner := tt.server(t, serveBody(goodCatalog))
	_, outer := tt.server(t, http.RedirectHandler(catalogURL(inner), http.StatusFound))
	r, home = tt.registry(t, outer.Port()) // only the first server is admitted
	if _, err := r.Add(context.Background(), "community", catalogURL(outer)); ruleOf(err) != "remote.destination" {
		t.Fatalf("redirect to loopback: %v (%s)", err, ruleOf(err))
	}
	nothingRegistered(t, home)
}

// A refused update keeps the catalog that was cached.
func TestUpdateRefusedKeepsCache(t *testing.T) {
	tt := newTestTLS(t)
	var body atomic.Pointer[string]
	good := goodCatalog
	body.Store(&good)
	_, ap := tt.server(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(*body.Load())) }))
	r, home := tt.registry(t, ap.Port())
	if _, err := r.Add(context.Background(), "community", catalogURL(ap)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(home, CacheDir, "community.yml"))
	bad := "name: x\nmodules: []\nbackdoor: 1\n"
	body.Store(&bad)
	if _, err := r.Update(context.Background(), "community"); !errors.Is(err, ErrCatalog) {
		t.Fatalf("update: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(home, CacheDir, "community.yml"))
	if string(before) != string(after) {
		t.Fatal("a refused update changed the cache")
	}
}
