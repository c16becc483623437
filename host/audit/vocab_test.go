package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// roundTrip checks that every member of a closed vocabulary renders,
// marshals and parses back to itself, and that a non-member is refused
// both ways.
func roundTrip[T interface {
	~string
	MarshalText() ([]byte, error)
}](t *testing.T, what string, all []T, parse func(string) (T, error), unmarshal func(*T, []byte) error) {
	t.Helper()
	seen := map[T]bool{}
	for _, v := range all {
		if string(v) == "" {
			t.Errorf("%s: empty spelling", what)
		}
		if seen[v] {
			t.Errorf("%s: %q listed twice", what, string(v))
		}
		seen[v] = true
		b, err := v.MarshalText()
		if err != nil || string(b) != string(v) {
			t.Errorf("%s %q: MarshalText = %q, %v", what, string(v), b, err)
		}
		got, err := parse(string(v))
		if err != nil || got != v {
			t.Errorf("%s %q: parse = %q, %v", what, string(v), string(got), err)
		}
		var u T
		if err := unmarshal(&u, b); err != nil || u != v {
			t.Errorf("%s %q: UnmarshalText = %q, %v", what, string(v), string(u), err)
		}
	}
	for _, bad := range []string{"", "nonsense", strings.ToUpper(string(all[0])), string(all[0]) + " "} {
		if _, err := parse(bad); err == nil {
			t.Errorf("%s: parse(%q) accepted", what, bad)
		}
		if _, err := T(bad).MarshalText(); err == nil {
			t.Errorf("%s: MarshalText(%q) accepted", what, bad)
		}
	}
}

func TestVocabulariesRoundTrip(t *testing.T) {
	roundTrip(t, "kind", Kinds(), ParseKind, (*Kind).UnmarshalText)
	roundTrip(t, "tier", Tiers(), ParseTier, (*Tier).UnmarshalText)
	roundTrip(t, "layer", Layers(), ParseLayer, (*Layer).UnmarshalText)
	roundTrip(t, "event kind", EventKinds(), ParseEventKind, (*EventKind).UnmarshalText)
	roundTrip(t, "outcome", OutcomeKinds(), ParseOutcomeKind, (*OutcomeKind).UnmarshalText)
	roundTrip(t, "problem", Problems(), func(s string) (Problem, error) {
		var p Problem
		err := p.UnmarshalText([]byte(s))
		return p, err
	}, (*Problem).UnmarshalText)
}

func TestOutcomesAreTheSpecificationsThree(t *testing.T) {
	got := []string{}
	for _, o := range OutcomeKinds() {
		got = append(got, o.String())
	}
	if strings.Join(got, ",") != "committed,rolled-back,rollback-failed" {
		t.Fatalf("outcomes = %v", got)
	}
}

func TestHookTierIsNative(t *testing.T) {
	for _, tier := range Tiers() {
		want := tier == TierNative || tier == TierHook
		if tier.Native() != want {
			t.Errorf("%s.Native() = %v", tier, tier.Native())
		}
	}
	if !strings.HasPrefix(TierHook.String(), "native/") {
		t.Errorf("a hook's tier must name it native, got %q", TierHook)
	}
}

func TestCorrelationRoundTripAndRefusals(t *testing.T) {
	a, err := NewCorrelation()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewCorrelation()
	if a == b || a.IsZero() {
		t.Fatal("two fresh correlation ids are equal or zero")
	}
	if len(a.String()) != 32 {
		t.Fatalf("id %q is not 32 hex digits", a)
	}
	got, err := ParseCorrelation(a.String())
	if err != nil || got != a {
		t.Fatalf("ParseCorrelation(String()) = %v, %v", got, err)
	}
	js, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var back Correlation
	if err := json.Unmarshal(js, &back); err != nil || back != a {
		t.Fatalf("JSON round trip = %v, %v", back, err)
	}
	for _, bad := range []string{"", "00000000000000000000000000000000", strings.ToUpper(a.String()),
		a.String()[:31], a.String() + "0", "g" + a.String()[1:]} {
		if _, err := ParseCorrelation(bad); err == nil {
			t.Errorf("ParseCorrelation(%q) accepted", bad)
		}
	}
	if _, err := (Correlation{}).MarshalText(); err == nil {
		t.Error("the zero correlation marshals")
	}
}

func TestExtensionIdentityRefusesPathsAndText(t *testing.T) {
	for _, bad := range []struct{ name, version string }{
		{"", "1"}, {"/home/alice/ext", "1"}, {"..\\ext", "1"}, {"a b", "1"}, {"ext", "1 2"},
		{"ext\n", "1"}, {strings.Repeat("x", 129), "1"}, {"ext", "v/1"}, {"é", "1"},
	} {
		if _, err := NewExtension(bad.name, bad.version); err == nil {
			t.Errorf("NewExtension(%q, %q) accepted", bad.name, bad.version)
		}
	}
	e, err := NewExtension("plan.json", "")
	if err != nil || e.Name() != "plan.json" || e.Version() != "" {
		t.Fatalf("a plan file's base name with no version: %v %v", e, err)
	}
}
