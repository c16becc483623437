//go:build unix

package install

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/fsroot"
)

// outsideTree is a directory outside the project holding what a swapped
// link would point the host at: an empty directory "agents" (what
// restoreSymlinks removes when it finds one at a replaced link's place), a
// link "skills" with the text a record names (what replaceSymlinks
// removes when it reads the expected text), and a file.
func outsideTree(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	writeTree(t, out, map[string]string{"secret": "private\n"})
	if err := os.Mkdir(filepath.Join(out, "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../shared/skills", filepath.Join(out, "skills")); err != nil {
		t.Fatal(err)
	}
	return out
}

// The attack of issue 28 item 3, without a race: at uninstall, .claude
// (which held the directory that replaced the user's link .claude/agents)
// is now a link to a directory outside the project. Restoring must not
// remove that directory's "agents" nor create a link there; the link is
// reported as not restored. Replacing (install) and copying likewise
// refuse to act through .claude.
func TestReplacedLinksAreNeverRestoredThroughASwappedParent(t *testing.T) {
	project := t.TempDir()
	out := outsideTree(t)
	if err := os.Symlink(out, filepath.Join(project, ".claude")); err != nil {
		t.Fatal(err)
	}
	writeTree(t, project, map[string]string{"AGENTS.md": "notes\n"})
	beforeOut, beforeProj := snapshot(t, out), snapshot(t, project)

	links := []ReplacedLink{{Path: ".claude/agents", Target: "../shared/agents", Dir: true}}
	if kept := restoreSymlinks(project, nil, audit.Correlation{}, links); len(kept) != 1 {
		t.Errorf("restore through a swapped parent reported restored: kept %v", kept)
	}
	sameTree(t, "outside after restore", snapshot(t, out), beforeOut)
	sameTree(t, "project after restore", snapshot(t, project), beforeProj)

	_, err := replaceSymlinks(project, testLog(t), audit.Correlation{}, []Symlink{{Path: ".claude/skills", Target: "../shared/skills", Parent: true}})
	if err == nil {
		t.Error("replace through a swapped parent succeeded")
	}
	sameTree(t, "outside after replace", snapshot(t, out), beforeOut)
	sameTree(t, "project after replace", snapshot(t, project), beforeProj)

	// A managed file's link whose target climbs through the swapped
	// directory: its content is not copied.
	if err := os.Symlink(".claude/secret", filepath.Join(project, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	r := mustOpenRoot(t, project)
	defer r.Close()
	if b, ok := linkCopy(r, "CLAUDE.md"); ok {
		t.Errorf("a file outside the project was copied through a swapped directory: %q", b)
	}
}

// The race of issue 28 item 3: while restoreSymlinks and replaceSymlinks
// run, a goroutine swaps .claude for a link to a directory outside the
// project and back, for a bounded number of rounds. Whatever the
// interleaving, nothing outside the project is removed, created or
// changed. The host's operations on the project are then whatever they
// are (a round's restore may or may not happen); only the outside is
// asserted.
func TestSwappingAParentNeverLetsLinkRepairActOutside(t *testing.T) {
	project := t.TempDir()
	out := outsideTree(t)
	claude := filepath.Join(project, ".claude")
	away := filepath.Join(project, ".claude.away")
	if err := os.Mkdir(claude, 0o755); err != nil {
		t.Fatal(err)
	}
	// The real directory, held by descriptor so the test can reset it
	// whatever its name is at the moment.
	real, err := unix.Open(claude, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(real)
	beforeOut := snapshot(t, out)

	log := testLog(t)
	const rounds = 300
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if os.Rename(claude, away) != nil {
				continue
			}
			_ = os.Symlink(out, claude)
			_ = os.Remove(claude)
			_ = os.Rename(away, claude)
		}
	}()
	for i := 0; i < rounds; i++ {
		// Restore: the place of the link is an empty directory.
		_ = unix.Unlinkat(real, "agents", 0)
		_ = unix.Mkdirat(real, "agents", 0o755)
		restoreSymlinks(project, nil, audit.Correlation{}, []ReplacedLink{{Path: ".claude/agents", Target: "../shared/agents", Dir: true}})
		// Replace: the link with the text the outside link also carries.
		_ = unix.Unlinkat(real, "skills", unix.AT_REMOVEDIR)
		_ = unix.Unlinkat(real, "skills", 0)
		_ = unix.Symlinkat("../shared/skills", real, "skills")
		_, _ = replaceSymlinks(project, log, audit.Correlation{}, []Symlink{{Path: ".claude/skills", Target: "../shared/skills", Parent: true}})
	}
	close(stop)
	wg.Wait()
	sameTree(t, "outside the project after the race", snapshot(t, out), beforeOut)
}

func testLog(t *testing.T) *audit.Log {
	t.Helper()
	l, err := audit.Open(filepath.Join(t.TempDir(), "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func mustOpenRoot(t *testing.T, dir string) *fsroot.Root {
	t.Helper()
	r, err := fsroot.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
