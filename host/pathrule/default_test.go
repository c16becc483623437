package pathrule

import (
	"runtime"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// TestPlatformDefaultPerGOOS: under "auto" (the default --fs), the
// README.md/Readme.md plan is refused on darwin and windows, whose default
// filesystems fold case, and accepted on Linux and the other Unix systems.
// Every GOOS is judged here, on whichever machine runs the test.
func TestPlatformDefaultPerGOOS(t *testing.T) {
	p := planOf(t, "write README.md", "write Readme.md")
	for goos, refused := range map[string]bool{
		"darwin": true, "ios": true, "windows": true,
		"linux": false, "freebsd": false, "openbsd": false, "netbsd": false, "android": false,
	} {
		_, err := Validate(p, PlatformFor(goos))
		if got := err != nil; got != refused {
			t.Errorf("GOOS %s (relation %s): refused = %v, want %v (%v)", goos, PlatformFor(goos).Name(), got, refused, err)
		}
	}
	if PlatformFor("darwin") != Darwin || PlatformFor("windows") != Windows || PlatformFor("linux") != Bytes {
		t.Error("the default relations moved")
	}
	auto, err := ParseEquality(Auto)
	if err != nil || auto != PlatformFor(runtime.GOOS) || Platform() != auto {
		t.Errorf("auto on %s is %v, want PlatformFor(%q)", runtime.GOOS, auto, runtime.GOOS)
	}
}

// TestDarwinIsFullCaseFolding: every code point keys as its full case
// fold (and as its upper case when that folds alike) under Darwin, i.e. the relation joins
// at least what APFS's C+F folding joins.
func TestDarwinIsFullCaseFolding(t *testing.T) {
	fold := cases.Fold()
	for r := rune(0x80); r <= 0x1FFFF; r++ {
		if !utf8.ValidRune(r) || unicode.IsControl(r) {
			continue
		}
		s := string(r)
		k := Darwin.Key(s)
		if f := fold.String(s); Darwin.Key(f) != k {
			t.Fatalf("%U keys %+q but its full fold %+q keys %+q", r, k, f, Darwin.Key(f))
		}
		if u := string(unicode.ToUpper(r)); fold.String(u) == fold.String(s) && Darwin.Key(u) != k {
			t.Fatalf("%U keys %+q but its upper case %+q, which folds alike, keys %+q", r, k, u, Darwin.Key(u))
		}
	}
}
