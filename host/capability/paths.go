package capability

import (
	"strings"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// PathDeclaration is the path grant a manifest declares: the root-relative
// prefixes the extension may touch, each valid in the plan path vocabulary.
// A prefix covers itself and everything beneath it. Only DeclarePaths
// constructs a non-empty one; the zero value declares no path, so an
// extension that declares nothing may touch nothing (default deny).
type PathDeclaration struct {
	prefixes []pathrule.Path
}

// DeclarePaths validates a manifest's `paths` list. Each entry is a
// root-relative path as pathrule.Parse accepts it, optionally ending in one
// "/" to say "this directory" (".claude/"), the same spelling config.yaml
// uses. A refused entry is a *rejection.Violation with its path rule
// (path.absolute, path.traversal, path.invalid). Duplicates are kept as
// declared; they change nothing. A nil or empty list declares no path.
func DeclarePaths(prefixes []string) (PathDeclaration, error) {
	var d PathDeclaration
	for _, s := range prefixes {
		trimmed := s
		if len(s) > 1 { // "/" alone is the absolute root, not an empty directory name
			trimmed = strings.TrimSuffix(s, "/")
		}
		p, err := pathrule.Parse(trimmed)
		if err != nil {
			v := err.(*rejection.Violation)
			return PathDeclaration{}, rejection.New(v.Rule, "paths: "+quote(s)+": "+v.Detail)
		}
		d.prefixes = append(d.prefixes, p)
	}
	return d, nil
}

// Prefixes returns a copy of the declared prefixes, in manifest order.
func (d PathDeclaration) Prefixes() []pathrule.Path {
	return append([]pathrule.Path(nil), d.prefixes...)
}

// Strings returns the declared prefixes as written (without a trailing "/").
func (d PathDeclaration) Strings() []string { return pathStrings(d.prefixes) }

// Grant is the effective grant under eq when no user configuration narrows
// it: exactly the declared prefixes.
//
// A nil eq cannot judge a path and yields the grant of no path (fail closed).
func (d PathDeclaration) Grant(eq pathrule.Equality) PathGrant {
	if eq == nil {
		return PathGrant{}
	}
	return newGrant(eq, minimal(eq, d.prefixes))
}

// PathGrant is an effective path grant: the prefixes, judged under one
// filesystem equality relation, that an extension's plans may touch. Only
// PathDeclaration.Grant, GrantPaths and Narrow construct one, and each can
// only keep or narrow what it started from. The zero PathGrant grants no
// path. A PathGrant is a value and safe for concurrent use.
type PathGrant struct {
	eq       pathrule.Equality
	prefixes []pathrule.Path // no member is the same as or beneath another
	keys     [][]string      // keys[i][j]: eq's key of component j of prefixes[i]
	depth    int             // the longest prefix's component count
}

// newGrant builds a grant of ps (already minimal) under eq, with the
// prefixes' keys computed once so a check keys each plan path only once.
func newGrant(eq pathrule.Equality, ps []pathrule.Path) PathGrant {
	g := PathGrant{eq: eq, prefixes: ps}
	for _, p := range ps {
		k := make([]string, p.Len())
		for j := range k {
			k[j] = eq.Key(p.Component(j))
		}
		g.keys = append(g.keys, k)
		g.depth = max(g.depth, p.Len())
	}
	return g
}

// GrantPaths is the effective grant of extension name: its declaration,
// narrowed by cfg's extensions.<name>.paths when cfg configures that name,
// judged under eq (the relation of the root the plan will apply under). A
// nil cfg is config.Default(): no narrowing.
//
//	grant := capability.GrantPaths(ext.Paths(), cfg, ext.Name(), pathrule.Platform())
//	if err := grant.Check(p); err != nil { /* grant.outside: reject the plan */ }
func GrantPaths(d PathDeclaration, cfg *config.Config, name string, eq pathrule.Equality) PathGrant {
	g := d.Grant(eq)
	if cfg == nil {
		return g
	}
	if user, ok := cfg.Extension(name); ok {
		g = g.Narrow(user.Paths())
	}
	return g
}

// Narrow returns the overlap of g and the user's prefixes, the narrowest
// grant both allow. For each pair of a granted prefix G and a user prefix
// U, compared component-wise under g's relation:
//   - U is G or lies beneath it: U is granted (the user narrowed);
//   - G lies beneath U: G is granted (the user cannot widen);
//   - otherwise the pair grants nothing.
//
// An empty user list yields the empty grant. Narrowing never adds a path
// that g does not cover.
func (g PathGrant) Narrow(user []pathrule.Path) PathGrant {
	var out []pathrule.Path
	for _, gp := range g.prefixes {
		for _, up := range user {
			switch {
			case covers(g.eq, gp, up):
				out = append(out, up)
			case covers(g.eq, up, gp):
				out = append(out, gp)
			}
		}
	}
	if g.eq == nil {
		return PathGrant{}
	}
	return newGrant(g.eq, minimal(g.eq, out))
}

// Prefixes returns a copy of the granted prefixes: none is the same as, or
// beneath, another.
func (g PathGrant) Prefixes() []pathrule.Path { return append([]pathrule.Path(nil), g.prefixes...) }

// Strings returns the granted prefixes as strings.
func (g PathGrant) Strings() []string { return pathStrings(g.prefixes) }

// IsEmpty reports whether the grant covers no path at all.
func (g PathGrant) IsEmpty() bool { return len(g.prefixes) == 0 }

// Equality is the relation the grant is judged under; nil for a grant of
// no path built from the zero value.
func (g PathGrant) Equality() pathrule.Equality { return g.eq }

// Covers reports whether p is a granted prefix or lies beneath one.
func (g PathGrant) Covers(p pathrule.Path) bool {
	if len(g.keys) == 0 || p.IsZero() {
		return false
	}
	var buf [8]string
	pk := buf[:0]
	for j := 0; j < min(p.Len(), g.depth); j++ {
		pk = append(pk, g.eq.Key(p.Component(j)))
	}
next:
	for _, k := range g.keys {
		if len(k) > p.Len() {
			continue
		}
		for j, c := range k {
			if pk[j] != c {
				continue next
			}
		}
		return true
	}
	return false
}

// Check holds every touched path of p to the grant: write and delete paths,
// both ends of a rename, fetch and clone dests. It returns nil when each is
// covered, and otherwise a *rejection.Set with one grant.outside violation
// per uncovered path, naming its intent by index and op and the field. A
// path that is not in the plan path vocabulary cannot be shown to lie in
// the grant and is reported as outside too (fail closed); pathrule.Validate
// reports its own rule for it.
func (g PathGrant) Check(p *plan.Plan) error {
	var set rejection.Set
	for i := 0; i < p.Len(); i++ {
		in := p.Intent(i)
		op := in.Op()
		for slot, s := range in.Paths() {
			path, err := pathrule.Parse(s)
			if err == nil && g.Covers(path) {
				continue
			}
			set.Add(rejection.New(schema.RuleGrantOutside,
				op.PathField(slot)+" "+quote(s)+" is outside the extension's path grant ("+g.display()+")",
				rejection.IntentRef{Index: i, Op: op}))
		}
	}
	return set.Err()
}

func (g PathGrant) display() string {
	if len(g.prefixes) == 0 {
		return "no path granted"
	}
	const max = 8
	ss := g.Strings()
	if len(ss) > max {
		return strings.Join(ss[:max], ", ") + ", ..."
	}
	return strings.Join(ss, ", ")
}

// covers reports whether p is prefix or lies beneath it under eq.
func covers(eq pathrule.Equality, prefix, p pathrule.Path) bool {
	if eq == nil {
		return false
	}
	return pathrule.Same(eq, prefix, p) || pathrule.Beneath(eq, p, prefix)
}

// minimal drops every prefix covered by another (keeping the first of two
// that are the same), so the grant lists each region once.
func minimal(eq pathrule.Equality, ps []pathrule.Path) []pathrule.Path {
	var out []pathrule.Path
next:
	for i, p := range ps {
		for j, q := range ps {
			if i == j {
				continue
			}
			if pathrule.Beneath(eq, p, q) || (j < i && pathrule.Same(eq, p, q)) {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

func pathStrings(ps []pathrule.Path) []string {
	if len(ps) == 0 {
		return nil
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}
