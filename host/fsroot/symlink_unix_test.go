//go:build unix

package fsroot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestSymlinkIsMadeInTheHeldDirectory: Symlink creates the link in the
// directory the descriptor holds, even after that directory's name was
// swapped for a link to outside the root: nothing appears outside. An
// existing name is fs.ErrExist, and a name that is not one component is
// refused.
func TestSymlinkIsMadeInTheHeldDirectory(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must(t, os.Mkdir(filepath.Join(root, "d"), 0o755))
	r, err := Open(root)
	must(t, err)
	defer r.Close()
	d, err := r.Dir().OpenDir("d")
	must(t, err)
	defer d.Close()
	must(t, os.Rename(filepath.Join(root, "d"), filepath.Join(root, "d.away")))
	must(t, os.Symlink(outside, filepath.Join(root, "d")))
	must(t, d.Symlink("../target", "link"))
	if got, err := os.Readlink(filepath.Join(root, "d.away", "link")); err != nil || got != "../target" {
		t.Fatalf("link in the held directory: %q, %v", got, err)
	}
	if names, _ := os.ReadDir(outside); len(names) != 0 {
		t.Fatalf("something was created outside the root: %v", names)
	}
	if err := d.Symlink("x", "link"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("existing name: %v", err)
	}
	for _, bad := range []string{"a/b", "..", "", "."} {
		if err := d.Symlink("x", bad); err == nil {
			t.Errorf("Symlink(%q) succeeded", bad)
		}
	}
}
