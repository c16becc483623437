package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

const mixedPlan = `{"protocol": 1, "intents": [
  {"op": "write",  "path": "skills/foo/SKILL.md", "content": "# Foo skill\n"},
  {"op": "write",  "path": "bin/tool", "content": "AAEC", "encoding": "base64", "executable": true},
  {"op": "delete", "path": "skills/old"},
  {"op": "rename", "from": "a/x", "to": "b/x"},
  {"op": "fetch",  "url": "https://example.org/x.tgz", "dest": "vendor/x.tgz", "method": "GET", "headers": {"Accept": "*/*"}},
  {"op": "clone",  "url": "https://example.org/r.git", "dest": "vendor/r", "ref": "v1.2.0", "depth": 1}
]}`

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// An applied plan's pre-apply record names every intent with its
// root-relative paths and content hashes; the executor's calls follow under
// the same correlation id, then a distinct committed outcome.
func TestAppliedPlanLogsEveryIntentWithResolvedPaths(t *testing.T) {
	l, path := openTestLog(t)
	p := decodePlan(t, mixedPlan)
	c := beginPlan(t, l, p)

	// The executor's observer calls, in apply order.
	for _, i := range []int{2, 3, 0, 1, 4, 5} {
		ref := rejection.IntentRef{Index: i, Op: p.Intent(i).Op()}
		if err := l.Event(c, StepStarted(ref)); err != nil {
			t.Fatal(err)
		}
		if i == 4 {
			u, _ := url.Parse("https://example.org/x.tgz")
			if err := l.Event(c, Hop(ref, 0, u, netip.MustParseAddrPort("93.184.215.14:443"))); err != nil {
				t.Fatal(err)
			}
			u2, _ := url.Parse("https://cdn.example.net:8443/x.tgz?sig=abc")
			if err := l.Event(c, Hop(ref, 1, u2, netip.MustParseAddrPort("[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:8443"))); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Event(c, StepDone(ref)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Outcome(c, Committed()); err != nil {
		t.Fatal(err)
	}

	es, err := Read(path, Filter{Correlation: c})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1+6*2+2+1 {
		t.Fatalf("%d records under the correlation id, want 16", len(es))
	}
	first, last := es[0], es[len(es)-1]
	if first.Kind != KindPlan || first.Plan == nil || first.Seq != 1 || first.Prev != GenesisHash {
		t.Fatalf("first record is not the plan record chained from genesis: %+v", first)
	}
	pe := first.Plan
	if pe.Extension.Name != "claude-target" || pe.Extension.Version != "1.4.0" || pe.Tier != TierWasm {
		t.Errorf("identity/tier: %+v %s", pe.Extension, pe.Tier)
	}
	if fmt.Sprint(pe.Layers) != "[wazero landlock-fs]" || pe.Root != NewRootID("/srv/project").String() || pe.Root == "" {
		t.Errorf("layers/root: %v %q", pe.Layers, pe.Root)
	}
	want := []struct {
		op    schema.Op
		paths string
	}{
		{schema.OpWrite, "skills/foo/SKILL.md"}, {schema.OpWrite, "bin/tool"}, {schema.OpDelete, "skills/old"},
		{schema.OpRename, "a/x b/x"}, {schema.OpFetch, "vendor/x.tgz"}, {schema.OpClone, "vendor/r"},
	}
	if len(pe.Intents) != len(want) {
		t.Fatalf("%d intents logged, want %d", len(pe.Intents), len(want))
	}
	for i, w := range want {
		got := pe.Intents[i]
		if got.Index != i || got.Op != w.op || strings.Join(got.Paths, " ") != w.paths || len(got.Unparsed) != 0 {
			t.Errorf("intent %d logged as %+v, want %s %s", i, got, w.op, w.paths)
		}
	}
	if w := pe.Intents[0]; w.SHA256 != sha([]byte("# Foo skill\n")) || w.Size == nil || *w.Size != 12 {
		t.Errorf("utf8 write hash/size: %s %v", w.SHA256, w.Size)
	}
	if w := pe.Intents[1]; w.SHA256 != sha([]byte{0, 1, 2}) || *w.Size != 3 || !w.Executable {
		t.Errorf("base64 write must hash the decoded bytes: %+v", w)
	}
	if f := pe.Intents[4]; f.URL != "https://example.org/x.tgz" || f.Method != "GET" || fmt.Sprint(f.Headers) != "[Accept]" {
		t.Errorf("fetch: %+v", f)
	}
	if c := pe.Intents[5]; c.URL != "https://example.org/r.git" || c.Ref != "v1.2.0" || c.Depth != 1 {
		t.Errorf("clone: %+v", c)
	}
	var hops []string
	for _, e := range es {
		if e.Kind == KindEvent && e.Event.Kind == EventHop {
			hops = append(hops, fmt.Sprintf("%d %d %s %s", e.Event.Intent.Index, e.Event.Hop, e.Event.Host, e.Event.Dialled))
		}
	}
	if strings.Join(hops, "|") != "4 0 example.org 93.184.215.14:443|4 1 cdn.example.net:8443 [2606:2800:21f:cb07:6820:80da:af6b:8b2c]:8443" {
		t.Errorf("hops: %q", hops)
	}
	if last.Kind != KindOutcome || last.Outcome.Outcome != OutcomeCommitted || last.Correlation != c {
		t.Errorf("last record is not the committed outcome: %+v", last)
	}
	if bytes.Contains(readFile(t, path), []byte("sig=abc")) {
		t.Error("a hop's URL query reached the log")
	}
	if h, err := Verify(path); err != nil || h.Records != 16 {
		t.Fatalf("Verify = %+v, %v", h, err)
	}
}

// A rejected plan is logged with the rule that rejected it, both for a
// whole-plan rule with intents and for a plan that did not even decode.
func TestRejectedPlanLogsTheRule(t *testing.T) {
	l, path := openTestLog(t)
	p := decodePlan(t, `{"protocol":1,"intents":[{"op":"write","path":"README.md","content":"x"},{"op":"delete","path":"README.md"}]}`)
	recs, err := IntentsFromPlan(p)
	if err != nil {
		t.Fatal(err)
	}
	var set rejection.Set
	set.Add(rejection.New(schema.RuleConflictSamePath, "both touch README.md",
		rejection.IntentRef{Index: 0, Op: schema.OpWrite}, rejection.IntentRef{Index: 1, Op: schema.OpDelete}))
	c1, err := l.Rejected(Rejection{Extension: testExtension(t), Tier: TierNative, Err: fmt.Errorf("validate: %w", set.Err()), Intents: recs})
	if err != nil {
		t.Fatal(err)
	}

	_, decErr := plan.Decode(strings.NewReader(`{"protocol":1,"intents":[`), plan.DefaultLimits())
	if decErr == nil {
		t.Fatal("a truncated plan decoded")
	}
	c2, err := l.Rejected(Rejection{Extension: testExtension(t), Tier: TierWasm, Err: decErr})
	if err != nil {
		t.Fatal(err)
	}
	if c1 == c2 || c1.IsZero() || c2.IsZero() {
		t.Fatal("rejections need distinct correlation ids")
	}

	es, err := Read(path, Filter{Kinds: []Kind{KindRejected}})
	if err != nil || len(es) != 2 {
		t.Fatalf("%d rejected records, %v", len(es), err)
	}
	r1 := es[0].Rejected
	if es[0].Correlation != c1 || len(r1.Violations) != 1 || r1.Violations[0].Rule != schema.RuleConflictSamePath ||
		fmt.Sprint(r1.Violations[0].Intents) != "[{0 write} {1 delete}]" || len(r1.Intents) != 2 || r1.Tier != TierNative {
		t.Errorf("conflict rejection: %+v", r1)
	}
	wantRules := rejection.All(decErr)
	r2 := es[1].Rejected
	if len(r2.Violations) != len(wantRules) || r2.Violations[0].Rule != wantRules[0].Rule || r2.Intents != nil {
		t.Errorf("decode rejection: %+v, want rule %s", r2, wantRules[0].Rule)
	}
	raw := readFile(t, path)
	if !bytes.Contains(raw, []byte(`"rule":"conflict.same-path"`)) || !bytes.Contains(raw, []byte(`"rule":"`+wantRules[0].Rule.String()+`"`)) {
		t.Errorf("the rules are not spelled in the log:\n%s", raw)
	}
	if bytes.Contains(raw, []byte("both touch")) {
		t.Error("a violation's free-text detail reached the log")
	}
}

// A plan that rolls back logs the rollback against the same correlation id
// as its pre-apply record, naming the intent and the rule; another plan
// interleaved in the log does not mix in.
func TestRolledBackPlanSharesTheCorrelationID(t *testing.T) {
	l, path := openTestLog(t)
	p := decodePlan(t, mixedPlan)
	c := beginPlan(t, l, p)
	other := beginPlan(t, l, decodePlan(t, `{"protocol":1,"intents":[]}`))

	ref := rejection.IntentRef{Index: 4, Op: schema.OpFetch}
	failure := fmt.Errorf("fetch: %w", rejection.New(schema.RuleRemoteDestination, "10.0.0.1 is private", ref))
	must(t, l.Event(c, StepStarted(ref)))
	must(t, l.Event(other, StepStarted(rejection.IntentRef{Index: 0, Op: schema.OpWrite})))
	must(t, l.Event(c, StepFailed(ref, failure)))
	must(t, l.Event(c, RollbackStarted()))
	must(t, l.Outcome(c, RolledBack(ref, failure)))
	must(t, l.Outcome(other, Committed()))

	es, err := Read(path, Filter{Correlation: c})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range es {
		kinds = append(kinds, string(e.Kind))
	}
	if strings.Join(kinds, ",") != "plan,event,event,event,outcome" {
		t.Fatalf("records under the plan's id: %v", kinds)
	}
	o := es[len(es)-1].Outcome
	if o.Outcome != OutcomeRolledBack || o.Intent == nil || *o.Intent != ref || fmt.Sprint(o.Rules) != "[remote.destination]" {
		t.Fatalf("outcome: %+v", o)
	}
	if es[0].Plan == nil || es[0].Correlation != es[len(es)-1].Correlation {
		t.Fatal("the outcome does not share the pre-apply record's id")
	}
	if bytes.Contains(readFile(t, path), []byte("10.0.0.1 is private")) {
		t.Error("error text reached the log")
	}
	oo, _ := Read(path, Filter{Correlation: other, Kinds: []Kind{KindOutcome}})
	if len(oo) != 1 || oo[0].Outcome.Outcome != OutcomeCommitted {
		t.Fatalf("the other plan's outcome: %+v", oo)
	}
}

func TestRollbackFailedAndRecoveryOutcomes(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	ref := rejection.IntentRef{Index: 1, Op: schema.OpWrite}
	must(t, l.Outcome(c, RollbackFailed(ref, errors.New("EIO"))))
	c2 := beginPlan(t, l, decodePlan(t, mixedPlan))
	must(t, l.Event(c2, RecoveryStarted()))
	must(t, l.Outcome(c2, RecoveredRolledBack()))
	c3 := beginPlan(t, l, decodePlan(t, mixedPlan))
	must(t, l.Outcome(c3, Committed().Recovered()))
	es, err := Read(path, Filter{Kinds: []Kind{KindOutcome}})
	if err != nil || len(es) != 3 {
		t.Fatalf("%d outcomes, %v", len(es), err)
	}
	if o := es[0].Outcome; o.Outcome != OutcomeRollbackFailed || *o.Intent != ref || o.Rules != nil || o.Recovered {
		t.Errorf("rollback-failed: %+v", o)
	}
	if o := es[1].Outcome; o.Outcome != OutcomeRolledBack || !o.Recovered || o.Intent != nil || es[1].Correlation != c2 {
		t.Errorf("recovered rollback: %+v", o)
	}
	if o := es[2].Outcome; o.Outcome != OutcomeCommitted || !o.Recovered || es[2].Correlation != c3 {
		t.Errorf("recovered commit: %+v", o)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Records the vocabulary cannot express are refused, and a refused record
// leaves the file exactly as it was.
func TestInvalidRecordsAreRefusedAndWriteNothing(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	before := readFile(t, path)
	ext := testExtension(t)
	ok := rejection.IntentRef{Index: 0, Op: schema.OpWrite}
	fetch := rejection.IntentRef{Index: 4, Op: schema.OpFetch}
	u, _ := url.Parse("https://example.org/")
	conflict := rejection.New(schema.RuleConflictNested, "", ok)
	attacks := map[string]func() error{
		"no extension": func() error { _, err := l.Begin(PlanRecord{Tier: TierWasm}); return err },
		"unknown tier": func() error { _, err := l.Begin(PlanRecord{Extension: ext, Tier: "tier3"}); return err },
		"unknown capability": func() error {
			_, err := l.Begin(PlanRecord{Extension: ext, Tier: TierWasm, Capabilities: []schema.Capability{"fs.write"}})
			return err
		},
		"unknown layer": func() error {
			_, err := l.Begin(PlanRecord{Extension: ext, Tier: TierWasm, Layers: []Layer{"prayer"}})
			return err
		},
		"hand-made intent": func() error {
			_, err := l.Begin(PlanRecord{Extension: ext, Tier: TierWasm, Intents: []IntentRecord{{}}})
			return err
		},
		"zero event":         func() error { return l.Event(c, Event{}) },
		"zero correlation":   func() error { return l.Event(Correlation{}, StepStarted(ok)) },
		"bad op in ref":      func() error { return l.Event(c, StepStarted(rejection.IntentRef{Index: 0, Op: "chmod"})) },
		"negative index":     func() error { return l.Event(c, StepDone(rejection.IntentRef{Index: -1, Op: schema.OpWrite})) },
		"hop for a write":    func() error { return l.Event(c, Hop(ok, 0, u, netip.MustParseAddrPort("1.1.1.1:443"))) },
		"hop without addr":   func() error { return l.Event(c, Hop(fetch, 0, u, netip.AddrPort{})) },
		"hop without host":   func() error { return l.Event(c, Hop(fetch, 0, nil, netip.MustParseAddrPort("1.1.1.1:443"))) },
		"negative hop":       func() error { return l.Event(c, Hop(fetch, -1, u, netip.MustParseAddrPort("1.1.1.1:443"))) },
		"zero outcome":       func() error { return l.Outcome(c, Outcome{}) },
		"outcome no id":      func() error { return l.Outcome(Correlation{}, Committed()) },
		"rollback no intent": func() error { return l.Outcome(c, Outcome{e: OutcomeEntry{Outcome: OutcomeRolledBack}}) },
		"rejection no rule": func() error {
			_, err := l.Rejected(Rejection{Extension: ext, Tier: TierWasm, Err: errors.New("no rule")})
			return err
		},
		"rejection no ext": func() error { _, err := l.Rejected(Rejection{Tier: TierWasm, Err: conflict}); return err },
		"rejection bad rule": func() error {
			_, err := l.Rejected(Rejection{Extension: ext, Tier: TierWasm, Err: rejection.New(schema.Rule(200), "")})
			return err
		},
	}
	for name, attack := range attacks {
		if err := attack(); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if !bytes.Equal(readFile(t, path), before) {
			t.Fatalf("%s: the refused record changed the file", name)
		}
	}
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
}

func TestFileIsPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows protects the log by ACL, not mode bits")
	}
	_, path := openTestLog(t)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v, want 0600", fi.Mode().Perm())
	}
	di, _ := os.Stat(filepath.Dir(path))
	if di.Mode().Perm() != 0o700 {
		t.Errorf("log directory mode %v, want 0700", di.Mode().Perm())
	}
	// An existing world-readable log is tightened on Open.
	loose := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(loose, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(loose, 0o644)
	l, err := Open(loose)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if fi, _ := os.Stat(loose); fi.Mode().Perm() != 0o600 {
		t.Errorf("an existing 0644 log was left %v", fi.Mode().Perm())
	}
	// Not a regular file: refused.
	if _, err := Open(t.TempDir()); err == nil {
		t.Error("a directory opened as the log")
	}
}

// A torn last line (an append that never completed) is reported by Verify,
// and the next append cuts it off behind a repair record that names its
// length and hash, so the chain is whole again and the cut is on it.
func TestTornTailIsCutBehindARepairRecord(t *testing.T) {
	for _, frag := range []string{`{"seq":2,"prev":"`, "x", strings.Repeat("z", 200<<10)} {
		l, path := openTestLog(t)
		c := beginPlan(t, l, decodePlan(t, mixedPlan))
		must(t, l.Close())
		intact := readFile(t, path)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(frag)
		f.Close()
		var ce *ChainError
		if _, err := Verify(path); !errors.As(err, &ce) || ce.Problem != ProblemTorn || ce.Seq != 2 {
			t.Fatalf("Verify = %v", err)
		}

		l2, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		must(t, l2.Outcome(c, Committed()))
		l2.Close()
		raw := readFile(t, path)
		if !bytes.HasPrefix(raw, intact) {
			t.Fatal("the intact records changed")
		}
		rest := bytes.Split(bytes.TrimSuffix(raw[len(intact):], []byte("\n")), []byte("\n"))
		for _, line := range rest {
			var e Entry
			if len(rest) != 2 || json.Unmarshal(line, &e) != nil {
				t.Fatalf("the torn fragment was not cut off cleanly: %d lines after the intact ones", len(rest))
			}
		}
		h, err := Verify(path)
		if err != nil || h.Records != 3 || h.Repairs != 1 {
			t.Fatalf("after repair: %+v, %v", h, err)
		}
		es, _ := Read(path, Filter{})
		if es[1].Kind != KindRepair || es[1].Repair.DiscardedBytes != int64(len(frag)) || es[1].Repair.SHA256 != sha([]byte(frag)) {
			t.Fatalf("repair record: %+v", es[1])
		}
		if es[2].Kind != KindOutcome || es[2].Correlation != c || es[2].Seq != 3 {
			t.Fatalf("the outcome after the repair: %+v", es[2])
		}
	}
}

// A file that is nothing but a fragment repairs to a chain from genesis.
func TestTornOnlyLineRepairsFromGenesis(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	os.WriteFile(path, []byte(`{"seq":1,"pre`), 0o600)
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	beginPlan(t, l, decodePlan(t, mixedPlan))
	es, err := Read(path, Filter{})
	if err != nil || len(es) != 2 || es[0].Kind != KindRepair || es[0].Prev != GenesisHash || es[1].Kind != KindPlan {
		t.Fatalf("%+v %v", es, err)
	}
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
}

// A last line that is not a record is not chained onto.
func TestGarbageTailRefusesAppend(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	must(t, l.Close())
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("not json\n")
	f.Close()
	before := readFile(t, path)
	l2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if err := l2.Outcome(c, Committed()); err == nil {
		t.Fatal("appended after a garbage line")
	}
	if !bytes.Equal(readFile(t, path), before) {
		t.Fatal("the refused append changed the file")
	}
}

// Two Logs on one file (one process here; see the concurrency test for
// two) alternate appends: each must notice the other's records.
func TestTwoLogsOnOneFileKeepOneChain(t *testing.T) {
	a, path := openTestLog(t)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ca := beginPlan(t, a, decodePlan(t, mixedPlan))
	for i := 0; i < 10; i++ {
		lg := a
		if i%3 == 1 {
			lg = b
		}
		must(t, lg.Event(ca, StepStarted(rejection.IntentRef{Index: i % 6, Op: schema.OpWrite})))
	}
	h, err := Verify(path)
	if err != nil || h.Records != 11 {
		t.Fatalf("Verify = %+v, %v", h, err)
	}
}

func TestIntentsFromPlanRejectsNil(t *testing.T) {
	if _, err := IntentsFromPlan(nil); err == nil {
		t.Fatal("nil plan accepted")
	}
	if _, err := NewIntentRecord(0, schema.Intent{}, nil); err == nil {
		t.Fatal("an intent without an op accepted")
	}
}

// The executor's per-path events (host/apply's vocabulary) are logged with
// their root-relative path; a path that does not parse becomes a digest.
func TestStepEventsCarryRootRelativePaths(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	del := rejection.IntentRef{Index: 2, Op: schema.OpDelete}
	for _, k := range StepKinds() {
		must(t, l.Event(c, Step(k, del, "skills/old")))
	}
	must(t, l.Event(c, Step(EventMkdir, del, "/root/abs")))
	if err := l.Event(c, Event{EventEntry{Kind: EventPlaced, Path: "x"}}); err == nil {
		t.Error("a step event without an intent was accepted")
	}
	es, err := Read(path, Filter{Kinds: []Kind{KindEvent}})
	if err != nil || len(es) != len(StepKinds())+1 {
		t.Fatalf("%d events, %v", len(es), err)
	}
	for i, k := range StepKinds() {
		if ev := es[i].Event; ev.Kind != k || ev.Path != "skills/old" || *ev.Intent != del {
			t.Errorf("event %d: %+v", i, ev)
		}
	}
	last := es[len(es)-1].Event
	if last.Path != "" || len(last.Unparsed) != 1 || last.Unparsed[0].SHA256 != sha([]byte("/root/abs")) {
		t.Errorf("an absolute path in a step event: %+v", last)
	}
	if bytes.Contains(readFile(t, path), []byte("/root/abs")) {
		t.Error("a host absolute path reached the log")
	}
}

// WithResolvedPaths records where an intent lands, and refuses a count or
// a path that cannot be a plan path.
func TestWithResolvedPaths(t *testing.T) {
	recs, err := IntentsFromPlan(decodePlan(t, mixedPlan))
	if err != nil {
		t.Fatal(err)
	}
	ren, err := recs[3].WithResolvedPaths("A/x", "B/x")
	if err != nil || fmt.Sprint(ren.Paths()) != "[A/x B/x]" || fmt.Sprint(recs[3].Paths()) != "[a/x b/x]" {
		t.Fatalf("rename: %v %v (original %v)", ren.Paths(), err, recs[3].Paths())
	}
	if _, err := recs[3].WithResolvedPaths("A/x"); err == nil {
		t.Error("a rename with one resolved path accepted")
	}
	if _, err := recs[0].WithResolvedPaths("../x"); err == nil {
		t.Error("a traversal accepted as a resolved path")
	}
	if recs[0].SHA256() != sha([]byte("# Foo skill\n")) || recs[2].SHA256() != "" {
		t.Error("SHA256 accessor")
	}
}

// The headers host/plan dropped are recorded by name from the decoded plan.
func TestIntentsFromPlanRecordsDroppedHeaders(t *testing.T) {
	p := decodePlan(t, `{"protocol":1,"intents":[{"op":"fetch","url":"https://e.org/x","dest":"x",
		"headers":{"Authorization":"Bearer SECRET-TOKEN-1","Accept":"*/*","cookie":"SECRET-COOKIE-2"}}]}`)
	recs, err := IntentsFromPlan(p)
	if err != nil {
		t.Fatal(err)
	}
	e := recs[0].entry()
	if fmt.Sprint(e.Headers) != "[Accept]" || fmt.Sprint(e.DroppedHeaders) != "[Authorization cookie]" {
		t.Fatalf("headers %v dropped %v", e.Headers, e.DroppedHeaders)
	}
}

// HopLog has host/remote's HopObserver shape and keeps the first error.
func TestHopLog(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	var obs interface {
		Hop(n int, u *url.URL, dialled netip.AddrPort)
	} = l.Hops(c, rejection.IntentRef{Index: 5, Op: schema.OpClone})
	u, _ := url.Parse("https://git.example.org/r.git")
	obs.Hop(0, u, netip.MustParseAddrPort("203.0.113.9:443"))
	if err := obs.(*HopLog).Err(); err != nil {
		t.Fatal(err)
	}
	bad := l.Hops(c, rejection.IntentRef{Index: 0, Op: schema.OpWrite})
	bad.Hop(0, u, netip.MustParseAddrPort("203.0.113.9:443"))
	if bad.Err() == nil {
		t.Error("a hop for a write intent was accepted silently")
	}
	es, _ := Read(path, Filter{Kinds: []Kind{KindEvent}})
	if len(es) != 1 || es[0].Event.Host != "git.example.org" || es[0].Event.Dialled != "203.0.113.9:443" {
		t.Fatalf("hop events: %+v", es)
	}
}

func TestUnattributedRollback(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	must(t, l.Outcome(c, RolledBackUnattributed(rejection.New(schema.RulePathCrossDevice, ""))))
	must(t, l.Outcome(c, RollbackFailedUnattributed(errors.New("EIO"))))
	es, _ := Read(path, Filter{Kinds: []Kind{KindOutcome}})
	if len(es) != 2 || es[0].Outcome.Intent != nil || fmt.Sprint(es[0].Outcome.Rules) != "[path.cross-device]" ||
		es[1].Outcome.Outcome != OutcomeRollbackFailed {
		t.Fatalf("%+v", es)
	}
}
