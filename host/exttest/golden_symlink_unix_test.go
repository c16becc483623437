//go:build unix

package exttest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// TestUpdateRefusesASymlinkedGolden: the plan's text is the module's; a
// golden that is a symbolic link (to a shell start-up file, say) is
// refused by path.symlink, the file it points to keeps its bytes, and the
// link stays a link.
func TestUpdateRefusesASymlinkedGolden(t *testing.T) {
	e := fakeExt(t, okPlan, "")
	victim := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.WriteFile(victim, []byte("export PATH=/usr/bin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join(e.Dir(), "testdata", "c.plan.json")
	if err := os.Symlink(victim, golden); err != nil {
		t.Fatal(err)
	}
	r := runFake(t, e, true)
	vs := rejection.All(r.Err)
	if r.Wrote || len(vs) != 1 || vs[0].Rule != schema.RulePathSymlink {
		t.Fatalf("got %v (wrote %v), want a path.symlink refusal", r.Err, r.Wrote)
	}
	if b, _ := os.ReadFile(victim); string(b) != "export PATH=/usr/bin\n" {
		t.Fatalf("the link's target was overwritten: %q", b)
	}
	if fi, err := os.Lstat(golden); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the golden link was replaced: %v", err)
	}
}
