package sync

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/version"
)

func TestParseLine(t *testing.T) {
	r, err := ParseLine("  https://github.com/u/r.git#subdirectory=plugins/dev&assistant=claude-code, cursor ", 3)
	if err != nil || r.Ref != "https://github.com/u/r.git" || r.Subdirectory != "plugins/dev" || strings.Join(r.Assistants, ",") != "claude-code,cursor" || r.Line != 3 {
		t.Fatalf("%+v %v", r, err)
	}
	r, err = ParseLine("@community/git-tools>=1.0,<2", 1)
	if err != nil || r.Ref != "@community/git-tools" {
		t.Fatalf("%+v %v", r, err)
	}
	v2, _ := version.Parse("2.0")
	v1, _ := version.Parse("1.5")
	if r.Spec.Admits(v2) || !r.Spec.Admits(v1) {
		t.Fatalf("spec %s", r.Spec)
	}
	r, err = ParseLine("python-tools^0.3", 1)
	if err != nil || r.Ref != "python-tools" || r.Spec.String() != "^0.3" {
		t.Fatalf("%+v %v", r, err)
	}
	for _, l := range []string{"", "   ", "# comment"} {
		if r, err := ParseLine(l, 1); r != nil || err != nil {
			t.Errorf("%q: %+v %v", l, r, err)
		}
	}
	for _, l := range []string{">=1.0", "x =>1", "x#evil=1", "a b", "x>=1.0+local", "x\x1b[31m"} {
		if _, err := ParseLine(l, 7); !errors.Is(err, ErrParse) {
			t.Errorf("%q: %v", l, err)
		}
	}
}

// One bad line refuses the whole file.
func TestParseRefusesWhole(t *testing.T) {
	if _, err := Parse([]byte("good\nbad>=x\n")); !errors.Is(err, ErrParse) || !strings.Contains(err.Error(), "line 2") {
		t.Fatal(err)
	}
	if _, err := Parse([]byte(strings.Repeat("a\n", MaxLines+1))); !errors.Is(err, ErrParse) {
		t.Fatal(err)
	}
}

// A URL holding operator characters ("?ref=main", "/~user/") is all
// reference unless a whole specifier follows it.
func TestParseLineURLsWithOperatorCharacters(t *testing.T) {
	cases := []struct{ line, ref, spec string }{
		{"https://example.org/kit.zip?ref=main", "https://example.org/kit.zip?ref=main", ""},
		{"https://example.org/kit.zip?a=1&b=2", "https://example.org/kit.zip?a=1&b=2", ""},
		{"https://example.org/~user/kit.git", "https://example.org/~user/kit.git", ""},
		{"https://example.org/~user/kit.git>=1.0,<2", "https://example.org/~user/kit.git", ">=1.0,<2"},
		{"https://example.org/kit.zip?ref=main ^1.2", "https://example.org/kit.zip?ref=main", "^1.2"},
		{"git@github.com:u/r.git==1.0#assistant=cursor", "git@github.com:u/r.git", "==1.0"},
	}
	for _, c := range cases {
		r, err := ParseLine(c.line, 1)
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if r.Ref != c.ref || r.Spec.String() != c.spec {
			t.Errorf("%q: ref %q spec %q; want ref %q spec %q", c.line, r.Ref, r.Spec.String(), c.ref, c.spec)
		}
	}
}

// As today's Lola reads them: a pip-style "git+" prefix is dropped, and a
// ref after ".git@" (or after a last '@' followed by no '/') is the git
// ref to check out, not part of the URL.
func TestParseLineGitPrefixAndRef(t *testing.T) {
	cases := []struct{ line, ref, gitRef, spec string }{
		{"git+https://github.com/u/another.git", "https://github.com/u/another.git", "", ""},
		{"https://github.com/u/module.git@main", "https://github.com/u/module.git", "main", ""},
		{"git+https://github.com/u/module.git@v1.0.0", "https://github.com/u/module.git", "v1.0.0", ""},
		{"git+ssh://git@github.com/u/r.git@v2>=1.0", "ssh://git@github.com/u/r.git", "v2", ">=1.0"},
		{"ssh://git@github.com/u/r.git", "ssh://git@github.com/u/r.git", "", ""},
		{"git@github.com:u/r.git@release/1.x", "git@github.com:u/r.git", "release/1.x", ""},
		{"git@github.com:u/r.git", "git@github.com:u/r.git", "", ""},
		{"https://git@host/u/r@main#assistant=cursor", "https://git@host/u/r", "main", ""},
		{"https://host/u/r@main", "https://host/u/r@main", "", ""}, // one '@', no ".git@": the URL's
		{"https://user@host/u/r.git", "https://user@host/u/r.git", "", ""},
	}
	for _, c := range cases {
		r, err := ParseLine(c.line, 1)
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if r.Ref != c.ref || r.GitRef != c.gitRef || r.Spec.String() != c.spec {
			t.Errorf("%q: ref %q git ref %q spec %q; want %q %q %q", c.line, r.Ref, r.GitRef, r.Spec.String(), c.ref, c.gitRef, c.spec)
		}
	}
	for _, l := range []string{"https://github.com/u/r.git@-evil", "https://github.com/u/r.git@"} {
		if _, err := ParseLine(l, 1); !errors.Is(err, ErrParse) {
			t.Errorf("%q: %v", l, err)
		}
	}
}
