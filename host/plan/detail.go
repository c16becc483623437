package plan

import (
	"strconv"
	"unicode/utf8"
)

// maxEcho is the most of an untrusted string a violation's detail repeats.
const maxEcho = 24

// quote renders a short, sanitized prefix of untrusted text for a detail:
// at most maxEcho bytes, cut at a rune boundary, quoted with every
// non-ASCII or non-printable byte escaped, and marked when cut. Only names
// (ops, members, headers, schemes, encodings, methods) are ever quoted;
// contents, header values and URLs are not.
func quote(b []byte) string {
	cut := len(b) > maxEcho
	if cut {
		n := maxEcho
		for n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		b = b[:n]
	}
	q := strconv.QuoteToASCII(string(b))
	if cut {
		q += "..."
	}
	return q
}
