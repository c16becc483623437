package pathrule

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// Path is a root-relative path that passed the lexical vocabulary: one or
// more non-empty components separated by "/", none of them "." or "..", no
// backslash, no control character, no character or name that Windows
// forbids or treats as a device, no trailing dot or space. Such a path
// names the same location on every supported platform. Only Parse (and
// Prefix, from a Path) constructs one; the zero Path is not valid and IsZero
// reports it.
type Path struct {
	s     string
	comps []string
}

// Parse validates s as a root-relative plan path. The verdict does not
// depend on the platform. A refusal is a *rejection.Violation whose rule is
//   - path.absolute: s is rooted: "/x", "\x", "//server/share", `\\?\...`,
//     or drive-qualified: "C:", "C:x", `C:\x`;
//   - path.traversal: a ".." component;
//   - path.invalid: anything else the vocabulary refuses (empty path, empty
//     or "." component including a trailing "/", invalid UTF-8, a control
//     character, a backslash, one of <>:"|?*, a trailing dot or space, a
//     Windows device name such as CON, nul.txt, COM1, LPT¹ or CONIN$).
//
// When a path has several faults the rule is chosen in the order above.
// The violation names no intent; Validate adds the reference.
func Parse(s string) (Path, error) {
	if v := check(s); v != nil {
		return Path{}, v
	}
	return Path{s: s, comps: strings.Split(s, "/")}, nil
}

// check returns the violation for s, or nil when s is in the vocabulary.
func check(s string) *rejection.Violation {
	if s == "" {
		return rejection.New(schema.RulePathInvalid, "empty path")
	}
	if s[0] == '/' || s[0] == '\\' {
		return rejection.New(schema.RulePathAbsolute, "path is rooted; plan paths are relative to the root")
	}
	if len(s) >= 2 && s[1] == ':' && isASCIILetter(s[0]) {
		return rejection.New(schema.RulePathAbsolute, "path names a drive; plan paths are relative to the root")
	}
	// Traversal is reported before any other fault of the same path: it is
	// the one that says the author tried to leave the root.
	for c := range strings.SplitSeq(s, "/") {
		if c == ".." {
			return rejection.New(schema.RulePathTraversal, "'..' component")
		}
	}
	if !utf8.ValidString(s) {
		return rejection.New(schema.RulePathInvalid, "path is not valid UTF-8")
	}
	for c := range strings.SplitSeq(s, "/") {
		if why := componentFault(c); why != "" {
			return rejection.New(schema.RulePathInvalid, why)
		}
	}
	return nil
}

// componentFault says why c cannot be a component, or "" when it can.
// c is valid UTF-8 and not "..".
func componentFault(c string) string {
	switch c {
	case "":
		return "empty component"
	case ".":
		return "'.' component"
	}
	for _, r := range c {
		switch {
		case unicode.IsControl(r):
			return "control character " + strconv.QuoteRune(r) + " in component " + quote(c)
		case r == '\\':
			return "backslash in component " + quote(c) + "; the separator is '/'"
		case strings.ContainsRune(windowsForbidden, r):
			return "character " + strconv.QuoteRune(r) + " is not allowed on Windows, in component " + quote(c)
		}
	}
	if last := c[len(c)-1]; last == '.' || last == ' ' {
		return "component " + quote(c) + " ends in a dot or space, which Windows strips"
	}
	if isDeviceName(c) {
		return "component " + quote(c) + " is a Windows device name"
	}
	return ""
}

// windowsForbidden are the printable characters Win32 refuses in a name.
// ':' is among them, which also refuses alternate data streams.
const windowsForbidden = `<>:"|?*`

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// quote renders untrusted text for a diagnostic: escaped, and bounded so a
// hostile plan cannot make a diagnostic large.
func quote(s string) string {
	const max = 64
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.QuoteToASCII(s[:cut]) + "..."
	}
	return strconv.QuoteToASCII(s)
}

// String is the path as written, "/"-separated.
func (p Path) String() string { return p.s }

// Components returns a copy of the path's components.
func (p Path) Components() []string { return append([]string(nil), p.comps...) }

// Component returns component i (0 is the one nearest the root). It panics
// when i is out of range, like an index expression.
func (p Path) Component(i int) string { return p.comps[i] }

// Len is the number of components.
func (p Path) Len() int { return len(p.comps) }

// IsZero reports whether p is the zero Path (not produced by Parse).
func (p Path) IsZero() bool { return len(p.comps) == 0 }

// Prefix returns the path made of p's first n components, for 1 <= n <=
// p.Len(): the part of a path an executor resolves against the pre-plan
// tree when a delete excuses the rest (see Step.ExcusedPrefix). It panics
// for any other n, since no other prefix is a Path.
func (p Path) Prefix(n int) Path {
	if n < 1 || n > len(p.comps) {
		panic("pathrule: Prefix(" + strconv.Itoa(n) + ") of a " + strconv.Itoa(len(p.comps)) + "-component path")
	}
	if n == len(p.comps) {
		return p
	}
	comps := p.comps[:n:n]
	return Path{s: strings.Join(comps, "/"), comps: comps}
}
