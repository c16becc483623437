package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func TestApplyCommits(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{
		"keep.txt":       "keep",
		"old.txt":        "old",
		"gone/x":         "x",
		"gone/sub/y":     "y",
		"mv/src.txt":     "moved",
		"replace/me.txt": "before",
	})
	p, v := decode(t, `{"protocol":1,"intents":[
		{"op":"write","path":"new/deep/file.md","content":"hello"},
		{"op":"write","path":"bin/tool","content":"AAEC","encoding":"base64","executable":true},
		{"op":"delete","path":"gone"},
		{"op":"delete","path":"old.txt"},
		{"op":"delete","path":"missing/nothing"},
		{"op":"rename","from":"mv/src.txt","to":"mv2/dst.txt"},
		{"op":"write","path":"replace/me.txt","content":"after"}
	]}`)
	res, err := Apply(openRoot(t, root), v, p, Options{Key: testKey})
	must(t, err)
	if res.Outcome != OutcomeCommitted {
		t.Fatalf("outcome %s: %v %v", res.Outcome, res.Cause, res.RollbackErr)
	}
	want := t.TempDir()
	tree(t, want, map[string]string{
		"keep.txt":         "keep",
		"new/deep/file.md": "hello",
		"bin/tool*":        "\x00\x01\x02",
		"mv/":              "",
		"mv2/dst.txt":      "moved",
		"replace/me.txt":   "after",
	})
	if got, w := snapshot(t, root), snapshot(t, want); got != w {
		t.Fatal(diffLines(w, got))
	}
	noStaging(t, root)
}

// Refusals at resolution: nothing on disk changes, no staging remains.
func TestApplyRefusesHostileNothingChanged(t *testing.T) {
	cases := []struct {
		name, plan string
		rule       schema.Rule
	}{
		{"symlink-outside", `{"op":"write","path":"out/x","content":"pwn"}`, schema.RulePathSymlink},
		{"symlink-inside", `{"op":"write","path":"in/x","content":"pwn"}`, schema.RulePathSymlink},
		{"symlink-final", `{"op":"write","path":"link","content":"pwn"}`, schema.RulePathSymlink},
		{"symlink-delete-through", `{"op":"delete","path":"out/secret"}`, schema.RulePathSymlink},
		{"symlink-rename-from", `{"op":"rename","from":"in/f","to":"g"}`, schema.RulePathSymlink},
		{"symlink-rename-to", `{"op":"rename","from":"real/f","to":"out/f"}`, schema.RulePathSymlink},
		{"second-resolution", `{"op":"write","path":"hop/x","content":"pwn"}`, schema.RulePathSymlink},
		{"file-as-dir", `{"op":"write","path":"real/f/x","content":"pwn"}`, schema.RulePathNotDirectory},
		// The reserved names (.lola.lock, .lola-staging-*) are refused by
		// pathrule.Validate, before a plan reaches Apply, with the same
		// definition (pathrule.Reserved): host/pathrule/reserved_test.go.
		{"write-over-dir", `{"op":"write","path":"real","content":"x"}`, schema.RulePathInvalid},
		{"rename-missing", `{"op":"rename","from":"nope","to":"x"}`, schema.RulePathInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
			tree(t, base, map[string]string{"outside/secret": "s"})
			tree(t, root, map[string]string{
				"real/f":  "f",
				"out@":    outside,
				"in@":     "real",
				"link@":   "real/f",
				"hop@":    "in/../../outside",
				"other/g": "g",
			})
			before, beforeOut := snapshot(t, root), snapshot(t, outside)
			// A valid write alongside proves the refusal is whole-plan.
			p, v := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"other/ok","content":"ok"},`+c.plan+`]}`)
			_, err := Apply(openRoot(t, root), v, p, Options{Key: testKey})
			wantRule(t, err, c.rule)
			named := false
			for _, viol := range rejection.All(err) {
				for _, in := range viol.Intents {
					if in.Index == 1 {
						named = true
					} else {
						t.Fatalf("the refusal names intent %d, not the hostile one (#1): %v", in.Index, err)
					}
				}
			}
			if !named {
				t.Fatalf("the refusal names no intent: %v", err)
			}
			if strings.Contains(err.Error(), base) {
				t.Fatalf("diagnostic carries a host path: %v", err)
			}
			if after := snapshot(t, root); after != before {
				t.Fatal(diffLines(before, after))
			}
			if after := snapshot(t, outside); after != beforeOut {
				t.Fatal(diffLines(beforeOut, after))
			}
		})
	}
}

// The specification's delete-rollback test: fail the last write of a plan
// that deletes a subtree and writes into it.
func TestDeleteRollback(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{
		"skills/foo/SKILL.md":     "old skill",
		"skills/foo/ref/notes.md": "notes",
		"skills/bar/SKILL.md":     "bar",
	})
	before := snapshot(t, root)
	p, v := decode(t, `{"protocol":1,"intents":[
		{"op":"delete","path":"skills/foo"},
		{"op":"write","path":"skills/foo/SKILL.md","content":"new skill"},
		{"op":"write","path":"skills/foo/z-last.md","content":"last"}
	]}`)
	var events []Event
	obs := &recorder{}
	opts := Options{Key: testKey, Observer: obs, hooks: &hooks{fail: func(phase string, intent int) error {
		if phase == "place" && intent == 2 {
			return errors.New("injected: disk full")
		}
		return nil
	}}}
	res, err := Apply(openRoot(t, root), v, p, opts)
	must(t, err)
	if res.Outcome != OutcomeRolledBack || res.Trigger != 2 || res.TriggerOp != schema.OpWrite {
		t.Fatalf("result %+v", res)
	}
	// The earlier write had landed before the failure.
	events = obs.events
	placed := false
	for _, e := range events {
		if e.Kind == EventPlaced && e.Path == "skills/foo/SKILL.md" {
			placed = true
		}
	}
	if !placed {
		t.Fatalf("the first write never landed, so the test proves nothing: %v", events)
	}
	if after := snapshot(t, root); after != before {
		t.Fatal(diffLines(before, after))
	}
	noStaging(t, root)
}

type recorder struct {
	begun   []ResolvedIntent
	events  []Event
	outcome []Result
	onBegin func() // called from Begin, when set
}

func (r *recorder) Begin(in []ResolvedIntent) error {
	r.begun = in
	if r.onBegin != nil {
		r.onBegin()
	}
	return nil
}
func (r *recorder) Event(e Event)      { r.events = append(r.events, e) }
func (r *recorder) Outcome(res Result) { r.outcome = append(r.outcome, res) }

func TestDeleteOrdering(t *testing.T) {
	for _, order := range []string{
		`{"op":"delete","path":"a"},{"op":"delete","path":"a/b"}`,
		`{"op":"delete","path":"a/b"},{"op":"delete","path":"a"}`,
	} {
		root := t.TempDir()
		tree(t, root, map[string]string{"a": "file", "z": "z"})
		p, v := decode(t, `{"protocol":1,"intents":[`+order+`]}`)
		res, err := Apply(openRoot(t, root), v, p, Options{Key: testKey})
		must(t, err)
		if res.Outcome != OutcomeCommitted {
			t.Fatalf("%s: %+v", order, res)
		}
		if got := snapshot(t, root); got != `z -rw-r--r-- "z"` {
			t.Fatalf("%s: tree %s", order, got)
		}
	}
	for _, order := range []string{
		`{"op":"delete","path":"a"},{"op":"write","path":"a/b","content":"b"}`,
		`{"op":"write","path":"a/b","content":"b"},{"op":"delete","path":"a"}`,
	} {
		root := t.TempDir()
		tree(t, root, map[string]string{"a": "file"})
		p, v := decode(t, `{"protocol":1,"intents":[`+order+`]}`)
		res, err := Apply(openRoot(t, root), v, p, Options{Key: testKey})
		must(t, err)
		if res.Outcome != OutcomeCommitted {
			t.Fatalf("%s: %+v", order, res)
		}
		if got := snapshot(t, root); got != "a drwxr-xr-x\na/b -rw-r--r-- \"b\"" {
			t.Fatalf("%s: tree %s", order, got)
		}
	}
}

// atomicityPlan touches every kind of change: delete of a file and of a
// subtree, a write beneath a delete, a rename into a new directory, a
// replacement, a new nested file.
const atomicityPlan = `{"protocol":1,"intents":[
	{"op":"write","path":"n/e/w.txt","content":"new"},
	{"op":"delete","path":"sub"},
	{"op":"write","path":"sub/fresh.txt","content":"fresh"},
	{"op":"rename","from":"mv.txt","to":"dst/mv.txt"},
	{"op":"write","path":"repl.txt","content":"replacement","executable":true},
	{"op":"delete","path":"file"},
	{"op":"write","path":"file/inside.txt","content":"inside"},
	{"op":"write","path":"last.txt","content":"last"}
]}`

var atomicityTree = map[string]string{
	"sub/a":    "a",
	"sub/b/c*": "c",
	"mv.txt":   "mv",
	"repl.txt": "old",
	"file":     "f",
	"keep/":    "",
}

func TestAtomicityEveryIntent(t *testing.T) {
	p, v := decode(t, atomicityPlan)
	for _, phase := range []string{"stage", "act", "place"} {
		for i := 0; i < p.Len(); i++ {
			t.Run(fmt.Sprintf("%s-%d", phase, i), func(t *testing.T) {
				root := t.TempDir()
				tree(t, root, atomicityTree)
				before := snapshot(t, root)
				hit := false
				opts := Options{Key: testKey, hooks: &hooks{fail: func(ph string, intent int) error {
					if ph == phase && intent == i && !hit {
						hit = true
						return errors.New("injected")
					}
					return nil
				}}}
				res, err := Apply(openRoot(t, root), v, p, opts)
				must(t, err)
				if !hit {
					if res.Outcome != OutcomeCommitted {
						t.Fatalf("no failure injected yet %+v", res)
					}
					return // this intent has no such phase (a delete has no staging)
				}
				if res.Outcome != OutcomeRolledBack || res.Trigger != i {
					t.Fatalf("result %+v", res)
				}
				if after := snapshot(t, root); after != before {
					t.Fatal(diffLines(before, after))
				}
				noStaging(t, root)
			})
		}
	}
}

func TestFetchWithoutRemoteRollsBack(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{"x": "x"})
	before := snapshot(t, root)
	p, v := decode(t, `{"protocol":1,"intents":[
		{"op":"delete","path":"x"},
		{"op":"write","path":"a","content":"a"},
		{"op":"fetch","url":"https://example.org/x.tgz","dest":"vendor/x.tgz"}
	]}`)
	res, err := Apply(openRoot(t, root), v, p, Options{Key: testKey})
	must(t, err)
	if res.Outcome != OutcomeRolledBack || res.Trigger != 2 || !errors.Is(res.Cause, ErrNoRemote) {
		t.Fatalf("result %+v", res)
	}
	if after := snapshot(t, root); after != before {
		t.Fatal(diffLines(before, after))
	}
}

func TestObserverSeesResolvedPlanBeforeChanges(t *testing.T) {
	root := t.TempDir()
	p, v := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"a/b","content":"secret-body"},{"op":"rename","from":"a0","to":"c"}]}`)
	tree(t, root, map[string]string{"a0": "z"})
	before := snapshot(t, root)
	obs := &recorder{}
	obs.onBegin = func() {
		// Staging exists by now (host scratch); the plan's paths must not.
		var kept []string
		for _, line := range strings.Split(snapshot(t, root), "\n") {
			if !strings.HasPrefix(line, StagingPrefix) {
				kept = append(kept, line)
			}
		}
		if now := strings.Join(kept, "\n"); now != before {
			t.Errorf("the tree changed before the observer's Begin:\n%s", diffLines(before, now))
		}
	}
	res, err := Apply(openRoot(t, root), v, p, Options{Key: testKey, Observer: obs})
	must(t, err)
	if res.Outcome != OutcomeCommitted || len(obs.outcome) != 1 || obs.outcome[0].Outcome != OutcomeCommitted {
		t.Fatalf("%+v %+v", res, obs.outcome)
	}
	got := fmt.Sprint(obs.begun)
	if strings.Contains(got, "secret-body") || !strings.Contains(got, "a/b") || !strings.Contains(got, "a0 c") {
		t.Fatalf("begin record %s", got)
	}
	// Begin lists intents in apply order (the rename first); each names
	// its index in the plan as emitted.
	sum := sha256.Sum256([]byte("secret-body"))
	hashes := map[int]string{}
	for _, ri := range obs.begun {
		hashes[ri.Index] = ri.SHA256
	}
	if len(obs.begun) != 2 || hashes[0] != hex.EncodeToString(sum[:]) || hashes[1] != "" {
		t.Fatalf("content hashes %+v; want sha256(content) for the write and none for the rename", obs.begun)
	}
}

func TestOutcomeVocabulary(t *testing.T) {
	for _, o := range Outcomes() {
		b, err := o.MarshalText()
		must(t, err)
		var back Outcome
		must(t, back.UnmarshalText(b))
		if back != o || o.String() != string(b) {
			t.Fatalf("%d round-trips to %d via %q", o, back, b)
		}
	}
	if _, err := OutcomeUnknown.MarshalText(); err == nil {
		t.Fatal("zero outcome marshals")
	}
	for _, r := range Recoveries() {
		b, err := r.MarshalText()
		must(t, err)
		var back Recovery
		must(t, back.UnmarshalText(b))
		if back != r {
			t.Fatalf("%d round-trips to %d", r, back)
		}
	}
	var o Outcome
	if o.UnmarshalText([]byte("committed ")) == nil {
		t.Fatal("accepted a misspelling")
	}
}

// Recovery removes only what the host created.
func TestRecoveryLeavesLookalikesAlone(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{".lola-staging-mine/keep": "k", ".lola-staging-0123456789ABCDEF/keep": "k"})
	before := snapshot(t, root)
	rep, err := Recover(openRoot(t, root), testKey)
	must(t, err)
	if rep.Kind != RecoveryNone || snapshot(t, root) != before {
		t.Fatalf("recovery touched a lookalike: %+v", rep)
	}
}

// When undo itself fails the outcome is rollback-failed, staging is kept,
// recovery keeps failing while the obstacle remains, and succeeds (restoring
// the pre-plan tree) once it is gone.
func TestRollbackFailedKeepsStagingForRecovery(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{"x/y": "precious", "other": "o"})
	before := snapshot(t, root)
	p, v := decode(t, `{"protocol":1,"intents":[{"op":"delete","path":"x/y"},{"op":"write","path":"z","content":"z"}]}`)
	opts := Options{Key: testKey, hooks: &hooks{fail: func(phase string, intent int) error {
		if phase == "place" && intent == 1 {
			// Sabotage: the directory y must return to is replaced by a file.
			must(t, os.RemoveAll(filepath.Join(root, "x")))
			must(t, os.WriteFile(filepath.Join(root, "x"), []byte("obstacle"), 0o644))
			return errors.New("injected")
		}
		return nil
	}}}
	res, err := Apply(openRoot(t, root), v, p, opts)
	must(t, err)
	if res.Outcome != OutcomeRollbackFailed || res.Trigger != 1 || res.RollbackErr == nil {
		t.Fatalf("result %+v", res)
	}
	rep, err := Recover(openRoot(t, root), testKey)
	var re *RecoveryError
	if !errors.As(err, &re) || rep.Kind != RecoveryFailed || rep.Staging == "" {
		t.Fatalf("recovery with the obstacle in place: %+v %v", rep, err)
	}
	// Begin refuses to apply anything more to a tree in neither state.
	if _, err := Begin(openRoot(t, root), Options{Key: testKey}); !errors.As(err, &re) {
		t.Fatalf("Begin over a failed recovery: %v", err)
	}
	must(t, os.Remove(filepath.Join(root, "x")))
	must(t, os.Mkdir(filepath.Join(root, "x"), 0o755))
	rep, err = Recover(openRoot(t, root), testKey)
	must(t, err)
	if rep.Kind != RecoveryRolledBack {
		t.Fatalf("recovery %+v", rep)
	}
	if after := snapshot(t, root); after != before {
		t.Fatal(diffLines(before, after))
	}
	noStaging(t, root)
}
