package lexical

import "strings"

// IsDeviceName reports whether Windows would open a device instead of a
// file for component c. Win32 matches the device name against the part
// before the first dot, with trailing spaces removed, case-insensitively:
// "CON", "nul.txt", "Com1.tar.gz" and "aux .c" all name devices. COM and
// LPT take the digits 1-9 and the superscripts ¹ ² ³ (Windows counts those
// as digits); "com0", "comm" and "lptN" are ordinary names. CONIN$ and
// CONOUT$ are the console's input and output; "conout.c" and "dollar$" are
// ordinary.
//
// Path applies the rule on every platform so that a plan valid on Linux is
// valid on Windows too.
func IsDeviceName(c string) bool {
	base := c
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	base = strings.TrimRight(base, " ")
	switch len(base) {
	case 3:
		return equalFoldASCII(base, "CON") || equalFoldASCII(base, "PRN") ||
			equalFoldASCII(base, "AUX") || equalFoldASCII(base, "NUL")
	case 4, 5: // COM1, LPT9 (4 bytes); COM¹, LPT³ (5 bytes: superscripts are two)
		if !equalFoldASCII(base[:3], "COM") && !equalFoldASCII(base[:3], "LPT") {
			return false
		}
		d := base[3:]
		return len(d) == 1 && '1' <= d[0] && d[0] <= '9' || d == "¹" || d == "²" || d == "³"
	case 6:
		return equalFoldASCII(base, "CONIN$")
	case 7:
		return equalFoldASCII(base, "CONOUT$")
	}
	return false
}

// equalFoldASCII compares s with an upper-case ASCII word, folding only
// ASCII letters: Windows' device-name match does not fold "ſ" or "K".
func equalFoldASCII(s, upper string) bool {
	if len(s) != len(upper) {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if 'a' <= b && b <= 'z' {
			b -= 'a' - 'A'
		}
		if b != upper[i] {
			return false
		}
	}
	return true
}
