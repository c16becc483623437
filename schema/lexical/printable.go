package lexical

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// How much of an untrusted string Printable shows, in runes of the input.
const (
	// LineEcho bounds a name, a version, a ref or a description: what one
	// line of a listing shows of it.
	LineEcho = 120
	// TextEcho bounds a path, a URL, a source or one line of an
	// extension's or a hook's output.
	TextEcho = 4096
)

// Printable renders untrusted text (a module or assistant name, a path or
// field read from a file lola did not write, a catalog entry, an
// extension's name or output) for people, on one line of a terminal.
//
// Each rune that could drive the terminal, forge a line of output or
// reorder what is shown is replaced by a visible escape: an invalid UTF-8
// byte (\xff), a C0 or C1 control character but tab, and DEL (\x1b, \x0d,
// \x0a, \x7f, \u0085), a format character (category Cf: the bidi controls
// such as \u202e and \u2066, zero-width characters, \ufeff, the tag
// characters \U000e0001...), and the line and paragraph separators \u2028
// and \u2029. Everything else, letters of
// every script and spaces included, is shown as it is, so a string that
// holds none of these is returned unchanged when it is short enough.
//
// A string of more than max runes shows its first max-3 and then "...".
// The result is valid UTF-8, holds no rune of the kinds above, and is at
// most 10*max bytes long whatever s holds.
//
// Non-guarantees: the rendering is for reading, not reversible (a literal
// backslash is kept, so "\x1b" typed as text reads like an escaped
// ESC; Quote is the unambiguous form); a tab is kept, since it moves the
// cursor only forward on the same line.
func Printable(s string, max int) string {
	if max < 4 {
		max = 4
	}
	limit := -1 // byte offset where the shown part ends, when s is cut
	n := 0
	clean := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if n == max-3 && limit < 0 {
			limit = i
		}
		n++
		if n > max {
			return escape(s[:limit], clean) + "..."
		}
		if clean && unprintable(r, size) {
			clean = false
		}
		i += size
	}
	return escape(s, clean)
}

// unprintable reports whether the rune r, size bytes of input, is
// replaced by an escape.
func unprintable(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == '\u2028', r == '\u2029':
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

func escape(s string, clean bool) string {
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !unprintable(r, size):
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError && size == 1:
			hexEscape(&b, `\x`, rune(s[i]), 2)
		case r < 0x80:
			hexEscape(&b, `\x`, r, 2)
		case r <= 0xffff:
			hexEscape(&b, `\u`, r, 4)
		default:
			hexEscape(&b, `\U`, r, 8)
		}
		i += size
	}
	return b.String()
}

// hexEscape writes prefix, then r in digits lower-case hex digits.
func hexEscape(b *strings.Builder, prefix string, r rune, digits int) {
	h := strconv.FormatInt(int64(r), 16)
	b.WriteString(prefix)
	b.WriteString(strings.Repeat("0", digits-len(h)))
	b.WriteString(h)
}
