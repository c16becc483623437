//go:build unix

package apply

import (
	"os"
	"path/filepath"
	"testing"
)

// A write whose content and executable bit equal what is on disk is a
// no-op: reported unchanged, the file not rewritten (same inode, same
// modification time), the intent still given to the observer's Begin.
// A difference in content or in the executable bit is a replacement.
func TestNoopWriteIsSkipped(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{"same.md": "same", "exec.sh*": "#!/bin/sh\n", "mode.sh": "#!/bin/sh\n", "diff.md": "old"})
	st := func(n string) os.FileInfo {
		fi, err := os.Lstat(filepath.Join(root, n))
		must(t, err)
		return fi
	}
	same, exec := st("same.md"), st("exec.sh")
	p, v := decode(t, `{"protocol":1,"intents":[
		{"op":"write","path":"same.md","content":"same"},
		{"op":"write","path":"exec.sh","content":"#!/bin/sh\n","executable":true},
		{"op":"write","path":"mode.sh","content":"#!/bin/sh\n","executable":true},
		{"op":"write","path":"diff.md","content":"new"}]}`)
	obs := &recorder{}
	s, err := Begin(openRoot(t, root), Options{Key: testKey, Observer: obs})
	must(t, err)
	defer s.Close()
	prep, err := s.Prepare(v, p)
	must(t, err)
	kinds := map[string]ChangeKind{}
	for _, c := range prep.Changes() {
		kinds[c.Path] = c.Kind
	}
	want := map[string]ChangeKind{"same.md": ChangeNoop, "exec.sh": ChangeNoop, "mode.sh": ChangeReplaced, "diff.md": ChangeReplaced}
	for k, w := range want {
		if kinds[k] != w {
			t.Errorf("%s: %s; want %s", k, kinds[k], w)
		}
	}
	if res := s.Commit(prep); res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", res)
	}
	if len(obs.begun) != 4 {
		t.Fatalf("observer saw %d intents; want all 4, no-ops included", len(obs.begun))
	}
	for _, c := range []struct {
		n  string
		fi os.FileInfo
	}{{"same.md", same}, {"exec.sh", exec}} {
		now := st(c.n)
		if inoOf(now) != inoOf(c.fi) || !now.ModTime().Equal(c.fi.ModTime()) {
			t.Errorf("%s was rewritten", c.n)
		}
	}
	if st("mode.sh").Mode().Perm() != 0o755 {
		t.Error("mode.sh did not become executable")
	}
	noStaging(t, root)
}

// A plan whose every write is a no-op changes nothing: not even a staging
// directory is made (the root's modification time stays).
func TestAllNoopPlanTouchesNothing(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{"a.md": "a"})
	p, v := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"a.md","content":"a"}]}`)
	s, err := Begin(openRoot(t, root), Options{Key: testKey})
	must(t, err)
	defer s.Close()
	_, err = s.Probe()
	must(t, err)
	before := snapshot(t, root)
	fi, _ := os.Stat(root)
	prep, err := s.Prepare(v, p)
	must(t, err)
	if res := s.Commit(prep); res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", res)
	}
	after, _ := os.Stat(root)
	if snapshot(t, root) != before || !after.ModTime().Equal(fi.ModTime()) {
		t.Fatal("a plan of no-ops changed the tree")
	}
}
