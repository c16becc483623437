package fsroot

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

type winPath []string

func (w winPath) Components() []string { return w }

// TestWindowsJunctionRefused: a junction (a mount-point reparse point that
// any user can create) is refused as path.reparse-point wherever it stands
// on a path, whether it points inside the root or outside it, and nothing
// is written through it. A volume mount point needs an elevated host to
// create and is refused by the same check (every reparse tag but the
// symlink's is path.reparse-point).
func TestWindowsJunctionRefused(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "real"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{"j-out": outside, "j-in": filepath.Join(root, "real")} {
		if out, err := exec.Command("cmd", "/c", "mklink", "/J", filepath.Join(root, name), target).CombinedOutput(); err != nil {
			t.Skipf("mklink /J: %v: %s", err, out)
		}
	}
	r, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, path := range []string{"j-out/x", "j-in/x", "j-out/new/x", "j-out", "j-in"} {
		rs := r.NewResolver()
		_, err := rs.Resolve(winPath(strings.Split(path, "/")), 0)
		rs.Close()
		if !errors.Is(err, rejection.Rule(schema.RulePathReparsePoint)) {
			t.Errorf("%s: %v; want %s", path, err, schema.RulePathReparsePoint)
		}
		if err != nil && strings.Contains(err.Error(), base) {
			t.Errorf("%s: the diagnostic carries a host path: %v", path, err)
		}
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("outside changed: %v", ents)
	}
}
