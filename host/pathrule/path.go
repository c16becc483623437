package pathrule

import (
	"strconv"
	"strings"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
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

// Parse validates s as a root-relative plan path, under the vocabulary of
// lexical.Path (the rules the guest SDK applies too). The verdict does not
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
	if rule, detail := lexical.Path(s); rule != schema.RuleUnknown {
		return Path{}, rejection.New(rule, detail)
	}
	return Path{s: s, comps: strings.Split(s, "/")}, nil
}

// quote renders untrusted text for a diagnostic: escaped, and bounded so a
// hostile plan cannot make a diagnostic large.
func quote(s string) string { return lexical.Quote(s, lexical.PathEcho) }

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
