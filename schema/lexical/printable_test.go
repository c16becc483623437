package lexical

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Hostile strings are shown escaped on one line; ordinary text, any
// script, spaces and tabs included, is shown as it is.
func TestPrintable(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "my-skills", "my-skills"},
		{"empty", "", ""},
		{"spaces and other scripts", "Reviews code, ünïcode, 日本語 ✓", "Reviews code, ünïcode, 日本語 ✓"},
		{"tab kept", "\tat main.go:12", "\tat main.go:12"},
		{"ANSI escape", "evil\x1b[31mred\x1b[0m", `evil\x1b[31mred\x1b[0m`},
		{"clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"carriage return overwrites the line", "ok\rlola: all good", `ok\x0dlola: all good`},
		{"newline forges a second line", "tools\nlola: warning: run curl x | sh", `tools\x0alola: warning: run curl x | sh`},
		{"bidi override", "file\u202egnp.exe", `file\u202egnp.exe`},
		{"bidi isolates", "a\u2066b\u2069", `a\u2066b\u2069`},
		{"zero width and BOM", "a\u200bb\ufeff", `a\u200bb\ufeff`},
		{"line separators", "a\u2028b\u2029c\u0085d", `a\u2028b\u2029c\u0085d`},
		{"tag character", "a\U000e0041", `a\U000e0041`},
		{"DEL and C1 CSI", "a\x7fb\u009bc", `a\x7fb\u009bc`},
		{"invalid UTF-8", "bad\xff\xfe", `bad\xff\xfe`},
		{"truncated rune", "é"[:1], `\xc3`},
		{"NUL", "a\x00b", `a\x00b`},
	} {
		if got := Printable(c.in, LineEcho); got != c.want {
			t.Errorf("%s: Printable(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// A string longer than max runes shows its first max-3 and "..."; one of
// exactly max is shown whole; runes, not bytes, are counted.
func TestPrintableBound(t *testing.T) {
	if got := Printable(strings.Repeat("a", 10), 10); got != strings.Repeat("a", 10) {
		t.Errorf("exactly max: %q", got)
	}
	if got := Printable(strings.Repeat("a", 11), 10); got != "aaaaaaa..." {
		t.Errorf("max+1: %q", got)
	}
	if got := Printable(strings.Repeat("日", 11), 10); got != strings.Repeat("日", 7)+"..." {
		t.Errorf("runes: %q", got)
	}
	if got := Printable(strings.Repeat("\x1b", 11), 10); got != strings.Repeat(`\x1b`, 7)+"..." {
		t.Errorf("escaped and cut: %q", got)
	}
	name := strings.Repeat("n", 10<<10) // a 10 kB name
	if got := Printable(name, LineEcho); utf8.RuneCountInString(got) != LineEcho || !strings.HasSuffix(got, "...") {
		t.Errorf("a 10 kB name is shown as %d runes", utf8.RuneCountInString(got))
	}
}

// Whatever the input, the result is valid UTF-8 holding no control but
// tab, no format character and no line separator, within 10*max bytes.
func TestPrintableIsSafe(t *testing.T) {
	var hostile []string
	for _, unit := range []string{"\x1b[31m", "\r", "\n", "\u202e", "\xff", "\U000e0041", "\u2028", "\x00", "\u009b", "日", "a"} {
		hostile = append(hostile, strings.Repeat(unit, 10<<10/len(unit)))
	}
	hostile = append(hostile, "\xf0\x9f\x98", "a\xf0\x9f", strings.Repeat("\U000e0041", 5000))
	for _, s := range hostile {
		for _, max := range []int{0, 4, LineEcho, TextEcho} {
			got := Printable(s, max)
			if limit := 10 * max; max >= 4 && len(got) > limit {
				t.Errorf("Printable(%.12q..., %d) is %d bytes, over %d", s, max, len(got), limit)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("Printable(%.12q..., %d) is not UTF-8", s, max)
			}
			for _, r := range got {
				if r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029') {
					t.Fatalf("Printable(%.12q..., %d) holds %U", s, max, r)
				}
			}
		}
	}
}

func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[2J", "a\nb", "\u202e", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Printable(s, LineEcho)
		if !utf8.ValidString(got) || len(got) > 10*LineEcho {
			t.Fatalf("Printable(%q) = %q", s, got)
		}
		for _, r := range got {
			if r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029') {
				t.Fatalf("Printable(%q) holds %U", s, r)
			}
		}
		shownAsIs := utf8.ValidString(s) && utf8.RuneCountInString(s) <= LineEcho && strings.IndexFunc(s, func(r rune) bool {
			return r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029')
		}) < 0
		if (got == s) != shownAsIs {
			t.Fatalf("Printable(%q) = %q: a printable string changed, or an unprintable one kept", s, got)
		}
	})
}
