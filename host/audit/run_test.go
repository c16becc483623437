package audit

import (
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func TestRunResultsRoundTrip(t *testing.T) {
	roundTrip(t, "run result", RunResults(), ParseRunResult, (*RunResult).UnmarshalText)
}

// An install's hook runs and its plan share one correlation once the log
// is correlated; a run record names the hook as a native extension and
// carries no output.
func TestCorrelateSharesOneIDAcrossRunsPlanAndRejection(t *testing.T) {
	l, path := openTestLog(t)
	shared, err := NewCorrelation()
	if err != nil {
		t.Fatal(err)
	}
	l.Correlate(shared)
	hookID, err := NewExtension("hook:demo:pre-install", "")
	if err != nil {
		t.Fatal(err)
	}
	c1, err := l.Run(Correlation{}, RunRecord{Extension: hookID, Tier: TierHook, Layers: []Layer{LayerProcessGroup, LayerDeadline}, Result: RunExitNonZero, ExitStatus: 3, Elapsed: 12 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c2 := beginPlan(t, l, decodePlan(t, `{"protocol":1,"intents":[{"op":"write","path":"a","content":"SECRET-BODY"}]}`))
	c3, err := l.Rejected(Rejection{Extension: testExtension(t), Tier: TierWasm, Err: rejection.New(schema.RulePathAbsolute, "x")})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []Correlation{c1, c2, c3} {
		if c != shared {
			t.Errorf("record %d: correlation %s, want the shared %s", i, c, shared)
		}
	}
	l.Correlate(Correlation{})
	if c4 := beginPlan(t, l, decodePlan(t, `{"protocol":1,"intents":[]}`)); c4 == shared {
		t.Error("after Correlate(zero) Begin still used the shared id")
	}

	var runs []Entry
	if err := Scan(path, Filter{Correlation: shared, Kinds: []Kind{KindRun}}, func(e Entry) error { runs = append(runs, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Run == nil {
		t.Fatalf("run records = %+v", runs)
	}
	r := runs[0].Run
	if r.Extension.Name != "hook:demo:pre-install" || r.Tier != TierHook || !r.Tier.Native() || r.Result != RunExitNonZero || r.ExitStatus == nil || *r.ExitStatus != 3 || r.ElapsedMS != 12 {
		t.Errorf("run entry = %+v", r)
	}
	if _, err := Verify(path); err != nil {
		t.Fatalf("verify: %v", err)
	}
	if b := string(readFile(t, path)); strings.Contains(b, "SECRET-BODY") {
		t.Error("a content body reached the log")
	}
}

func TestRunRefusesValuesOutsideTheVocabulary(t *testing.T) {
	l, _ := openTestLog(t)
	id := testExtension(t)
	for name, r := range map[string]RunRecord{
		"no identity": {Tier: TierHook, Result: RunCompleted},
		"bad tier":    {Extension: id, Tier: "hook", Result: RunCompleted},
		"bad result":  {Extension: id, Tier: TierHook, Result: "ok"},
		"bad layer":   {Extension: id, Tier: TierHook, Result: RunCompleted, Layers: []Layer{"chroot"}},
	} {
		if _, err := l.Run(Correlation{}, r); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
