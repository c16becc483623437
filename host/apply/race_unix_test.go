//go:build unix

package apply

import (
	"os"
	"path/filepath"
	"testing"
)

// The race: after validation, a concurrent goroutine swaps a validated
// component for a symlink to outside. The write must land in the inode
// that was validated — the commit succeeding against the original is the
// point.
func TestRaceSwappedComponentWritesValidatedInode(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	tree(t, base, map[string]string{"outside/": "", "root/d/e/": ""})
	p, v := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"d/e/f","content":"validated"},{"op":"write","path":"d/g","content":"g"}]}`)
	r := openRoot(t, root)
	s, err := Begin(r, Options{Key: testKey})
	must(t, err)
	defer s.Close()
	prep, err := s.Prepare(v, p)
	must(t, err)
	var ino uint64
	if st, err := os.Stat(filepath.Join(root, "d", "e")); err == nil {
		ino = inoOf(st)
	}
	done := make(chan error)
	go func() {
		if err := os.Rename(filepath.Join(root, "d"), filepath.Join(root, "d.orig")); err != nil {
			done <- err
			return
		}
		must(t, os.MkdirAll(filepath.Join(outside, "e"), 0o755))
		done <- os.Symlink(outside, filepath.Join(root, "d"))
	}()
	must(t, <-done)
	res := s.Commit(prep)
	if res.Outcome != OutcomeCommitted {
		t.Fatalf("commit against the validated inode failed: %+v", res)
	}
	b, err := os.ReadFile(filepath.Join(root, "d.orig", "e", "f"))
	if err != nil || string(b) != "validated" {
		t.Fatalf("write did not land at the validated inode: %q %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "d.orig", "g")); err != nil || string(b) != "g" {
		t.Fatalf("the second write did not land in the validated directory: %q %v", b, err)
	}
	if st, err := os.Stat(filepath.Join(root, "d.orig", "e")); err != nil || inoOf(st) != ino {
		t.Fatalf("validated directory changed inode")
	}
	if ents, _ := os.ReadDir(filepath.Join(outside, "e")); len(ents) != 0 {
		t.Fatalf("write followed the swapped-in symlink: %v", ents)
	}
	if _, err := os.Lstat(filepath.Join(outside, "g")); err == nil {
		t.Fatal("write followed the swapped-in symlink")
	}
}
