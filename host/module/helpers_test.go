package module

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// entry is one archive member a test builds. Kind: 'f' file, 'd' dir,
// 'l' symlink, 'h' hard link, 'c' char device, 'b' block device,
// 'p' FIFO.
type entry struct {
	name string
	kind byte
	body string
	mode int64 // permission bits; 0 means 0644 / 0755
}

func file(name, body string) entry { return entry{name: name, kind: 'f', body: body} }
func dir(name string) entry        { return entry{name: name, kind: 'd'} }

// goodEntries is a minimal valid module, so a hostile entry added to it is
// the only reason for a refusal.
var goodEntries = []entry{file("skills/alpha/SKILL.md", "---\ndescription: Alpha\n---\nbody\n")}

func writeTar(t testing.TB, path string, gz bool, entries []entry) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Format: tar.FormatPAX}
		switch e.kind {
		case 'f':
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.body))
		case 'd':
			h.Typeflag = tar.TypeDir
		case 'l':
			h.Typeflag, h.Linkname = tar.TypeSymlink, e.body
		case 'h':
			h.Typeflag, h.Linkname = tar.TypeLink, e.body
		case 'c':
			h.Typeflag, h.Devmajor, h.Devminor = tar.TypeChar, 1, 3
		case 'b':
			h.Typeflag, h.Devmajor, h.Devminor = tar.TypeBlock, 8, 0
		case 'p':
			h.Typeflag = tar.TypeFifo
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if e.kind == 'f' {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if gz {
		var zb bytes.Buffer
		zw := gzip.NewWriter(&zb)
		zw.Write(data)
		zw.Close()
		data = zb.Bytes()
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func writeZip(t *testing.T, path string, entries []entry) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		perm := fs.FileMode(e.mode)
		if perm == 0 {
			perm = 0o644
		}
		switch e.kind {
		case 'f':
			h.SetMode(perm)
		case 'd':
			h.SetMode(fs.ModeDir | 0o755)
		case 'l':
			h.SetMode(fs.ModeSymlink | 0o777)
		case 'c':
			h.SetMode(fs.ModeDevice | fs.ModeCharDevice | 0o644)
		case 'b':
			h.SetMode(fs.ModeDevice | 0o644)
		case 'p':
			h.SetMode(fs.ModeNamedPipe | 0o644)
		default:
			t.Fatalf("zip cannot hold kind %q", e.kind)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if e.kind == 'f' || e.kind == 'l' {
			w.Write([]byte(e.body))
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeTree materializes entries (files, dirs and symbolic links) under
// root.
func writeTree(t testing.TB, root string, entries []entry) {
	t.Helper()
	for _, e := range entries {
		p := filepath.Join(root, filepath.FromSlash(e.name))
		switch e.kind {
		case 'd':
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		case 'f':
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			mode := fs.FileMode(e.mode)
			if mode == 0 {
				mode = 0o644
			}
			if err := os.WriteFile(p, []byte(e.body), mode); err != nil {
				t.Fatal(err)
			}
		case 'l':
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(e.body, p); err != nil {
				t.Skip("cannot create symbolic links here:", err)
			}
		default:
			t.Fatalf("writeTree: kind %q", e.kind)
		}
	}
}

// newStore returns a store under a fresh $LOLA_HOME.
func newStore(t *testing.T) (*Store, string) {
	t.Helper()
	home := t.TempDir()
	s, err := OpenStore(home)
	if err != nil {
		t.Fatal(err)
	}
	return s, home
}

// storeEntries lists everything in the store directory, staging included.
func storeEntries(t *testing.T, s *Store) []string {
	t.Helper()
	es, err := os.ReadDir(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func assertStoreEmpty(t *testing.T, s *Store) {
	t.Helper()
	if got := storeEntries(t, s); len(got) != 0 {
		t.Fatalf("store holds %v after a refused add; want nothing", got)
	}
}

func assertRule(t *testing.T, err error, rule schema.Rule) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted; want %s", rule)
	}
	if !errors.Is(err, rejection.Rule(rule)) {
		t.Fatalf("error %q; want rule %s", err, rule)
	}
}

func mustName(t *testing.T, s string) Name {
	t.Helper()
	n, err := ParseName(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func mustSource(t *testing.T, s string) Source {
	t.Helper()
	src, err := ParseSource(s)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func smallBounds(t *testing.T, files int, fileBytes, total int64, path int) Bounds {
	t.Helper()
	b, err := NewBounds(files, fileBytes, total, path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// findMarker returns the store-relative path of a file holding marker, or "".
func findMarker(t *testing.T, dir, marker string) string {
	t.Helper()
	found := ""
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || found != "" {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), marker) {
			found, _ = filepath.Rel(dir, p)
		}
		return nil
	})
	return found
}
