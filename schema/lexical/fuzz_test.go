package lexical

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/lola-pm/lola/schema"
)

// FuzzPath: Path never panics, refuses only with a path rule and a bounded
// printable-ASCII detail, and what it accepts satisfies the vocabulary's
// invariants, restated here independently of Path's own code.
func FuzzPath(f *testing.F) {
	for _, s := range []string{"a", "a/b", "", "/", "..", "a/../b", "C:", `\\?\x`, "con.txt", "COM¹",
		"a//b", "a/./b", "a ", "a.", "é", "e\u0301", "\u212a", ".g\u200cit", "a:b", "x\x00", "\xff", "conout.c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rule, detail := Path(s)
		if rule != schema.RuleUnknown {
			switch rule {
			case schema.RulePathAbsolute, schema.RulePathTraversal, schema.RulePathInvalid:
			default:
				t.Fatalf("Path(%q) refused with rule %s", s, rule)
			}
			if detail == "" || len(detail) > 4*PathEcho+120 {
				t.Fatalf("Path(%q) detail of %d bytes", s, len(detail))
			}
			for i := 0; i < len(detail); i++ {
				if detail[i] < ' ' || detail[i] > '~' {
					t.Fatalf("Path(%q) detail %q holds byte %#x", s, detail, detail[i])
				}
			}
			return
		}
		if detail != "" {
			t.Fatalf("Path(%q) accepted with detail %q", s, detail)
		}
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\\<>:\"|?*") || strings.HasPrefix(s, "/") {
			t.Fatalf("Path accepted %q", s)
		}
		for _, c := range strings.Split(s, "/") {
			if c == "" || c == "." || c == ".." || strings.HasSuffix(c, ".") || strings.HasSuffix(c, " ") {
				t.Fatalf("Path(%q) accepted component %q", s, c)
			}
			if strings.IndexFunc(c, unicode.IsControl) >= 0 {
				t.Fatalf("Path(%q) accepted a control character", s)
			}
			base, _, _ := strings.Cut(c, ".")
			switch strings.ToUpper(strings.TrimRight(base, " ")) {
			case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
				"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9", "COM¹", "COM²", "COM³",
				"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9", "LPT¹", "LPT²", "LPT³":
				if strings.TrimRight(base, " ") == strings.Map(asciiOnly, strings.TrimRight(base, " ")) {
					t.Fatalf("Path(%q) accepted device %q", s, c)
				}
			}
		}
	})
}

// asciiOnly keeps ASCII and the superscripts ¹²³ and drops everything
// else, so that a base whose upper-casing only matched by Unicode folding
// ("ſ" to "S", "ı" to "I") is told apart from a real device name.
func asciiOnly(r rune) rune {
	if r < utf8.RuneSelf || r == '¹' || r == '²' || r == '³' {
		return r
	}
	return -1
}

// FuzzHeader: Header never panics, refuses only with remote.header, and a
// detail never holds the value or anything but printable ASCII.
func FuzzHeader(f *testing.F) {
	f.Add("Accept", "*/*")
	f.Add("Host", "x")
	f.Add("X(Y)", "s3cr3t")
	f.Add("X-A", "s3cr3t\r\n")
	f.Fuzz(func(t *testing.T, name, value string) {
		rule, detail := Header(name, value)
		if rule == schema.RuleUnknown {
			if detail != "" || name == "" || strings.ContainsAny(name, " :\r\n\"(),/;<=>?@[\\]{}") || IsFramingHeader(name) {
				t.Fatalf("Header(%q, %q) accepted", name, value)
			}
			return
		}
		if rule != schema.RuleRemoteHeader {
			t.Fatalf("Header(%q) refused with %s", name, rule)
		}
		if len(value) >= 8 && strings.Contains(detail, value) {
			t.Fatalf("Header detail %q holds the value", detail)
		}
		for i := 0; i < len(detail); i++ {
			if detail[i] < ' ' || detail[i] > '~' {
				t.Fatalf("detail %q holds byte %#x", detail, detail[i])
			}
		}
	})
}
