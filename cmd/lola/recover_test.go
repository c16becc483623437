//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
)

// interrupted leaves what an apply of {delete victim} killed after moving
// victim aside (or, when committed, just past its commit point) leaves: a
// staging directory with its journal, authenticated by home's key, and the
// moved entry in aside/. It returns the root and the home whose key
// signed the journal.
func interrupted(t *testing.T, committed bool) (root, home string) {
	t.Helper()
	root, home = t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "victim"), []byte("victim"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := plan.Decode(strings.NewReader(`{"protocol":1,"intents":[{"op":"delete","path":"victim"}]}`), plan.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	v, err := pathrule.Validate(p, pathrule.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	key, err := apply.LoadKey(home)
	if err != nil {
		t.Fatal(err)
	}
	r, err := fsroot.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	at := "after aside"
	if committed {
		at = "commit"
	}
	if err := apply.Interrupt(r, v, p, apply.Options{Key: key, Observer: tagObserver{}}, at); err != nil {
		t.Fatal(err)
	}
	return root, home
}

// tagObserver names the interrupted apply with interruptedTag, as the
// audit observer names one with its correlation id.
type tagObserver struct{}

func (tagObserver) Begin([]apply.ResolvedIntent) error { return nil }
func (tagObserver) Event(apply.Event)                  {}
func (tagObserver) Outcome(apply.Result)               {}
func (tagObserver) Tag() string                        { return interruptedTag }

const interruptedTag = "0123456789abcdef0123456789abcdef"

// recoveredOutcome is the outcome record recovery logged under the
// interrupted plan's correlation id.
func recoveredOutcome(t *testing.T, home string) audit.OutcomeKind {
	t.Helper()
	for _, e := range readAuditEntries(t, home) {
		if e.Kind == audit.KindOutcome && e.Correlation.String() == interruptedTag {
			if !e.Outcome.Recovered {
				t.Fatal("outcome not marked as decided by recovery")
			}
			return e.Outcome.Outcome
		}
	}
	t.Fatal("recovery logged no outcome under the interrupted plan's correlation id")
	return ""
}

func TestRecoverRollsBackBeforeCommitPoint(t *testing.T) {
	root, home := interrupted(t, false)
	code, out, errs := runApplyCLI(t, "", "recover", "--root", root, "--home", home, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	var rep struct{ Recovery string }
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Recovery != "rolled-back" {
		t.Fatalf("report %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(root, "victim")); err != nil || string(b) != "victim" {
		t.Fatalf("victim not restored: %q %v", b, err)
	}
	if got := listTree(t, root); got != "victim -rw-r--r-- victim" {
		t.Fatalf("tree %s", got)
	}
	if got := recoveredOutcome(t, home); got != audit.OutcomeRolledBack {
		t.Fatalf("logged %s", got)
	}
}

func TestRecoverCompletesAfterCommitPoint(t *testing.T) {
	root, home := interrupted(t, true)
	code, out, errs := runApplyCLI(t, "", "recover", "--root", root, "--home", home)
	if code != exitOK || !strings.Contains(out, "completed") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if got := recoveredOutcome(t, home); got != audit.OutcomeCommitted {
		t.Fatalf("logged %s", got)
	}
	if got := listTree(t, root); got != "" {
		t.Fatalf("tree %q; want the delete completed", got)
	}
	code, out, _ = runApplyCLI(t, "", "recover", "--root", root, "--home", home)
	if code != exitOK || !strings.Contains(out, "nothing to recover") {
		t.Fatalf("second recover: %d %s", code, out)
	}
}

// Every plan apply recovers first.
func TestPlanApplyRecoversFirst(t *testing.T) {
	root, home := interrupted(t, false)
	plan := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(plan, []byte(`{"protocol":1,"intents":[{"op":"write","path":"new.txt","content":"n"}]}`), 0o644)
	code, out, errs := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, plan)
	if code != exitOK || !strings.Contains(errs, "recovered an interrupted apply first: rolled-back") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if got := listTree(t, root); got != "new.txt -rw-r--r-- n\nvictim -rw-r--r-- victim" {
		t.Fatalf("tree %s", got)
	}
}

// A staging directory planted in the root (a cloned repository can ship
// one) is never executed: 'lola recover' and every apply warn about it and
// leave it in place, and the hook its journal would plant never appears.
func TestPlantedStagingIsReportedNotExecuted(t *testing.T) {
	root := t.TempDir()
	staging := filepath.Join(root, ".lola-staging-0123456789abcdef")
	for _, d := range []string{filepath.Join(staging, "new"), filepath.Join(staging, "aside"), filepath.Join(root, ".git", "hooks")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(staging, "aside", "1"), []byte("#!/bin/sh\necho pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	journal := `{"phase":"begin"}` + "\n" + `{"phase":"program","actions":[{"op":"aside","intent":0,"path":".git/hooks/pre-commit","slot":1}]}` + "\n"
	if err := os.WriteFile(filepath.Join(staging, "journal"), []byte(journal), 0o600); err != nil {
		t.Fatal(err)
	}
	before := listTree(t, root)
	home := t.TempDir()
	code, out, errs := runApplyCLI(t, "", "recover", "--root", root, "--home", home, "--json")
	var rep struct {
		Recovery  string
		Untrusted []string
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitOK || rep.Recovery != "none" ||
		len(rep.Untrusted) != 1 || rep.Untrusted[0] != ".lola-staging-0123456789abcdef" || !strings.Contains(errs, "was not executed") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	plan := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(plan, []byte(`{"protocol":1,"intents":[{"op":"write","path":"new.txt","content":"n"}]}`), 0o644)
	code, out, errs = runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, plan)
	if code != exitOK || !strings.Contains(errs, "was not executed") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if _, err := os.Lstat(filepath.Join(root, ".git", "hooks", "pre-commit")); !os.IsNotExist(err) {
		t.Fatalf("the planted journal planted a hook: %v", err)
	}
	if after := listTree(t, root); after != before+"\nnew.txt -rw-r--r-- n" {
		t.Fatalf("tree before:\n%s\nafter:\n%s", before, after)
	}
}

// One syncfs makes an apply's renames and its journal's commit record
// durable together, so a power loss can leave the record on disk and a
// rename not: here the delete's move aside is taken back, as if it never
// reached the disk. 'lola recover' still completes the plan (redoing the
// move from the journal) and logs it committed.
func TestRecoverCompletesACommitWhoseChangeWasLost(t *testing.T) {
	root, home := interrupted(t, true)
	var staging string
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), apply.StagingPrefix) {
			staging = filepath.Join(root, e.Name())
		}
	}
	aside, err := os.ReadDir(filepath.Join(staging, "aside"))
	if err != nil || len(aside) != 1 {
		t.Fatalf("staging/aside: %v %v", aside, err)
	}
	if err := os.Rename(filepath.Join(staging, "aside", aside[0].Name()), filepath.Join(root, "victim")); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runApplyCLI(t, "", "recover", "--root", root, "--home", home)
	if code != exitOK || !strings.Contains(out, "completed") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if got := listTree(t, root); got != "" {
		t.Fatalf("tree %q; want the delete completed", got)
	}
	if got := recoveredOutcome(t, home); got != audit.OutcomeCommitted {
		t.Fatalf("logged %s", got)
	}
}
