package pathrule

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

type bytesEq struct{}

func (bytesEq) Name() string                { return "bytes" }
func (bytesEq) Key(component string) string { return component }

// upperEq maps every code point through its simple (one-to-one) upper-case
// mapping and nothing else, as NTFS's $UpCase table does: no normalization,
// no multi-character mappings ("ß" stays "ß").
type upperEq struct{}

func (upperEq) Name() string { return "windows" }

func (upperEq) Key(c string) string {
	if isASCII(c) {
		return strings.ToUpper(c) // ASCII-only: same as the per-rune mapping, faster
	}
	var b strings.Builder
	b.Grow(len(c))
	for _, r := range c {
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// foldEq is canonical caseless matching with simple case folding:
// NFD(fold(NFD(c))) per Unicode's definition (D145), with the simple fold
// in place of the full one. keepCase skips the folding (normalization
// only); dropIgnorable first removes the code points HFS+ ignores.
type foldEq struct {
	name          string
	normalize     bool
	keepCase      bool
	dropIgnorable bool
}

func (e foldEq) Name() string { return e.name }

func (e foldEq) Key(c string) string {
	if isASCII(c) {
		// ASCII is its own NFD and holds no ignorable code point; the
		// smallest member of an ASCII letter's fold class is its upper
		// case, even for k (with KELVIN SIGN) and s (with LONG S).
		if e.keepCase {
			return c
		}
		return strings.ToUpper(c)
	}
	if e.dropIgnorable {
		c = strings.Map(dropHFSIgnorable, c)
	}
	if e.normalize {
		c = norm.NFD.String(c)
	}
	if e.keepCase {
		return c
	}
	c = strings.Map(simpleFold, c)
	if e.normalize {
		c = norm.NFD.String(c)
	}
	return c
}

// simpleFold maps r to the smallest code point of its simple case-folding
// class, a function of the class alone, so two runes get the same image
// exactly when simple folding equates them. The class is unicode.SimpleFold's
// orbit (k, K and KELVIN SIGN; s, S and LONG S; ß and ẞ), which never joins a
// single code point to a sequence: "ß" and "ss", "ﬃ" and "ffi" remain
// different. For ASCII letters the smallest member is the upper-case one.
func simpleFold(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - ('a' - 'A')
		}
		return r
	}
	min := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < min {
			min = f
		}
	}
	return min
}

// dropHFSIgnorable removes the code points HFS+ ignores when comparing
// names: the zero-width joiners and marks U+200C–U+200F, the bidirectional
// embeddings U+202A–U+202E, the deprecated format characters U+206A–U+206F
// and the byte-order mark U+FEFF.
func dropHFSIgnorable(r rune) rune {
	switch {
	case 0x200C <= r && r <= 0x200F, 0x202A <= r && r <= 0x202E,
		0x206A <= r && r <= 0x206F, r == 0xFEFF:
		return -1
	}
	return r
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
