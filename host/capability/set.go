package capability

import (
	"slices"
	"strings"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// Set is a granted capability set: the proof that every atom in it is one
// the host defines and was declared. Only Grant and ParseSet construct a
// non-empty Set. The zero Set grants nothing, which is the default-deny
// grant of an extension that declares no capability. A Set is a value and
// is safe for concurrent use.
type Set struct {
	caps []schema.Capability // sorted, no duplicates; never shared
}

// Grant returns the narrowest set satisfying a declaration: exactly the
// declared atoms, deduplicated. Every atom the host does not define is
// refused: the error is a *rejection.Set holding one capability.unknown
// violation per unknown atom (errors.Is with
// rejection.Rule(schema.RuleCapabilityUnknown) holds), and no Set is
// granted, so an extension built against a newer host never runs with less
// authority than it expects. A nil or empty declaration is the empty Set.
func Grant(declared []string) (Set, error) {
	var bad rejection.Set
	var caps []schema.Capability
	for _, s := range declared {
		c, err := schema.ParseCapability(s)
		if err != nil {
			bad.Add(rejection.New(schema.RuleCapabilityUnknown,
				"unknown capability "+quote(s)+" (defined: "+schema.JoinCapabilities(schema.Capabilities())+")"))
			continue
		}
		if !slices.Contains(caps, c) {
			caps = append(caps, c)
		}
	}
	if err := bad.Err(); err != nil {
		return Set{}, err
	}
	slices.Sort(caps)
	return Set{caps: caps}, nil
}

// ParseSet parses the --caps form (String's output, comma-separated, ""
// for none) under the same rules as Grant: ParseSet(s.String()) == s.
func ParseSet(caps string) (Set, error) {
	if caps == "" {
		return Set{}, nil
	}
	return Grant(strings.Split(caps, ","))
}

// Has reports whether c is granted.
func (s Set) Has(c schema.Capability) bool { return slices.Contains(s.caps, c) }

// List returns a copy of the granted atoms, sorted.
func (s Set) List() []schema.Capability { return slices.Clone(s.caps) }

// Len is the number of granted atoms.
func (s Set) Len() int { return len(s.caps) }

// String is the --caps form, the one spelling shared with the audit log:
// the atoms sorted and comma-separated ("net.git,net.http"), "" for none.
func (s Set) String() string { return schema.JoinCapabilities(s.caps) }

// Equal reports whether s and t grant the same atoms.
func (s Set) Equal(t Set) bool { return slices.Equal(s.caps, t.caps) }

// Check holds p to the grant. It returns nil when every intent's required
// capability (schema.RequiredCapability) is granted, and otherwise a
// *rejection.Set with one capability.missing violation per offending intent,
// naming it by index and op: the plan is rejected whole.
func (s Set) Check(p *plan.Plan) error {
	var set rejection.Set
	for i := 0; i < p.Len(); i++ {
		op := p.Intent(i).Op()
		need := schema.RequiredCapability(op)
		if need == "" || s.Has(need) {
			continue
		}
		set.Add(rejection.New(schema.RuleCapabilityMissing,
			string(op)+" needs "+string(need)+", which the extension was not granted (granted: "+s.display()+")",
			rejection.IntentRef{Index: i, Op: op}))
	}
	return set.Err()
}

func (s Set) display() string {
	if len(s.caps) == 0 {
		return "none"
	}
	return s.String()
}

// quote renders untrusted text for a diagnostic: escaped and bounded.
func quote(s string) string { return lexical.Quote(s, lexical.PathEcho) }
