package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Cache holds fetched bodies keyed by extension identity and URL, under a
// directory the caller gives ($LOLA_HOME/cache). Each identity has its own
// subdirectory named by a hash of the identity, and each entry a file named
// by a hash of the URL, so no spelling of an identity or URL can reach
// another's entry, and one extension's fetch never reads, revalidates with,
// or overwrites another's bytes. Directories are 0700 and files 0600.
//
// A cached body is used only when the server answers 304 to the validators
// (ETag, Last-Modified) stored with it, and only after its hash matches the
// one recorded when it was stored. A response marked Cache-Control: no-store,
// or carrying no validator, is not stored.
type Cache struct {
	dir string
}

// OpenCache opens (creating, mode 0700) the cache rooted at dir.
func OpenCache(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, errors.New("cache: cannot create the cache directory")
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, errors.New("cache: cannot restrict the cache directory")
	}
	return &Cache{dir: dir}, nil
}

type cacheMeta struct {
	URL          string `json:"url"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	Size         int64  `json:"size"`
	SHA256       string `json:"sha256"`
}

func hashName(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// paths returns the identity's directory and the entry's base path (without
// the .body/.meta suffix).
func (c *Cache) paths(ext, rawURL string) (string, string) {
	d := filepath.Join(c.dir, hashName("ext\x00"+ext))
	return d, filepath.Join(d, hashName("url\x00"+rawURL))
}

// maxMetaBytes bounds an entry's metadata file, which is read before it is
// judged: an oversized one is unusable, never read whole.
const maxMetaBytes = 64 << 10

// readBounded reads at most max bytes of the file at path and refuses a
// file holding more.
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = errors.New("cache: metadata over its bound")
	}
	return b, err
}

// cacheEntry is a stored, size-checked entry for one identity and URL.
type cacheEntry struct {
	base string
	meta cacheMeta
}

// lookup returns the entry for ext and rawURL, or nil when there is none or
// it is unusable (malformed metadata, over the bound, another URL).
func (c *Cache) lookup(ext, rawURL string, max int64) *cacheEntry {
	_, base := c.paths(ext, rawURL)
	b, err := readBounded(base+".meta", maxMetaBytes)
	if err != nil {
		return nil
	}
	var m cacheMeta
	if json.Unmarshal(b, &m) != nil || m.URL != rawURL || m.Size < 0 || m.Size > max || (m.ETag == "" && m.LastModified == "") {
		return nil
	}
	return &cacheEntry{base: base, meta: m}
}

// conditional adds the entry's validators to h, replacing any the extension
// supplied.
func (e *cacheEntry) conditional(h http.Header) {
	h.Del("If-None-Match")
	h.Del("If-Modified-Since")
	if e.meta.ETag != "" {
		h.Set("If-None-Match", e.meta.ETag)
	}
	if e.meta.LastModified != "" {
		h.Set("If-Modified-Since", e.meta.LastModified)
	}
}

// copyTo writes the cached body to dst, verifying size and hash; a mismatch
// is an error (the caller rolls back), never silently served.
func (e *cacheEntry) copyTo(dst *os.File) (int64, string, error) {
	f, err := os.Open(e.base + ".body")
	if err != nil {
		return 0, "", errors.New("cache: entry body missing")
	}
	defer f.Close()
	sum := sha256.New()
	n, err := io.Copy(io.MultiWriter(dst, sum), io.LimitReader(f, e.meta.Size+1))
	if err != nil {
		return n, "", errors.New("cache: cannot copy the entry")
	}
	got := hex.EncodeToString(sum.Sum(nil))
	if n != e.meta.Size || got != e.meta.SHA256 {
		return n, "", errors.New("cache: entry does not match its recorded hash")
	}
	return n, got, nil
}

// pendingEntry is a body being written to the cache alongside the fetch.
type pendingEntry struct {
	f    *os.File
	base string
	meta cacheMeta
	err  error
}

// begin starts storing a response for ext and rawURL, or returns nil when the
// response is not cacheable or the cache cannot take it.
func (c *Cache) begin(ext, rawURL string, h http.Header) *pendingEntry {
	if strings.Contains(strings.ToLower(h.Get("Cache-Control")), "no-store") {
		return nil
	}
	m := cacheMeta{URL: rawURL, ETag: h.Get("ETag"), LastModified: h.Get("Last-Modified")}
	if m.ETag == "" && m.LastModified == "" {
		return nil
	}
	dir, base := c.paths(ext, rawURL)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil
	}
	f, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return nil
	}
	return &pendingEntry{f: f, base: base, meta: m}
}

// Write tees body bytes into the entry; a cache write error is remembered
// and never fails the fetch.
func (p *pendingEntry) Write(b []byte) (int, error) {
	if p.err == nil {
		_, p.err = p.f.Write(b)
	}
	return len(b), nil
}

// commit publishes the entry: body first, then the metadata that makes it
// visible, each by rename so a reader never sees a half-written file.
func (p *pendingEntry) commit(size int64, sum string) {
	if p.f == nil {
		return
	}
	name := p.f.Name()
	err := p.f.Close()
	p.f = nil
	if p.err != nil || err != nil {
		os.Remove(name)
		return
	}
	p.meta.Size, p.meta.SHA256 = size, sum
	mb, err := json.Marshal(p.meta)
	// Unpublish the old entry first: its metadata must never describe the
	// new body.
	os.Remove(p.base + ".meta")
	if err != nil || os.Rename(name, p.base+".body") != nil {
		os.Remove(name)
		return
	}
	tmp := p.base + ".meta.tmp"
	if os.WriteFile(tmp, mb, 0o600) != nil || os.Rename(tmp, p.base+".meta") != nil {
		os.Remove(tmp)
	}
}

// abort discards an uncommitted entry.
func (p *pendingEntry) abort() {
	if p.f != nil {
		name := p.f.Name()
		p.f.Close()
		p.f = nil
		os.Remove(name)
	}
}
