package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/hugeheap"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
)

// Proposer is who proposed a plan: what the audit log names and what the
// plan is checked against.
type Proposer struct {
	Extension audit.Extension
	Tier      audit.Tier
	// Caps is the extension's granted capability set. Nil means the plan
	// carries the user's own authority (a plan file given to `lola plan
	// apply`), so no capability is required.
	Caps *capability.Set
	// Paths is the extension's effective path grant. Nil means no grant
	// applies (a plan file); a non-nil empty grant refuses every path.
	Paths *capability.PathGrant
	// Layers are the confinement layers the extension ran under, for the log.
	Layers []audit.Layer
}

// Options configures one Apply.
type Options struct {
	// FS is the path-equality relation: pathrule.Auto (probe the root) or
	// a relation's name.
	FS string
	// DryRun checks everything and applies nothing (recovery of an
	// interrupted earlier apply still runs: see the package doc).
	DryRun bool
	// Log is the audit log; required unless DryRun.
	Log *audit.Log
	// Home is Lola's state directory, where the host key that
	// authenticates apply journals lives (apply.LoadKey). Empty: a key for
	// this run alone, so a journal left by an interrupted earlier apply is
	// reported (Recovered.Untrusted), never executed.
	Home string
	// Remote performs fetch and clone; nil fails any plan holding one.
	Remote *remote.Client
	// Warn receives non-fatal problems (an audit event that could not be
	// written after the pre-apply record was); nil discards them.
	Warn func(string)
	// Guard, when set, sees the prepared plan's tree diff before anything
	// is applied (and in a dry run). An error carrying rejections refuses
	// the plan like any other rule (OutcomeRejected, audited); any other
	// error aborts with nothing applied. It lets a caller add a rule that
	// needs its own knowledge, such as which files lola owns (host/install).
	Guard func(changes []apply.Change, p *plan.Plan) error
}

// Result is what one Apply did.
type Result struct {
	Outcome Outcome
	// Err is the rejection set (OutcomeRejected), or the failure that
	// triggered a rollback.
	Err error
	// Trigger names the intent whose failure rolled the plan back.
	Trigger *rejection.IntentRef
	// RollbackErr is why rollback failed (OutcomeRollbackFailed).
	RollbackErr error
	// Changes is the tree diff (OutcomeDryRun, and after a commit).
	Changes []apply.Change
	// Recovered reports what an interrupted earlier apply left, recovered
	// before this one started.
	Recovered apply.RecoveryReport
	// Correlation is the audit correlation id ("" in a dry run).
	Correlation audit.Correlation
	// Relation is the path-equality relation the plan was checked under.
	Relation string
	// RelationNote is set when the relation was chosen without knowing
	// the root's filesystem: a dry run (which writes nothing) on a
	// filesystem apply.Session.Inspect cannot identify. It says which
	// relation stood in and why, for the dry run's output.
	RelationNote string
}

// ErrRelationMismatch is returned (wrapped) when --fs names a relation that
// distinguishes names the root's filesystem treats as one.
var ErrRelationMismatch = apply.ErrRelationMismatch

// Apply takes p through every check and, unless o.DryRun, applies it
// atomically under rootDir. The error is for internal failures only; every
// refusal is an OutcomeRejected result whose Err lists the violations.
func Apply(ctx context.Context, rootDir string, p *plan.Plan, who Proposer, o Options) (Result, error) {
	if p == nil {
		return Result{}, errors.New("pipeline: nil plan")
	}
	if !o.DryRun && o.Log == nil {
		return Result{}, errors.New("pipeline: an audit log is required to apply")
	}
	reserveHeap(p.Len())
	warn := o.Warn
	if warn == nil {
		warn = func(string) {}
	}
	abs, err := filepath.Abs(rootDir)
	if err != nil {
		return Result{}, err
	}
	root, err := fsroot.Open(abs)
	if err != nil {
		return Result{}, fmt.Errorf("pipeline: the root cannot be opened: %w", err)
	}
	defer root.Close()

	obs := &observer{log: o.Log, who: who, plan: p, root: audit.NewRootID(abs), warn: warn}
	opts := apply.Options{Observer: obs, DryRun: o.DryRun}
	if o.Home != "" {
		if opts.Key, err = apply.LoadKey(o.Home); err != nil {
			return Result{}, fmt.Errorf("pipeline: %w", err)
		}
	}
	if o.Remote != nil {
		opts.Remote = &remoteAdapter{ctx: ctx, client: o.Remote, who: who, obs: obs}
	}
	s, err := apply.Begin(root, opts)
	if err != nil {
		var re *apply.RecoveryError
		if errors.As(err, &re) {
			LogRecovery(o.Log, re.Report, err, warn)
			return Result{Outcome: OutcomeRollbackFailed, Recovered: re.Report, RollbackErr: err}, nil
		}
		return Result{}, err
	}
	defer s.Close()
	// The pre-apply record needs no fsync of its own when the executor's
	// flush before the first change covers the log's filesystem.
	obs.flushed = s.FlushDevice()
	res := Result{Recovered: s.Recovered()}
	if res.Recovered.Kind != apply.RecoveryNone {
		LogRecovery(o.Log, res.Recovered, nil, warn)
	}
	WarnUntrusted(res.Recovered, warn)

	eq, note, err := Relation(s, o.FS)
	if err != nil {
		return res, err
	}
	res.Relation, res.RelationNote = eq.Name(), note
	reject := func(err error) (Result, error) {
		res.Outcome, res.Err = OutcomeRejected, err
		if o.Log != nil {
			intents, _ := audit.IntentsFromPlan(p)
			if _, lerr := o.Log.Rejected(audit.Rejection{Extension: who.Extension, Tier: who.Tier, Capabilities: capsOf(who), Err: err, Intents: intents}); lerr != nil {
				warn("the rejection could not be logged: " + lerr.Error())
			}
		}
		return res, nil
	}

	var set rejection.Set
	if who.Caps != nil {
		addAll(&set, who.Caps.Check(p))
	}
	v, verr := pathrule.Validate(p, eq)
	if verr != nil && len(rejection.All(verr)) == 0 {
		return res, verr
	}
	addAll(&set, verr)
	if who.Paths != nil {
		addAll(&set, who.Paths.Check(p))
	}
	if err := set.Err(); err != nil {
		return reject(err)
	}

	prep, err := s.Prepare(v, p)
	if err != nil {
		if len(rejection.All(err)) > 0 {
			return reject(err)
		}
		return res, err
	}
	if o.Guard != nil {
		if err := o.Guard(prep.Changes(), p); err != nil {
			_ = prep.Discard()
			if len(rejection.All(err)) > 0 {
				return reject(err)
			}
			return res, err
		}
	}
	if o.DryRun {
		if _, perr := s.Probe(); errors.Is(perr, apply.ErrUnidentified) && res.RelationNote == "" {
			// A relation named on a filesystem that cannot be identified
			// without writing: Prepare could not check it (the apply does).
			res.RelationNote = fmt.Sprintf("the root's filesystem cannot be identified without writing (%s), so this dry run did not check that %s matches it; the apply does", unidentifiedWhy(perr), eq.Name())
		}
		res.Outcome, res.Changes = OutcomeDryRun, prep.Changes()
		return res, prep.Discard()
	}
	res.Changes = prep.Changes()
	ar := s.Commit(prep)
	res.Correlation = obs.corr
	if ar.Trigger >= 0 {
		res.Trigger = &rejection.IntentRef{Index: ar.Trigger, Op: ar.TriggerOp}
	}
	res.Err, res.RollbackErr = ar.Cause, ar.RollbackErr
	switch ar.Outcome {
	case apply.OutcomeCommitted:
		res.Outcome = OutcomeCommitted
	case apply.OutcomeRolledBack:
		res.Outcome = OutcomeRolledBack
	default:
		res.Outcome = OutcomeRollbackFailed
	}
	return res, nil
}

func addAll(set *rejection.Set, err error) {
	for _, v := range rejection.All(err) {
		set.Add(v)
	}
}

// Relation picks the path-equality relation for a session: the one named,
// or for pathrule.Auto the one the root's filesystem calls for
// (Session.Probe: read from the filesystem's type where that is
// conclusive, else observed in the apply's staging directory).
//
// In a dry run on a filesystem that cannot be identified without writing
// (apply.ErrUnidentified), nothing is written: the relation is
// pathrule.ForFindings of every finding at once — the one that folds the
// most (case, Unicode normalization and HFS+'s ignorable code points:
// hfsplus) — so that the dry run reports every collision of case or
// normalization any such filesystem could make, at the price of
// collisions this one may not make. note then says so; it is "" otherwise.
func Relation(s *apply.Session, name string) (eq pathrule.Equality, note string, err error) {
	if name != "" && name != pathrule.Auto {
		eq, err = pathrule.ParseEquality(name)
		return eq, "", err
	}
	f, err := s.Probe()
	if errors.Is(err, apply.ErrUnidentified) {
		eq = pathrule.ForFindings(pathrule.Findings{CaseInsensitive: true, NormalizationInsensitive: true, IgnoresIgnorable: true})
		return eq, fmt.Sprintf("the root's filesystem cannot be identified without writing (%s), so this dry run compared names under %s, which folds the most; the apply observes the filesystem and may accept names this dry run reports as one", unidentifiedWhy(err), eq.Name()), nil
	}
	if err != nil {
		return nil, "", err
	}
	return pathrule.ForFindings(pathrule.Findings{
		CaseInsensitive:          f.CaseInsensitive || f.CasefoldFlag,
		NormalizationInsensitive: f.NormalizationInsensitive,
		IgnoresIgnorable:         f.IgnoresIgnorable,
	}), "", nil
}

// unidentifiedWhy is the reason an ErrUnidentified carries.
func unidentifiedWhy(err error) string {
	return strings.TrimPrefix(err.Error(), apply.ErrUnidentified.Error()+": ")
}

// WarnUntrusted tells the user about staging directories recovery refused
// to execute: their journal does not verify under this host's key. They
// are left in place as evidence; nothing in them ran.
func WarnUntrusted(rep apply.RecoveryReport, warn func(string)) {
	for _, name := range rep.Untrusted {
		warn(fmt.Sprintf("%s in the root holds an apply journal this host did not write (or cannot verify); it was not executed and is left in place for inspection: if no lola apply of yours was interrupted there, it may have been planted (for example shipped in a repository) and can be removed", name))
	}
}

// A plan's checks and apply touch about heapPerIntent bytes of Go heap per
// intent (10 000 small writes: 55 MB peak resident). From reserveHeapFrom intents
// on, that much (at most heapReserveMax) is reserved in huge pages before
// the work starts (hugeheap.Reserve): on a machine whose page faults are
// slow, a tenth of a large apply's time went to faulting its heap in 4 KiB
// pages. A smaller plan's run touches less than the reservation's
// collection costs.
const (
	heapPerIntent   = 5 << 10
	reserveHeapFrom = 1000
	heapReserveMax  = 64 << 20
)

func reserveHeap(intents int) {
	if intents < reserveHeapFrom {
		return
	}
	reserve(min(intents*heapPerIntent, heapReserveMax))
}

// reserve is hugeheap.Reserve; a test observes the sizes asked for.
var reserve = hugeheap.Reserve
