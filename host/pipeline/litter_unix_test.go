//go:build unix

package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/fsroot/fsroottest"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// A dry run under --fs auto (the default) creates nothing anywhere under
// the root, not even for an instant: the root's filesystem is identified
// by reading its type, and every entry's change and modification times
// stay as they were. (Before, a probe made and removed a staging
// directory with three files in it and put the root's mtime back; its
// change time still moved.)
func TestDryRunCreatesNothingUnderTheRoot(t *testing.T) {
	root := t.TempDir()
	for p, body := range map[string]string{"README.md": "mine", "skills/foo/SKILL.md": "old"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := fsroottest.Stamps(t, root)
	p := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"skills/foo/SKILL.md","content":"new"},{"op":"delete","path":"README.md"},{"op":"write","path":"a/b.md","content":"b"}]}`)
	res, err := Apply(context.Background(), root, p, proposer(t, nil, nil), Options{FS: pathrule.Auto, DryRun: true, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != OutcomeDryRun || len(res.Changes) != 3 {
		t.Fatalf("%v %+v", res.Outcome, res.Changes)
	}
	if res.Relation != pathrule.Bytes.Name() || res.RelationNote != "" {
		t.Fatalf("relation %q (%q) on this machine's filesystem", res.Relation, res.RelationNote)
	}
	if after := fsroottest.Stamps(t, root); after != before {
		t.Fatalf("a dry run wrote under the root:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// The staging directory exists only while an apply runs: after a
// committed apply, and after an apply refused at each stage (validation,
// resolution beneath the root, a guard), nothing of lola's is left under
// the root — only the plan's own effects, or nothing. (On a filesystem
// that must be probed by writing, the staging directory is made before
// validation and removed by every one of these paths: see host/apply's
// TestProbeStagingRemovedWithoutCommit.)
func TestNothingOfLolasLeftAfterAnApply(t *testing.T) {
	log, _ := openLog(t)
	guard := func(o Options) Options {
		o.Guard = func([]apply.Change, *plan.Plan) error {
			return rejection.New(schema.RuleConflictUnowned, "a file lola did not write", rejection.IntentRef{Index: 0, Op: schema.OpWrite})
		}
		return o
	}
	none := func(o Options) Options { return o }
	for _, tc := range []struct {
		name, plan string
		opts       func(Options) Options
		want       Outcome
	}{
		{"committed", `{"protocol":1,"intents":[{"op":"write","path":"a/b.md","content":"b"},{"op":"delete","path":"old"}]}`, none, OutcomeCommitted},
		{"rejected by validation", `{"protocol":1,"intents":[{"op":"write","path":"a","content":"1"},{"op":"write","path":"a","content":"2"}]}`, none, OutcomeRejected},
		{"rejected at resolution", `{"protocol":1,"intents":[{"op":"rename","from":"nothing","to":"x"}]}`, none, OutcomeRejected},
		{"rejected by a guard", `{"protocol":1,"intents":[{"op":"write","path":"a/b.md","content":"b"}]}`, guard, OutcomeRejected},
		{"rolled back", `{"protocol":1,"intents":[{"op":"write","path":"a/b.md","content":"b"},{"op":"fetch","url":"https://example.org/x.tgz","dest":"x.tgz"}]}`, none, OutcomeRolledBack},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "old"), []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := Apply(context.Background(), root, decode(t, tc.plan), proposer(t, nil, nil), tc.opts(Options{FS: pathrule.Auto, Log: log, Home: t.TempDir()}))
			if err != nil || res.Outcome != tc.want {
				t.Fatalf("%v %v %v", res.Outcome, res.Err, err)
			}
			got := snapshot(t, root)
			for p := range got {
				if strings.HasPrefix(p, ".lola") {
					t.Fatalf("%s left under the root: %v", p, got)
				}
			}
			want := map[string]string{"old": "old"}
			if tc.want == OutcomeCommitted {
				want = map[string]string{"a": "<dir>", "a/b.md": "b"}
			}
			if !same(got, want) {
				t.Fatalf("tree %v, want %v", got, want)
			}
		})
	}
}
