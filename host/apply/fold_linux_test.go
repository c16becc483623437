package apply

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/fsroot/fsroottest"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// On a case-folding filesystem (foldFS over FUSE) the probe finds case
// insensitivity, the relation it selects folds, and write README.md with
// delete Readme.md is one path there: rejected. Under the byte relation
// the same plan validates (two files on Linux), and applying it to the
// folding root is refused because that relation misjudges the filesystem.
func TestCaseFoldingFilesystem(t *testing.T) {
	mnt := t.TempDir()
	type result struct {
		findings fsroot.Findings
		eq       pathrule.Equality
		foldErr  error
		bytesErr error
		prepErr  error
		err      error
	}
	var res result
	fsroottest.InPrivateMounts(t, func() string {
		unmount, skip := mountFoldFS(t, mnt)
		if skip != "" {
			return skip
		}
		defer unmount()
		r, err := fsroot.Open(mnt)
		if err != nil {
			res.err = err
			return ""
		}
		defer r.Close()
		s, err := Begin(r, Options{Key: testKey})
		if err != nil {
			res.err = err
			return ""
		}
		defer s.Close()
		if res.findings, res.err = s.Probe(); res.err != nil {
			return ""
		}
		res.eq = pathrule.ForFindings(pathrule.Findings{
			CaseInsensitive:          res.findings.CaseInsensitive,
			NormalizationInsensitive: res.findings.NormalizationInsensitive,
			IgnoresIgnorable:         res.findings.IgnoresIgnorable,
		})
		p, err := plan.Decode(strings.NewReader(`{"protocol":1,"intents":[
			{"op":"write","path":"README.md","content":"x"},
			{"op":"delete","path":"Readme.md"}]}`), plan.DefaultLimits())
		if err != nil {
			res.err = err
			return ""
		}
		_, res.foldErr = pathrule.Validate(p, res.eq)
		var v *pathrule.Validated
		v, res.bytesErr = pathrule.Validate(p, pathrule.Bytes)
		if res.bytesErr == nil {
			prep, err := s.Prepare(v, p)
			if err == nil {
				prep.Discard()
			}
			res.prepErr = err
		}
		return ""
	})
	must(t, res.err)
	if !res.findings.CaseInsensitive || res.findings.NormalizationInsensitive {
		t.Fatalf("probe on a case-folding filesystem: %+v", res.findings)
	}
	if res.eq.Key("README.md") != res.eq.Key("Readme.md") {
		t.Fatalf("selected relation %s does not fold case", res.eq.Name())
	}
	if !errors.Is(res.foldErr, rejection.Rule(schema.RuleConflictSamePath)) {
		t.Fatalf("under %s: %v; want %s", res.eq.Name(), res.foldErr, schema.RuleConflictSamePath)
	}
	if vs := rejection.All(res.foldErr); len(vs) != 1 || len(vs[0].Intents) != 2 {
		t.Fatalf("rejection does not name both intents: %v", res.foldErr)
	}
	must(t, res.bytesErr)
	if !errors.Is(res.prepErr, ErrRelationMismatch) {
		t.Fatalf("byte relation on a folding root: %v; want ErrRelationMismatch", res.prepErr)
	}
}

// The executor on a case-folding filesystem: paths spelled differently
// from the tree reach the existing entries, a write over a differently
// cased file replaces it, and a delete excuses a write beneath it under
// the folding relation.
func TestApplyOnCaseFoldingFilesystem(t *testing.T) {
	mnt := t.TempDir()
	type result struct {
		tree string
		res  Result
		err  error
	}
	var out result
	fsroottest.InPrivateMounts(t, func() string {
		unmount, skip := mountFoldFS(t, mnt)
		if skip != "" {
			return skip
		}
		defer unmount()
		tree(t, mnt, map[string]string{"skills/foo/SKILL.md": "old", "skills/old": "stale file"})
		r, err := fsroot.Open(mnt)
		if err != nil {
			out.err = err
			return ""
		}
		defer r.Close()
		s, err := Begin(r, Options{Key: testKey})
		if err != nil {
			out.err = err
			return ""
		}
		defer s.Close()
		fnd, err := s.Probe()
		if err != nil {
			out.err = err
			return ""
		}
		eq := pathrule.ForFindings(pathrule.Findings{CaseInsensitive: fnd.CaseInsensitive, NormalizationInsensitive: fnd.NormalizationInsensitive})
		p, err := plan.Decode(strings.NewReader(`{"protocol":1,"intents":[
			{"op":"write","path":"Skills/FOO/skill.md","content":"new"},
			{"op":"delete","path":"SKILLS/Old"},
			{"op":"write","path":"skills/old/inside.md","content":"inside"},
			{"op":"write","path":"Skills/bar/x.md","content":"x"}]}`), plan.DefaultLimits())
		if err != nil {
			out.err = err
			return ""
		}
		v, err := pathrule.Validate(p, eq)
		if err != nil {
			out.err = err
			return ""
		}
		prep, err := s.Prepare(v, p)
		if err != nil {
			out.err = err
			return ""
		}
		out.res = s.Commit(prep)
		out.tree = snapshot(t, mnt)
		return ""
	})
	must(t, out.err)
	if out.res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", out.res)
	}
	want := strings.Join([]string{
		"skills drwxr-xr-x",
		"skills/bar drwxr-xr-x",
		`skills/bar/x.md -rw-r--r-- "x"`,
		"skills/foo drwxr-xr-x",
		`skills/foo/skill.md -rw-r--r-- "new"`,
		"skills/old drwxr-xr-x",
		`skills/old/inside.md -rw-r--r-- "inside"`,
	}, "\n")
	if out.tree != want {
		t.Fatal(diffLines(want, out.tree))
	}
}
