package extension

import (
	"crypto/sha256"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/remote/remotetest"
	"github.com/lola-pm/lola/schema"
)

const remoteManifest = "name: demo\nversion: %s\nkind: target\nartifacts:\n  tier1: dist/x.wasm\n"

func demoFiles(prefix, version, wasm string) map[string]string {
	return map[string]string{
		prefix + ManifestFile:  strings.Replace(remoteManifest, "%s", version, 1),
		prefix + "dist/x.wasm": wasm,
	}
}

// TestAddArchiveURLFetchedUnderPolicyAndRecordedRedacted: an https archive
// the policy admits is fetched by host/remote, unwrapped, installed and
// pinned; the lock records the URL with its query values redacted, and
// the token appears nowhere in the lock.
func TestAddArchiveURLFetchedUnderPolicyAndRecordedRedacted(t *testing.T) {
	home := t.TempDir()
	site := newTLSSite(t)
	site.serveBytes(archiveBytes(t, "demo.tar.gz", demoFiles("demo-1.0.0/", "1.0.0", "wasm-1"), nil))
	c := remoteClient(t, []string{site.admit()}, site)
	src := site.url("/releases/demo-1.0.0.tar.gz?sig=s3cr3t-token&expires=99#frag")
	got, err := Add(home, src, AddOptions{Fetcher: c, Cloner: c})
	if err != nil {
		t.Fatal(err)
	}
	want := site.url("/releases/demo-1.0.0.tar.gz?sig=redacted&expires=redacted")
	if got.Entry.Source != want {
		t.Fatalf("recorded source %q; want %q", got.Entry.Source, want)
	}
	if a := got.Entry.Artifacts[Tier1]; a == nil || a.SHA256 != hexOf(sha256.Sum256([]byte("wasm-1"))) {
		t.Fatalf("pin %+v", a)
	}
	b, err := os.ReadFile(filepath.Join(home, LockFile))
	if err != nil || strings.Contains(string(b), "s3cr3t") || strings.Contains(string(b), "frag") {
		t.Fatalf("lock %s %v", b, err)
	}
	if w, err := os.ReadFile(filepath.Join(home, ExtensionsDir, "demo", "dist", "x.wasm")); err != nil || string(w) != "wasm-1" {
		t.Fatalf("installed artifact %q %v", w, err)
	}
	if es := homeEntries(t, home); len(es) != 1 || es[0] != "demo" {
		t.Fatalf("extensions dir %v (staging left behind?)", es)
	}

	// The redacted URL is not what was fetched: update asks for it again
	// and leaves the installed version alone.
	site.serveBytes(archiveBytes(t, "demo.tar.gz", demoFiles("demo-1.1.0/", "1.1.0", "wasm-2"), nil))
	if _, err := Update(home, "demo", AddOptions{Fetcher: c}); !errors.Is(err, ErrSourceHeldBack) {
		t.Fatalf("update of a redacted source: %v", err)
	}
	if lock, _ := ReadLock(home); lock.Extensions["demo"].Version != "1.0.0" {
		t.Fatalf("refused update changed the pin: %+v", lock.Extensions["demo"])
	}
	up, err := Update(home, "demo", AddOptions{Fetcher: c, From: site.url("/releases/demo-1.1.0.tar.gz?sig=new-token")})
	if err != nil {
		t.Fatal(err)
	}
	if up.Entry.Version != "1.1.0" || up.Entry.Source != site.url("/releases/demo-1.1.0.tar.gz?sig=redacted") {
		t.Fatalf("updated entry %+v", up.Entry)
	}
}

// TestUpdateRefetchesRecordedArchiveURL: a URL recorded as it was given
// (nothing redacted) is fetched again by ext update.
func TestUpdateRefetchesRecordedArchiveURL(t *testing.T) {
	home := t.TempDir()
	site := newTLSSite(t)
	var hits atomic.Int32
	body := atomic.Pointer[[]byte]{}
	v1 := archiveBytes(t, "demo.zip", demoFiles("", "1.0.0", "wasm-1"), nil)
	body.Store(&v1)
	site.handle(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write(*body.Load())
	}))
	c := remoteClient(t, []string{site.admit()}, site)
	src := site.url("/demo/latest.zip")
	if _, err := Add(home, src, AddOptions{Fetcher: c}); err != nil {
		t.Fatal(err)
	}
	v2 := archiveBytes(t, "demo.zip", demoFiles("", "1.1.0", "wasm-2"), nil)
	body.Store(&v2)
	up, err := Update(home, "demo", AddOptions{Fetcher: c})
	if err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 2 || up.Entry.Version != "1.1.0" || up.Entry.Source != src ||
		up.Entry.Artifacts[Tier1].SHA256 != hexOf(sha256.Sum256([]byte("wasm-2"))) {
		t.Fatalf("hits %d, entry %+v", hits.Load(), up.Entry)
	}
}

// TestAddArchiveURLRefusals: each remote and path rule refuses the whole
// source with its rule name, and nothing is placed under
// $LOLA_HOME/extensions nor pinned.
func TestAddArchiveURLRefusals(t *testing.T) {
	good := func(t *testing.T) []byte {
		return archiveBytes(t, "demo.tar.gz", demoFiles("", "1.0.0", "wasm"), nil)
	}
	m := strings.Replace(remoteManifest, "%s", "1.0.0", 1)
	cases := []struct {
		name string
		// setup serves what the case needs and returns the source and client.
		setup func(t *testing.T) (string, AddOptions)
		rule  schema.Rule
	}{
		{"plain http", func(t *testing.T) (string, AddOptions) {
			site := newTLSSite(t)
			site.serveBytes(good(t))
			c := remoteClient(t, []string{site.admit()}, site)
			return "http://example.com:" + portOf(site.ap) + "/demo.tar.gz", AddOptions{Fetcher: c}
		}, schema.RuleRemoteScheme},
		{"loopback not admitted", func(t *testing.T) (string, AddOptions) {
			site := newTLSSite(t)
			site.serveBytes(good(t))
			c := remoteClient(t, nil, site)
			return site.url("/demo.tar.gz"), AddOptions{Fetcher: c}
		}, schema.RuleRemoteDestination},
		{"name resolving to a private address", func(t *testing.T) (string, AddOptions) {
			site := newTLSSite(t)
			c := remoteClient(t, []string{site.admit()}, site)
			return "https://private.example/demo.tar.gz", AddOptions{Fetcher: c}
		}, schema.RuleRemoteDestination},
		{"redirect to loopback not admitted", func(t *testing.T) (string, AddOptions) {
			inner := newTLSSite(t) // would serve a good archive if reached
			inner.serveBytes(good(t))
			outer := newTLSSite(t)
			outer.handle(http.RedirectHandler(inner.url("/demo.tar.gz"), http.StatusFound))
			c := remoteClient(t, []string{outer.admit()}, outer, inner)
			return outer.url("/demo.tar.gz"), AddOptions{Fetcher: c}
		}, schema.RuleRemoteDestination},
		{"traversal in the fetched archive", func(t *testing.T) (string, AddOptions) {
			site := newTLSSite(t)
			site.serveBytes(archiveBytes(t, "demo.tar.gz", map[string]string{ManifestFile: m, "dist/x.wasm": "w", "../evil": "x"}, nil))
			c := remoteClient(t, []string{site.admit()}, site)
			return site.url("/demo.tar.gz"), AddOptions{Fetcher: c}
		}, schema.RulePathTraversal},
		{"symlink in the fetched archive", func(t *testing.T) (string, AddOptions) {
			site := newTLSSite(t)
			site.serveBytes(archiveBytes(t, "demo.tar.gz", map[string]string{ManifestFile: m}, map[string]string{"dist/x.wasm": "/etc/passwd"}))
			c := remoteClient(t, []string{site.admit()}, site)
			return site.url("/demo.tar.gz"), AddOptions{Fetcher: c}
		}, schema.RulePathSymlink},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			src, o := tc.setup(t)
			_, err := Add(home, src, o)
			assertRule(t, err, tc.rule)
			assertNothingInstalled(t, home)
		})
	}
}

// TestAddArchiveURLOversizedIsRefusedWhileDownloading: a body larger than
// any archive within the intake bounds could be is cut off at that size
// by host/remote (remote.bound), not downloaded whole and refused after.
// The body is streamed without a Content-Length, so only the byte count
// during the download can catch it.
func TestAddArchiveURLOversizedIsRefusedWhileDownloading(t *testing.T) {
	home := t.TempDir()
	const total = 48 << 20 // under the client's 64 MiB bound, far over the intake's
	b, err := module.NewBounds(100, 1<<20, 1<<20, 1024)
	if err != nil {
		t.Fatal(err)
	}
	site := newTLSSite(t)
	var written atomic.Int64
	site.handle(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 32<<10)
		for written.Load() < total {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	c := remoteClient(t, []string{site.admit()}, site)
	_, err = Add(home, site.url("/huge.tar.gz"), AddOptions{Fetcher: c, Bounds: b})
	assertRule(t, err, schema.RuleRemoteBound)
	site.srv.Close() // waits for the handler
	if written.Load() >= total {
		t.Fatalf("the whole %d-byte body was sent; the fetch was not cut off", written.Load())
	}
	assertNothingInstalled(t, home)
}

// TestAddGitSourceClonedUnderPolicy: a repository holding the manifest and
// its built artifacts is cloned by host/remote, copied without .git,
// installed and pinned; ext update clones it again and pins the new
// commit's bytes.
func TestAddGitSourceClonedUnderPolicy(t *testing.T) {
	home := t.TempDir()
	repo := remotetest.NewGitRepo(t)
	repo.Commit(demoFiles("", "1.0.0", "wasm-1"))
	site := newTLSSite(t)
	site.handle(repo.Handler())
	c := remoteClient(t, []string{site.admit()}, site)
	src := site.url("/repo.git")
	got, err := Add(home, src, AddOptions{Fetcher: c, Cloner: c})
	if err != nil {
		t.Fatal(err)
	}
	if got.Entry.Source != src || got.Entry.Artifacts[Tier1].SHA256 != hexOf(sha256.Sum256([]byte("wasm-1"))) {
		t.Fatalf("entry %+v", got.Entry)
	}
	if _, err := os.Lstat(filepath.Join(home, ExtensionsDir, "demo", ".git")); err == nil {
		t.Fatal(".git was installed")
	}
	repo.Commit(demoFiles("", "1.1.0", "wasm-2"))
	up, err := Update(home, "demo", AddOptions{Cloner: c})
	if err != nil {
		t.Fatal(err)
	}
	if up.Entry.Version != "1.1.0" || up.Entry.Artifacts[Tier1].SHA256 != hexOf(sha256.Sum256([]byte("wasm-2"))) {
		t.Fatalf("updated entry %+v", up.Entry)
	}
	if w, _ := os.ReadFile(filepath.Join(home, ExtensionsDir, "demo", "dist", "x.wasm")); string(w) != "wasm-2" {
		t.Fatalf("installed artifact %q", w)
	}
}

// TestAddGitSourceRefusals: a repository holding a symbolic link is
// refused whole (path.symlink), as is one on a destination the policy does
// not admit; nothing is installed or pinned.
func TestAddGitSourceRefusals(t *testing.T) {
	t.Run("symlink in the repository", func(t *testing.T) {
		home := t.TempDir()
		repo := remotetest.NewGitRepo(t)
		files := demoFiles("", "1.0.0", "wasm")
		files["dist/escape"] = "->/etc/passwd"
		repo.Commit(files)
		site := newTLSSite(t)
		site.handle(repo.Handler())
		c := remoteClient(t, []string{site.admit()}, site)
		_, err := Add(home, site.url("/repo.git"), AddOptions{Cloner: c})
		assertRule(t, err, schema.RulePathSymlink)
		assertNothingInstalled(t, home)
	})
	t.Run("loopback not admitted", func(t *testing.T) {
		home := t.TempDir()
		repo := remotetest.NewGitRepo(t)
		repo.Commit(demoFiles("", "1.0.0", "wasm"))
		site := newTLSSite(t)
		site.handle(repo.Handler())
		c := remoteClient(t, nil, site)
		_, err := Add(home, site.url("/repo.git"), AddOptions{Cloner: c})
		assertRule(t, err, schema.RuleRemoteDestination)
		assertNothingInstalled(t, home)
	})
	t.Run("no remote client", func(t *testing.T) {
		home := t.TempDir()
		if _, err := Add(home, "https://example.com/repo.git", AddOptions{}); err == nil {
			t.Fatal("a git source was added without a remote client")
		}
		assertNothingInstalled(t, home)
	})
}

// TestRecordedSource: what the lock records for each kind of source.
func TestRecordedSource(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/a.tar.gz?sig=abc&x":    "https://example.com/a.tar.gz?sig=redacted&redacted",
		"https://example.com/r.git#main":            "https://example.com/r.git",
		"ssh://git@example.com/r.git":               "ssh://git@example.com/r.git",
		"git@example.com:me/r.git":                  "ssh://git@example.com/me/r.git",
		"ssh://git:pw@example.com/r.git":            "ssh://redacted@example.com/r.git",
		"https://example.com/releases/x-1.0.tar.gz": "https://example.com/releases/x-1.0.tar.gz",
	} {
		src, err := module.ParseSource(in)
		if err != nil {
			t.Fatal(err)
		}
		got := recordedSource(src)
		if got != want {
			t.Errorf("%s: recorded %q; want %q", in, got, want)
		}
		if held := heldBack(got); held != (strings.Contains(want, "redacted")) {
			t.Errorf("%s: heldBack(%q) = %v", in, got, held)
		}
	}
}
