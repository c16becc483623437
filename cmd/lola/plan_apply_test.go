package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
)

func runApplyCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// applyFixture is a root holding skills/foo with one file, a home for the
// audit log, and a plan file.
func applyFixture(t *testing.T, planJSON string) (root, home, planFile string) {
	t.Helper()
	base := t.TempDir()
	root, home = filepath.Join(base, "root"), filepath.Join(base, "home")
	for _, d := range []string{filepath.Join(root, "skills", "foo"), home, filepath.Join(base, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "skills", "foo", "SKILL.md"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	planFile = filepath.Join(base, "plan.json")
	if err := os.WriteFile(planFile, []byte(planJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, home, planFile
}

func listTree(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." { // nothing of the host's is ever left: no lock file, no staging
			return nil
		}
		line := rel + " " + info.Mode().String()
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			line += " " + string(b)
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func readAuditEntries(t *testing.T, home string) []audit.Entry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, audit.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var out []audit.Entry
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e audit.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

const secretBody = "SECRET-BODY-7f3a"

func TestPlanApplyCommitsAndLogs(t *testing.T) {
	root, home, planFile := applyFixture(t, `{"protocol":1,"intents":[
		{"op":"delete","path":"skills/foo"},
		{"op":"write","path":"skills/foo/SKILL.md","content":"`+secretBody+`"}]}`)
	code, out, errs := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, "--json", planFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep["outcome"] != "committed" || rep["valid"] != true {
		t.Fatalf("report %s (%v)", out, err)
	}
	if got := listTree(t, root); !strings.Contains(got, "skills/foo/SKILL.md -rw-r--r-- "+secretBody) || strings.Contains(got, "old") {
		t.Fatalf("tree %s", got)
	}
	raw, _ := os.ReadFile(filepath.Join(home, audit.FileName))
	if bytes.Contains(raw, []byte(secretBody)) || bytes.Contains(raw, []byte(root)) {
		t.Fatal("the audit log carries a content body or a host path")
	}
	es := readAuditEntries(t, home)
	if es[0].Kind != audit.KindPlan || len(es[0].Plan.Intents) != 2 || es[0].Plan.Intents[1].Paths[0] != "skills/foo/SKILL.md" {
		t.Fatalf("pre-apply record %+v", es[0])
	}
	last := es[len(es)-1]
	if last.Kind != audit.KindOutcome || last.Correlation != es[0].Correlation || last.Outcome.Outcome != audit.OutcomeCommitted {
		t.Fatalf("outcome record %+v", last)
	}
}

func TestPlanApplyDryRunChangesNothing(t *testing.T) {
	root, home, planFile := applyFixture(t, `{"protocol":1,"intents":[
		{"op":"delete","path":"skills/foo"},
		{"op":"write","path":"skills/foo/SKILL.md","content":"new content"},
		{"op":"write","path":"a/b.txt","content":"x"}]}`)
	before := listTree(t, root)
	code, out, errs := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, "--dry-run", planFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"- skills/foo/ (1 files, 3 bytes)", "+ skills/foo/SKILL.md (11 bytes)", "+ a/b.txt (1 byte)", "nothing was applied"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run output lacks %q:\n%s", want, out)
		}
	}
	if after := listTree(t, root); after != before {
		t.Fatalf("dry run changed the tree:\n%s\n%s", before, after)
	}
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".lola-staging-") {
			t.Fatal("staging left behind")
		}
	}
}

func TestPlanApplyRejectsSymlinkAndLogsRule(t *testing.T) {
	root, home, planFile := applyFixture(t, `{"protocol":1,"intents":[
		{"op":"write","path":"ok.txt","content":"fine"},
		{"op":"write","path":"link/pwned","content":"x"}]}`)
	before := listTree(t, root)
	code, out, _ := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, "--json", planFile)
	if code != exitRejected {
		t.Fatalf("exit %d: %s", code, out)
	}
	var rep struct {
		Outcome    string `json:"outcome"`
		Violations []struct {
			Rule    string `json:"rule"`
			Intents []int  `json:"intents"`
			Detail  string `json:"detail"`
		} `json:"violations"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Outcome != "rejected" || len(rep.Violations) != 1 ||
		rep.Violations[0].Rule != "path.symlink" || len(rep.Violations[0].Intents) != 1 || rep.Violations[0].Intents[0] != 1 {
		t.Fatalf("report %s", out)
	}
	if strings.Contains(out, root) {
		t.Fatal("a diagnostic carries the host path")
	}
	if after := listTree(t, root); after != before {
		t.Fatal("a rejected plan changed the tree")
	}
	es := readAuditEntries(t, home)
	if len(es) != 1 || es[0].Kind != audit.KindRejected || es[0].Rejected.Violations[0].Rule.String() != "path.symlink" {
		t.Fatalf("audit %+v", es)
	}
}

// TestPlanApplyRollsBackAFailedFetch: the fetch fails at apply time (its
// name cannot resolve: .invalid never does), after the delete and the write
// were staged; the whole plan rolls back naming the fetch.
func TestPlanApplyRollsBackAFailedFetch(t *testing.T) {
	root, home, planFile := applyFixture(t, `{"protocol":1,"intents":[
		{"op":"delete","path":"skills/foo"},
		{"op":"write","path":"skills/foo/SKILL.md","content":"x"},
		{"op":"fetch","url":"https://nothing.invalid/x.tgz","dest":"vendor/x.tgz"}]}`)
	before := listTree(t, root)
	code, out, errs := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, planFile)
	if code != exitRolledBack {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if !strings.Contains(errs, "intent #2 (fetch)") || !strings.Contains(errs, "remote.destination") {
		t.Fatalf("message %q", errs)
	}
	if after := listTree(t, root); after != before {
		t.Fatalf("tree not restored:\n%s\n%s", before, after)
	}
	es := readAuditEntries(t, home)
	last := es[len(es)-1]
	if last.Kind != audit.KindOutcome || last.Correlation != es[0].Correlation || last.Outcome.Outcome != audit.OutcomeRolledBack ||
		last.Outcome.Intent == nil || last.Outcome.Intent.Index != 2 {
		t.Fatalf("outcome %+v", last)
	}
}

func TestPlanApplyUsage(t *testing.T) {
	root, home, planFile := applyFixture(t, `{"protocol":1,"intents":[]}`)
	if code, _, _ := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, "--fs", "ntfs-ish", planFile); code != exitUsage {
		t.Fatalf("bad --fs: exit %d", code)
	}
	if code, _, _ := runApplyCLI(t, "", "plan", "apply", "--root", filepath.Join(root, "nope"), "--home", home, planFile); code != exitUsage {
		t.Fatalf("missing root: exit %d", code)
	}
	if code, _, errs := runApplyCLI(t, `{"protocol":1,"intents":[{"op":"write","path":"s.txt","content":"x"}]}`, "plan", "apply", "--root", root, "--home", home, "--fs", "bytes", "-"); code != exitOK {
		t.Fatalf("stdin plan: exit %d %s", code, errs)
	}
}
