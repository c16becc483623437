package module

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/fsroot/fsroottest"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// raceRounds bounds TestFolderSourceSymlinkSwapRace by a count of adds,
// not by time (1 to 4 s on a loaded 2-core machine). On the code before
// the descriptor walk, the outside file reached the store within a few
// rounds (round 3 when measured).
const raceRounds = 200

// TestFolderSourceSymlinkSwapRace: while `mod add FOLDER` reads the folder,
// a racer exchanges (renameat2 RENAME_EXCHANGE) a subdirectory of it with a
// symbolic link to a directory outside it, as fast as it can. Every add
// must either be refused or store only content from inside the folder:
// the outside marker never lands in the store.
func TestFolderSourceSymlinkSwapRace(t *testing.T) {
	base := t.TempDir()
	src, outside := filepath.Join(base, "src"), filepath.Join(base, "outside")
	writeTree(t, src, []entry{
		file("skills/alpha/SKILL.md", "---\ndescription: Alpha\n---\ninside\n"),
		file("skills/beta/SKILL.md", "---\ndescription: Beta\n---\ninside\n"),
		file("skills/beta/notes.md", "inside\n"),
	})
	writeTree(t, outside, []entry{
		file("SKILL.md", "---\ndescription: Beta\n---\nOUTSIDE-SECRET\n"),
		file("notes.md", "OUTSIDE-SECRET\n"),
	})
	swapper := filepath.Join(base, "swapper")
	if err := os.Symlink(outside, swapper); err != nil {
		t.Fatal(err)
	}
	swapRace(t, src, filepath.Join(src, "skills", "beta"), swapper)
}

// TestFolderSourceLinkTargetSwapRace: a folder whose skill is a link into
// the folder (skills/beta -> ../z-shared/beta, met by the walk before
// z-shared itself) is added while a racer
// exchanges a directory the link's resolution passes through with a
// symbolic link out of the folder: the link's target directory itself
// (for an absolute link to outside), or the directory holding it (for a
// relative link climbing out). The outside marker never lands in the
// store: every component is examined and opened beneath the descriptor
// of the one before, never resolved by path.
func TestFolderSourceLinkTargetSwapRace(t *testing.T) {
	for _, c := range []struct{ name, swapped, swapTo string }{
		{"target", "z-shared/beta", "ABS"},
		{"intermediate", "z-shared", "../outside"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			src, outside := filepath.Join(base, "src"), filepath.Join(base, "outside")
			writeTree(t, src, []entry{
				file("skills/alpha/SKILL.md", "---\ndescription: Alpha\n---\ninside\n"),
				file("z-shared/beta/SKILL.md", "---\ndescription: Beta\n---\ninside\n"),
				file("z-shared/beta/notes.md", "inside\n"),
				link("skills/beta", "../z-shared/beta"),
			})
			writeTree(t, outside, []entry{
				file("SKILL.md", "---\ndescription: Beta\n---\nOUTSIDE-SECRET\n"),
				file("notes.md", "OUTSIDE-SECRET\n"),
				file("beta/SKILL.md", "---\ndescription: Beta\n---\nOUTSIDE-SECRET\n"),
				file("beta/notes.md", "OUTSIDE-SECRET\n"),
			})
			to := c.swapTo
			if to == "ABS" {
				to = outside
			}
			swapper := filepath.Join(base, "swapper")
			if err := os.Symlink(to, swapper); err != nil {
				t.Fatal(err)
			}
			swapRace(t, src, filepath.Join(src, filepath.FromSlash(c.swapped)), swapper)
		})
	}
}

// TestFolderLinkAcrossMountRefused: a link whose target is, or lies
// beneath, a bind mount inside the folder (of a directory or of a file)
// is refused as path.cross-device, naming the link, and nothing is
// stored. The links sort before the mount points, so the walk meets the
// link first. It runs on a thread with its own private mount namespace.
func TestFolderLinkAcrossMountRefused(t *testing.T) {
	for _, c := range []struct{ name, target string }{
		{"onto-a-mounted-directory", "mnt"},
		{"beneath-a-mounted-directory", "mnt/SKILL.md"},
		{"onto-a-mounted-file", "mfile.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			src, outside := filepath.Join(base, "src"), filepath.Join(base, "outside")
			writeTree(t, src, append([]entry{dir("mnt"), file("mfile.md", "placeholder\n"), link("a-link", c.target)}, goodEntries...))
			writeTree(t, outside, []entry{file("SKILL.md", "---\ndescription: X\n---\nOUTSIDE-SECRET\n")})
			s, home := newStore(t)
			var err error
			fsroottest.InPrivateMounts(t, func() string {
				for _, m := range [][2]string{{outside, filepath.Join(src, "mnt")}, {filepath.Join(outside, "SKILL.md"), filepath.Join(src, "mfile.md")}} {
					if err := unix.Mount(m[0], m[1], "", unix.MS_BIND, ""); err != nil {
						return "bind mount not permitted: " + err.Error()
					}
				}
				_, err = s.Add(context.Background(), mustSource(t, src), AddOptions{})
				return ""
			})
			assertRule(t, err, schema.RulePathCrossDevice)
			if !strings.Contains(err.Error(), `entry "a-link": symbolic link to "`+c.target+`" crosses a mount or device at`) {
				t.Errorf("refusal %q does not name the link", err)
			}
			if leak := findMarker(t, filepath.Join(home, "modules"), "OUTSIDE-SECRET"); leak != "" {
				t.Fatalf("the mount's content landed in the store at %s", leak)
			}
			assertStoreEmpty(t, s)
		})
	}
}

// swapRace adds the folder src, raceRounds times, while a racer exchanges
// (renameat2 RENAME_EXCHANGE) the entries a and b as fast as it can. Every
// add must either be refused with a rule (or find no module) or store
// only content from inside the folder: nothing holding OUTSIDE-SECRET
// ever lands in the store.
func swapRace(t *testing.T, src, a, b string) {
	t.Helper()
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		t.Skipf("renameat2(RENAME_EXCHANGE) unavailable: %v", err)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE) == nil {
				swaps.Add(1)
			}
		}
	}()
	s, home := newStore(t)
	source := mustSource(t, src)
	var stored, refused int
	for i := 0; i < raceRounds; i++ {
		_, err := s.Add(context.Background(), source, AddOptions{Force: true})
		if err != nil {
			var v *rejection.Violation
			if !errors.As(err, &v) && !errors.Is(err, ErrNotModule) {
				stop.Store(true)
				wg.Wait()
				t.Fatalf("round %d: an add failed without a rule: %v", i, err)
			}
			refused++
		} else {
			stored++
		}
		if leak := findMarker(t, filepath.Join(home, "modules"), "OUTSIDE-SECRET"); leak != "" {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("round %d: content from outside the folder landed in the store at %s", i, leak)
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d rounds: %d stored, %d refused; %d swaps by the racer", raceRounds, stored, refused, swaps.Load())
	if swaps.Load() == 0 {
		t.Fatal("the racer never swapped: the test proved nothing")
	}
}

// TestFolderSourceRefusesBindMount: a bind mount inside the folder, of a
// directory or of a file, is refused as path.cross-device, as a plan
// touching it is, and nothing is stored. It runs on a thread with its own
// private mount namespace.
func TestFolderSourceRefusesBindMount(t *testing.T) {
	for _, kind := range []string{"dir", "file"} {
		t.Run(kind, func(t *testing.T) {
			base := t.TempDir()
			src, outside := filepath.Join(base, "src"), filepath.Join(base, "outside")
			writeTree(t, src, append([]entry{dir("skills/mnt"), file("skills/alpha/extra.md", "placeholder\n")}, goodEntries...))
			writeTree(t, outside, []entry{file("SKILL.md", "---\ndescription: X\n---\nOUTSIDE-SECRET\n")})
			s, home := newStore(t)
			var err error
			fsroottest.InPrivateMounts(t, func() string {
				from, to := outside, filepath.Join(src, "skills", "mnt")
				if kind == "file" {
					from, to = filepath.Join(outside, "SKILL.md"), filepath.Join(src, "skills", "alpha", "extra.md")
				}
				if err := unix.Mount(from, to, "", unix.MS_BIND, ""); err != nil {
					return "bind mount not permitted: " + err.Error()
				}
				_, err = s.Add(context.Background(), mustSource(t, src), AddOptions{})
				return ""
			})
			var v *rejection.Violation
			if !errors.As(err, &v) || v.Rule != schema.RulePathCrossDevice {
				t.Fatalf("add over a bind mount: %v, want %s", err, schema.RulePathCrossDevice)
			}
			if leak := findMarker(t, filepath.Join(home, "modules"), "OUTSIDE-SECRET"); leak != "" {
				t.Fatalf("the mount's content landed in the store at %s", leak)
			}
			if _, err := s.Get(mustName(t, "src")); err == nil {
				t.Fatal("a refused add stored the module")
			}
		})
	}
}
