package pathrule

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
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

// foldEq is canonical caseless matching, NFD(fold(NFD(c))) per Unicode's
// definition (D145). full selects full case folding (statuses C and F:
// "ß" folds to "ss"), otherwise simple folding (C and S, one code point
// to one). keepCase skips the folding (normalization only);
// dropIgnorable first removes the code points HFS+ ignores.
//
// After folding, every code point is mapped to its simple-fold class's
// representative (simpleFold). That joins nothing full folding keeps apart
// (every simple-fold class is one class under full folding too), gives
// ASCII letters their upper case as the fast path does, and makes the key
// independent of which member a folding table picks (x/text folds
// Cherokee to lower case where CaseFolding.txt folds it to upper case).
type foldEq struct {
	name          string
	normalize     bool
	full          bool
	keepCase      bool
	dropIgnorable bool
}

func (e foldEq) Name() string { return e.name }

// fullFold is Unicode full case folding (statuses C and F, not the
// Turkic T). The Caser is stateless and safe for concurrent use.
var fullFold = cases.Fold()

func (e foldEq) Key(c string) string {
	if isASCII(c) {
		// ASCII is its own NFD, holds no ignorable code point and no
		// code point with a multi-character fold; the smallest member
		// of an ASCII letter's fold class is its upper case, even for k
		// (with KELVIN SIGN) and s (with LONG S).
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
	if e.full {
		c = fullFold.String(c)
	}
	c = strings.Map(simpleFold, c)
	if e.normalize {
		c = norm.NFD.String(c)
	}
	return c
}

// simpleFold maps r to the smallest code point of its simple case-folding
// class (preferring a starter to a combining mark, see better), a function of the class alone, so two runes get the same image
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
		if better(f, min) {
			min = f
		}
	}
	return min
}

// better orders a fold class's members for simpleFold: a starter before a
// combining mark, then the smaller code point. The one class that holds
// both (ι, Ι, ι and COMBINING GREEK YPOGEGRAMMENI U+0345) must not key as
// the mark: normalization would then move it past a following accent and
// make "αί" and "άι" one name.
func better(a, b rune) bool {
	if ma, mb := unicode.Is(unicode.Mn, a), unicode.Is(unicode.Mn, b); ma != mb {
		return mb
	}
	return a < b
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
