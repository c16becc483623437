package pathrule

import (
	"fmt"
	"runtime"
	"strings"
)

// Equality is a filesystem's path-equality relation over single components:
// two components name the same directory entry exactly when their keys are
// equal. Paths are compared component by component under it, and "lies
// beneath" is judged under the same relation.
//
// The relation is given as a key (a canonical form) rather than as a
// pairwise predicate because a key makes it an equivalence by construction —
// reflexive, symmetric and transitive — which is what lets the conflict
// sweep sort paths instead of comparing every pair.
//
// Key must be a pure function of its argument, defined for every component
// Parse accepts. Name is the relation's stable spelling (see ParseEquality).
type Equality interface {
	Name() string
	Key(component string) string
}

// The relations this package defines. Each is a value of an unexported
// type, so their behaviour is fixed.
var (
	// Bytes: components are equal when their bytes are (Linux ext4 and
	// most Unix filesystems by default).
	Bytes Equality = bytesEq{}
	// Darwin: APFS in its default case-insensitive form: full case
	// folding (CaseFolding.txt statuses C and F) and canonical Unicode
	// equivalence, so NFC and NFD spellings are one name and so are "ß"
	// and "SS", "ﬁ" and "FI", "ŉ" and "ʼn". See the package doc for the
	// evidence.
	Darwin Equality = foldEq{name: "darwin", normalize: true, full: true}
	// HFSPlus: HFS+ in its case-insensitive form: simple (one-to-one)
	// case folding and canonical equivalence, plus HFS+'s habit of
	// ignoring the code points U+200C–U+200F, U+202A–U+202E,
	// U+206A–U+206F and U+FEFF, so ".git" and ".g\u200cit" are one name.
	// HFS+ maps each UTF-16 unit to at most one unit, so "ß" and "ss"
	// stay two names there.
	HFSPlus Equality = foldEq{name: "hfsplus", normalize: true, dropIgnorable: true}
	// Windows: NTFS as Windows uses it: each code point upper-cased by its
	// simple one-to-one mapping (the volume's $UpCase table), no Unicode
	// normalization, so NFC and NFD spellings stay two names and the
	// Kelvin sign stays distinct from "k".
	Windows Equality = upperEq{}
	// DarwinCaseSensitive: the case-sensitive APFS variant, which is still
	// normalization-insensitive. Chosen by ForFindings; selectable by name.
	DarwinCaseSensitive Equality = foldEq{name: "darwin-case-sensitive", normalize: true, keepCase: true}
)

// Platform is the relation "auto" means on this build's GOOS before a
// probe refines it: PlatformFor(runtime.GOOS).
func Platform() Equality { return PlatformFor(runtime.GOOS) }

// PlatformFor is the relation "auto" means on goos (a GOOS value): on
// macOS (and iOS) the default APFS volume is case-insensitive under full
// folding and normalization-insensitive (Darwin); on Windows NTFS is
// case-insensitive by simple upper-casing (Windows); elsewhere (Linux and
// the other Unix systems) names are compared by their bytes (Bytes). It is
// a plain function of its argument so that every platform's default can
// be tested on any one of them.
func PlatformFor(goos string) Equality {
	switch goos {
	case "darwin", "ios":
		return Darwin
	case "windows":
		return Windows
	}
	return Bytes
}

// Auto is the name ParseEquality maps to Platform().
const Auto = "auto"

// Equalities lists every relation this package defines, in a fixed order.
func Equalities() []Equality {
	return []Equality{Bytes, Darwin, HFSPlus, Windows, DarwinCaseSensitive}
}

// EqualityNames lists the names ParseEquality accepts: Auto, then each
// relation's Name.
func EqualityNames() []string {
	out := []string{Auto}
	for _, e := range Equalities() {
		out = append(out, e.Name())
	}
	return out
}

// ParseEquality returns the relation named s: "auto" (Platform()), "bytes",
// "darwin", "hfsplus", "windows" or "darwin-case-sensitive". Any other name
// is an error; nothing is guessed.
func ParseEquality(s string) (Equality, error) {
	if s == Auto {
		return Platform(), nil
	}
	for _, e := range Equalities() {
		if e.Name() == s {
			return e, nil
		}
	}
	return nil, fmt.Errorf("unknown filesystem relation %q (want one of %s)", s, strings.Join(EqualityNames(), ", "))
}

// Findings is what a probe of a real root learned about its filesystem:
// whether names differing only in case, in Unicode normalization, or by
// HFS+'s ignorable code points reach the same entry.
type Findings struct {
	CaseInsensitive          bool
	NormalizationInsensitive bool
	IgnoresIgnorable         bool
}

// ForFindings picks the relation that matches a probe's findings. It never
// picks a relation that distinguishes names the probe found equal; where no
// defined relation matches exactly it picks the one that folds more, so a
// conflict the filesystem would create is never missed:
//   - case- and normalization-sensitive: Bytes;
//   - normalization-insensitive only: DarwinCaseSensitive;
//   - case-insensitive only: Windows;
//   - both: Darwin, or HFSPlus when ignorable code points are ignored too.
//
// IgnoresIgnorable alone (without case- and normalization-insensitivity)
// maps to HFSPlus, the only relation that ignores them.
func ForFindings(f Findings) Equality {
	switch {
	case f.IgnoresIgnorable:
		return HFSPlus
	case f.CaseInsensitive && f.NormalizationInsensitive:
		return Darwin
	case f.CaseInsensitive:
		return Windows
	case f.NormalizationInsensitive:
		return DarwinCaseSensitive
	}
	return Bytes
}

// Same reports whether a and b are the same path under eq: the same number
// of components, pairwise equal keys.
func Same(eq Equality, a, b Path) bool {
	return a.Len() == b.Len() && hasPrefix(eq, b, a)
}

// Beneath reports whether p lies strictly beneath ancestor under eq:
// ancestor's components are a proper prefix of p's, pairwise equal keys.
// Under a folding relation "Skills/Foo" is an ancestor of
// "skills/foo/SKILL.md".
func Beneath(eq Equality, p, ancestor Path) bool {
	return ancestor.Len() < p.Len() && hasPrefix(eq, p, ancestor)
}

func hasPrefix(eq Equality, p, prefix Path) bool {
	if p.IsZero() || prefix.IsZero() || prefix.Len() > p.Len() {
		return false
	}
	for i, c := range prefix.comps {
		if eq.Key(c) != eq.Key(p.comps[i]) {
			return false
		}
	}
	return true
}
