package lexical

import (
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// TestPathRefuses is one table per rule: each hostile path, the exact rule,
// and what the detail must say.
func TestPathRefuses(t *testing.T) {
	cases := []struct {
		path   string
		rule   schema.Rule
		detail string
	}{
		// Rooted or drive-qualified.
		{"/x", schema.RulePathAbsolute, "rooted"},
		{"/", schema.RulePathAbsolute, "rooted"},
		{`\x`, schema.RulePathAbsolute, "rooted"},
		{"//server/share", schema.RulePathAbsolute, "rooted"},
		{`\\server\share`, schema.RulePathAbsolute, "rooted"},
		{`\\?\C:\x`, schema.RulePathAbsolute, "rooted"},
		{`\\.\pipe\x`, schema.RulePathAbsolute, "rooted"},
		{"/../x", schema.RulePathAbsolute, "rooted"}, // rooted before traversal
		{"/a\x00", schema.RulePathAbsolute, "rooted"},
		{"C:", schema.RulePathAbsolute, "drive"},
		{"c:x", schema.RulePathAbsolute, "drive"},
		{"a:b", schema.RulePathAbsolute, "drive"}, // drive A:, relative to its current directory
		{`C:\x`, schema.RulePathAbsolute, "drive"},
		{"C:/x", schema.RulePathAbsolute, "drive"},
		{"z:/../x", schema.RulePathAbsolute, "drive"},
		// Traversal, wherever it sits, and before any other fault.
		{"..", schema.RulePathTraversal, "'..' component"},
		{"../x", schema.RulePathTraversal, "'..' component"},
		{"a/..", schema.RulePathTraversal, "'..' component"},
		{"a/../b", schema.RulePathTraversal, "'..' component"},
		{"a/b/../../..", schema.RulePathTraversal, "'..' component"},
		{"a//../b", schema.RulePathTraversal, "'..' component"},
		{"../a\x00", schema.RulePathTraversal, "'..' component"},
		{"con/..", schema.RulePathTraversal, "'..' component"},
		{"\xff/..", schema.RulePathTraversal, "'..' component"},
		// Empty and dot components.
		{"", schema.RulePathInvalid, "empty path"},
		{"a//b", schema.RulePathInvalid, "empty component"},
		{"a/", schema.RulePathInvalid, "empty component"},
		{"a/b/", schema.RulePathInvalid, "empty component"},
		{"a/./b", schema.RulePathInvalid, "'.' component"},
		{".", schema.RulePathInvalid, "'.' component"},
		{"./a", schema.RulePathInvalid, "'.' component"},
		// Not UTF-8, reported before any component fault.
		{"a\xffb", schema.RulePathInvalid, "not valid UTF-8"},
		{"\xc3", schema.RulePathInvalid, "not valid UTF-8"},
		{"con/\xff", schema.RulePathInvalid, "not valid UTF-8"},
		// Control characters, C0, DEL and C1.
		{"a\x00b", schema.RulePathInvalid, `control character '\x00' in component "a\x00b"`},
		{"a/\x00", schema.RulePathInvalid, "control character"},
		{"a\nb", schema.RulePathInvalid, `'\n'`},
		{"a\tb", schema.RulePathInvalid, "control character"},
		{"a\x1fb", schema.RulePathInvalid, "control character"},
		{"a\x7fb", schema.RulePathInvalid, "control character"},
		{"a\u0085b", schema.RulePathInvalid, "control character"},
		{"a\u009bb", schema.RulePathInvalid, "control character"},
		// Backslashes, which are separators on Windows.
		{`a\b`, schema.RulePathInvalid, "backslash"},
		{`a\..\..\x`, schema.RulePathInvalid, "backslash"},
		{`a/b\`, schema.RulePathInvalid, "backslash"},
		// Characters Windows forbids, ':' (streams) among them.
		{"a<b", schema.RulePathInvalid, `character '<' is not allowed on Windows`},
		{"a>b", schema.RulePathInvalid, `'>'`},
		{"ab:c", schema.RulePathInvalid, `':'`},
		{"file.txt:stream", schema.RulePathInvalid, `':'`},
		{"file.txt::$DATA", schema.RulePathInvalid, `':'`},
		{`a"b`, schema.RulePathInvalid, `'"'`},
		{"a|b", schema.RulePathInvalid, `'|'`},
		{"a?b", schema.RulePathInvalid, `'?'`},
		{"a*b", schema.RulePathInvalid, `'*'`},
		{"x/C:", schema.RulePathInvalid, `':'`},
		// Trailing dots and spaces, which Windows strips.
		{"a.", schema.RulePathInvalid, `component "a." ends in a dot or space`},
		{"a ", schema.RulePathInvalid, "ends in a dot or space"},
		{"a/b./c", schema.RulePathInvalid, `"b."`},
		{"...", schema.RulePathInvalid, "ends in a dot or space"},
		{".. ", schema.RulePathInvalid, "ends in a dot or space"},
		{" ", schema.RulePathInvalid, "ends in a dot or space"},
		{"a. .", schema.RulePathInvalid, "ends in a dot or space"},
		{"con.", schema.RulePathInvalid, "ends in a dot or space"}, // trailing dot before device
		// Device names, in any case, with or without extension.
		{"CON", schema.RulePathInvalid, `component "CON" is a Windows device name`},
		{"con", schema.RulePathInvalid, "device name"},
		{"PRN", schema.RulePathInvalid, "device name"},
		{"aux", schema.RulePathInvalid, "device name"},
		{"NUL", schema.RulePathInvalid, "device name"},
		{"nul.txt", schema.RulePathInvalid, "device name"},
		{"Nul.tar.gz", schema.RulePathInvalid, "device name"},
		{"nul .txt", schema.RulePathInvalid, "device name"},
		{"aux  .c", schema.RulePathInvalid, "device name"},
		{"skills/con/SKILL.md", schema.RulePathInvalid, `"con"`},
		{"COM1", schema.RulePathInvalid, "device name"},
		{"com9.log", schema.RulePathInvalid, "device name"},
		{"LPT1", schema.RulePathInvalid, "device name"},
		{"lpt9", schema.RulePathInvalid, "device name"},
		{"COM¹", schema.RulePathInvalid, `"COM\u00b9" is a Windows device name`},
		{"com².txt", schema.RulePathInvalid, "device name"},
		{"LPT³", schema.RulePathInvalid, "device name"},
		{"CONIN$", schema.RulePathInvalid, "device name"},
		{"conout$", schema.RulePathInvalid, "device name"},
		{"CONOUT$.txt", schema.RulePathInvalid, "device name"},
		// Too long for some supported filesystem.
		{strings.Repeat("a", 256), schema.RulePathInvalid, "256 bytes long; the limit is 255"},
		{"d/" + strings.Repeat("é", 128), schema.RulePathInvalid, "256 bytes long"},
		{strings.Repeat("abcdefg/", 512), schema.RulePathInvalid, "path is 4096 bytes long; the limit is 4095"},
		{strings.Repeat("a/", 2047) + "ab", schema.RulePathInvalid, "path is 4096 bytes long"},
		// The first faulty component decides.
		{"a?/con", schema.RulePathInvalid, `'?'`},
		{"con/a?", schema.RulePathInvalid, "device name"},
	}
	for _, c := range cases {
		rule, detail := Path(c.path)
		if rule != c.rule {
			t.Errorf("Path(%q) = %s (%s), want %s", c.path, rule, detail, c.rule)
			continue
		}
		if !strings.Contains(detail, c.detail) {
			t.Errorf("Path(%q) detail %q does not say %q", c.path, detail, c.detail)
		}
	}
}

// TestPathAllowsLookAlikes: names that resemble a refused one but that
// every platform stores as an ordinary file.
func TestPathAllowsLookAlikes(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("a", 255), strings.Repeat("é", 127) + "a", strings.Repeat("a/", 2047) + "a",
		"a", "a/b/c", "skills/foo/SKILL.md", ".git", ".a", "..a", "a..b", ".hidden/x", "...a",
		"com0", "COM0.txt", "comm", "com10", "conout.c", "coninx", "con$", "lptN", "lpt", "lpt0",
		"console", "nul_", "nulx.txt", "auxiliary", "dollar$", "$MFT", "prn-notes", "xcon", "co n",
		"com⁴", "lpt₁", "com¹¹", // not the digits Windows counts, or not one of them
		"\u017fon", "nu\u212a", // "ſ" and the Kelvin sign fold to ASCII only under Unicode rules
		"a b", " a", "a .b", "a.b c", "é", "e\u0301", "Straße", "ﬃ", "\u212a", ".g\u200cit",
		"a\u200bb", "日本語/ファイル.txt", "emoji😀", "a~1", "x/-dash", "x=y", "a#b", "a%20b",
	} {
		if rule, detail := Path(s); rule != schema.RuleUnknown || detail != "" {
			t.Errorf("Path(%q) refused an ordinary name: %s %s", s, rule, detail)
		}
	}
}

// TestIsDeviceName pins the device rule on its own: the reserved bases in
// every case, with extensions and trailing spaces, and their look-alikes.
func TestIsDeviceName(t *testing.T) {
	for _, c := range []string{
		"CON", "con", "cOn", "PRN", "AUX", "NUL", "nul.txt", "NUL.tar.gz", "con .x", "con ",
		"COM1", "com5", "COM9", "LPT1", "lpt9", "COM¹", "COM²", "lpt³", "com².txt",
		"CONIN$", "conin$.log", "CONOUT$", "ConOut$.c",
	} {
		if !IsDeviceName(c) {
			t.Errorf("IsDeviceName(%q) = false", c)
		}
	}
	for _, c := range []string{
		"", "co", "conx", "xcon", "com0", "COM10", "comm", "com", "lpt0", "lptN", "lpt", "com⁴", "lpt₁",
		"conout.c", "conin", "conin$x", "conoutx", "dollar$", "$MFT", " con", "\u017fon", "nu\u212a",
		"auxiliary", "nul_", ".con", "com¹¹",
	} {
		if IsDeviceName(c) {
			t.Errorf("IsDeviceName(%q) = true", c)
		}
	}
}

// TestPathDetailsAreBoundedAndNameNoRoot: a component is echoed only as a
// short printable-ASCII prefix, and a rooted path is never echoed at all
// (it may name the host's home).
func TestPathDetailsAreBoundedAndNameNoRoot(t *testing.T) {
	for _, p := range []string{
		strings.Repeat("x", 10000) + "?",
		strings.Repeat("é", 5000) + "\x00",
		strings.Repeat("\u202e", 5000) + ".",
		"a/" + strings.Repeat("\x1b[31m", 100) + "b",
	} {
		rule, detail := Path(p)
		if rule != schema.RulePathInvalid {
			t.Fatalf("Path(%.20q...) = %s", p, rule)
		}
		if len(detail) > 4*PathEcho+120 {
			t.Errorf("detail of %d bytes for a %d-byte path", len(detail), len(p))
		}
		for i := 0; i < len(detail); i++ {
			if detail[i] < ' ' || detail[i] > '~' {
				t.Fatalf("detail %q holds byte %#x", detail, detail[i])
			}
		}
	}
	for _, p := range []string{"/home/someone/.ssh/id_rsa", `C:\Users\someone`, `\\server\home\x`} {
		if _, detail := Path(p); strings.Contains(detail, "someone") || strings.Contains(detail, "home") {
			t.Errorf("Path(%q) detail echoes the path: %q", p, detail)
		}
	}
}
