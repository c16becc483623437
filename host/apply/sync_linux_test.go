package apply

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/internal/durable"
)

// Durability is batched: a committed apply flushes twice (syncfs of
// staging and the journal's program before the first change, syncfs of
// the changes with the commit record after the last) whatever the number
// of intents, never once per file. Every flush of the process is counted
// (durable.Calls), not only the ones the executor thinks it makes.
func TestSyncsPerPlanIndependentOfIntents(t *testing.T) {
	count := func(n int) uint64 {
		var js strings.Builder
		js.WriteString(`{"protocol":1,"intents":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				js.WriteByte(',')
			}
			fmt.Fprintf(&js, `{"op":"write","path":"d%d/f%d","content":"%d"}`, i%7, i, i)
		}
		js.WriteString(`]}`)
		p, v := decode(t, js.String())
		s, err := Begin(openRoot(t, t.TempDir()), Options{Key: testKey})
		must(t, err)
		defer s.Close()
		prep, err := s.Prepare(v, p)
		must(t, err)
		before := durable.Calls()
		if res := s.Commit(prep); res.Outcome != OutcomeCommitted {
			t.Fatalf("%+v", res)
		}
		return durable.Calls() - before
	}
	one, many := count(1), count(300)
	if one != many || many > 2 {
		t.Fatalf("flushes: %d for 1 intent, %d for 300; want the same, at most 2", one, many)
	}
}

// syncRoot flushes the filesystem holding root once (syncfs).
func syncRoot(b testing.TB, root string) {
	r := openRoot(b, root)
	must(b, r.SyncFS())
}

// The two flushes are where durability needs them: one after the
// observer's Begin (whose record may rely on it: FlushDevice) and before
// the first change to the tree, none between the changes, and one after
// the commit record, which it makes durable with the changes.
func TestFlushOrder(t *testing.T) {
	root := t.TempDir()
	tree(t, root, atomicityTree)
	p, v := decode(t, atomicityPlan)
	type mark struct {
		what  string
		calls uint64
	}
	var marks []mark
	at := func(what string) { marks = append(marks, mark{what, durable.Calls()}) }
	obs := &recorder{onBegin: func() { at("observer begin") }}
	s, err := Begin(openRoot(t, root), Options{Key: testKey, Observer: obs, hooks: &hooks{point: func(_ int, what string) { at(what) }}})
	must(t, err)
	defer s.Close()
	if !s.FlushDevice().Same(openRoot(t, root).Device()) {
		t.Fatal("FlushDevice is not the root's filesystem")
	}
	prep, err := s.Prepare(v, p)
	must(t, err)
	if res := s.Commit(prep); res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", res)
	}
	at("end")
	calls := func(what string) (uint64, int) {
		for i, m := range marks {
			if m.what == what || strings.HasPrefix(m.what, what) {
				return m.calls, i
			}
		}
		t.Fatalf("no %q among %v", what, marks)
		return 0, 0
	}
	begin, _ := calls("observer begin")
	first, _ := calls("before ")
	var last uint64
	for _, m := range marks {
		if strings.HasPrefix(m.what, "after ") {
			last = m.calls
		}
	}
	commit, ci := calls("commit")
	flushed, fi := calls("flushed")
	end, _ := calls("end")
	if first != begin+1 || last != first || commit != last || fi < ci || flushed != commit+1 || end != flushed {
		t.Fatalf("flushes at each point: %v", marks)
	}
}

// A flush that fails after the commit record was written takes the record
// back before undoing the changes, so that no crash during the undo can be
// "completed" by recovery: at the first undo the journal on disk ends
// before the commit record. The tree ends pre-plan and the journal gone.
func TestCommitFlushFailureRollsBack(t *testing.T) {
	root := t.TempDir()
	tree(t, root, atomicityTree)
	before := snapshot(t, root)
	p, v := decode(t, atomicityPlan)
	var atUndo string
	obs := &undoWatch{onUndo: func() {
		if atUndo != "" {
			return
		}
		names := stagingNames(t, root)
		if len(names) != 1 {
			t.Fatalf("staging at undo: %v", names)
		}
		b, err := os.ReadFile(filepath.Join(root, names[0], journalName))
		must(t, err)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		atUndo = lines[len(lines)-1]
	}}
	opts := Options{Key: testKey, Observer: obs, hooks: &hooks{fail: func(phase string, _ int) error {
		if phase == "commit" {
			return errors.New("injected: syncfs failed")
		}
		return nil
	}}}
	res, err := Apply(openRoot(t, root), v, p, opts)
	must(t, err)
	if res.Outcome != OutcomeRolledBack {
		t.Fatalf("%+v", res)
	}
	if !strings.Contains(atUndo, `"phase":"program"`) {
		t.Fatalf("the journal's last record at the first undo: %.80s", atUndo)
	}
	if after := snapshot(t, root); after != before {
		t.Fatal(diffLines(before, after))
	}
	noStaging(t, root)
}

type undoWatch struct {
	nopObserver
	onUndo func()
}

func (w *undoWatch) Event(e Event) {
	if e.Kind == EventUndone {
		w.onUndo()
	}
}
