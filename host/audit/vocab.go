package audit

import "fmt"

// Kind is what a record is. Closed; the string form is the wire spelling.
type Kind string

// Record kinds.
const (
	KindPlan     Kind = "plan"     // before apply: identity, grants, every intent
	KindEvent    Kind = "event"    // during apply, under a plan's correlation id
	KindOutcome  Kind = "outcome"  // after apply: committed, rolled-back, rollback-failed
	KindRejected Kind = "rejected" // a plan refused before anything was applied
	KindRepair   Kind = "repair"   // a torn tail (an append that never completed) was cut off
	KindRun      Kind = "run"      // a run that returns no plan (an install hook) and how it ended
	KindOverride Kind = "override" // the user's explicit override of a refusal (see override.go)
)

// Kinds lists every record kind.
func Kinds() []Kind {
	return []Kind{KindPlan, KindEvent, KindOutcome, KindRejected, KindRepair, KindRun, KindOverride}
}

// Tier is how the extension that produced a plan was run. Closed.
type Tier string

// Tiers. A hook is a native (tier-2) extension, and its spelling says so.
const (
	TierPlanFile Tier = "plan-file"    // a plan file given to `lola plan apply`; no extension ran
	TierWasm     Tier = "wasm/tier1"   // a WASI module run by the confined shim
	TierNative   Tier = "native/tier2" // a native process, trusted rather than confined
	TierHook     Tier = "native/hook"  // an install hook: a native tier-2 extension writing no plan
)

// Tiers lists every tier.
func Tiers() []Tier { return []Tier{TierPlanFile, TierWasm, TierNative, TierHook} }

// Native reports whether t runs unconfined native code (tier 2, hooks included).
func (t Tier) Native() bool { return t == TierNative || t == TierHook }

// Layer is one confinement or containment layer the host achieved for a
// run. Closed: a layer the host cannot name is not a layer it can claim.
type Layer string

// Layers.
const (
	LayerWazero       Layer = "wazero"        // WASI sandbox: no preopens, no env, no argv
	LayerMemoryLimit  Layer = "memory-limit"  // wazero memory ceiling
	LayerClock        Layer = "clock"         // wall-clock budget enforced by context cancellation
	LayerLandlockFS   Layer = "landlock-fs"   // Landlock: no filesystem access
	LayerLandlockNet  Layer = "landlock-net"  // Landlock: TCP connect/bind refused
	LayerSeccomp      Layer = "seccomp"       // seccomp filter: socket, exec, ptrace refused
	LayerProcessGroup Layer = "process-group" // child killed as a process group
	LayerCgroup       Layer = "cgroup"        // child in its own cgroup v2, killed by cgroup.kill
	LayerSubreaper    Layer = "subreaper"     // host is child subreaper; orphans are reaped
	LayerJobObject    Layer = "job-object"    // Windows job object, kill on close
	LayerDeadline     Layer = "deadline"      // host-side outer deadline on the child
	LayerOutputBounds Layer = "output-bounds" // bounded stdout and stderr
)

// Layers lists every layer.
func Layers() []Layer {
	return []Layer{LayerWazero, LayerMemoryLimit, LayerClock, LayerLandlockFS, LayerLandlockNet,
		LayerSeccomp, LayerProcessGroup, LayerCgroup, LayerSubreaper, LayerJobObject,
		LayerDeadline, LayerOutputBounds}
}

// EventKind is what an event record reports. Closed.
type EventKind string

// Event kinds.
const (
	EventStepStarted     EventKind = "step-started"     // the executor began an intent
	EventStepDone        EventKind = "step-done"        // the intent is staged or placed
	EventStepFailed      EventKind = "step-failed"      // the intent failed; its rules follow
	EventHop             EventKind = "hop"              // fetch/clone dialled an address for one hop
	EventRollbackStarted EventKind = "rollback-started" // the executor began undoing the plan
	EventRecoveryStarted EventKind = "recovery-started" // crash recovery found this plan's journal

	// What the executor did to one path, spelled as host/apply spells them.
	EventStaged   EventKind = "staged"   // content of an intent staged
	EventDeleted  EventKind = "deleted"  // target moved aside into staging
	EventNoop     EventKind = "noop"     // a delete found nothing
	EventMkdir    EventKind = "mkdir"    // a directory created by the host
	EventRenamed  EventKind = "renamed"  // a rename performed
	EventPlaced   EventKind = "placed"   // content renamed into place
	EventReplaced EventKind = "replaced" // an existing file moved aside for a write
	EventUndone   EventKind = "undone"   // a change undone during rollback
)

// StepKinds lists the event kinds that name a path (Step events).
func StepKinds() []EventKind {
	return []EventKind{EventStaged, EventDeleted, EventNoop, EventMkdir, EventRenamed,
		EventPlaced, EventReplaced, EventUndone}
}

// EventKinds lists every event kind.
func EventKinds() []EventKind {
	return append([]EventKind{EventStepStarted, EventStepDone, EventStepFailed, EventHop,
		EventRollbackStarted, EventRecoveryStarted}, StepKinds()...)
}

// OutcomeKind is how an applied plan ended. Closed; the three outcomes of
// the specification.
type OutcomeKind string

// Outcomes.
const (
	OutcomeCommitted      OutcomeKind = "committed"       // the post-plan tree is in place
	OutcomeRolledBack     OutcomeKind = "rolled-back"     // the tree is pre-plan again
	OutcomeRollbackFailed OutcomeKind = "rollback-failed" // the tree is in neither state
)

// OutcomeKinds lists every outcome.
func OutcomeKinds() []OutcomeKind {
	return []OutcomeKind{OutcomeCommitted, OutcomeRolledBack, OutcomeRollbackFailed}
}

func member[T ~string](v T, all []T) bool {
	for _, m := range all {
		if v == m {
			return true
		}
	}
	return false
}

func parse[T ~string](what string, s string, all []T) (T, error) {
	if member(T(s), all) {
		return T(s), nil
	}
	var zero T
	return zero, fmt.Errorf("audit: %q is not a %s", s, what)
}

func marshal[T ~string](what string, v T, all []T) ([]byte, error) {
	if !member(v, all) {
		return nil, fmt.Errorf("audit: %q is not a %s", string(v), what)
	}
	return []byte(v), nil
}

// ParseKind returns the kind spelled s, or an error.
func ParseKind(s string) (Kind, error) { return parse("record kind", s, Kinds()) }

// ParseTier returns the tier spelled s, or an error.
func ParseTier(s string) (Tier, error) { return parse("tier", s, Tiers()) }

// ParseLayer returns the layer spelled s, or an error.
func ParseLayer(s string) (Layer, error) { return parse("layer", s, Layers()) }

// ParseEventKind returns the event kind spelled s, or an error.
func ParseEventKind(s string) (EventKind, error) { return parse("event kind", s, EventKinds()) }

// ParseOutcomeKind returns the outcome spelled s, or an error.
func ParseOutcomeKind(s string) (OutcomeKind, error) { return parse("outcome", s, OutcomeKinds()) }

// String returns the wire spelling.
func (k Kind) String() string { return string(k) }

// String returns the wire spelling.
func (t Tier) String() string { return string(t) }

// String returns the wire spelling.
func (l Layer) String() string { return string(l) }

// String returns the wire spelling.
func (e EventKind) String() string { return string(e) }

// String returns the wire spelling.
func (o OutcomeKind) String() string { return string(o) }

// MarshalText refuses a value outside the vocabulary.
func (k Kind) MarshalText() ([]byte, error) { return marshal("record kind", k, Kinds()) }

// MarshalText refuses a value outside the vocabulary.
func (t Tier) MarshalText() ([]byte, error) { return marshal("tier", t, Tiers()) }

// MarshalText refuses a value outside the vocabulary.
func (l Layer) MarshalText() ([]byte, error) { return marshal("layer", l, Layers()) }

// MarshalText refuses a value outside the vocabulary.
func (e EventKind) MarshalText() ([]byte, error) { return marshal("event kind", e, EventKinds()) }

// MarshalText refuses a value outside the vocabulary.
func (o OutcomeKind) MarshalText() ([]byte, error) {
	return marshal("outcome", o, OutcomeKinds())
}

// UnmarshalText refuses a spelling outside the vocabulary.
func (k *Kind) UnmarshalText(b []byte) (err error) { *k, err = ParseKind(string(b)); return }

// UnmarshalText refuses a spelling outside the vocabulary.
func (t *Tier) UnmarshalText(b []byte) (err error) { *t, err = ParseTier(string(b)); return }

// UnmarshalText refuses a spelling outside the vocabulary.
func (l *Layer) UnmarshalText(b []byte) (err error) { *l, err = ParseLayer(string(b)); return }

// UnmarshalText refuses a spelling outside the vocabulary.
func (e *EventKind) UnmarshalText(b []byte) (err error) {
	*e, err = ParseEventKind(string(b))
	return
}

// UnmarshalText refuses a spelling outside the vocabulary.
func (o *OutcomeKind) UnmarshalText(b []byte) (err error) {
	*o, err = ParseOutcomeKind(string(b))
	return
}
