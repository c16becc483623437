//go:build unix

package apply

import (
	"os"
	"path/filepath"
	"testing"
)

// reuseRounds bounds the attempts to make the swapped-in entry carry the
// validated entry's inode number (ext4 hands a freed number to the next
// file made, usually within a few attempts).
const reuseRounds = 200

// swapIn replaces the entry at p with a new one made by mk, trying to get
// the old inode number back so that an identity of inode alone would
// take the impostor for the original. It reports whether it got it.
func swapIn(t *testing.T, p string, mk func(string) error) bool {
	t.Helper()
	fi, err := os.Lstat(p)
	must(t, err)
	old := inoOf(fi)
	// Birth times are taken from a coarse clock (one tick is a few
	// milliseconds): let it move past the original's, by observation, so
	// that the swapped-in entry is distinguishable at all.
	r := openRoot(t, filepath.Dir(p))
	orig, err := r.Dir().Lstat(filepath.Base(p))
	must(t, err)
	tick := filepath.Join(t.TempDir(), "tick")
	for i := 0; i < 1e6; i++ {
		must(t, os.WriteFile(tick, nil, 0o644))
		te, err := os.Lstat(tick)
		must(t, err)
		must(t, os.Remove(tick))
		if te.ModTime().UnixNano() != orig.Btime {
			break
		}
	}
	must(t, os.RemoveAll(p))
	for i := 0; i < reuseRounds; i++ {
		must(t, mk(p))
		fi, err := os.Lstat(p)
		must(t, err)
		if inoOf(fi) == old {
			return true
		}
		must(t, os.RemoveAll(p))
	}
	must(t, mk(p))
	return false
}

// An entry swapped for another after Prepare — the final component of a
// delete, of a write's replaced file, of a rename's source — is not the
// entry validated: Commit rolls back and the swapped-in entry is left
// untouched, even when it carries the validated entry's inode number.
func TestSwappedFinalComponentRollsBack(t *testing.T) {
	mkDir := func(p string) error {
		if err := os.Mkdir(p, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(p, "impostor"), []byte("never validated"), 0o644)
	}
	mkFile := func(p string) error { return os.WriteFile(p, []byte("impostor"), 0o644) }
	cases := []struct {
		name, plan, target string
		mk                 func(string) error
	}{
		{"delete", `{"protocol":1,"intents":[{"op":"delete","path":"d"}]}`, "d", mkDir},
		{"replace", `{"protocol":1,"intents":[{"op":"write","path":"f","content":"new"}]}`, "f", mkFile},
		{"rename-source", `{"protocol":1,"intents":[{"op":"rename","from":"f","to":"g"}]}`, "f", mkFile},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			tree(t, root, map[string]string{"d/inside": "validated", "f": "validated"})
			p, v := decode(t, c.plan)
			s, err := Begin(openRoot(t, root), Options{Key: testKey})
			must(t, err)
			defer s.Close()
			prep, err := s.Prepare(v, p)
			must(t, err)
			reused := swapIn(t, filepath.Join(root, c.target), c.mk)
			t.Logf("swapped-in entry reuses the inode number: %v", reused)
			before := snapshot(t, root)
			res := s.Commit(prep)
			if res.Outcome != OutcomeRolledBack {
				t.Fatalf("outcome %s (%v); want rolled-back", res.Outcome, res.Cause)
			}
			if after := snapshot(t, root); after != before {
				t.Fatalf("the swapped-in entry was touched:\n%s", diffLines(before, after))
			}
			noStaging(t, root)
		})
	}
}
