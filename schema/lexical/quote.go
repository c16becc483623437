package lexical

import (
	"strconv"
	"unicode/utf8"
)

// How much of an untrusted string a detail repeats, in bytes of the input.
const (
	// NameEcho bounds a name: an op, a member, an encoding, a method, a
	// header name, a scheme.
	NameEcho = 24
	// PathEcho bounds a path or one of its components.
	PathEcho = 64
)

// Quote renders untrusted text for a detail: at most max bytes of s, cut at
// a rune boundary, quoted with every non-ASCII or non-printable byte
// escaped (strconv.QuoteToASCII), and followed by "..." when cut. The result
// is printable ASCII and at most 4*max+5 bytes long whatever s holds.
func Quote(s string, max int) string {
	if len(s) <= max {
		return strconv.QuoteToASCII(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.QuoteToASCII(s[:cut]) + "..."
}
