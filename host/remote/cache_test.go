package remote

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The cache never crosses extension identities: extension B fetching the
// URL extension A cached gets no conditional request built from A's entry,
// is served B's own bytes, and leaves A's entry untouched; A revalidates and
// is served its own cached bytes.
func TestCacheNeverCrossesExtensionIdentities(t *testing.T) {
	ca := newTestCA(t)
	var mu sync.Mutex
	var conditional []string
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		conditional = append(conditional, r.Header.Get("If-None-Match"))
		mu.Unlock()
		who := r.Header.Get("X-Who") // stands in for per-requester content
		etag := `"` + who + `-v1"`
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Write([]byte("bytes for " + who))
	}), "cache.test")
	res := newResolver()
	res.set("cache.test", addrs("127.0.0.1"))
	dir := filepath.Join(t.TempDir(), "cache")
	cache, err := OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool, Cache: cache})
	u := urlFor("cache.test", ap, "/pkg.tgz")
	fetch := func(ext string) (FetchReport, string) {
		t.Helper()
		dst := stagingFile(t)
		rep, err := c.Fetch(context.Background(), fetchReq(ext, u, map[string]string{"X-Who": ext}), dst, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rep, readStaged(t, dst)
	}
	if rep, body := fetch("ext-a"); rep.FromCache || body != "bytes for ext-a" {
		t.Fatalf("first A fetch: %+v %q", rep, body)
	}
	if rep, body := fetch("ext-b"); rep.FromCache || body != "bytes for ext-b" {
		t.Fatalf("B was served from the cache: %+v %q", rep, body)
	}
	if rep, body := fetch("ext-a"); !rep.FromCache || body != "bytes for ext-a" {
		t.Fatalf("A's revalidation: %+v %q", rep, body)
	}
	if rep, body := fetch("ext-b"); !rep.FromCache || body != "bytes for ext-b" {
		t.Fatalf("B's revalidation: %+v %q", rep, body)
	}
	// The same URL spelled with an upper-case scheme and a fragment is the
	// same entry.
	dst := stagingFile(t)
	rep, err := c.Fetch(context.Background(), fetchReq("ext-a", "HTTPS"+strings.TrimPrefix(u, "https")+"#frag", map[string]string{"X-Who": "ext-a"}), dst, nil)
	if err != nil || !rep.FromCache || readStaged(t, dst) != "bytes for ext-a" {
		t.Fatalf("respelled URL: %+v %v", rep, err)
	}
	mu.Lock()
	want := []string{"", "", `"ext-a-v1"`, `"ext-b-v1"`, `"ext-a-v1"`}
	if strings.Join(conditional, ",") != strings.Join(want, ",") {
		t.Fatalf("conditional headers sent = %q, want %q", conditional, want)
	}
	mu.Unlock()
	// Through the lookup directly: an identity never sees another's entry,
	// whatever it is called.
	for _, other := range []string{"ext-c", "", "ext-a/../ext-b", "EXT-A"} {
		if cache.lookup(other, u, 1<<20) != nil {
			t.Errorf("identity %q sees a cached entry", other)
		}
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(dir)
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("cache dir mode = %v, %v", fi.Mode(), err)
		}
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err == nil && fi.Mode().Perm()&0o077 != 0 {
				t.Errorf("%s is accessible to group or others (%v)", filepath.Base(p), fi.Mode())
			}
			return nil
		})
	}
}

// A tampered cache entry is refused rather than served.
func TestCacheTamperedEntryRefused(t *testing.T) {
	ca := newTestCA(t)
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte("original"))
	}), "cache.test")
	res := newResolver()
	res.set("cache.test", addrs("127.0.0.1"))
	cache, _ := OpenCache(t.TempDir())
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 1<<20, 10*time.Second), Resolver: res, RootCAs: ca.pool, Cache: cache})
	u := urlFor("cache.test", ap, "/x")
	if _, err := c.Fetch(context.Background(), fetchReq("e", u, nil), stagingFile(t), nil); err != nil {
		t.Fatal(err)
	}
	_, base := cache.paths("e", u)
	if err := os.WriteFile(base+".body", []byte("tampered"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Fetch(context.Background(), fetchReq("e", u, nil), stagingFile(t), nil); err == nil {
		t.Fatal("a tampered entry was served")
	}
}

// An entry's metadata is judged only within its bound: a valid entry is
// found, the same entry padded past maxMetaBytes is unusable.
func TestCacheMetadataBound(t *testing.T) {
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const u = "https://x.test/a"
	dir, base := cache.paths("e", u)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	meta := `{"url":"` + u + `","etag":"\"v1\"","size":0,"sha256":""}`
	if err := os.WriteFile(base+".meta", []byte(meta), 0o600); err != nil {
		t.Fatal(err)
	}
	if cache.lookup("e", u, 1<<20) == nil {
		t.Fatal("a valid entry was not found")
	}
	padded := meta + strings.Repeat(" ", maxMetaBytes)
	if err := os.WriteFile(base+".meta", []byte(padded), 0o600); err != nil {
		t.Fatal(err)
	}
	if cache.lookup("e", u, 1<<20) != nil {
		t.Fatal("metadata over its bound was used")
	}
}
