package pathrule

import "github.com/lola-pm/lola/schema"

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

// orderSteps returns steps (indexed by intent) in apply order, given the
// touched paths in the sweep's sorted order: by key ranks component by
// component (a path before everything beneath it), then by bytes, then by
// intent index. Taking each step at its first path, phase by phase, is the
// apply order: deletes ancestors first; and within each phase the order is
// a function of the intents alone, because in a plan that passed the
// conflict rules the only steps whose first paths share a key are deletes,
// and equal deletes then differ by bytes or not at all (two deletes of one
// spelling are identical intents, so which of them is first cannot be
// observed).
func orderSteps(steps []Step, sorted []*entry) []Step {
	var count [3]int
	for i := range steps {
		count[phase(steps[i].Op())]++
	}
	next := [3]int{0, count[0], count[0] + count[1]}
	out := make([]Step, len(steps))
	for _, e := range sorted {
		if e.slot != 0 {
			continue
		}
		ph := phase(e.op)
		out[next[ph]] = steps[e.intent]
		next[ph]++
	}
	return out
}
