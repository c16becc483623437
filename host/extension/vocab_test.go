package extension

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
)

func roundTrip[T interface {
	~string
	String() string
	MarshalText() ([]byte, error)
}](t *testing.T, all []T, parse func(string) (T, error), unmarshal func(*T, []byte) error) {
	t.Helper()
	seen := map[string]bool{}
	for _, v := range all {
		s := v.String()
		if s == "" || seen[s] {
			t.Fatalf("%T member %q renders empty or twice", v, s)
		}
		seen[s] = true
		b, err := v.MarshalText()
		if err != nil || string(b) != s {
			t.Fatalf("MarshalText(%q) = %q, %v", s, b, err)
		}
		back, err := parse(s)
		if err != nil || back != v {
			t.Fatalf("parse(%q) = %q, %v", s, back, err)
		}
		var u T
		if err := unmarshal(&u, b); err != nil || u != v {
			t.Fatalf("UnmarshalText(%q) = %q, %v", b, u, err)
		}
	}
	for _, bad := range []string{"", "Target", "TIER1", "tier3", "wasm", " builtin"} {
		if _, err := parse(bad); err == nil {
			t.Fatalf("parse(%q) accepted an outsider", bad)
		}
		var u T
		if err := unmarshal(&u, []byte(bad)); err == nil {
			t.Fatalf("UnmarshalText(%q) accepted an outsider", bad)
		}
		if _, err := T(bad).MarshalText(); err == nil {
			t.Fatalf("MarshalText(%q) rendered an outsider", bad)
		}
	}
}

func TestVocabulariesRoundTrip(t *testing.T) {
	roundTrip(t, Kinds(), ParseKind, (*Kind).UnmarshalText)
	roundTrip(t, Tiers(), ParseTier, (*Tier).UnmarshalText)
	roundTrip(t, Sources(), ParseSource, (*Source).UnmarshalText)
}

// TestAuditTierAgreesWithAuditVocabulary: every (tier, kind) a manifest can
// declare maps to a member of host/audit's tier vocabulary, a hook to the
// hook tier, and nothing else maps at all.
func TestAuditTierAgreesWithAuditVocabulary(t *testing.T) {
	want := map[Tier]map[Kind]audit.Tier{
		Tier1: {KindTarget: audit.TierWasm, KindSource: audit.TierWasm, KindHook: ""},
		Tier2: {KindTarget: audit.TierNative, KindSource: audit.TierNative, KindHook: audit.TierHook},
	}
	for _, tier := range Tiers() {
		for _, k := range Kinds() {
			got := AuditTier(tier, k)
			if got != want[tier][k] {
				t.Errorf("AuditTier(%s, %s) = %q, want %q", tier, k, got, want[tier][k])
			}
			if got == "" {
				continue
			}
			if _, err := audit.ParseTier(got.String()); err != nil {
				t.Errorf("AuditTier(%s, %s) = %q is not in audit's vocabulary", tier, k, got)
			}
			if got.Native() != tier.Native() {
				t.Errorf("%s and %s disagree on native", tier, got)
			}
		}
	}
	if AuditTier("tier3", KindTarget) != "" || AuditTier(Tier2, "plugin") != "" {
		t.Fatal("an outsider mapped to an audit tier")
	}
}

// A refused spelling is echoed escaped and bounded, however long it is.
func TestParseKindBoundsItsEcho(t *testing.T) {
	_, err := ParseKind(strings.Repeat("x", 4096) + "\x1b[2J")
	if err == nil || len(err.Error()) > 200 || strings.Contains(err.Error(), "\x1b") {
		t.Fatalf("ParseKind echo: %d bytes: %q", len(fmt.Sprint(err)), err)
	}
}
