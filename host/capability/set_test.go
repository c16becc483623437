package capability

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func TestGrantIsExactlyTheDeclaredAtomsDeduplicated(t *testing.T) {
	cases := []struct {
		declared []string
		want     string
	}{
		{nil, ""},
		{[]string{}, ""},
		{[]string{"net.http"}, "net.http"},
		{[]string{"net.git"}, "net.git"},
		{[]string{"net.http", "net.git", "net.http"}, "net.git,net.http"},
	}
	for _, c := range cases {
		s, err := Grant(c.declared)
		if err != nil {
			t.Fatalf("Grant(%q): %v", c.declared, err)
		}
		if s.String() != c.want {
			t.Errorf("Grant(%q) = %q, want %q", c.declared, s.String(), c.want)
		}
		for _, atom := range schema.Capabilities() {
			if s.Has(atom) != slices.Contains(c.declared, string(atom)) {
				t.Errorf("Grant(%q).Has(%s) = %v: the grant is not exactly the declaration", c.declared, atom, s.Has(atom))
			}
		}
	}
	var zero Set
	if zero.Len() != 0 || zero.String() != "" || zero.Has(schema.CapNetHTTP) {
		t.Fatal("the zero Set grants something")
	}
}

func TestGrantRefusesUnknownAtomsNeverTrims(t *testing.T) {
	for _, declared := range [][]string{
		{"fs.write"},
		{"net.http", "net.https"},  // a near miss next to a known atom
		{"NET.HTTP"},               // spelling is exact, not case-folded
		{"net.http "},              // nor trimmed
		{""},                       // an empty atom is not "none"
		{"net.git", "exec", "env"}, // every unknown is named
	} {
		s, err := Grant(declared)
		if !errors.Is(err, rejection.Rule(schema.RuleCapabilityUnknown)) {
			t.Fatalf("Grant(%q) = %v, %v; want capability.unknown", declared, s, err)
		}
		if s.Len() != 0 {
			t.Fatalf("Grant(%q) granted %q alongside the refusal: trimmed", declared, s)
		}
		unknown := 0
		for _, d := range declared {
			if _, err := schema.ParseCapability(d); err != nil {
				unknown++
			}
		}
		if n := len(rejection.All(err)); n != unknown {
			t.Fatalf("Grant(%q): %d violations, want one per unknown atom (%d): %v", declared, n, unknown, err)
		}
		if !strings.Contains(err.Error(), "capability.unknown") {
			t.Fatalf("error does not name the rule: %v", err)
		}
	}
}

// TestAtomSpellingDrift: one spelling for each atom across the manifest
// declaration (Grant), --caps (String/ParseSet and schema's
// ParseCapabilityList), the audit record (JSON of List) and schema.
func TestAtomSpellingDrift(t *testing.T) {
	all := schema.Capabilities()
	var declared []string
	for _, c := range all {
		declared = append(declared, string(c))
		one, err := Grant([]string{string(c)})
		if err != nil || one.String() != string(c) {
			t.Fatalf("manifest atom %q renders as --caps %q (%v)", c, one.String(), err)
		}
	}
	s, err := Grant(declared)
	if err != nil {
		t.Fatal(err)
	}
	if s.String() != schema.JoinCapabilities(all) {
		t.Fatalf("--caps form %q, schema form %q", s.String(), schema.JoinCapabilities(all))
	}
	back, err := ParseSet(s.String())
	if err != nil || !back.Equal(s) {
		t.Fatalf("ParseSet(%q) = %q, %v: no round trip", s.String(), back, err)
	}
	viaSchema, err := schema.ParseCapabilityList(s.String())
	if err != nil || !slices.Equal(viaSchema, s.List()) {
		t.Fatalf("schema.ParseCapabilityList(%q) = %v, %v; grant lists %v", s.String(), viaSchema, err, s.List())
	}
	js, err := json.Marshal(s.List()) // the audit record's capabilities field
	if err != nil {
		t.Fatal(err)
	}
	var fromAudit []string
	if err := json.Unmarshal(js, &fromAudit); err != nil || !slices.Equal(fromAudit, strings.Split(s.String(), ",")) {
		t.Fatalf("audit spelling %s differs from --caps %q", js, s.String())
	}
	if empty, err := ParseSet(""); err != nil || empty.Len() != 0 {
		t.Fatalf(`ParseSet("") = %v, %v`, empty, err)
	}
	if _, err := ParseSet("net.http,,net.git"); !errors.Is(err, rejection.Rule(schema.RuleCapabilityUnknown)) {
		t.Fatalf("an empty --caps member was accepted: %v", err)
	}
}

func TestListIsACopy(t *testing.T) {
	s, _ := Grant([]string{"net.git"})
	l := s.List()
	l[0] = "fs.write"
	if s.String() != "net.git" {
		t.Fatal("List shares the grant's storage")
	}
}

const netPlan = `{"protocol":1,"intents":[
 {"op":"write","path":"a/x","content":"1"},
 {"op":"fetch","url":"https://example.org/x.tgz","dest":"a/x.tgz"},
 {"op":"clone","url":"https://example.org/r.git","dest":"a/r"},
 {"op":"delete","path":"a/old"},
 {"op":"fetch","url":"https://example.org/y.tgz","dest":"a/y.tgz"}]}`

func TestCheckRejectsWholePlanNamingEachIntentMissingACapability(t *testing.T) {
	p := decode(t, netPlan)
	none, _ := Grant(nil)
	wantRule(t, none.Check(p), schema.RuleCapabilityMissing, 1, 2, 4)

	git, _ := Grant([]string{"net.git"})
	wantRule(t, git.Check(p), schema.RuleCapabilityMissing, 1, 4) // a fetch without net.http

	http, _ := Grant([]string{"net.http"})
	wantRule(t, http.Check(p), schema.RuleCapabilityMissing, 2)

	both, _ := Grant([]string{"net.http", "net.git"})
	if err := both.Check(p); err != nil {
		t.Fatalf("fully granted plan refused: %v", err)
	}
	local := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"a","content":""},{"op":"rename","from":"b","to":"c"}]}`)
	if err := none.Check(local); err != nil {
		t.Fatalf("a plan needing no capability refused: %v", err)
	}
	v := rejection.All(none.Check(p))[0]
	if v.Intents[0].Op != schema.OpFetch || !strings.Contains(v.Detail, "net.http") {
		t.Fatalf("violation does not say what was missing: %+v", v)
	}
}
