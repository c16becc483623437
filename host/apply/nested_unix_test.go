//go:build unix

package apply

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// nestedPlan writes three files (one executable, one a level deeper) into
// directories the apply makes, and one into a directory that exists.
const nestedPlan = `{"protocol":1,"intents":[
	{"op":"write","path":"skills/x/SKILL.md","content":"skill"},
	{"op":"write","path":"skills/x/run.sh","content":"#!/bin/sh\n","executable":true},
	{"op":"write","path":"skills/x/ref/notes.md","content":"notes"},
	{"op":"write","path":"keep/new.md","content":"new"}
]}`

// A write into a directory the apply makes is staged inside that
// directory and reaches the tree with it: no place action (no rename, no
// journal entry) of its own. It is still reported staged and placed, and
// lands with its content and mode. A write into an existing directory
// keeps its own checked move.
func TestNestedWritesArePlacedWithTheirDirectory(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{"keep/old.md": "old"})
	p, v := decode(t, nestedPlan)
	var placedBy []int
	obs := &recorder{}
	opts := Options{Key: testKey, Observer: obs, hooks: &hooks{fail: func(phase string, intent int) error {
		if phase == "place" {
			placedBy = append(placedBy, intent)
		}
		return nil
	}}}
	res, err := Apply(openRoot(t, root), v, p, opts)
	must(t, err)
	if res.Outcome != OutcomeCommitted {
		t.Fatalf("result %+v", res)
	}
	if !slices.Equal(placedBy, []int{3}) {
		t.Fatalf("place actions for intents %v, want only [3] (keep/new.md): the writes into new directories were moved one by one", placedBy)
	}
	want := map[string]string{
		"skills/x/SKILL.md":     "skill",
		"skills/x/run.sh":       "#!/bin/sh\n",
		"skills/x/ref/notes.md": "notes",
		"keep/new.md":           "new",
		"keep/old.md":           "old",
	}
	for rel, body := range want {
		got, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil || string(got) != body {
			t.Fatalf("%s: %q %v, want %q", rel, got, err, body)
		}
	}
	for rel, mode := range map[string]os.FileMode{"skills/x/run.sh": 0o755, "skills/x/SKILL.md": 0o644} {
		fi, err := os.Stat(filepath.Join(root, rel))
		must(t, err)
		if fi.Mode().Perm() != mode {
			t.Fatalf("%s: mode %v, want %v", rel, fi.Mode().Perm(), mode)
		}
	}
	staged, placed := map[string]bool{}, map[string]bool{}
	for _, e := range obs.events {
		switch e.Kind {
		case EventStaged:
			staged[e.Path] = true
		case EventPlaced:
			placed[e.Path] = true
		}
	}
	for rel := range want {
		if rel == "keep/old.md" {
			continue
		}
		if !staged[rel] || !placed[rel] {
			t.Fatalf("%s: staged %v, placed %v in %v", rel, staged[rel], placed[rel], obs.events)
		}
	}
	noStaging(t, root)
}

// A failure after a directory holding nested writes was moved into place
// takes the directory, and them with it, back out of the tree.
func TestNestedWritesRollBackWithTheirDirectory(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{"keep/old.md": "old"})
	before := snapshot(t, root)
	p, v := decode(t, nestedPlan)
	opts := Options{Key: testKey, hooks: &hooks{fail: func(phase string, intent int) error {
		if phase == "place" && intent == 3 {
			return errors.New("injected: disk full")
		}
		return nil
	}}}
	res, err := Apply(openRoot(t, root), v, p, opts)
	must(t, err)
	if res.Outcome != OutcomeRolledBack || res.Trigger != 3 {
		t.Fatalf("result %+v", res)
	}
	if after := snapshot(t, root); after != before {
		t.Fatal(diffLines(before, after))
	}
	noStaging(t, root)
}

// A staged directory holding nested writes, swapped for another between
// staging and its move, is not the directory journaled: the move is taken
// back, the apply rolls back, and nothing of the impostor's reaches the
// tree.
func TestSwappedStagedDirectoryRollsBack(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{"keep/old.md": "old"})
	before := snapshot(t, root)
	p, v := decode(t, nestedPlan)
	swapped := false
	opts := Options{Key: testKey, hooks: &hooks{point: func(_ int, what string) {
		if what != "program" || swapped {
			return
		}
		names := stagingNames(t, root)
		if len(names) != 1 {
			t.Fatalf("staging %v", names)
		}
		fresh := filepath.Join(root, names[0], freshName)
		// The staged directory that holds SKILL.md is skills/x's.
		ents, err := os.ReadDir(fresh)
		must(t, err)
		for _, e := range ents {
			slot := filepath.Join(fresh, e.Name())
			if _, err := os.Stat(filepath.Join(slot, "SKILL.md")); err != nil {
				continue
			}
			must(t, os.Rename(slot, slot+".orig"))
			must(t, os.Mkdir(slot, 0o755))
			must(t, os.WriteFile(filepath.Join(slot, "SKILL.md"), []byte("impostor"), 0o644))
			swapped = true
		}
	}}}
	res, err := Apply(openRoot(t, root), v, p, opts)
	must(t, err)
	if !swapped {
		t.Fatal("no staged directory held SKILL.md: the test proves nothing")
	}
	if res.Outcome != OutcomeRolledBack || !errors.Is(res.Cause, ErrChanged) {
		t.Fatalf("outcome %s (%v); want rolled-back for a changed entry", res.Outcome, res.Cause)
	}
	if after := snapshot(t, root); after != before {
		t.Fatalf("the impostor reached the tree:\n%s", diffLines(before, after))
	}
	noStaging(t, root)
}

// A crash at any point of an apply whose writes are nested recovers to
// the tree before (up to the commit record) or after (from it on), as
// atomicityPlan's crashes do (TestCrashRecovers, whose plan nests one
// write). The apply stops dead at the point, in this process: only
// descriptors are closed.
func TestNestedWritesCrashRecoverToBeforeOrAfter(t *testing.T) {
	p, v := decode(t, nestedPlan)
	spec := map[string]string{"keep/old.md": "old"}
	var points []string
	postRoot := t.TempDir()
	tree(t, postRoot, spec)
	pre := snapshot(t, postRoot)
	if res, err := Apply(openRoot(t, postRoot), v, p, Options{Key: testKey, hooks: &hooks{point: func(_ int, what string) { points = append(points, what) }}}); err != nil || res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v %v", res, err)
	}
	post := snapshot(t, postRoot)
	commitAt := slices.Index(points, "commit") + 1
	if commitAt == 0 || !slices.Contains(points, "after mkdir") {
		t.Fatalf("points %v: no commit record or no directory moved", points)
	}
	for n := 1; n <= len(points); n++ {
		t.Run(fmt.Sprintf("%02d-%s", n, points[n-1]), func(t *testing.T) {
			root := t.TempDir()
			tree(t, root, spec)
			done := make(chan struct{})
			go func() {
				defer close(done)
				Apply(openRoot(t, root), v, p, Options{Key: testKey, hooks: &hooks{point: func(k int, _ string) {
					if k == n {
						runtime.Goexit()
					}
				}}})
			}()
			<-done
			if _, err := Recover(openRoot(t, root), testKey); err != nil {
				t.Fatal(err)
			}
			want := pre
			if n >= commitAt {
				want = post
			}
			if got := snapshot(t, root); got != want {
				t.Fatalf("crash at %q (commit record at point %d), then recovery:\n%s", points[n-1], commitAt, diffLines(want, got))
			}
			noStaging(t, root)
		})
	}
}
