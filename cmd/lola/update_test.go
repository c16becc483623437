package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
)

func TestUpdateNothingInstalled(t *testing.T) {
	modTestHome(t)
	if code, out, _ := runLola(t, "update"); code != exitOK || !strings.Contains(out, "No installations to update") {
		t.Fatalf("%d %q", code, out)
	}
}

// lola update runs each recorded install again under one correlation id;
// the first failure stops the run, the installs before it stay updated,
// the ones after are named and untouched, and a gone project is stale.
func TestUpdateStopsAtFirstFailureAndNamesTheRest(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	base := filepath.Dir(w.project)
	projects := []string{filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "c"), filepath.Join(base, "gone")}
	for _, p := range projects {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if code, out, errOut := runLola(t, "install", "sample", "-a", "fake", p); code != exitOK {
			t.Fatalf("install %s: %d %s %s", p, code, out, errOut)
		}
	}
	if err := os.RemoveAll(projects[3]); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runLola(t, "update", "sample")
	if code != exitOK || !strings.Contains(out, "Update complete") || !strings.Contains(errOut, "stale") {
		t.Fatalf("update: %d\n%s\n%s", code, out, errOut)
	}
	plans := func() []audit.Entry {
		es, err := audit.Read(filepath.Join(w.home, audit.FileName), audit.Filter{Kinds: []audit.Kind{audit.KindPlan}})
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	es := plans()
	if len(es) != 4+3 {
		t.Fatalf("%d plan records, want 7", len(es))
	}
	if c := es[4].Correlation; c != es[5].Correlation || c != es[6].Correlation || c == es[0].Correlation {
		t.Fatalf("the update's plans do not share one correlation of their own: %v", []audit.Correlation{es[4].Correlation, es[5].Correlation, es[6].Correlation})
	}

	// b's .claude becomes a symbolic link: its install is refused there.
	outside := t.TempDir()
	if err := os.RemoveAll(filepath.Join(projects[1], ".claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(projects[1], ".claude")); err != nil {
		t.Fatal(err)
	}
	before := projectEntries(t, projects[2])
	code, out, errOut = runLola(t, "update")
	if code != exitRejected {
		t.Fatalf("update with b refused: %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "  sample  fake  project "+projects[0]) {
		t.Errorf("the finished install is not reported:\n%s", out)
	}
	if !strings.Contains(errOut, "not updated (the run stopped): sample for fake in project "+projects[2]) {
		t.Errorf("the remaining install is not named:\n%s", errOut)
	}
	if strings.Contains(out, "Update complete") {
		t.Error("a stopped update says it completed")
	}
	if es, _ := os.ReadDir(outside); len(es) != 0 {
		t.Errorf("the refused install wrote through the link: %v", es)
	}
	if got := projectEntries(t, projects[2]); strings.Join(got, " ") != strings.Join(before, " ") {
		t.Errorf("a remaining install was touched: %v -> %v", before, got)
	}
	if b, err := os.ReadFile(filepath.Join(projects[0], ".claude/skills/alpha/SKILL.md")); err != nil || string(b) != "# Alpha\n" {
		t.Errorf("the finished install is not consistent: %q %v", b, err)
	}
}
