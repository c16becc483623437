package lexical

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"", 24, `""`},
		{"abc", 24, `"abc"`},
		{"abc", 3, `"abc"`},
		{"abcd", 3, `"abc"...`},
		{"é", 24, `"\u00e9"`},
		{"aé", 2, `"a"...`}, // cut at the rune boundary before é's second byte
		{"\x1b[31m", 24, `"\x1b[31m"`},
		{"\xff", 24, `"\xff"`},
		{"\u202e", 24, `"\u202e"`},
		{"😀x", 3, `""...`},
	}
	for _, c := range cases {
		if got := Quote(c.in, c.max); got != c.want {
			t.Errorf("Quote(%q, %d) = %s, want %s", c.in, c.max, got, c.want)
		}
	}
}

// TestQuoteIsBoundedPrintableASCII: whatever the input, the result is
// printable ASCII of at most 4*max+5 bytes.
func TestQuoteIsBoundedPrintableASCII(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("\x00", 1000), strings.Repeat("\xff", 1000), strings.Repeat("é", 1000),
		strings.Repeat("😀", 1000), strings.Repeat("\u2028", 1000), strings.Repeat("\"", 1000),
	} {
		for _, max := range []int{0, 1, NameEcho, PathEcho} {
			q := Quote(s, max)
			if len(q) > 4*max+5 {
				t.Errorf("Quote(%.8q..., %d) is %d bytes", s, max, len(q))
			}
			for i := 0; i < len(q); i++ {
				if q[i] < ' ' || q[i] > '~' {
					t.Fatalf("Quote(%.8q..., %d) holds byte %#x", s, max, q[i])
				}
			}
			if !utf8.ValidString(q) {
				t.Fatalf("Quote result is not UTF-8")
			}
		}
	}
}
