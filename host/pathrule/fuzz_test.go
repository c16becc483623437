package pathrule

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// FuzzParsePath: Parse never panics, refuses only with a path rule, and
// what it accepts satisfies the vocabulary's invariants — the invariants
// restated independently of Parse's own code — and has a key under every
// relation that is stable and never reintroduces a separator.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"a", "a/b", "", "/", "..", "a/../b", "C:", `\\?\x`, "con.txt", "COM¹",
		"a//b", "a/./b", "a ", "a.", "é", "e\u0301", "\u212a", ".g\u200cit", "a:b", "x\x00", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			if !p.IsZero() {
				t.Fatal("refusal with a non-zero Path")
			}
			var v *rejection.Violation
			if !errors.As(err, &v) {
				t.Fatalf("refusal is not a Violation: %v", err)
			}
			switch v.Rule {
			case schema.RulePathAbsolute, schema.RulePathTraversal, schema.RulePathInvalid:
			default:
				t.Fatalf("refusal with rule %s", v.Rule)
			}
			return
		}
		if p.String() != s || strings.Join(p.Components(), "/") != s {
			t.Fatalf("Parse(%q) does not round-trip", s)
		}
		if strings.ContainsAny(s, "\\\x00<>:\"|?*") || strings.HasPrefix(s, "/") {
			t.Fatalf("Parse accepted %q", s)
		}
		for _, c := range p.Components() {
			if c == "" || c == "." || c == ".." || strings.HasSuffix(c, ".") || strings.HasSuffix(c, " ") {
				t.Fatalf("Parse(%q) accepted component %q", s, c)
			}
			if isDeviceName(c) {
				t.Fatalf("Parse(%q) accepted device %q", s, c)
			}
			for _, eq := range Equalities() {
				k := eq.Key(c)
				if k != eq.Key(c) || strings.Contains(k, "/") {
					t.Fatalf("%s: key of %q unstable or holds a separator: %q", eq.Name(), c, k)
				}
			}
		}
		for n := 1; n <= p.Len(); n++ {
			q, err := Parse(p.Prefix(n).String())
			if err != nil || q.Len() != n {
				t.Fatalf("prefix %d of %q does not parse: %v", n, s, err)
			}
		}
	})
}
