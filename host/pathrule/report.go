package pathrule

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// pairKey identifies one reported conflict: a pair of intents (lo <= hi; lo
// == hi for a rename whose from and to clash) and the rule.
type pairKey struct {
	lo, hi int
	rule   schema.Rule
}

// reporter turns conflicting entry pairs into violations: one per pair of
// intents and rule (a pair of renames can clash through several of their
// paths), at most MaxReportedConflicts of them.
type reporter struct {
	eq        Equality
	set       *rejection.Set
	seen      map[pairKey]bool
	found     []*rejection.Violation
	truncated bool
}

func (r *reporter) full() bool { return r.truncated }

// allPairs reports every pair drawn from the groups together (each
// unordered pair once): the same-path pairs of one node.
func (r *reporter) allPairs(rule schema.Rule, groups ...[]*entry) {
	total := 0
	for _, g := range groups {
		total += len(g)
	}
	if total < 2 {
		return // the common case: nothing at this path to pair
	}
	all := make([]*entry, 0, total)
	for _, g := range groups {
		all = append(all, g...)
	}
	for i := 0; i < len(all) && !r.truncated; i++ {
		for j := i + 1; j < len(all) && !r.truncated; j++ {
			r.pair(all[i], all[j], rule)
		}
	}
}

// cross reports every pair (x from outer, y from inner); for
// conflict.nested, outer holds the ancestors.
func (r *reporter) cross(outer, inner []*entry, rule schema.Rule) {
	for _, x := range outer {
		for _, y := range inner {
			if r.truncated {
				return
			}
			r.pair(x, y, rule)
		}
	}
}

func (r *reporter) pair(x, y *entry, rule schema.Rule) {
	k := pairKey{lo: min(x.intent, y.intent), hi: max(x.intent, y.intent), rule: rule}
	if r.seen[k] {
		return
	}
	if len(r.found) == MaxReportedConflicts {
		r.truncated = true
		return
	}
	r.seen[k] = true
	var detail string
	if rule == schema.RuleConflictSamePath {
		if y.intent < x.intent || y.intent == x.intent && y.slot < x.slot {
			x, y = y, x
		}
		detail = describe(x) + " and " + describe(y) + " are the same path under " + r.eq.Name()
	} else {
		detail = describe(y) + " lies beneath " + describe(x) + " under " + r.eq.Name()
	}
	refs := []rejection.IntentRef{{Index: x.intent, Op: x.op}}
	if y.intent != x.intent {
		refs = append(refs, rejection.IntentRef{Index: y.intent, Op: y.op})
	}
	slices.SortFunc(refs, func(a, b rejection.IntentRef) int { return cmp.Compare(a.Index, b.Index) })
	r.found = append(r.found, rejection.New(rule, detail, refs...))
}

// finish adds the conflicts to the set in a fixed order: by the intents
// they name, then by rule.
func (r *reporter) finish() {
	slices.SortFunc(r.found, func(a, b *rejection.Violation) int {
		ai, bi := a.Intents, b.Intents
		if c := cmp.Compare(ai[0].Index, bi[0].Index); c != 0 {
			return c
		}
		if c := cmp.Compare(ai[len(ai)-1].Index, bi[len(bi)-1].Index); c != 0 {
			return c
		}
		return cmp.Compare(a.Rule, b.Rule)
	})
	if r.truncated && len(r.found) > 0 {
		last := r.found[len(r.found)-1]
		last.Detail += "; more conflicts exist and are not listed (limit " + strconv.Itoa(MaxReportedConflicts) + ")"
	}
	for _, v := range r.found {
		r.set.Add(v)
	}
}

// describe names an entry for a diagnostic: `write path "a/b"` (#3).
func describe(e *entry) string {
	return string(e.op) + " #" + strconv.Itoa(e.intent) + " " + e.op.PathField(int(e.slot)) + " " + quote(e.path.s)
}
