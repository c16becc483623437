package reinstall

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/install"
)

// The empty directories an old install created are removed beneath the
// project only: with .claude swapped for a link to a directory outside,
// whose skills/old is empty, removing the stale files of an update never
// removes outside/skills/old (a by-path os.Remove of project/.claude/
// skills/old followed the link and did). A directory that is really the
// project's and empty goes.
func TestStaleDirectoriesAreRemovedOnlyBeneathTheProject(t *testing.T) {
	base := t.TempDir()
	home, root, outside := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "outside")
	for _, d := range []string{home, filepath.Join(outside, "skills", "old"), filepath.Join(root, ".cursor", "skills", "gone")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(root, ".claude")); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(root, ".cursor", "skills", "gone", "SKILL.md")
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := install.Record{
		Module: "m", Assistant: "claude-code", Scope: "project", ProjectPath: root,
		Files:       install.FileSums{".cursor/skills/gone/SKILL.md": hashOf("old")},
		CreatedDirs: []string{".claude/skills", ".claude/skills/old", ".cursor/skills/gone"},
	}
	log, err := audit.Open(filepath.Join(home, audit.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	if _, err := removeStale(context.Background(), root, home, old, old, []string{".cursor/skills/gone/SKILL.md"}, log); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(outside, "skills", "old")); err != nil {
		t.Fatalf("a directory outside the project was removed through the swapped .claude: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, ".cursor", "skills", "gone")); !os.IsNotExist(err) {
		t.Fatalf("the project's own empty created directory stayed: %v", err)
	}
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
