package config

import (
	"strings"
	"testing"
)

func TestTrustSection(t *testing.T) {
	c, err := Parse(strings.NewReader(`trust:
  keys:
    - {name: alice, file: keys/alice.pub}
  identities:
    - {issuer: https://token.actions.githubusercontent.com, subject_regexp: "^https://github.com/acme/.*$"}
  require_tier1: true
`))
	if err != nil {
		t.Fatal(err)
	}
	tr := c.Trust()
	if len(tr.Keys()) != 1 || tr.Keys()[0].Name != "alice" || len(tr.Identities()) != 1 || !tr.RequireTier1() {
		t.Fatalf("%+v", tr)
	}
	for name, bad := range map[string]string{
		"unknown key":  "trust:\n  keyz: []\n",
		"no file":      "trust:\n  keys: [{name: a}]\n",
		"twice":        "trust:\n  keys: [{name: a, file: x}, {name: a, file: y}]\n",
		"both issuers": "trust:\n  identities: [{issuer: a, issuer_regexp: '^a$', subject: s}]\n",
		"no subject":   "trust:\n  identities: [{issuer: a}]\n",
		"unanchored":   "trust:\n  identities: [{issuer: a, subject_regexp: 'acme'}]\n",
		"bad regexp":   "trust:\n  identities: [{issuer: a, subject_regexp: '^(a$'}]\n",
	} {
		if _, err := Parse(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if d := Default().Trust(); len(d.Keys())+len(d.Identities()) != 0 || d.RequireTier1() {
		t.Fatal("the default trusts something")
	}
}
