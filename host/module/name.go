package module

import (
	"errors"
	"path"
	"regexp"
	"strings"
)

// Name is a validated module name: it matches ^[a-z0-9][a-z0-9._-]{0,62}$
// and does not end in a dot, so it is one directory name on every
// platform, cannot traverse, and cannot collide with another under case
// folding. (Today's Lola refuses only empty names, ".", "..", separators, a
// leading dot and control characters; this rule is a subset of that one
// that also holds on Windows and case-insensitive filesystems.) Only
// ParseName constructs one.
type Name struct{ s string }

var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)

// ErrName is wrapped by every refusal of ParseName.
var ErrName = errors.New("invalid module name")

// ParseName validates s as a module name.
func ParseName(s string) (Name, error) {
	if !namePattern.MatchString(s) || strings.HasSuffix(s, ".") {
		return Name{}, &nameError{s}
	}
	return Name{s}, nil
}

type nameError struct{ s string }

func (e *nameError) Error() string {
	return ErrName.Error() + " " + quoteName(e.s) + ": use 1-63 of a-z 0-9 . _ -, starting with a letter or digit, not ending in '.'"
}
func (e *nameError) Unwrap() error { return ErrName }

func quoteName(s string) string {
	q := []rune(bounded(s))
	return "\"" + strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, string(q)) + "\""
}

// String is the name as written.
func (n Name) String() string { return n.s }

// IsZero reports whether n is the zero Name.
func (n Name) IsZero() bool { return n.s == "" }

// archiveSuffixes are stripped (case-insensitively) from a source's base
// name to derive a module name; the longest match wins.
var archiveSuffixes = []string{".tar.gz", ".tgz", ".tar", ".zip", ".git"}

// DeriveName returns the name a source gets without --name: its base name
// (the last path or URL component) without a .git or archive extension,
// lower-cased. The result is validated like any name.
func DeriveName(source string) (Name, error) {
	s := strings.TrimRight(source, "/\\")
	if i := strings.IndexAny(s, "?#"); i >= 0 && strings.Contains(s, "://") {
		s = s[:i]
	}
	s = strings.ReplaceAll(s, "\\", "/")
	if i := strings.LastIndex(s, ":"); i >= 0 && !strings.Contains(s, "://") && strings.Contains(s[:i], "@") {
		s = s[i+1:] // scp-like git@host:org/repo.git
	}
	base := path.Base(s)
	low := strings.ToLower(base)
	for _, suf := range archiveSuffixes {
		if strings.HasSuffix(low, suf) && len(low) > len(suf) {
			low = low[:len(low)-len(suf)]
			break
		}
	}
	return ParseName(low)
}
