package pipeline

import (
	"errors"
	"fmt"
	"slices"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// observer writes the executor's trail to the audit log: the pre-apply
// record (Begin, before the tree is touched) and the outcome, under one
// correlation id that the journal also carries so a crash recovery can log
// against it. Remote hops are appended as they happen (remoteAdapter).
//
// Per-step events (staged, mkdir, placed, ...) are not appended one by
// one: each would be a locked, fsynced record, two or three per intent.
// The apply journal is what makes progress recoverable; the log keeps the
// totals, by step kind, and the directories the host created (the one
// effect the pre-apply record does not name) in the outcome record.
type observer struct {
	log  *audit.Log
	who  Proposer
	plan *plan.Plan
	root audit.RootID
	// flushed is the filesystem the executor flushes whole before its
	// first change (apply.Session.FlushDevice): the pre-apply record
	// needs no fsync of its own when the log lies on it.
	flushed durable.Device
	corr    audit.Correlation
	warn    func(string)
	ops     map[int]schema.Op
	steps   map[audit.EventKind]int
	dirs    []string // mkdir events' paths
}

func (o *observer) Begin(intents []apply.ResolvedIntent) error {
	o.ops = map[int]schema.Op{}
	for _, in := range intents {
		o.ops[in.Index] = in.Op
	}
	if o.log == nil {
		return errors.New("no audit log")
	}
	recs, err := audit.IntentsFromPlan(o.plan)
	if err != nil {
		return err
	}
	// Log each intent's paths as the executor resolved them, and refuse to
	// begin if the content it staged is not the content the plan carries.
	for _, ri := range intents {
		if ri.Index < 0 || ri.Index >= len(recs) {
			return fmt.Errorf("executor reported intent #%d of a %d-intent plan", ri.Index, len(recs))
		}
		r, err := recs[ri.Index].WithResolvedPaths(ri.Paths...)
		if err != nil {
			return err
		}
		if ri.SHA256 != "" && ri.SHA256 != r.SHA256() {
			return fmt.Errorf("intent #%d: staged content does not match the plan's", ri.Index)
		}
		recs[ri.Index] = r
	}
	o.corr, err = o.log.BeginFlushedBy(audit.PlanRecord{
		Extension:    o.who.Extension,
		Tier:         o.who.Tier,
		Capabilities: capsOf(o.who),
		Layers:       o.who.Layers,
		Root:         o.root,
		Intents:      recs,
	}, o.flushed)
	return err
}

func capsOf(who Proposer) []schema.Capability {
	if who.Caps == nil {
		return nil
	}
	return who.Caps.List()
}

// Tag is the correlation id the journal records.
func (o *observer) Tag() string { return o.corr.String() }

// Event counts a step for the outcome record. A kind outside the audit
// vocabulary is warned about once per kind (the outcome record would be
// refused with it) and not counted.
func (o *observer) Event(e apply.Event) {
	if o.corr.IsZero() {
		return
	}
	k := audit.EventKind(e.Kind)
	if o.steps == nil {
		o.steps = map[audit.EventKind]int{}
	}
	if !slices.Contains(audit.StepKinds(), k) {
		if _, seen := o.steps[k]; !seen {
			o.steps[k] = 0
			o.warn("audit: the executor reported a step kind the log does not know: " + string(e.Kind))
		}
		return
	}
	o.steps[k]++
	if k == audit.EventMkdir && e.Path != "" {
		o.dirs = append(o.dirs, e.Path)
	}
}

func (o *observer) Outcome(r apply.Result) {
	if o.corr.IsZero() {
		return
	}
	ref := rejection.IntentRef{Index: r.Trigger, Op: r.TriggerOp}
	var out audit.Outcome
	switch {
	case r.Outcome == apply.OutcomeCommitted:
		out = audit.Committed()
	case r.Outcome == apply.OutcomeRolledBack && r.Trigger >= 0:
		out = audit.RolledBack(ref, r.Cause)
	case r.Outcome == apply.OutcomeRolledBack:
		out = audit.RolledBackUnattributed(r.Cause)
	case r.Trigger >= 0:
		out = audit.RollbackFailed(ref, errors.Join(r.Cause, r.RollbackErr))
	default:
		out = audit.RollbackFailedUnattributed(errors.Join(r.Cause, r.RollbackErr))
	}
	if err := o.log.Outcome(o.corr, out.WithSteps(o.steps).WithCreatedDirs(o.dirs)); err != nil {
		o.warn("WARNING: the outcome could not be logged: " + err.Error())
	}
}

// LogRecovery records, against the interrupted apply's own correlation id,
// how recovery left the tree.
func LogRecovery(log *audit.Log, rec apply.RecoveryReport, err error, warn func(string)) {
	if log == nil || rec.Tag == "" {
		return
	}
	corr, perr := audit.ParseCorrelation(rec.Tag)
	if perr != nil {
		return
	}
	var out audit.Outcome
	switch rec.Kind {
	case apply.RecoveryCompleted:
		out = audit.Committed().Recovered()
	case apply.RecoveryRolledBack, apply.RecoveryDiscarded:
		out = audit.RecoveredRolledBack()
	case apply.RecoveryFailed:
		out = audit.RollbackFailedUnattributed(err).Recovered()
	default:
		return
	}
	if lerr := log.Event(corr, audit.RecoveryStarted()); lerr != nil {
		warn("the recovery could not be logged: " + lerr.Error())
		return
	}
	if lerr := log.Outcome(corr, out); lerr != nil {
		warn("the recovery could not be logged: " + lerr.Error())
	}
}
