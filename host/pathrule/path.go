// Package pathrule is the root-relative path vocabulary and the plan's
// whole-plan rules over it.
//
// PROVISIONAL: this file fixes the Path proof type's API; the full lexical
// vocabulary replaces the body of Parse.
package pathrule

import (
	"strings"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// Path is a root-relative path that passed the lexical vocabulary: one or
// more non-empty components, none "." or "..", no separator other than "/",
// portable to every supported filesystem. Only Parse constructs one; the zero
// Path is not valid and IsZero reports it.
type Path struct {
	s     string
	comps []string
}

// Parse validates s as a root-relative plan path.
func Parse(s string) (Path, error) {
	if s == "" {
		return Path{}, rejection.New(schema.RulePathInvalid, "empty path")
	}
	if strings.HasPrefix(s, "/") {
		return Path{}, rejection.New(schema.RulePathAbsolute, "absolute path")
	}
	comps := strings.Split(s, "/")
	for _, c := range comps {
		if c == ".." {
			return Path{}, rejection.New(schema.RulePathTraversal, "'..' component")
		}
		if c == "" || c == "." {
			return Path{}, rejection.New(schema.RulePathInvalid, "empty or '.' component")
		}
	}
	return Path{s: s, comps: comps}, nil
}

// String is the path as written, "/"-separated.
func (p Path) String() string { return p.s }

// Components returns a copy of the path's components.
func (p Path) Components() []string { return append([]string(nil), p.comps...) }

// Len is the number of components.
func (p Path) Len() int { return len(p.comps) }

// IsZero reports whether p is the zero Path (not produced by Parse).
func (p Path) IsZero() bool { return len(p.comps) == 0 }
