package pathrule

import (
	"testing"
	"unicode"
)

func mustParse(t testing.TB, s string) Path {
	t.Helper()
	p, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return p
}

func TestEqualityNamesRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Equalities() {
		if e.Name() == "" || seen[e.Name()] {
			t.Errorf("relation name %q empty or repeated", e.Name())
		}
		seen[e.Name()] = true
		got, err := ParseEquality(e.Name())
		if err != nil || got != e {
			t.Errorf("ParseEquality(%q) = %v, %v", e.Name(), got, err)
		}
	}
	for _, want := range []string{"bytes", "darwin", "hfsplus", "windows"} {
		if !seen[want] {
			t.Errorf("relation %q missing", want)
		}
	}
	if got, err := ParseEquality("auto"); err != nil || got != Platform() {
		t.Errorf("ParseEquality(auto) = %v, %v; want Platform() %v", got, err, Platform().Name())
	}
	for _, bad := range []string{"", "Bytes", "ntfs", "apfs", "auto "} {
		if _, err := ParseEquality(bad); err == nil {
			t.Errorf("ParseEquality(%q) accepted", bad)
		}
	}
	if names := EqualityNames(); names[0] != "auto" || len(names) != len(Equalities())+1 {
		t.Errorf("EqualityNames() = %v", names)
	}
}

// TestEqualityCases is the table of path-equality cases, per
// relation: true means the two spellings are one path.
func TestEqualityCases(t *testing.T) {
	const (
		nfc = "caf\u00e9"
		nfd = "cafe\u0301"
	)
	cases := []struct {
		a, b                                 string
		bytes, darwin, hfsplus, windows, dcs bool
	}{
		{"README.md", "Readme.md", false, true, true, true, false},
		{nfc, nfd, false, true, true, false, true},
		{"CAF\u00c9", nfd, false, true, true, false, false},
		{"stra\u00dfe", "strasse", false, true, false, false, false}, // APFS folds fully; HFS+ one unit to one,
		{"\u00df", "ss", false, true, false, false, false},
		{"\u00df", "SS", false, true, false, false, false},
		{"\ufb01", "FI", false, true, false, false, false},
		{"\u0149", "\u02bcn", false, true, false, false, false},
		{"\u0130", "i\u0307", false, true, true, false, false}, // İ is canonically I + U+0307; F maps to i + COMBINING DOT ABOVE (T, the Turkic i, is not applied)
		{"\u0130", "i", false, false, false, false, false},
		{"\u03b1\u03b9\u0301", "\u03b1\u0301\u03b9", false, false, false, false, false}, // αί, άι: folding must not reorder a starter into a mark,
		{"\u00df", "\u1e9e", false, true, true, false, false},                           // ß, ẞ: one simple-fold class; NTFS does not upper-case ß
		{"\ufb03", "ffi", false, true, false, false, false},
		{"\u212a", "k", false, true, true, false, false},     // KELVIN SIGN: folds to k; upper-cases to itself
		{"\u212a", "K", false, true, true, false, true},      // and KELVIN SIGN is canonically K
		{"\u017f", "s", false, true, true, true, false},      // LONG S: folds to s; upper-cases to S
		{"\u0131", "i", false, false, false, true, false},    // dotless i: no simple fold with i; upper-cases to I
		{"\u03c3", "\u03c2", false, true, true, true, false}, // σ ς
		{"\u00c5", "\u212b", false, true, true, false, true}, // Å and ANGSTROM SIGN: canonically equivalent
		{".git", ".g\u200cit", false, false, true, false, false},
		{".git", "\ufeff.git", false, false, true, false, false},
		{".GIT", ".g\u202eit\u206a", false, false, true, false, false},
		{".git", ".g\u200bit", false, false, false, false, false}, // U+200B is not among HFS+'s ignorables
		{"a", "b", false, false, false, false, false},
		{"same", "same", true, true, true, true, true},
	}
	rels := []Equality{Bytes, Darwin, HFSPlus, Windows, DarwinCaseSensitive}
	for _, c := range cases {
		want := []bool{c.bytes, c.darwin, c.hfsplus, c.windows, c.dcs}
		pa, pb := mustParse(t, c.a), mustParse(t, c.b)
		for i, eq := range rels {
			if got := Same(eq, pa, pb); got != want[i] {
				t.Errorf("%s: Same(%+q, %+q) = %v, want %v", eq.Name(), c.a, c.b, got, want[i])
			}
			if got := Same(eq, pb, pa); got != want[i] {
				t.Errorf("%s: Same is not symmetric on %+q, %+q", eq.Name(), c.a, c.b)
			}
		}
	}
}

func TestAncestryUnderFolding(t *testing.T) {
	anc, p := mustParse(t, "Skills/Foo"), mustParse(t, "skills/foo/SKILL.md")
	for _, eq := range []Equality{Darwin, HFSPlus, Windows} {
		if !Beneath(eq, p, anc) {
			t.Errorf("%s: skills/foo/SKILL.md is not beneath Skills/Foo", eq.Name())
		}
		if Beneath(eq, anc, p) || Beneath(eq, p, p) {
			t.Errorf("%s: Beneath is not strict", eq.Name())
		}
	}
	for _, eq := range []Equality{Bytes, DarwinCaseSensitive} {
		if Beneath(eq, p, anc) {
			t.Errorf("%s: case-sensitive relation folded Skills/Foo", eq.Name())
		}
	}
	// Component by component: "a/b" is not "a" plus a component "/b".
	if Beneath(Bytes, mustParse(t, "ab/c"), mustParse(t, "a")) {
		t.Error("ab/c is beneath a by string prefix")
	}
}

// TestSimpleFoldIsAClassFunction checks, over every code point, that the
// darwin folding maps a whole simple-fold class to one image and never
// joins two classes: exactly what "simple case folding" means.
func TestSimpleFoldIsAClassFunction(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		img := simpleFold(r)
		if unicode.SimpleFold(img) == img && img != r && unicode.SimpleFold(r) == r {
			t.Fatalf("%U folds to %U outside its (singleton) class", r, img)
		}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if simpleFold(f) != img {
				t.Fatalf("%U and %U share a class but fold to %U and %U", r, f, img, simpleFold(f))
			}
		}
		// The image is a member of r's class.
		member := img == r
		for f := unicode.SimpleFold(r); f != r && !member; f = unicode.SimpleFold(f) {
			member = f == img
		}
		if !member {
			t.Fatalf("%U folds to %U, not in its class", r, img)
		}
	}
}

// TestKeysAgreeOnASCIIFastPath: the ASCII shortcut in each key function
// must give what the general path gives.
func TestKeysAgreeOnASCIIFastPath(t *testing.T) {
	for b := 0x20; b < 0x7f; b++ {
		c := string(rune(b))
		for _, e := range []foldEq{Darwin.(foldEq), HFSPlus.(foldEq), DarwinCaseSensitive.(foldEq)} {
			// Append a non-ASCII no-op to force the general path.
			slow := e.Key(c + "\u00e9")
			fast := e.Key(c) + e.Key("\u00e9")
			if slow != fast {
				t.Errorf("%s: ASCII %q keys differ between paths", e.Name(), c)
			}
		}
		if Windows.Key(c+"\u00e9") != Windows.Key(c)+Windows.Key("\u00e9") {
			t.Errorf("windows: ASCII %q keys differ between paths", c)
		}
	}
}

func TestForFindings(t *testing.T) {
	cases := []struct {
		f    Findings
		want Equality
	}{
		{Findings{}, Bytes},
		{Findings{CaseInsensitive: true}, Windows},
		{Findings{NormalizationInsensitive: true}, DarwinCaseSensitive},
		{Findings{CaseInsensitive: true, NormalizationInsensitive: true}, Darwin},
		{Findings{CaseInsensitive: true, NormalizationInsensitive: true, IgnoresIgnorable: true}, HFSPlus},
		{Findings{IgnoresIgnorable: true}, HFSPlus},
	}
	for _, c := range cases {
		if got := ForFindings(c.f); got != c.want {
			t.Errorf("ForFindings(%+v) = %s, want %s", c.f, got.Name(), c.want.Name())
		}
	}
}
