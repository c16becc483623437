package module

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/pathrule"
)

// FuzzUnpackTar: whatever the bytes, unpacking never panics, never leaves
// the staging tree, and everything it stages passes the path vocabulary.
func FuzzUnpackTar(f *testing.F) {
	dir := f.TempDir()
	for i, es := range [][]entry{goodEntries, {file("../x", "y")}, {{name: "l", kind: 'l', body: "/"}}, benchEntries()[:3]} {
		p := filepath.Join(dir, "seed"+string(rune('a'+i))+".tar")
		writeTar(&testing.T{}, p, i%2 == 1, es)
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		base := t.TempDir()
		arc := filepath.Join(base, "in.tar")
		os.WriteFile(arc, data, 0o600)
		tree := filepath.Join(base, "stage", "tree")
		os.MkdirAll(filepath.Dir(tree), 0o700)
		st, err := newStager(tree, smallBounds(t, 64, 1<<16, 1<<18, 256))
		if err != nil {
			t.Fatal(err)
		}
		_ = unpackTar(arc, st)
		filepath.WalkDir(filepath.Dir(tree), func(p string, d os.DirEntry, err error) error {
			if err != nil || p == filepath.Dir(tree) || p == tree {
				return nil
			}
			rel, _ := filepath.Rel(tree, p)
			if !d.Type().IsDir() && !d.Type().IsRegular() {
				t.Fatalf("staged a %v at %q", d.Type(), rel)
			}
			if _, err := pathrule.Parse(filepath.ToSlash(rel)); err != nil {
				t.Fatalf("staged %q outside the vocabulary: %v", rel, err)
			}
			return nil
		})
	})
}

// FuzzUnpackZip: the same guarantees for zip input.
func FuzzUnpackZip(f *testing.F) {
	dir := f.TempDir()
	for i, es := range [][]entry{goodEntries, {file("../x", "y")}, {{name: "l", kind: 'l', body: "/"}}} {
		p := filepath.Join(dir, "seed"+string(rune('a'+i))+".zip")
		writeZip(&testing.T{}, p, es)
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		base := t.TempDir()
		arc := filepath.Join(base, "in.zip")
		os.WriteFile(arc, data, 0o600)
		tree := filepath.Join(base, "stage", "tree")
		os.MkdirAll(filepath.Dir(tree), 0o700)
		st, err := newStager(tree, smallBounds(t, 64, 1<<16, 1<<18, 256))
		if err != nil {
			t.Fatal(err)
		}
		_ = unpackZip(arc, st)
		filepath.WalkDir(filepath.Dir(tree), func(p string, d os.DirEntry, err error) error {
			if err != nil || p == filepath.Dir(tree) || p == tree {
				return nil
			}
			rel, _ := filepath.Rel(tree, p)
			if !d.Type().IsDir() && !d.Type().IsRegular() {
				t.Fatalf("staged a %v at %q", d.Type(), rel)
			}
			if _, err := pathrule.Parse(filepath.ToSlash(rel)); err != nil {
				t.Fatalf("staged %q outside the vocabulary: %v", rel, err)
			}
			return nil
		})
	})
}
