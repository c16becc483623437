package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func runAuditCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// seedAuditLog writes, under home, a committed plan, a rolled-back plan and
// a rejection, as the executor and the CLI would.
func seedAuditLog(t *testing.T, home string) (committed, rolledBack audit.Correlation) {
	t.Helper()
	l, err := audit.Open(filepath.Join(home, audit.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p, err := plan.Decode(strings.NewReader(`{"protocol":1,"intents":[
		{"op":"write","path":"skills/foo/SKILL.md","content":"SECRET-BODY-in-skill"},
		{"op":"fetch","url":"https://example.org/x.tgz","dest":"vendor/x.tgz"}]}`), plan.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	recs, err := audit.IntentsFromPlan(p)
	if err != nil {
		t.Fatal(err)
	}
	ext, _ := audit.NewExtension("claude-target", "1.0.0")
	rec := audit.PlanRecord{Extension: ext, Tier: audit.TierWasm, Capabilities: []schema.Capability{schema.CapNetHTTP}, Intents: recs}
	if committed, err = l.Begin(rec); err != nil {
		t.Fatal(err)
	}
	w := rejection.IntentRef{Index: 0, Op: schema.OpWrite}
	f := rejection.IntentRef{Index: 1, Op: schema.OpFetch}
	for _, err := range []error{
		l.Event(committed, audit.StepStarted(w)), l.Event(committed, audit.Step(audit.EventPlaced, w, "skills/foo/SKILL.md")),
		l.Outcome(committed, audit.Committed()),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if rolledBack, err = l.Begin(rec); err != nil {
		t.Fatal(err)
	}
	bound := rejection.New(schema.RuleRemoteBound, "too big", f)
	if err := l.Event(rolledBack, audit.StepFailed(f, bound)); err != nil {
		t.Fatal(err)
	}
	if err := l.Outcome(rolledBack, audit.RolledBack(f, bound)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Rejected(audit.Rejection{Extension: ext, Tier: audit.TierNative,
		Err: rejection.New(schema.RulePathSymlink, "", w)}); err != nil {
		t.Fatal(err)
	}
	return committed, rolledBack
}

func TestAuditShowPrintsEveryRecord(t *testing.T) {
	home := t.TempDir()
	committed, rolledBack := seedAuditLog(t, home)
	code, out, stderr := runAuditCLI(t, "audit", "show", "--home", home)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"plan", committed.String(), rolledBack.String(), "claude-target@1.0.0 (wasm/tier1) caps=net.http",
		"intent #0 write  skills/foo/SKILL.md sha256=", "intent #1 fetch  vendor/x.tgz url=https://example.org/x.tgz",
		"placed intent #0 (write) skills/foo/SKILL.md",
		"committed", "rolled-back intent #1 (fetch) rules=remote.bound", "rejected", "path.symlink: intent #0 (write)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SECRET-BODY") {
		t.Error("a content body reached show's output")
	}
	if n := strings.Count(out, "\n#"); n != 7 { // 8 records, the first without a newline before it
		t.Errorf("%d record lines, want 8:\n%s", n+1, out)
	}
}

// TestAuditShowPrintsHookRuns: a hook run's record names the hook as a
// native extension, with its result, exit status and containment.
func TestAuditShowPrintsHookRuns(t *testing.T) {
	home := t.TempDir()
	l, err := audit.Open(filepath.Join(home, audit.FileName))
	if err != nil {
		t.Fatal(err)
	}
	hookID, _ := audit.NewExtension("hook:demo:pre-install", "")
	corr, err := audit.NewCorrelation()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(corr, audit.RunRecord{Extension: hookID, Tier: audit.TierHook,
		Layers: []audit.Layer{audit.LayerProcessGroup}, Result: audit.RunExitNonZero, ExitStatus: 7, Elapsed: 12 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	code, out, stderr := runAuditCLI(t, "audit", "show", "--home", home)
	want := "hook:demo:pre-install (native/hook) exit-non-zero exit=7 layers=process-group elapsed=12ms"
	if code != exitOK || !strings.Contains(out, want) {
		t.Fatalf("exit %d, output lacks %q:\n%s%s", code, want, out, stderr)
	}
}

func TestAuditShowOneCorrelationAsJSON(t *testing.T) {
	home := t.TempDir()
	_, rolledBack := seedAuditLog(t, home)
	code, out, stderr := runAuditCLI(t, "audit", "show", "--home", home, "--correlation", rolledBack.String(), "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Records []audit.Entry `json:"records"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	var kinds []string
	for _, e := range got.Records {
		if e.Correlation != rolledBack {
			t.Errorf("record %d of another plan", e.Seq)
		}
		kinds = append(kinds, e.Kind.String())
	}
	if strings.Join(kinds, ",") != "plan,event,outcome" {
		t.Fatalf("records: %v", kinds)
	}
	if o := got.Records[2].Outcome; o.Outcome != audit.OutcomeRolledBack || o.Intent.Index != 1 {
		t.Fatalf("outcome: %+v", o)
	}
}

func TestAuditShowRefusesABadCorrelation(t *testing.T) {
	code, _, stderr := runAuditCLI(t, "audit", "show", "--home", t.TempDir(), "--correlation", "not-an-id")
	if code != exitUsage || !strings.Contains(stderr, "--correlation") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestAuditVerifyIntactAndUsesLOLA_HOME(t *testing.T) {
	home := t.TempDir()
	seedAuditLog(t, home)
	t.Setenv("LOLA_HOME", home)
	code, out, stderr := runAuditCLI(t, "audit", "verify")
	if code != exitOK || !strings.Contains(out, "audit log intact: 8 records, head ") {
		t.Fatalf("exit %d, out %q, stderr %q", code, out, stderr)
	}
	code, out, _ = runAuditCLI(t, "audit", "verify", "--json")
	var v map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &v) != nil || v["intact"] != true || v["records"] != float64(8) {
		t.Fatalf("exit %d, json %s", code, out)
	}
}

func TestAuditVerifyCatchesAnEditedRecord(t *testing.T) {
	home := t.TempDir()
	seedAuditLog(t, home)
	path := filepath.Join(home, audit.FileName)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Record 3 says committed; make it read rolled-back... of nothing in particular.
	edited := bytes.Replace(raw, []byte(`"outcome":{"outcome":"committed"}`), []byte(`"outcome":{"outcome":"rollback-failed"}`), 1)
	if bytes.Equal(edited, raw) {
		t.Fatal("edit did not apply")
	}
	if err := os.WriteFile(path, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runAuditCLI(t, "audit", "verify", "--home", home)
	if code != exitInternal || !strings.Contains(stderr, "chain broken at seq 4") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, out, _ := runAuditCLI(t, "audit", "verify", "--home", home, "--json")
	var v map[string]any
	if code != exitInternal || json.Unmarshal([]byte(out), &v) != nil || v["intact"] != false || v["seq"] != float64(4) || v["problem"] != "prev-hash" {
		t.Fatalf("exit %d, json %s", code, out)
	}
}

func TestAuditVerifyCatchesATruncatedLastLine(t *testing.T) {
	home := t.TempDir()
	seedAuditLog(t, home)
	path := filepath.Join(home, audit.FileName)
	raw, _ := os.ReadFile(path)
	if err := os.WriteFile(path, raw[:len(raw)-10], 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runAuditCLI(t, "audit", "verify", "--home", home)
	if code != exitInternal || !strings.Contains(stderr, "seq 8") || !strings.Contains(stderr, "truncated") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// show still prints what precedes the torn line, and says so.
	code, out, stderr := runAuditCLI(t, "audit", "show", "--home", home)
	if code != exitInternal || strings.Count(out, "\n") < 7 || !strings.Contains(stderr, "torn") {
		t.Fatalf("show on a torn log: exit %d, stderr %q, out:\n%s", code, stderr, out)
	}
}

func TestAuditMissingLog(t *testing.T) {
	home := t.TempDir()
	code, out, _ := runAuditCLI(t, "audit", "verify", "--home", home)
	if code != exitOK || !strings.Contains(out, "no audit log") {
		t.Fatalf("verify: exit %d, out %q", code, out)
	}
	code, out, _ = runAuditCLI(t, "audit", "show", "--home", home, "--json")
	if code != exitOK || strings.TrimSpace(out) != "{\n  \"records\": []\n}" {
		t.Fatalf("show --json: exit %d, out %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(home, audit.FileName)); !os.IsNotExist(err) {
		t.Fatal("reading the log created it")
	}
}

func TestAuditOutputCarriesNoHostPath(t *testing.T) {
	home := t.TempDir()
	seedAuditLog(t, home)
	for _, args := range [][]string{
		{"audit", "show", "--home", home}, {"audit", "show", "--home", home, "--json"},
		{"audit", "verify", "--home", home}, {"audit", "verify", "--home", home, "--json"},
		{"audit", "verify", "--home", filepath.Join(home, "nope")},
	} {
		_, out, stderr := runAuditCLI(t, args...)
		if strings.Contains(out+stderr, home) {
			t.Errorf("%v printed the host path %s", args, home)
		}
	}
}

// After a crash mid-append the next append repairs the log; show names the
// cut and verify counts it.
func TestAuditShowsARepair(t *testing.T) {
	home := t.TempDir()
	committed, _ := seedAuditLog(t, home)
	path := filepath.Join(home, audit.FileName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":9,"prev":"ab`)
	f.Close()
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Event(committed, audit.RecoveryStarted()); err != nil {
		t.Fatal(err)
	}
	l.Close()
	code, out, _ := runAuditCLI(t, "audit", "show", "--home", home)
	if code != exitOK || !strings.Contains(out, "repair") || !strings.Contains(out, "cut a torn tail of 19 bytes") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out, _ = runAuditCLI(t, "audit", "verify", "--home", home)
	if code != exitOK || !strings.Contains(out, "10 records") || !strings.Contains(out, "1 torn tail") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

func TestAuditVerifySeesTheTailThroughTheAnchor(t *testing.T) {
	home := t.TempDir()
	seedAuditLog(t, home)
	code, out, _ := runAuditCLI(t, "audit", "verify", "--home", home)
	if code != exitOK || !strings.Contains(out, "anchored at seq 8") || !strings.Contains(out, "not proven: ") {
		t.Fatalf("intact: exit %d, out %q", code, out)
	}
	// The last record removed: a valid chain of 7, which the anchor exposes.
	path := filepath.Join(home, audit.FileName)
	raw, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(raw, []byte("\n"))
	if err := os.WriteFile(path, bytes.Join(lines[:7], nil), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runAuditCLI(t, "audit", "verify", "--home", home)
	if code != exitInternal || !strings.Contains(stderr, "audit log truncated: the anchor names seq 8 but the log ends at seq 7") {
		t.Fatalf("truncated: exit %d, stderr %q", code, stderr)
	}
	code, out, _ = runAuditCLI(t, "audit", "verify", "--home", home, "--json")
	var v map[string]any
	if code != exitInternal || json.Unmarshal([]byte(out), &v) != nil || v["problem"] != "truncated" || v["seq"] != float64(8) {
		t.Fatalf("truncated --json: exit %d, %s", code, out)
	}
	// Every record removed, the file too: not "no audit log yet".
	os.Remove(path)
	code, _, stderr = runAuditCLI(t, "audit", "verify", "--home", home)
	if code != exitInternal || !strings.Contains(stderr, "ends at seq 0") {
		t.Fatalf("log removed: exit %d, stderr %q", code, stderr)
	}
}

func TestAuditShowPrintsStepTotalsAndCreatedDirs(t *testing.T) {
	home := t.TempDir()
	l, err := audit.Open(filepath.Join(home, audit.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ext, _ := audit.NewExtension("claude-target", "1.0.0")
	c, err := l.Begin(audit.PlanRecord{Extension: ext, Tier: audit.TierWasm})
	if err != nil {
		t.Fatal(err)
	}
	out := audit.Committed().WithSteps(map[audit.EventKind]int{audit.EventPlaced: 2, audit.EventMkdir: 1}).WithCreatedDirs([]string{".claude/skills"})
	if err := l.Outcome(c, out); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runAuditCLI(t, "audit", "show", "--home", home)
	if code != exitOK || !strings.Contains(stdout, "committed steps=mkdir:1,placed:2\n    mkdir .claude/skills\n") {
		t.Fatalf("exit %d, out:\n%s", code, stdout)
	}
}
