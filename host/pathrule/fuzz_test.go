package pathrule

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
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
			if lexical.IsDeviceName(c) {
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

// FuzzValidate: plans built from fuzzer bytes out of near-colliding
// components; the sweep must agree with the brute-force oracle under every
// relation and never panic. Each intent takes up to five bytes: the op,
// then components (a byte's low bits pick one, the high bit ends the path).
func FuzzValidate(f *testing.F) {
	f.Add([]byte{0, 0x80, 1, 0x80})       // write a, delete a
	f.Add([]byte{1, 0, 0x81, 0, 0x82, 2}) // delete a/b, write a/b/...
	f.Add([]byte{2, 0x80, 0x81, 2, 0x81, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		var ins []schema.Intent
		path := func() string {
			var c []string
			for len(data) > 0 && len(c) < 3 {
				b := data[0]
				data = data[1:]
				c = append(c, nearCollisions[int(b&0x7f)%len(nearCollisions)])
				if b&0x80 != 0 {
					break
				}
			}
			if len(c) == 0 {
				return "a"
			}
			return strings.Join(c, "/")
		}
		for len(data) > 0 && len(ins) < 16 {
			op := data[0] % 5
			data = data[1:]
			switch op {
			case 0:
				ins = append(ins, schema.Intent{Write: &schema.Write{Path: path()}})
			case 1:
				ins = append(ins, schema.Intent{Delete: &schema.Delete{Path: path()}})
			case 2:
				from := path()
				ins = append(ins, schema.Intent{Rename: &schema.Rename{From: from, To: path()}})
			case 3:
				ins = append(ins, schema.Intent{Fetch: &schema.Fetch{URL: "https://example.org/x", Dest: path()}})
			case 4:
				ins = append(ins, schema.Intent{Clone: &schema.Clone{URL: "https://example.org/r.git", Dest: path()}})
			}
		}
		p := decode(t, ins)
		for _, eq := range Equalities() {
			want, _ := oracle(ins, eq)
			_, err := Validate(p, eq)
			got := violations(t, err)
			if len(got) != len(want) {
				t.Fatalf("%s: %s\nsweep  %v\noracle %v", eq.Name(), describePlan(ins), got, want)
			}
			for i := range got {
				if got[i].String() != want[i].String() {
					t.Fatalf("%s: %s\nsweep  %v\noracle %v", eq.Name(), describePlan(ins), got, want)
				}
			}
		}
	})
}
