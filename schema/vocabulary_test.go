package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEveryRuleRendersAndRoundTrips(t *testing.T) {
	seen := map[string]Rule{}
	for _, r := range Rules() {
		s := r.String()
		if s == "" || !strings.Contains(s, ".") {
			t.Fatalf("rule %d has no spelling", uint8(r))
		}
		if prev, dup := seen[s]; dup {
			t.Fatalf("rules %d and %d share the spelling %q", prev, r, s)
		}
		seen[s] = r
		back, ok := ParseRule(s)
		if !ok || back != r {
			t.Fatalf("ParseRule(%q) = %v, %v", s, back, ok)
		}
		b, err := json.Marshal(r)
		if err != nil || string(b) != `"`+s+`"` {
			t.Fatalf("marshal %q: %s %v", s, b, err)
		}
		var u Rule
		if err := json.Unmarshal(b, &u); err != nil || u != r {
			t.Fatalf("unmarshal %s: %v %v", b, u, err)
		}
	}
	for _, bad := range []string{"", "plan", "Plan.Malformed", "path.absolute ", "rule(1)"} {
		if _, ok := ParseRule(bad); ok {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
	if _, err := RuleUnknown.MarshalText(); err == nil {
		t.Error("the zero rule marshalled")
	}
}

func TestCapabilityAtoms(t *testing.T) {
	for _, c := range Capabilities() {
		got, err := ParseCapability(string(c))
		if err != nil || got != c {
			t.Fatalf("ParseCapability(%q) = %q, %v", c, got, err)
		}
	}
	got, err := ParseCapabilityList(" net.http,net.git,net.http")
	if err != nil || JoinCapabilities(got) != "net.git,net.http" {
		t.Fatalf("list: %v %v", got, err)
	}
	for _, bad := range []string{"net.HTTP", "fs.write", "net.http,", "net"} {
		if _, err := ParseCapabilityList(bad); err == nil {
			t.Errorf("ParseCapabilityList(%q) accepted an unknown atom", bad)
		} else if !strings.Contains(err.Error(), "unknown capability") {
			t.Errorf("error for %q does not say unknown capability: %v", bad, err)
		}
	}
	if RequiredCapability(OpFetch) != CapNetHTTP || RequiredCapability(OpClone) != CapNetGit || RequiredCapability(OpWrite) != "" {
		t.Fatal("RequiredCapability mapping changed")
	}
}

func TestIntentJSONOpFirstAndRoundTrip(t *testing.T) {
	p := Plan{Protocol: 1, Intents: []Intent{
		{Write: &Write{Path: "a", Content: "x"}},
		{Delete: &Delete{Path: "b"}},
		{Rename: &Rename{From: "c", To: "d"}},
		{Fetch: &Fetch{URL: "https://e.org/x", Dest: "e", Method: "GET", Headers: map[string]string{"Accept": "*/*"}}},
		{Clone: &Clone{URL: "https://e.org/r.git", Dest: "f", Ref: "v1", Depth: 1}},
	}}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"protocol":1,"intents":[{"op":"write","path":"a","content":"x"},{"op":"delete","path":"b"},{"op":"rename","from":"c","to":"d"},{"op":"fetch","url":"https://e.org/x","dest":"e","method":"GET","headers":{"Accept":"*/*"}},{"op":"clone","url":"https://e.org/r.git","dest":"f","ref":"v1","depth":1}]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	var back Plan
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(back)
	if string(b2) != want {
		t.Fatalf("round trip changed the plan: %s", b2)
	}
	if _, err := json.Marshal(Intent{}); err == nil {
		t.Fatal("an empty intent marshalled")
	}
}

func TestDeepCopySharesNothing(t *testing.T) {
	orig := Intent{Fetch: &Fetch{URL: "https://e.org/x", Dest: "d", Headers: map[string]string{"Accept": "a"}}}
	cp := orig.DeepCopy()
	cp.Fetch.Headers["Accept"] = "changed"
	cp.Fetch.Dest = "other"
	if orig.Fetch.Headers["Accept"] != "a" || orig.Fetch.Dest != "d" {
		t.Fatal("the copy shares state with the original")
	}
	for _, in := range []Intent{
		{Write: &Write{Path: "p"}}, {Delete: &Delete{Path: "p"}}, {Rename: &Rename{From: "a", To: "b"}},
		{Clone: &Clone{URL: "u", Dest: "d"}}, {},
	} {
		if got := in.DeepCopy(); got.Op() != in.Op() {
			t.Fatalf("DeepCopy changed the op: %v -> %v", in.Op(), got.Op())
		}
	}
}

func TestPathFieldFollowsPaths(t *testing.T) {
	for op, want := range map[Op][]string{
		OpWrite: {"path"}, OpDelete: {"path"}, OpRename: {"from", "to"}, OpFetch: {"dest"}, OpClone: {"dest"},
	} {
		for slot, w := range want {
			if got := op.PathField(slot); got != w {
				t.Errorf("%s slot %d: %q, want %q", op, slot, got, w)
			}
		}
	}
}

// extension.changed is the pin check's rule: it renders, parses back and
// marshals like every member, and sorts after the remote rules, so adding
// it renumbered none of the existing members.
func TestExtensionChangedRule(t *testing.T) {
	if RuleExtensionChanged.String() != "extension.changed" {
		t.Fatalf("spelled %q", RuleExtensionChanged.String())
	}
	r, ok := ParseRule("extension.changed")
	if !ok || r != RuleExtensionChanged {
		t.Fatalf("ParseRule = %v %v", r, ok)
	}
	b, err := RuleExtensionChanged.MarshalText()
	if err != nil || string(b) != "extension.changed" {
		t.Fatalf("MarshalText = %q %v", b, err)
	}
	if RuleExtensionChanged <= RuleRemoteTransportAuth {
		t.Fatal("extension.changed renumbered an existing rule")
	}
}
