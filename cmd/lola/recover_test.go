//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lola-pm/lola/host/audit"
)

// interrupted fabricates what an apply killed after moving victim aside
// leaves: a staging directory whose journal has the program (and, when
// committed, the commit point) and the moved entry in aside/.
func interrupted(t *testing.T, committed bool) (root string) {
	t.Helper()
	root = t.TempDir()
	staging := filepath.Join(root, ".lola-staging-0123456789abcdef")
	for _, d := range []string{filepath.Join(staging, "new"), filepath.Join(staging, "aside")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	moved := filepath.Join(staging, "aside", "1")
	if err := os.WriteFile(moved, []byte("victim"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(moved)
	if err != nil {
		t.Fatal(err)
	}
	ino := st.Sys().(*syscall.Stat_t).Ino
	journal := `{"phase":"begin","tag":"` + interruptedTag + `"}` + "\n" +
		fmt.Sprintf(`{"phase":"program","actions":[{"op":"aside","intent":0,"path":"victim","slot":1,"ino":%d}]}`, ino) + "\n"
	if committed {
		journal += `{"phase":"commit"}` + "\n"
	}
	if err := os.WriteFile(filepath.Join(staging, "journal"), []byte(journal), 0o600); err != nil {
		t.Fatal(err)
	}
	return root
}

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
	root := interrupted(t, false)
	home := t.TempDir()
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
	root := interrupted(t, true)
	home := t.TempDir()
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
	code, out, _ = runApplyCLI(t, "", "recover", "--root", root, "--home", t.TempDir())
	if code != exitOK || !strings.Contains(out, "nothing to recover") {
		t.Fatalf("second recover: %d %s", code, out)
	}
}

// Every plan apply recovers first.
func TestPlanApplyRecoversFirst(t *testing.T) {
	root := interrupted(t, false)
	plan := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(plan, []byte(`{"protocol":1,"intents":[{"op":"write","path":"new.txt","content":"n"}]}`), 0o644)
	code, out, errs := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", t.TempDir(), plan)
	if code != exitOK || !strings.Contains(errs, "recovered an interrupted apply first: rolled-back") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if got := listTree(t, root); got != "new.txt -rw-r--r-- n\nvictim -rw-r--r-- victim" {
		t.Fatalf("tree %s", got)
	}
}
