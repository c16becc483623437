package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func decode(t testing.TB, s string) *plan.Plan {
	t.Helper()
	p, err := plan.Decode(strings.NewReader(s), plan.DefaultLimits())
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return p
}

// snapshot is the tree under dir: path -> content ("<dir>" for a directory),
// leaving out the executor's own lock file, which persists by design.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p) // no lock file or staging is ever left
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "<symlink " + target + ">"
		case d.IsDir():
			out[rel] = "<dir>"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func same(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// failOnWarn is Options.Warn for tests: every audit record the pipeline
// means to write must be written (an event the log refused, e.g. a step
// kind outside its vocabulary, would otherwise vanish into a discarded
// warning).
func failOnWarn(t *testing.T) func(string) {
	return func(s string) { t.Errorf("warning: %s", s) }
}

func openLog(t testing.TB) (*audit.Log, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, path
}

func proposer(t testing.TB, caps []string, paths []string) Proposer {
	t.Helper()
	ext, err := audit.NewExtension("fixture", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	who := Proposer{Extension: ext, Tier: audit.TierNative}
	if caps != nil {
		set, err := capability.Grant(caps)
		if err != nil {
			t.Fatal(err)
		}
		who.Caps = &set
	}
	if paths != nil {
		d, err := capability.DeclarePaths(paths)
		if err != nil {
			t.Fatal(err)
		}
		g := d.Grant(pathrule.Bytes)
		who.Paths = &g
	}
	return who
}

func kinds(t *testing.T, path string) []audit.Kind {
	t.Helper()
	es, err := audit.Read(path, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var out []audit.Kind
	for _, e := range es {
		out = append(out, e.Kind)
	}
	return out
}

func TestCommittedPlanIsLoggedBeforeAndAfter(t *testing.T) {
	root := t.TempDir()
	log, logPath := openLog(t)
	p := decode(t, `{"protocol":1,"intents":[
		{"op":"write","path":"skills/foo/SKILL.md","content":"secret body"},
		{"op":"write","path":"a.txt","content":"a"}]}`)
	res, err := Apply(context.Background(), root, p, proposer(t, []string{}, []string{"skills/", "a.txt"}), Options{FS: "bytes", Log: log, Warn: failOnWarn(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != OutcomeCommitted || res.Correlation.IsZero() {
		t.Fatalf("outcome %v corr %v err %v", res.Outcome, res.Correlation, res.Err)
	}
	if got := snapshot(t, root); got["skills/foo/SKILL.md"] != "secret body" || got["a.txt"] != "a" {
		t.Fatalf("tree %v", got)
	}
	es, err := audit.Read(logPath, audit.Filter{Correlation: res.Correlation})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) < 2 || es[0].Kind != audit.KindPlan || es[len(es)-1].Kind != audit.KindOutcome {
		t.Fatalf("records under the correlation: %v", kinds(t, logPath))
	}
	if out := es[len(es)-1].Outcome; out.Outcome != audit.OutcomeCommitted {
		t.Fatalf("outcome record %+v", out)
	}
	// Every intent is logged with its resolved path and, being a write,
	// its content's hash.
	var logged []string
	for _, in := range es[0].Plan.Intents {
		if len(in.Paths) != 1 || in.SHA256 == "" {
			t.Fatalf("intent logged as %+v", in)
		}
		logged = append(logged, fmt.Sprintf("%d:%s", in.Index, in.Paths[0]))
	}
	if got := strings.Join(logged, " "); got != "0:skills/foo/SKILL.md 1:a.txt" {
		t.Fatalf("logged intents %s", got)
	}
	raw, _ := os.ReadFile(logPath)
	if strings.Contains(string(raw), "secret body") {
		t.Fatal("a content body reached the audit log")
	}
	if _, err := audit.Verify(logPath); err != nil {
		t.Fatal(err)
	}
}

// TestEveryCheckReportsAndNothingChanges: a plan breaking the capability,
// conflict and grant rules at once is rejected naming every rule, the tree
// is untouched, and the rejection is logged.
func TestEveryCheckReportsAndNothingChanges(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "keep"), []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)
	log, logPath := openLog(t)
	p := decode(t, `{"protocol":1,"intents":[
		{"op":"fetch","url":"https://example.org/x","dest":"vendor/x"},
		{"op":"write","path":"a","content":"1"},
		{"op":"delete","path":"a"},
		{"op":"write","path":"outside/file","content":"2"}]}`)
	res, err := Apply(context.Background(), root, p, proposer(t, []string{}, []string{"vendor/", "a"}), Options{FS: "bytes", Log: log, Warn: failOnWarn(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != OutcomeRejected {
		t.Fatalf("outcome %v", res.Outcome)
	}
	var rules []string
	for _, v := range rejection.All(res.Err) {
		rules = append(rules, v.Rule.String())
	}
	sort.Strings(rules)
	want := []string{"capability.missing", "conflict.same-path", "grant.outside"}
	if strings.Join(rules, " ") != strings.Join(want, " ") {
		t.Fatalf("rules %v, want %v", rules, want)
	}
	for _, v := range rejection.All(res.Err) {
		if v.Rule == schema.RuleConflictSamePath {
			if len(v.Intents) != 2 || v.Intents[0].Index != 1 || v.Intents[1].Index != 2 {
				t.Fatalf("%s names %+v, want intents 1 and 2", v.Rule, v.Intents)
			}
		}
	}
	if !same(before, snapshot(t, root)) {
		t.Fatal("a rejected plan changed the tree")
	}
	if k := kinds(t, logPath); len(k) != 1 || k[0] != audit.KindRejected {
		t.Fatalf("log %v, want one rejected record", k)
	}
	es, err := audit.Read(logPath, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	for _, v := range es[0].Rejected.Violations {
		logged = append(logged, v.Rule.String())
	}
	sort.Strings(logged)
	if strings.Join(logged, " ") != strings.Join(want, " ") {
		t.Fatalf("logged rules %v, want %v", logged, want)
	}
}

// TestSymlinkRefusedAtResolution: a symlink is refused whether its target
// lies outside the root or inside it.
func TestSymlinkRefusedAtResolution(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(root, "inlink")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)
	log, _ := openLog(t)
	for _, path := range []string{"link/x", "inlink/x"} {
		p := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"`+path+`","content":"1"}]}`)
		res, err := Apply(context.Background(), root, p, proposer(t, nil, nil), Options{FS: "bytes", Log: log, Warn: failOnWarn(t)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != OutcomeRejected || !errors.Is(res.Err, rejection.Rule(schema.RulePathSymlink)) {
			t.Fatalf("%s: outcome %v err %v", path, res.Outcome, res.Err)
		}
		if !same(before, snapshot(t, root)) || len(snapshot(t, outside)) != 0 {
			t.Fatalf("%s: the write went through the symlink", path)
		}
	}
}

func TestDryRunChangesNothingAndLogsNothing(t *testing.T) {
	root := t.TempDir()
	// A log is given so that "logs nothing" is asserted, not assumed.
	log, logPath := openLog(t)
	p := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"new.txt","content":"hello"}]}`)
	res, err := Apply(context.Background(), root, p, proposer(t, nil, nil), Options{FS: "bytes", DryRun: true, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != OutcomeDryRun || len(res.Changes) != 1 || res.Changes[0].Path != "new.txt" || !res.Correlation.IsZero() {
		t.Fatalf("outcome %v changes %+v corr %v", res.Outcome, res.Changes, res.Correlation)
	}
	if got := snapshot(t, root); len(got) != 0 {
		t.Fatalf("a dry run changed the tree: %v", got)
	}
	if k := kinds(t, logPath); len(k) != 0 {
		t.Fatalf("a dry run wrote audit records: %v", k)
	}
}

func TestApplyNeedsALogUnlessDryRun(t *testing.T) {
	p := decode(t, `{"protocol":1,"intents":[]}`)
	if _, err := Apply(context.Background(), t.TempDir(), p, proposer(t, nil, nil), Options{FS: "bytes"}); err == nil {
		t.Fatal("applied without an audit log")
	}
}

func TestOutcomesRoundTrip(t *testing.T) {
	for _, o := range Outcomes() {
		b, err := o.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		if back, ok := ParseOutcome(string(b)); !ok || back != o {
			t.Fatalf("%v does not round-trip", o)
		}
	}
	if _, err := Outcome(0).MarshalText(); err == nil {
		t.Fatal("the zero outcome marshalled")
	}
}
