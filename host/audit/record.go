package audit

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"sort"

	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// PlanRecord is what Log.Begin writes before a plan is applied. Every field
// is a validated type; Begin refuses a value outside its vocabulary.
type PlanRecord struct {
	Extension    Extension           // required
	Tier         Tier                // required
	Capabilities []schema.Capability // granted; each must be defined by schema
	Layers       []Layer             // confinement achieved; may be empty
	Root         RootID              // optional
	Intents      []IntentRecord      // every intent of the plan (IntentsFromPlan)
}

func (r PlanRecord) entry() (*PlanEntry, error) {
	if r.Extension.IsZero() {
		return nil, errors.New("audit: plan record without an extension identity")
	}
	if !member(r.Tier, Tiers()) {
		return nil, fmt.Errorf("audit: %q is not a tier", string(r.Tier))
	}
	caps, err := checkCaps(r.Capabilities)
	if err != nil {
		return nil, err
	}
	layers := make([]Layer, 0, len(r.Layers))
	for _, l := range r.Layers {
		if !member(l, Layers()) {
			return nil, fmt.Errorf("audit: %q is not a confinement layer", string(l))
		}
		layers = append(layers, l)
	}
	intents, err := intentEntries(r.Intents)
	if err != nil {
		return nil, err
	}
	return &PlanEntry{
		Extension:    r.Extension.entry(),
		Tier:         r.Tier,
		Capabilities: caps,
		Layers:       layers,
		Root:         r.Root.String(),
		Intents:      intents,
	}, nil
}

func checkCaps(cs []schema.Capability) ([]schema.Capability, error) {
	out := make([]schema.Capability, 0, len(cs))
	for _, c := range cs {
		if _, err := schema.ParseCapability(string(c)); err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

func intentEntries(rs []IntentRecord) ([]IntentEntry, error) {
	out := make([]IntentEntry, 0, len(rs))
	for _, r := range rs {
		if r.e.Op == "" {
			return nil, errors.New("audit: intent record not built by NewIntentRecord")
		}
		out = append(out, r.entry())
	}
	return out, nil
}

func checkRef(ref rejection.IntentRef) error {
	if ref.Index < 0 || !member(ref.Op, schema.Ops) {
		return fmt.Errorf("audit: intent ref #%d has no valid op", ref.Index)
	}
	return nil
}

// rulesOf returns the distinct rules err carries, in vocabulary order; an
// error carrying none (an I/O failure) yields none. Error text is never kept.
func rulesOf(err error) []schema.Rule {
	seen := map[schema.Rule]bool{}
	for _, v := range rejection.All(err) {
		if v.Rule != schema.RuleUnknown {
			seen[v.Rule] = true
		}
	}
	var out []schema.Rule
	for _, r := range schema.Rules() {
		if seen[r] {
			out = append(out, r)
		}
	}
	return out
}

// Event is something that happened while a plan was applied. Only the
// constructors below build one.
type Event struct {
	e EventEntry
}

func refPtr(ref rejection.IntentRef) *rejection.IntentRef { return &ref }

// StepStarted reports that the executor began the intent ref.
func StepStarted(ref rejection.IntentRef) Event {
	return Event{EventEntry{Kind: EventStepStarted, Intent: refPtr(ref)}}
}

// StepDone reports that the intent ref is staged or in place.
func StepDone(ref rejection.IntentRef) Event {
	return Event{EventEntry{Kind: EventStepDone, Intent: refPtr(ref)}}
}

// StepFailed reports that the intent ref failed, with the rules err carries.
// err's text is not logged.
func StepFailed(ref rejection.IntentRef, err error) Event {
	return Event{EventEntry{Kind: EventStepFailed, Intent: refPtr(ref), Rules: rulesOf(err)}}
}

// Step reports what the executor did to one root-relative path on behalf of
// intent ref: kind is one of StepKinds. A path that does not parse as a plan
// path is logged as a digest, so that the event is never lost.
func Step(kind EventKind, ref rejection.IntentRef, path string) Event {
	e := EventEntry{Kind: kind, Intent: refPtr(ref)}
	if path != "" {
		if pp, err := pathrule.Parse(path); err == nil {
			e.Path = pp.String()
		} else {
			e.Unparsed = []Digest{digest("path", path)}
		}
	}
	return Event{e}
}

// RollbackStarted reports that the executor began undoing the plan.
func RollbackStarted() Event { return Event{EventEntry{Kind: EventRollbackStarted}} }

// RecoveryStarted reports that crash recovery found this plan's journal.
func RecoveryStarted() Event { return Event{EventEntry{Kind: EventRecoveryStarted}} }

// Hop reports the address actually dialled for hop n (0 is the first
// request, 1 the first redirect) of fetch or clone intent ref, to the URL u.
// Only u's host[:port] is logged.
func Hop(ref rejection.IntentRef, n int, u *url.URL, dialled netip.AddrPort) Event {
	return Event{EventEntry{Kind: EventHop, Intent: refPtr(ref), Hop: n, Host: hostOf(u), Dialled: dialled.String()}}
}

func (ev Event) entry() (*EventEntry, error) {
	e := ev.e
	if !member(e.Kind, EventKinds()) {
		return nil, errors.New("audit: event not built by a constructor")
	}
	if e.Intent != nil {
		if err := checkRef(*e.Intent); err != nil {
			return nil, err
		}
	}
	if member(e.Kind, StepKinds()) && e.Intent == nil {
		return nil, errors.New("audit: a step event belongs to an intent")
	}
	if e.Kind == EventHop {
		if e.Intent == nil || (e.Intent.Op != schema.OpFetch && e.Intent.Op != schema.OpClone) {
			return nil, errors.New("audit: a hop belongs to a fetch or clone intent")
		}
		if e.Hop < 0 {
			return nil, errors.New("audit: negative hop number")
		}
		if e.Host == "" {
			return nil, errors.New("audit: hop without a URL host")
		}
		if ap, err := netip.ParseAddrPort(e.Dialled); err != nil || !ap.IsValid() {
			return nil, errors.New("audit: hop without a valid dialled address")
		}
	}
	return &e, nil
}

// Outcome is how an applied plan ended. Only the constructors build one.
type Outcome struct {
	e OutcomeEntry
	// unattributed: built by a constructor for a rollback no intent caused.
	unattributed bool
}

// Committed: the post-plan tree is in place.
func Committed() Outcome { return Outcome{e: OutcomeEntry{Outcome: OutcomeCommitted}} }

// RolledBack: intent ref failed with err and the tree is pre-plan again.
// The rules err carries are logged, not its text.
func RolledBack(ref rejection.IntentRef, err error) Outcome {
	return Outcome{e: OutcomeEntry{Outcome: OutcomeRolledBack, Intent: refPtr(ref), Rules: rulesOf(err)}}
}

// RolledBackUnattributed: the apply failed outside any one intent (staging
// setup, the commit step) with err, and the tree is pre-plan again.
func RolledBackUnattributed(err error) Outcome {
	return Outcome{e: OutcomeEntry{Outcome: OutcomeRolledBack, Rules: rulesOf(err)}, unattributed: true}
}

// RollbackFailedUnattributed: as RollbackFailed, when no intent caused it.
func RollbackFailedUnattributed(err error) Outcome {
	return Outcome{e: OutcomeEntry{Outcome: OutcomeRollbackFailed, Rules: rulesOf(err)}, unattributed: true}
}

// RollbackFailed: intent ref failed with err, and undoing the plan failed
// too; the tree is in neither state.
func RollbackFailed(ref rejection.IntentRef, err error) Outcome {
	return Outcome{e: OutcomeEntry{Outcome: OutcomeRollbackFailed, Intent: refPtr(ref), Rules: rulesOf(err)}}
}

// Recovered marks o as decided by crash recovery rather than by the apply
// that began the plan: RolledBack or Committed after a kill, as the journal
// allowed. The intent, if o names one, is kept.
func (o Outcome) Recovered() Outcome {
	o.e.Recovered = true
	return o
}

// RecoveredRolledBack is crash recovery restoring the pre-plan tree when no
// intent is known to have failed (the process was killed).
func RecoveredRolledBack() Outcome {
	return Outcome{e: OutcomeEntry{Outcome: OutcomeRolledBack, Recovered: true}, unattributed: true}
}

// WithSteps attaches to o the executor's step totals by kind (each kind one
// of StepKinds, each count positive); a zero count is left out.
func (o Outcome) WithSteps(counts map[EventKind]int) Outcome {
	steps := make(map[EventKind]int, len(counts))
	for k, n := range counts {
		if n != 0 {
			steps[k] = n
		}
	}
	if len(steps) == 0 {
		steps = nil
	}
	o.e.Steps = steps
	return o
}

// WithCreatedDirs attaches to o the root-relative directories the host
// created for the plan. A path that does not parse as a plan path is
// logged as a digest, never as text.
func (o Outcome) WithCreatedDirs(dirs []string) Outcome {
	o.e.Mkdir, o.e.Unparsed = nil, nil
	for _, d := range dirs {
		if pp, err := pathrule.Parse(d); err == nil {
			o.e.Mkdir = append(o.e.Mkdir, pp.String())
		} else {
			o.e.Unparsed = append(o.e.Unparsed, digest("mkdir", d))
		}
	}
	sort.Strings(o.e.Mkdir)
	return o
}

func (o Outcome) entry() (*OutcomeEntry, error) {
	e := o.e
	for k, n := range e.Steps {
		if !member(k, StepKinds()) || n < 0 {
			return nil, fmt.Errorf("audit: %q is not a step kind with a count", string(k))
		}
	}
	if !member(e.Outcome, OutcomeKinds()) {
		return nil, errors.New("audit: outcome not built by a constructor")
	}
	if e.Intent != nil {
		if err := checkRef(*e.Intent); err != nil {
			return nil, err
		}
	}
	if e.Outcome != OutcomeCommitted && e.Intent == nil && !o.unattributed {
		return nil, errors.New("audit: a rollback outcome must name the intent that triggered it")
	}
	return &e, nil
}

// Rejection is a plan refused before anything was applied. Err is the
// refusal (a *rejection.Violation or *rejection.Set); its rules and the
// intents they name are logged, its text is not. Intents is optional: a plan
// that failed to decode has none.
type Rejection struct {
	Extension    Extension
	Tier         Tier
	Capabilities []schema.Capability
	Err          error
	Intents      []IntentRecord
	// Correlation, when set, is that of the plan's Begin record: a refusal
	// found after the pre-apply record (e.g. while resolving paths) and before
	// any change. When zero, Rejected draws a fresh id.
	Correlation Correlation
}

func (r Rejection) entry() (*RejectedEntry, error) {
	if r.Extension.IsZero() {
		return nil, errors.New("audit: rejection without an extension identity")
	}
	if !member(r.Tier, Tiers()) {
		return nil, fmt.Errorf("audit: %q is not a tier", string(r.Tier))
	}
	caps, err := checkCaps(r.Capabilities)
	if err != nil {
		return nil, err
	}
	vs := rejection.All(r.Err)
	if len(vs) == 0 {
		return nil, errors.New("audit: a rejection must carry at least one rule")
	}
	out := &RejectedEntry{Extension: r.Extension.entry(), Tier: r.Tier, Capabilities: caps}
	for _, v := range vs {
		if _, err := v.Rule.MarshalText(); err != nil {
			return nil, errors.New("audit: a violation without a rule")
		}
		ve := ViolationEntry{Rule: v.Rule}
		for _, ref := range v.Intents {
			if ref.Index < 0 {
				return nil, errors.New("audit: negative intent index in a violation")
			}
			if ref.Op != "" && !member(ref.Op, schema.Ops) {
				ref.Op = "" // an op the protocol does not define is not logged as text
			}
			ve.Intents = append(ve.Intents, ref)
		}
		out.Violations = append(out.Violations, ve)
	}
	if out.Intents, err = intentEntries(r.Intents); err != nil {
		return nil, err
	}
	if len(out.Intents) == 0 {
		out.Intents = nil
	}
	return out, nil
}
