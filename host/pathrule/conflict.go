package pathrule

import (
	"cmp"
	"slices"
	"strings"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// entry is one touched path of one intent.
type entry struct {
	intent int
	op     schema.Op
	slot   uint8 // index into the intent's Paths
	path   Path
	keys   []int32 // per-component key ranks under the relation (see interner)
	pos    int     // position in the entries slice
}

// isSource reports whether e is a rename's from: the one kind of path a
// delete never excuses, since the delete would remove what the rename reads.
func (e *entry) isSource() bool { return e.op == schema.OpRename && e.slot == 0 }

func (e *entry) isDelete() bool { return e.op == schema.OpDelete }

// replacesInPlace reports whether e is a write's path or a fetch's dest:
// an op that creates or replaces the file at its path by itself.
//
// Such a path is not excused by a delete of the very same path, only by a
// delete of an ancestor. The specification's exception reads "a path that
// is, or lies beneath, the path named by a delete", and its example "delete
// vendor/x alongside clone dest=vendor/x" needs the "is"; but its Testing
// section and its README.md/Readme.md example require "a write and a delete
// on one path" to be rejected. Excusing at the delete's own path exactly the
// intents that cannot act over an existing entry (a clone, a rename's to,
// another delete) and not those that replace it anyway (write, fetch) is
// the one reading that satisfies every example; this predicate is where
// that choice lives.
func (e *entry) replacesInPlace() bool { return e.op == schema.OpWrite || e.op == schema.OpFetch }

// interner maps each component to the rank of its key under the relation:
// components with equal keys get equal ranks, and ranks order as the keys'
// strings do. Ranks make the sweep's comparisons integer comparisons, and
// because they follow the keys' text rather than the order components were
// met in, every order derived from them is independent of emission order.
// Each distinct component's key is computed once: plans repeat components
// ("skills", "SKILL.md") far more than they vary them.
type interner struct {
	eq    Equality
	comp  map[string]int32 // component -> key id
	keyID map[string]int32 // key -> key id
	keys  []string         // key id -> key
}

func newInterner(eq Equality) *interner {
	return &interner{eq: eq, comp: make(map[string]int32), keyID: make(map[string]int32)}
}

// ids fills out with the key id of each component of p.
func (in *interner) ids(p Path, out []int32) {
	for i, c := range p.comps {
		id, ok := in.comp[c]
		if !ok {
			k := in.eq.Key(c)
			if id, ok = in.keyID[k]; !ok {
				id = int32(len(in.keys))
				in.keys = append(in.keys, k)
				in.keyID[k] = id
			}
			in.comp[c] = id
		}
		out[i] = id
	}
}

// ranks returns, per key id, the key's rank in sorted order.
func (in *interner) ranks() []int32 {
	byKey := make([]int32, len(in.keys))
	for i := range byKey {
		byKey[i] = int32(i)
	}
	slices.SortFunc(byKey, func(a, b int32) int { return strings.Compare(in.keys[a], in.keys[b]) })
	rank := make([]int32, len(in.keys))
	for r, id := range byKey {
		rank[id] = int32(r)
	}
	return rank
}

// rankEntries sets every entry's keys to its components' key ranks, all
// in one backing array.
func rankEntries(entries []entry, eq Equality) {
	total := 0
	for i := range entries {
		total += entries[i].path.Len()
	}
	arena := make([]int32, total)
	in := newInterner(eq)
	for i := range entries {
		n := entries[i].path.Len()
		entries[i].keys, arena = arena[:n:n], arena[n:]
		in.ids(entries[i].path, entries[i].keys)
		entries[i].pos = i
	}
	rank := in.ranks()
	for i := range entries {
		for j, id := range entries[i].keys {
			entries[i].keys[j] = rank[id]
		}
	}
}

// compareKeys orders key sequences component by component, a sequence
// before every sequence it is a proper prefix of. Sorted this way, the
// paths at or beneath a path form one run starting at it.
func compareKeys(a, b []int32) int {
	for i := range min(len(a), len(b)) {
		if c := cmp.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// isPrefix reports whether a is a prefix of (or equal to) b.
func isPrefix(a, b []int32) bool {
	return len(a) <= len(b) && slices.Equal(a, b[:len(a)])
}

// node is the run of entries that are one path under the relation, split by
// how the conflict rules treat them.
type node struct {
	keys      []int32
	depth     int
	deletes   []*entry // a delete's path: excuses what is at or beneath it
	sources   []*entry // a rename's from: excused by nothing
	replacers []*entry // a write's path, a fetch's dest: excused only beneath a delete
	others    []*entry // a clone's dest, a rename's to
	// shallowestDelete is the depth of the shallowest delete at or above
	// this node (0 when none): where an excused path's deleted prefix ends.
	shallowestDelete int
}

// sweep finds every conflict among entries (up to MaxReportedConflicts),
// adding each to set. It returns for each entry its excused-prefix length,
// and the entries in sorted order: by key ranks, then bytes, then intent
// and slot.
//
// Entries are sorted by their keys; equal keys form a node, and the nodes at
// or beneath a node follow it contiguously, so a stack of the current
// node's ancestors is all that one node must be judged against. Each pair a
// loop visits is a conflict, except for the constant work per stack frame,
// so the cost is the sort plus the total number of components plus the
// conflicts reported.
func sweep(entries []entry, eq Equality, set *rejection.Set) (excused []int, sorted []*entry) {
	rankEntries(entries, eq)
	order := make([]*entry, len(entries))
	for i := range entries {
		order[i] = &entries[i]
	}
	slices.SortFunc(order, func(a, b *entry) int {
		if c := compareKeys(a.keys, b.keys); c != 0 {
			return c
		}
		if c := strings.Compare(a.path.s, b.path.s); c != 0 {
			return c
		}
		if c := cmp.Compare(a.intent, b.intent); c != 0 {
			return c
		}
		return cmp.Compare(a.slot, b.slot)
	})

	r := reporter{eq: eq, set: set, seen: make(map[pairKey]bool)}
	excused = make([]int, len(entries))
	var stack, free []*node // free: nodes off the stack, reused with their slices
	for lo := 0; lo < len(order) && !r.full(); {
		hi := lo + 1
		for hi < len(order) && compareKeys(order[lo].keys, order[hi].keys) == 0 {
			hi++
		}
		for len(stack) > 0 && !isPrefix(stack[len(stack)-1].keys, order[lo].keys) {
			free = append(free, stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
		n := &node{}
		if len(free) > 0 {
			n, free = free[len(free)-1], free[:len(free)-1]
		}
		*n = node{keys: order[lo].keys, depth: len(order[lo].keys),
			deletes: n.deletes[:0], sources: n.sources[:0], replacers: n.replacers[:0], others: n.others[:0]}
		for _, e := range order[lo:hi] {
			switch {
			case e.isDelete():
				n.deletes = append(n.deletes, e)
			case e.isSource():
				n.sources = append(n.sources, e)
			case e.replacesInPlace():
				n.replacers = append(n.replacers, e)
			default:
				n.others = append(n.others, e)
			}
		}

		// Same path: every two non-deletes conflict; a delete here excuses
		// all but sources and in-place replacers.
		r.allPairs(schema.RuleConflictSamePath, n.sources, n.replacers, n.others)
		r.cross(n.deletes, n.sources, schema.RuleConflictSamePath)
		r.cross(n.deletes, n.replacers, schema.RuleConflictSamePath)
		// Beneath an ancestor: a non-delete ancestor conflicts with
		// everything here; a delete ancestor only with sources.
		for _, a := range stack {
			for _, group := range [][]*entry{a.sources, a.replacers, a.others} {
				for _, below := range [][]*entry{n.deletes, n.sources, n.replacers, n.others} {
					r.cross(group, below, schema.RuleConflictNested)
				}
			}
			r.cross(a.deletes, n.sources, schema.RuleConflictNested)
		}

		if len(stack) > 0 {
			n.shallowestDelete = stack[len(stack)-1].shallowestDelete
		}
		for _, e := range order[lo:hi] {
			k := n.shallowestDelete
			if k == 0 && !e.replacesInPlace() && n.hasOtherDelete(e) {
				k = n.depth
			}
			excused[e.pos] = k
		}
		if n.shallowestDelete == 0 && len(n.deletes) > 0 {
			n.shallowestDelete = n.depth
		}
		stack = append(stack, n)
		lo = hi
	}
	r.finish()
	return excused, order
}

// hasOtherDelete reports whether a delete of another intent names this
// node's path: e is then at that delete's path and excused by it.
func (n *node) hasOtherDelete(e *entry) bool {
	for _, d := range n.deletes {
		if d.intent != e.intent {
			return true
		}
	}
	return false
}
