package extension

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// snapshot records every entry under dir (path, mode, size, modification
// time, and a symlink's target), so a test can assert loading changed
// nothing on disk.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel + " " + st.Mode().String() + " " + st.ModTime().String())
		if st.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			b.WriteString(" " + string(data))
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			b.WriteString(" -> " + target)
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestLoadingChangesNothingOnDisk(t *testing.T) {
	home := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "payload"), []byte("evil"), 0o644)
	exts := filepath.Join(home, ExtensionsDir)
	mkext(t, filepath.Join(exts, "good"), manifest("good", "target", bothTiers), map[string]string{"dist/x": "n"})
	mkext(t, filepath.Join(exts, "escape"), manifest("escape", "target", bothTiers), map[string]string{"dist/x.wasm": "->" + filepath.Join(outside, "payload")})
	mkext(t, filepath.Join(exts, "broken"), "name: [", nil)
	beforeHome, beforeOut := snapshot(t, home), snapshot(t, outside)
	cat, err := Discover(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Extensions()) != 1 || len(cat.Problems()) != 2 {
		t.Fatalf("extensions %d problems %v", len(cat.Extensions()), cat.Problems())
	}
	for _, d := range []string{"good", "escape", "broken"} {
		Load(filepath.Join(exts, d))
	}
	if snapshot(t, home) != beforeHome || snapshot(t, outside) != beforeOut {
		t.Fatal("discovery or loading changed the tree")
	}
}

// TestManifestAtomSpelling: a manifest declaring every atom the schema
// defines grants the schema's --caps spelling, atom for atom.
func TestManifestAtomSpelling(t *testing.T) {
	var atoms []string
	for _, c := range schema.Capabilities() {
		atoms = append(atoms, string(c))
	}
	m, err := ParseManifest(strings.NewReader("name: x\nversion: 1\nkind: source\nartifacts: {tier2: x}\ncapabilities: [" + strings.Join(atoms, ", ") + "]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Capabilities().String(), schema.JoinCapabilities(schema.Capabilities()); got != want {
		t.Fatalf("manifest grants %q, schema spells %q", got, want)
	}
}
