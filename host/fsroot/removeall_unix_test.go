//go:build unix

package fsroot

import (
	"os"
	"path/filepath"
	"testing"
)

// RemoveAll removes symlinks, never what they point at.
func TestRemoveAllDoesNotFollowSymlinks(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	must(t, os.MkdirAll(filepath.Join(root, "doomed", "deep"), 0o755))
	must(t, os.MkdirAll(outside, 0o755))
	must(t, os.WriteFile(filepath.Join(outside, "precious"), []byte("p"), 0o644))
	must(t, os.Symlink(outside, filepath.Join(root, "doomed", "deep", "dirlink")))
	must(t, os.Symlink(filepath.Join(outside, "precious"), filepath.Join(root, "doomed", "filelink")))
	r, err := Open(root)
	must(t, err)
	defer r.Close()
	must(t, r.Dir().RemoveAll("doomed"))
	if _, err := os.Lstat(filepath.Join(root, "doomed")); !os.IsNotExist(err) {
		t.Fatalf("doomed still there: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(outside, "precious")); err != nil || string(b) != "p" {
		t.Fatalf("followed a symlink: %q %v", b, err)
	}
}

// Rename with NoReplace refuses an existing target; Exchange swaps.
func TestRenameFlags(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "a"), []byte("a"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "b"), []byte("b"), 0o644))
	r, err := Open(root)
	must(t, err)
	defer r.Close()
	if err := Rename(r.Dir(), "a", r.Dir(), "b", NoReplace); !os.IsExist(err) {
		t.Fatalf("NoReplace over an existing file: %v", err)
	}
	if err := Rename(r.Dir(), "a", r.Dir(), "b", Exchange); err == ErrUnsupported {
		t.Skip("exchange unsupported here")
	} else {
		must(t, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "b")); string(b) != "a" {
		t.Fatalf("exchange did not swap: b=%q", b)
	}
}
