//go:build unix

package apply

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestCrashChild is the subprocess of TestCrashRecovers: it applies the
// atomicity plan to $LOLA_CRASH_ROOT and kills itself with SIGKILL at crash
// point $LOLA_CRASH_AT — exactly what kill -9 at that instant does.
func TestCrashChild(t *testing.T) {
	root := os.Getenv("LOLA_CRASH_ROOT")
	if root == "" {
		t.Skip("subprocess of TestCrashRecovers")
	}
	at, _ := strconv.Atoi(os.Getenv("LOLA_CRASH_AT"))
	p, v := decode(t, atomicityPlan)
	opts := Options{Key: testKey, hooks: &hooks{point: func(n int, what string) {
		if n == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}}}
	res, err := Apply(openRoot(t, root), v, p, opts)
	must(t, err)
	fmt.Println("finished:", res.Outcome)
}

func TestCrashRecovers(t *testing.T) {
	if os.Getenv("LOLA_CRASH_ROOT") != "" {
		t.Skip("in the subprocess")
	}
	p, v := decode(t, atomicityPlan)
	// The pre- and post-plan trees, and how many crash points one apply has.
	preRoot, postRoot := t.TempDir(), t.TempDir()
	tree(t, preRoot, atomicityTree)
	tree(t, postRoot, atomicityTree)
	pre := snapshot(t, preRoot)
	var points []string
	res, err := Apply(openRoot(t, postRoot), v, p, Options{Key: testKey, hooks: &hooks{point: func(n int, what string) { points = append(points, what) }}})
	must(t, err)
	if res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", res)
	}
	post := snapshot(t, postRoot)
	if len(points) < 20 {
		t.Fatalf("only %d crash points", len(points))
	}
	commitAt := -1
	for i, w := range points {
		if w == "commit" {
			commitAt = i + 1
		}
	}
	for n := 1; n <= len(points); n++ {
		t.Run(fmt.Sprintf("%02d-%s", n, points[n-1]), func(t *testing.T) {
			root := t.TempDir()
			tree(t, root, atomicityTree)
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "LOLA_CRASH_ROOT="+root, "LOLA_CRASH_AT="+strconv.Itoa(n))
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("child was not killed at point %d: %v\n%s", n, err, out)
			}
			rep, err := Recover(openRoot(t, root), testKey)
			must(t, err)
			got := snapshot(t, root)
			switch {
			case n >= commitAt:
				if got != post {
					t.Fatalf("crash after the commit point (%s), recovery %s:\n%s", points[n-1], rep.Kind, diffLines(post, got))
				}
				// Past the journal's removal only an empty staging
				// directory is left: removed as holding nothing.
				if n < len(points) && rep.Kind != RecoveryCompleted && !(points[n-1] == "discard journal" && rep.Kind == RecoveryDiscarded) {
					t.Fatalf("recovery says %s after the commit point", rep.Kind)
				}
			default:
				if got != pre {
					t.Fatalf("crash before the commit point (%s), recovery %s:\n%s", points[n-1], rep.Kind, diffLines(pre, got))
				}
				if rep.Kind != RecoveryRolledBack && rep.Kind != RecoveryDiscarded {
					t.Fatalf("recovery says %s before the commit point", rep.Kind)
				}
			}
			noStaging(t, root)
			// A second recovery finds nothing to do.
			if rep, err := Recover(openRoot(t, root), testKey); err != nil || rep.Kind != RecoveryNone {
				t.Fatalf("second recovery: %+v %v", rep, err)
			}
		})
	}
}

// One syncfs makes the changes and the commit record durable together,
// so a power loss during it can leave the commit record on disk without
// some of the changes before it (the filesystem persisted the journal's
// data, not every rename). Such a journal is still committed: recovery
// redoes, from staging, each journaled change whose effect is missing,
// and the tree is post-plan. The state is made as a power loss leaves it:
// an apply stopped just past its commit record, then the last k changes
// (a journaling filesystem persists a prefix of them), or every content
// placement, taken back as if they had never reached the disk.
func TestRecoverCompletesCommitWhoseChangesWereLost(t *testing.T) {
	p, v := decode(t, atomicityPlan)
	postRoot := t.TempDir()
	tree(t, postRoot, atomicityTree)
	if res, err := Apply(openRoot(t, postRoot), v, p, Options{Key: testKey}); err != nil || res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v %v", res, err)
	}
	post := snapshot(t, postRoot)
	program := func(root string) (*stage, []action) {
		r := openRoot(t, root)
		names := stagingNames(t, root)
		if len(names) != 1 {
			t.Fatalf("staging %v", names)
		}
		st := &stage{root: r, name: names[0]}
		var err error
		st.dir, err = r.Dir().OpenDir(st.name)
		must(t, err)
		re, err := r.Dir().Stat()
		must(t, err)
		de, err := st.dir.Stat()
		must(t, err)
		recs, err := readJournal(st.dir, testKey, journalBinding(re, de, st.name))
		must(t, err)
		if recs[len(recs)-1].Phase != phaseCommit {
			t.Fatalf("journal ends in %s, not the commit record", recs[len(recs)-1].Phase)
		}
		st.fresh, err = st.dir.OpenDir(freshName)
		must(t, err)
		st.aside, err = st.dir.OpenDir(asideName)
		must(t, err)
		for _, r := range recs {
			if r.Phase == phaseProgram {
				return st, r.Actions
			}
		}
		t.Fatal("no program")
		return nil, nil
	}
	interruptAtCommit := func(root string) {
		if err := Interrupt(openRoot(t, root), v, p, Options{Key: testKey}, "commit"); err != nil {
			t.Fatal(err)
		}
	}
	// How many changes the program has.
	probe := t.TempDir()
	tree(t, probe, atomicityTree)
	interruptAtCommit(probe)
	st, prog := program(probe)
	st.closeDirs()
	cases := map[string]func([]action) []int{}
	for k := 1; k <= len(prog); k++ {
		cases[fmt.Sprintf("last-%02d-lost", k)] = func(prog []action) []int {
			var lost []int
			for i := len(prog) - k; i < len(prog); i++ {
				lost = append(lost, i)
			}
			return lost
		}
	}
	cases["places-lost"] = func(prog []action) []int {
		var lost []int
		for i, a := range prog {
			if a.Op == actPlace {
				lost = append(lost, i)
			}
		}
		return lost
	}
	for name, lostOf := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			tree(t, root, atomicityTree)
			interruptAtCommit(root)
			st, prog := program(root)
			lost := lostOf(prog)
			for i := len(lost) - 1; i >= 0; i-- {
				a := prog[lost[i]]
				must(t, st.undo(&a))
			}
			st.closeDirs()
			if snapshot(t, root) == post {
				t.Fatal("nothing was lost: the case proves nothing")
			}
			rep, err := Recover(openRoot(t, root), testKey)
			must(t, err)
			if rep.Kind != RecoveryCompleted {
				t.Fatalf("recovery %s", rep.Kind)
			}
			if got := snapshot(t, root); got != post {
				t.Fatalf("a committed journal whose changes were lost was not completed:\n%s", diffLines(post, got))
			}
			noStaging(t, root)
		})
	}
}

// A rollback's discard removes staging's halves before the journal; a
// crash in between leaves a journal without new/ or aside/. Recovery
// finds nothing to move back (every change was undone before the discard
// began) and removes the rest, rather than failing on the missing half.
func TestRecoverToleratesDiscardedHalves(t *testing.T) {
	p, v := decode(t, atomicityPlan)
	for _, half := range []string{freshName, asideName} {
		root := t.TempDir()
		tree(t, root, atomicityTree)
		pre := snapshot(t, root)
		if err := Interrupt(openRoot(t, root), v, p, Options{Key: testKey}, "program"); err != nil {
			t.Fatal(err)
		}
		names := stagingNames(t, root)
		if len(names) != 1 {
			t.Fatalf("staging %v", names)
		}
		must(t, os.RemoveAll(filepath.Join(root, names[0], half)))
		rep, err := Recover(openRoot(t, root), testKey)
		must(t, err)
		if rep.Kind != RecoveryRolledBack {
			t.Fatalf("%s gone: recovery %s", half, rep.Kind)
		}
		if got := snapshot(t, root); got != pre {
			t.Fatal(diffLines(pre, got))
		}
		noStaging(t, root)
	}
}
