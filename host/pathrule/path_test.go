package pathrule

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func TestParseRefusesHostilePaths(t *testing.T) {
	cases := []struct {
		path string
		rule schema.Rule
	}{
		// Rooted or drive-qualified.
		{"/x", schema.RulePathAbsolute},
		{"/", schema.RulePathAbsolute},
		{`\x`, schema.RulePathAbsolute},
		{"C:", schema.RulePathAbsolute},
		{"c:x", schema.RulePathAbsolute},
		{"a:b", schema.RulePathAbsolute}, // drive A:, relative to its current directory
		{`C:\x`, schema.RulePathAbsolute},
		{"C:/x", schema.RulePathAbsolute},
		{"//server/share", schema.RulePathAbsolute},
		{`\\server\share`, schema.RulePathAbsolute},
		{`\\?\C:\x`, schema.RulePathAbsolute},
		{`\\.\pipe\x`, schema.RulePathAbsolute},
		{"/../x", schema.RulePathAbsolute},
		// Traversal, wherever it sits, and before any other fault.
		{"..", schema.RulePathTraversal},
		{"../x", schema.RulePathTraversal},
		{"a/..", schema.RulePathTraversal},
		{"a/../b", schema.RulePathTraversal},
		{"a/b/../../..", schema.RulePathTraversal},
		{"a//../b", schema.RulePathTraversal},
		{"../a\x00", schema.RulePathTraversal},
		// Empty and dot components.
		{"", schema.RulePathInvalid},
		{"a//b", schema.RulePathInvalid},
		{"a/./b", schema.RulePathInvalid},
		{".", schema.RulePathInvalid},
		{"./a", schema.RulePathInvalid},
		{"a/", schema.RulePathInvalid},
		{"a/b/", schema.RulePathInvalid},
		// Control characters, NUL first.
		{"a\x00b", schema.RulePathInvalid},
		{"a/\x00", schema.RulePathInvalid},
		{"a\nb", schema.RulePathInvalid},
		{"a\tb", schema.RulePathInvalid},
		{"a\x1fb", schema.RulePathInvalid},
		{"a\x7fb", schema.RulePathInvalid},
		{"a\u0085b", schema.RulePathInvalid},
		{"a\u009bb", schema.RulePathInvalid},
		// Not UTF-8.
		{"a\xffb", schema.RulePathInvalid},
		{"\xc3", schema.RulePathInvalid},
		// Backslashes, which are separators on Windows.
		{`a\b`, schema.RulePathInvalid},
		{`a\..\..\x`, schema.RulePathInvalid},
		{`a/b\`, schema.RulePathInvalid},
		// Characters Windows forbids, ':' (streams) among them.
		{"a<b", schema.RulePathInvalid},
		{"a>b", schema.RulePathInvalid},
		{"ab:c", schema.RulePathInvalid},
		{"file.txt:stream", schema.RulePathInvalid},
		{"file.txt::$DATA", schema.RulePathInvalid},
		{`a"b`, schema.RulePathInvalid},
		{"a|b", schema.RulePathInvalid},
		{"a?b", schema.RulePathInvalid},
		{"a*b", schema.RulePathInvalid},
		{"x/C:", schema.RulePathInvalid},
		// Trailing dots and spaces, which Windows strips.
		{"a.", schema.RulePathInvalid},
		{"a ", schema.RulePathInvalid},
		{"a/b./c", schema.RulePathInvalid},
		{"...", schema.RulePathInvalid},
		{".. ", schema.RulePathInvalid},
		{" ", schema.RulePathInvalid},
		{"a. .", schema.RulePathInvalid},
		// Device names, in any case, with or without extension.
		{"CON", schema.RulePathInvalid},
		{"con", schema.RulePathInvalid},
		{"PRN", schema.RulePathInvalid},
		{"aux", schema.RulePathInvalid},
		{"NUL", schema.RulePathInvalid},
		{"nul.txt", schema.RulePathInvalid},
		{"Nul.tar.gz", schema.RulePathInvalid},
		{"nul .txt", schema.RulePathInvalid},
		{"skills/con/SKILL.md", schema.RulePathInvalid},
		{"COM1", schema.RulePathInvalid},
		{"com9.log", schema.RulePathInvalid},
		{"LPT1", schema.RulePathInvalid},
		{"lpt9", schema.RulePathInvalid},
		{"COM¹", schema.RulePathInvalid},
		{"com².txt", schema.RulePathInvalid},
		{"LPT³", schema.RulePathInvalid},
		{"CONIN$", schema.RulePathInvalid},
		{"conout$", schema.RulePathInvalid},
		{"CONOUT$.txt", schema.RulePathInvalid},
	}
	for _, c := range cases {
		p, err := Parse(c.path)
		if err == nil {
			t.Errorf("Parse(%q) accepted (%v), want %s", c.path, p.Components(), c.rule)
			continue
		}
		if !errors.Is(err, rejection.Rule(c.rule)) {
			t.Errorf("Parse(%q) = %v, want rule %s", c.path, err, c.rule)
		}
		if !p.IsZero() {
			t.Errorf("Parse(%q) refused but returned a non-zero Path", c.path)
		}
		var v *rejection.Violation
		if !errors.As(err, &v) {
			t.Errorf("Parse(%q): error is not a *rejection.Violation", c.path)
		}
	}
}

func TestParseAllowsLookAlikes(t *testing.T) {
	for _, s := range []string{
		"a", "a/b/c", "skills/foo/SKILL.md", ".git", ".a", "..a", "a..b", ".hidden/x",
		"com0", "COM0.txt", "comm", "com10", "conout.c", "coninx", "con$", "lptN", "lpt", "lpt0",
		"console", "nul_", "nulx.txt", "auxiliary", "dollar$", "$MFT", "prn-notes", "xcon",
		"com⁴", "lpt₁", // not the digits Windows counts
		"a b", " a", "a .b", "a.b c", "é", "e\u0301", "Straße", "ﬃ", "\u212a", ".g\u200cit",
		"a\u200bb", "日本語/ファイル.txt", "emoji😀", "a~1", "x/-dash", "x=y", "a#b", "a%20b",
	} {
		p, err := Parse(s)
		if err != nil {
			t.Errorf("Parse(%q) refused an ordinary name: %v", s, err)
			continue
		}
		if p.String() != s || strings.Join(p.Components(), "/") != s || p.Len() != strings.Count(s, "/")+1 {
			t.Errorf("Parse(%q) = %q %v", s, p.String(), p.Components())
		}
	}
}

func TestPathPrefixAndAccessors(t *testing.T) {
	p, err := Parse("skills/foo/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Prefix(2).String(); got != "skills/foo" {
		t.Errorf("Prefix(2) = %q", got)
	}
	if got := p.Prefix(3); got.String() != p.String() {
		t.Errorf("Prefix(3) = %q", got)
	}
	if p.Component(2) != "SKILL.md" {
		t.Errorf("Component(2) = %q", p.Component(2))
	}
	c := p.Components()
	c[0] = "mutated"
	if p.Component(0) != "skills" {
		t.Error("Components shares its slice with the Path")
	}
	q := p.Prefix(1)
	_ = append(q.comps, "x") // must not write into p's backing array
	if p.Component(1) != "foo" {
		t.Error("Prefix shares capacity with the Path it came from")
	}
	for _, n := range []int{0, -1, 4} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Prefix(%d) did not panic", n)
				}
			}()
			p.Prefix(n)
		}()
	}
	if !(Path{}).IsZero() || p.IsZero() {
		t.Error("IsZero wrong")
	}
}

func TestParseDiagnosticsAreBounded(t *testing.T) {
	long := strings.Repeat("x", 10000) + "?"
	_, err := Parse(long)
	if !errors.Is(err, rejection.Rule(schema.RulePathInvalid)) {
		t.Fatalf("a 10k component with '?': %v, want path.invalid", err)
	}
	if len(err.Error()) > 300 {
		t.Fatalf("diagnostic for a 10k component is %d bytes", len(err.Error()))
	}
	_, err = Parse("/home/someone/.ssh/id_rsa")
	if !errors.Is(err, rejection.Rule(schema.RulePathAbsolute)) {
		t.Fatalf("a rooted path: %v, want path.absolute", err)
	}
	if strings.Contains(err.Error(), "home") || strings.Contains(err.Error(), "id_rsa") {
		t.Fatalf("absolute-path diagnostic echoes the path: %v", err)
	}
}
