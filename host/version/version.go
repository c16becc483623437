// Package version compares module versions and checks them against
// version specifiers as today's Lola's .lola-req writes them: PEP 440
// operators (==, !=, >=, <=, >, <, ~=, and == with a trailing .*),
// comma-separated clauses that must all hold, plus npm-style ~X.Y (the
// same minor) and ^X.Y (the same major; the same minor for 0.x).
//
// Versions are PEP 440's public form reduced to what module catalogs use:
// an optional "v", release numbers N(.N)*, and an optional pre-release
// (aN, bN, rcN, also spelled alpha/beta/c/pre/preview, optionally after
// '.', '-' or '_'), post-release (.postN) and dev-release (.devN).
// Release numbers compare numerically with missing ones as 0 (1.0 ==
// 1.0.0); dev < pre < release < post. Local versions (+local) and epochs
// are refused.
//
// Non-guarantees: as in PEP 440, a specifier does not admit pre-releases
// specially: they compare by order like any version.
package version

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Version is a parsed version.
type Version struct {
	release []int
	pre     [2]int // kind (0 none, 1 a, 2 b, 3 rc), number
	post    int    // -1 none
	dev     int    // -1 none
	text    string
}

func (v Version) String() string { return v.text }

// ErrVersion: a version or specifier that does not parse.
var ErrVersion = errors.New("invalid version")

// Parse parses a version.
func Parse(s string) (Version, error) {
	v := Version{post: -1, dev: -1, text: s}
	t := strings.ToLower(strings.TrimSpace(s))
	t = strings.TrimPrefix(t, "v")
	if t == "" || strings.ContainsAny(t, "+!") {
		return v, fmt.Errorf("%w %q", ErrVersion, s)
	}
	i := 0
	for {
		j := i
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j == i || j-i > 9 {
			return v, fmt.Errorf("%w %q", ErrVersion, s)
		}
		n, _ := strconv.Atoi(t[i:j])
		v.release = append(v.release, n)
		i = j
		if i < len(t) && t[i] == '.' && i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9' {
			i++
			continue
		}
		break
	}
	rest := t[i:]
	for rest != "" {
		rest = strings.TrimLeft(rest, ".-_")
		var kind string
		for _, k := range []string{"alpha", "beta", "preview", "pre", "rc", "post", "dev", "a", "b", "c"} {
			if strings.HasPrefix(rest, k) {
				kind = k
				break
			}
		}
		if kind == "" {
			return v, fmt.Errorf("%w %q", ErrVersion, s)
		}
		rest = strings.TrimLeft(rest[len(kind):], ".-_")
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j > 9 {
			return v, fmt.Errorf("%w %q", ErrVersion, s)
		}
		n := 0
		if j > 0 {
			n, _ = strconv.Atoi(rest[:j])
		}
		rest = rest[j:]
		switch kind {
		case "a", "alpha":
			v.pre = [2]int{1, n}
		case "b", "beta":
			v.pre = [2]int{2, n}
		case "c", "rc", "pre", "preview":
			v.pre = [2]int{3, n}
		case "post":
			v.post = n
		case "dev":
			v.dev = n
		}
	}
	return v, nil
}

// Compare returns -1, 0 or +1.
func Compare(a, b Version) int {
	n := max(len(a.release), len(b.release))
	for i := range n {
		x, y := at(a.release, i), at(b.release, i)
		if x != y {
			return sign(x - y)
		}
	}
	// pre-release: none sorts after any pre-release, unless only dev.
	pa, pb := preKey(a), preKey(b)
	if pa != pb {
		return sign(pa - pb)
	}
	if a.pre[1] != b.pre[1] {
		return sign(a.pre[1] - b.pre[1])
	}
	if a.post != b.post {
		return sign(a.post - b.post)
	}
	da, db := a.dev, b.dev
	if da == -1 {
		da = 1 << 30
	}
	if db == -1 {
		db = 1 << 30
	}
	return sign(da - db)
}

// preKey orders 1.0.dev0 < 1.0a1 < 1.0 (a dev release of the final
// version sorts before its pre-releases).
func preKey(v Version) int {
	if v.pre[0] != 0 {
		return v.pre[0]
	}
	if v.dev >= 0 && v.post < 0 {
		return 0
	}
	return 4
}

func at(r []int, i int) int {
	if i < len(r) {
		return r[i]
	}
	return 0
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
