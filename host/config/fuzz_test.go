package config

import (
	"strings"
	"testing"
)

// FuzzParse: no input panics, and an accepted configuration's admissions
// render to spellings that parse back to the same admissions.
func FuzzParse(f *testing.F) {
	f.Add("remote:\n  allow: [\"127.0.0.1/32\", \"[::1]/128:8443\"]\n  max_redirects: 5\nextensions:\n  t:\n    paths: [\".claude/\"]\n")
	f.Add("remote: {allow: ['[10.0.0.0/8]:443']}\n")
	f.Add("extensions: {a: {paths: [x/y]}}\n")
	f.Fuzz(func(t *testing.T, doc string) {
		c, err := Parse(strings.NewReader(doc))
		if err != nil {
			return
		}
		if c.Remote().MaxRedirects() <= 0 {
			t.Fatalf("accepted max_redirects %d", c.Remote().MaxRedirects())
		}
		for _, a := range c.Remote().Allow() {
			b, err := ParseAdmission(a.String())
			if err != nil || b != a {
				t.Fatalf("%v does not round-trip: %v %v", a, b, err)
			}
		}
	})
}

// FuzzParseAdmission: no input panics; accepted admissions round-trip and
// are canonical.
func FuzzParseAdmission(f *testing.F) {
	for _, s := range []string{"127.0.0.1/32", "[::1]/128:8443", "[10.0.0.0/8]:443", "[::ffff:1.2.3.4/128]:1", "0.0.0.0/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAdmission(s)
		if err != nil {
			return
		}
		if a.Prefix().Masked() != a.Prefix() || a.Prefix().Addr().Zone() != "" {
			t.Fatalf("%q accepted as non-canonical %v", s, a)
		}
		b, err := ParseAdmission(a.String())
		if err != nil || b != a {
			t.Fatalf("%q -> %v does not round-trip: %v %v", s, a, b, err)
		}
	})
}
