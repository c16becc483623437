package pathrule

import (
	"errors"
	"slices"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// MaxReportedConflicts bounds the conflict violations one rejection lists.
// A plan can hold quadratically many conflicting pairs (n writes of one
// path); listing them all would make the diagnostic, not the plan, the
// problem. When the bound is reached the sweep stops and the last listed
// violation says so; the verdict is exact either way. Path violations are at
// most one per touched path and are always listed in full.
const MaxReportedConflicts = 1000

// Validated is the proof that a plan passed the path vocabulary and the
// conflict rules under one equality relation, together with its apply
// order. Only Validate constructs one; the executor consumes it.
type Validated struct {
	eq    Equality
	steps []Step
}

// Equality is the relation the plan was validated under. An executor must
// refuse to apply the plan to a filesystem whose relation differs.
func (v *Validated) Equality() Equality { return v.eq }

// Len is the number of intents, which is also the number of steps.
func (v *Validated) Len() int { return len(v.steps) }

// Steps returns a copy of the steps in apply order: every delete first,
// ancestors before descendants under the relation; then every rename; then
// every write, fetch and clone. Within a phase steps are ordered by their
// (first) path's keys under the relation, component by component, then by
// its bytes: a function of the intents alone, so every permutation of a
// plan's intents yields the same intents in the same order.
func (v *Validated) Steps() []Step { return slices.Clone(v.steps) }

// Step is one intent in apply order, with its parsed paths. A Step is a
// value: copying it is safe, and nothing reachable from it can be changed
// (Intent returns a deep copy).
type Step struct {
	index   int
	intent  schema.Intent
	n       uint8 // touched paths: 1, or 2 for a rename
	paths   [2]Path
	excused [2]int
}

// Index is the intent's position in the plan as emitted; rejections, the
// audit log and the rollback message name intents by it.
func (s Step) Index() int { return s.index }

// Op is the intent's kind.
func (s Step) Op() schema.Op { return s.intent.Op() }

// Intent returns a copy of the intent as decoded.
func (s Step) Intent() schema.Intent { return s.intent.DeepCopy() }

// Paths returns the intent's touched paths, parsed, in the order of
// schema.Intent.Paths: path or dest, or a rename's from then to.
func (s Step) Paths() []Path { return append([]Path(nil), s.paths[:s.n]...) }

// ExcusedPrefix says how path i of the step (an index into Paths) is to be
// resolved. 0: the path is not excused by any delete and resolves against
// the pre-plan tree like any other. k > 0: the path is, or lies beneath, the
// path of a delete in this plan, and the shallowest such delete's path is
// its first k components. Those k components (Path.Prefix(k)) are resolved
// against the pre-plan tree; the components after them are not, because the
// delete removes whatever is there: the executor resolves them after the
// delete is staged, creating each as a directory itself. For a delete step
// k can equal the path's length: another delete covers the same path (or an
// ancestor, then k is smaller) and this one is the no-op that runs second.
func (s Step) ExcusedPrefix(i int) int { return s.excused[:s.n][i] }

// Validate checks every touched path of p against the vocabulary (a path
// whose first component is Reserved under eq is path.invalid too) and
// every pair of touched paths against the conflict rules, under eq. It returns a
// *Validated when nothing is violated, and otherwise a *rejection.Set holding
// every path violation and the conflicts (up to MaxReportedConflicts), each
// naming its intents by index and op. Conflicts are judged among the paths
// that parsed, so a plan with a bad path still hears about its conflicts.
//
// The conflict rules, for touched paths of two intents (and for a rename's
// own from and to, which must neither coincide nor nest):
//   - conflict.same-path: they are the same path under eq;
//   - conflict.nested: one lies beneath the other under eq;
//
// except that a path at or beneath the path of a delete does not conflict
// with that delete unless it is a rename's from. The exception is between
// the delete and that path only; two paths beneath one delete are still
// judged against each other.
func Validate(p *plan.Plan, eq Equality) (*Validated, error) {
	if p == nil {
		return nil, errors.New("pathrule: nil plan")
	}
	if eq == nil {
		return nil, errors.New("pathrule: nil equality relation")
	}
	intents := p.Intents()
	var set rejection.Set
	steps := make([]Step, len(intents))
	touched := 0
	for _, in := range intents {
		touched++
		if in.Rename != nil {
			touched++
		}
	}
	entries := make([]entry, 0, touched)
	for i, in := range intents {
		op := in.Op()
		ref := rejection.IntentRef{Index: i, Op: op}
		if op == "" {
			set.Add(rejection.New(schema.RulePlanMalformed, "intent holds no single op", ref))
			continue
		}
		raw := in.Paths()
		st := Step{index: i, intent: in, n: uint8(len(raw))}
		for slot, s := range raw {
			field := op.PathField(slot)
			path, err := Parse(s)
			if err != nil {
				v := err.(*rejection.Violation)
				set.Add(rejection.New(v.Rule, field+": "+v.Detail, ref))
				continue
			}
			if Reserved(eq, path.Component(0)) {
				set.Add(rejection.New(schema.RulePathInvalid, field+": "+reservedDetail(path.Component(0)), ref))
				continue
			}
			st.paths[slot] = path
			entries = append(entries, entry{intent: i, op: op, slot: uint8(slot), path: path})
		}
		steps[i] = st
	}
	excused, sorted := sweep(entries, eq, &set)
	if err := set.Err(); err != nil {
		return nil, err
	}
	for k, e := range entries {
		steps[e.intent].excused[e.slot] = excused[k]
	}
	return &Validated{eq: eq, steps: orderSteps(steps, sorted)}, nil
}
