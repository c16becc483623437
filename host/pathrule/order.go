package pathrule

import (
	"cmp"
	"slices"
	"strings"

	"github.com/lola-pm/lola/schema"
)

// phase is an intent's apply phase: deletes, then renames, then everything
// that produces content at a destination.
func phase(op schema.Op) int {
	switch op {
	case schema.OpDelete:
		return 0
	case schema.OpRename:
		return 1
	}
	return 2
}

// opRank orders the content-producing ops among themselves; it only
// matters for intents that cannot both survive validation, and is here so
// the order is total.
func opRank(op schema.Op) int {
	return slices.Index(schema.Ops, op)
}

// orderSteps sorts steps into apply order. Within a phase steps are ordered
// by their paths' keys under eq, component by component (so a delete's
// ancestors come before it), then by the paths' bytes, then by op. Two steps
// equal on all of these are identical intents — two deletes of one spelling
// — so their relative order cannot be observed; the final tie-break on the
// index only makes the sort deterministic.
func orderSteps(steps []Step, eq Equality) {
	kr := keyer{eq: eq, cache: make(map[string]string)}
	keys := make([][][]string, len(steps)) // by intent index; steps holds each index once
	for _, s := range steps {
		ks := make([][]string, len(s.paths))
		for i, p := range s.paths {
			ks[i] = kr.keys(p)
		}
		keys[s.index] = ks
	}
	slices.SortFunc(steps, func(a, b Step) int {
		if c := cmp.Compare(phase(a.Op()), phase(b.Op())); c != 0 {
			return c
		}
		ka, kb := keys[a.index], keys[b.index]
		for i := range min(len(ka), len(kb)) {
			if c := compareKeys(ka[i], kb[i]); c != 0 {
				return c
			}
		}
		for i := range min(len(a.paths), len(b.paths)) {
			if c := strings.Compare(a.paths[i].s, b.paths[i].s); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(opRank(a.Op()), opRank(b.Op())); c != 0 {
			return c
		}
		return cmp.Compare(a.index, b.index)
	})
}
