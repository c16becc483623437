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
// a failure is named with its cause and leaves its install as it was,
// the installs before and after it are updated all the same, the exit
// code is the failure's, and a gone project is stale.
func TestUpdateGoesOnPastAFailureAndNamesIt(t *testing.T) {
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
	os.Remove(w.hookOut + ".post-install")
	code, out, errOut = runLola(t, "update")
	if code != exitRejected {
		t.Fatalf("update with b refused: %d\n%s\n%s", code, out, errOut)
	}
	for _, p := range []string{projects[0], projects[2]} {
		if !strings.Contains(out, "  sample  fake  project "+p) {
			t.Errorf("the install in %s is not reported updated:\n%s", p, out)
		}
		if b, err := os.ReadFile(filepath.Join(p, ".claude/skills/alpha/SKILL.md")); err != nil || string(b) != "# Alpha\n" {
			t.Errorf("the install in %s is not consistent: %q %v", p, b, err)
		}
	}
	// The last hook to run was c's, after b's failure.
	if got := readFileOr(w.hookOut + ".post-install"); !strings.Contains(got, "LOLA_PROJECT_PATH="+projects[2]+"\n") {
		t.Errorf("c's post-install hook did not run after b failed:\n%s", got)
	}
	if !strings.Contains(errOut, "not updated: sample for fake in project "+projects[1]) || !strings.Contains(errOut, "1 install of 3 installs not updated") {
		t.Errorf("the failed install is not named:\n%s", errOut)
	}
	if strings.Contains(errOut, "the run stopped") || strings.Contains(out, "Update complete") {
		t.Errorf("an update with a failure says it stopped or completed:\n%s\n%s", out, errOut)
	}
	if es, _ := os.ReadDir(outside); len(es) != 0 {
		t.Errorf("the refused install wrote through the link: %v", es)
	}
	if es := plans(); es[len(es)-1].Correlation != es[len(es)-2].Correlation {
		t.Error("the update's installs after the failure do not share its correlation")
	}
}
