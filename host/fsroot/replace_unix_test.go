//go:build unix

package fsroot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// TestWriteFileBeneathRefusesSymlinks: a file name that is a symlink, or a
// symlinked directory on the way, is refused (path.symlink) and what the
// link points to keeps its bytes; a regular file is replaced whole, with
// its mode, and no temporary file is left.
func TestWriteFileBeneathRefusesSymlinks(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "bashrc")
	must(t, os.WriteFile(victim, []byte("user's own\n"), 0o644))
	must(t, os.Mkdir(filepath.Join(root, "testdata"), 0o755))
	must(t, os.Symlink(victim, filepath.Join(root, "testdata", "x.plan.json")))
	must(t, os.Symlink(outside, filepath.Join(root, "linked")))

	for _, rel := range []string{"testdata/x.plan.json", "linked/bashrc"} {
		err := WriteFileBeneath(root, rel, 0o644, []byte("module text\n"))
		vs := rejection.All(err)
		if len(vs) != 1 || vs[0].Rule != schema.RulePathSymlink {
			t.Fatalf("%s: want path.symlink, got %v", rel, err)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "user's own\n" {
		t.Fatalf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(root, "testdata", "x.plan.json")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link itself was replaced: %v", err)
	}

	must(t, os.WriteFile(filepath.Join(root, "testdata", "y.plan.json"), []byte("old"), 0o600))
	must(t, WriteFileBeneath(root, "testdata/y.plan.json", 0o644, []byte("new")))
	fi, err := os.Stat(filepath.Join(root, "testdata", "y.plan.json"))
	must(t, err)
	if b, _ := os.ReadFile(filepath.Join(root, "testdata", "y.plan.json")); string(b) != "new" || fi.Mode().Perm() != 0o644 {
		t.Fatalf("replaced file: %q %v", b, fi.Mode())
	}
	names, _ := os.ReadDir(filepath.Join(root, "testdata"))
	for _, n := range names {
		if strings.Contains(n.Name(), ".tmp") {
			t.Fatalf("temporary file left: %s", n.Name())
		}
	}
	if err := WriteFileBeneath(root, "../escape", 0o644, nil); len(rejection.All(err)) == 0 {
		t.Fatalf("'..' accepted: %v", err)
	}
	must(t, os.Mkdir(filepath.Join(root, "adir"), 0o755))
	if err := WriteFileBeneath(root, "adir", 0o644, nil); err == nil || errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a directory was replaced or misreported: %v", err)
	}
}
