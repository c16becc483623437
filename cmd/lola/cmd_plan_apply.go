package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func init() { planCommands = append(planCommands, newPlanApplyCmd) }

type planApplyFlags struct {
	root   string
	dryRun bool
	fs     string
	json   bool
	home   string
}

func newPlanApplyCmd() *cobra.Command {
	var f planApplyFlags
	c := &cobra.Command{
		Use:   "apply --root DIR [--dry-run] [--fs auto|bytes|darwin|hfsplus|windows] [--json] FILE|-",
		Short: "Validate, log and apply a plan file atomically under a root",
		Long: `Decode the plan in FILE ("-" reads stdin), validate it whole (path
vocabulary, conflict rules under the filesystem's path-equality relation,
resolution beneath --root refusing every symlink, mount point and reparse
point), log it to the audit log, and apply it atomically: everything is
staged in a directory under the root, deletes are moved aside rather than
performed, and any failure rolls every change back.

--fs picks the path-equality relation: auto (default) probes the root's
filesystem for case and Unicode-normalization insensitivity; bytes, darwin,
hfsplus, windows and darwin-case-sensitive name one. A relation that
distinguishes names the root's filesystem treats as one is refused.

--dry-run prints what would change, as a tree diff (added, removed,
replaced, renamed, with sizes), and changes nothing.

Before anything else the root is locked and whatever an interrupted apply
left is recovered (see 'lola recover').

--json prints one object:
  {"valid": bool, "outcome": "committed"|"rolled-back"|"rollback-failed"|"rejected"|"dry-run",
   "violations": [{"rule": ..., "intents": [N], "detail": ...}],
   "trigger": {"index": N, "op": ...}, "changes": [...], "recovered": ...}

Exit status: 0 committed (or dry run); 2 usage; 3 plan rejected (nothing
applied); 5 applied then rolled back (the tree is pre-plan); 6 rollback
failed (the tree is in neither state); 1 internal error.`,
		Example: `  lola plan apply --root ~/project --dry-run plan.json
  lola plan apply --root ~/project plan.json
  extension | lola plan apply --root . --json -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPlanApply(cmd, f, args[0])
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.root, "root", "", "directory to apply the plan under (required)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "print what would change and apply nothing")
	fl.StringVar(&f.fs, "fs", "auto", "path-equality relation: auto, bytes, darwin, hfsplus, windows, darwin-case-sensitive")
	fl.BoolVar(&f.json, "json", false, "print the result as one JSON object")
	fl.StringVar(&f.home, "home", "", "Lola's state directory, for the audit log (default $LOLA_HOME, else ~/.lola)")
	_ = c.MarkFlagRequired("root")
	return c
}

// planApplyReport is the --json shape.
type planApplyReport struct {
	Valid      bool                  `json:"valid"`
	Outcome    string                `json:"outcome"`
	Violations []planApplyViolation  `json:"violations"`
	Trigger    *rejection.IntentRef  `json:"trigger,omitempty"`
	Error      string                `json:"error,omitempty"`
	Changes    []apply.Change        `json:"changes,omitempty"`
	Recovered  *planApplyRecoveryRep `json:"recovered,omitempty"`
}

type planApplyViolation struct {
	Rule    string `json:"rule"`
	Intents []int  `json:"intents"`
	Detail  string `json:"detail"`
}

type planApplyRecoveryRep struct {
	Kind    apply.Recovery `json:"kind"`
	Staging string         `json:"staging,omitempty"`
}

func planApplyViolations(err error) []planApplyViolation {
	out := []planApplyViolation{}
	for _, v := range rejection.All(err) {
		idx := v.IntentIndices()
		if idx == nil {
			idx = []int{}
		}
		out = append(out, planApplyViolation{Rule: v.Rule.String(), Intents: idx, Detail: v.Detail})
	}
	return out
}

// planApplyLogPath is where the audit log lives for this invocation.
func planApplyLogPath(home string) (string, error) {
	if home != "" {
		abs, err := filepath.Abs(home)
		if err != nil {
			return "", err
		}
		return filepath.Join(abs, audit.FileName), nil
	}
	return audit.DefaultPath()
}

// planFileIdentity names a plan file for the audit log: its base name (never
// its directory) and the sha256 of its bytes.
func planFileIdentity(arg string, body []byte) audit.Extension {
	name := filepath.Base(arg)
	if arg == "-" {
		name = "stdin"
	}
	ext, err := audit.NewExtension(name, "")
	if err != nil {
		ext, _ = audit.NewExtension("plan-file", "")
	}
	return ext.WithArtifact(sha256.Sum256(body))
}

func readPlanArg(cmd *cobra.Command, arg string) ([]byte, error) {
	var r io.Reader
	if arg == "-" {
		r = cmd.InOrStdin()
	} else {
		f, err := os.Open(arg)
		if err != nil {
			return nil, fmt.Errorf("cannot open the plan file %s", filepath.Base(arg))
		}
		defer f.Close()
		r = f
	}
	// One byte over the decoder's bound is enough for it to refuse.
	return io.ReadAll(io.LimitReader(r, plan.DefaultLimits().MaxBytes()+1))
}

func runPlanApply(cmd *cobra.Command, f planApplyFlags, arg string) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	rep := planApplyReport{Violations: []planApplyViolation{}}
	finish := func(code int, err error) error {
		if f.json {
			if err != nil && rep.Error == "" && rep.Outcome != "rejected" {
				rep.Error = err.Error()
			}
			if jerr := writeJSON(out, rep); jerr != nil {
				return withCode(exitInternal, jerr)
			}
		}
		if code == exitOK {
			return nil
		}
		if f.json && err != nil {
			return withCode(code, errors.New(""))
		}
		return withCode(code, err)
	}

	if f.fs != pathrule.Auto {
		if _, err := pathrule.ParseEquality(f.fs); err != nil {
			return withCode(exitUsage, fmt.Errorf("plan apply: --fs: %w", err))
		}
	}
	if st, err := os.Stat(f.root); err != nil || !st.IsDir() {
		return withCode(exitUsage, errors.New("plan apply: --root is not a directory"))
	}
	body, err := readPlanArg(cmd, arg)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("plan apply: %w", err))
	}
	ident := planFileIdentity(arg, body)
	absRoot, err := filepath.Abs(f.root)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("plan apply: --root: %w", err))
	}

	// The audit log: a plan that cannot be logged is not applied.
	var log *audit.Log
	if !f.dryRun {
		path, err := planApplyLogPath(f.home)
		if err != nil {
			return finish(exitInternal, fmt.Errorf("plan apply: audit log: %w", err))
		}
		if log, err = audit.Open(path); err != nil {
			return finish(exitInternal, fmt.Errorf("plan apply: %w", err))
		}
		defer log.Close()
	}
	reject := func(p *plan.Plan, corr audit.Correlation, err error) error {
		rep.Outcome, rep.Violations = "rejected", planApplyViolations(err)
		if log != nil {
			var intents []audit.IntentRecord
			if p != nil {
				intents, _ = audit.IntentsFromPlan(p)
			}
			if _, lerr := log.Rejected(audit.Rejection{Extension: ident, Tier: audit.TierPlanFile, Err: err, Intents: intents, Correlation: corr}); lerr != nil {
				fmt.Fprintln(errOut, "lola: warning: the rejection could not be logged:", lerr)
			}
		}
		if !f.json {
			fmt.Fprintln(errOut, "plan rejected; nothing was applied:")
			for _, v := range rejection.All(err) {
				fmt.Fprintln(errOut, "  "+v.Error())
			}
			return withCode(exitRejected, errors.New(""))
		}
		return finish(exitRejected, err)
	}

	p, err := plan.Decode(bytes.NewReader(body), plan.DefaultLimits())
	if err != nil {
		if len(rejection.All(err)) > 0 {
			return reject(nil, audit.Correlation{}, err)
		}
		return finish(exitInternal, fmt.Errorf("plan apply: %w", err))
	}

	root, err := fsroot.Open(absRoot)
	if err != nil {
		return withCode(exitUsage, errors.New("plan apply: --root cannot be opened"))
	}
	defer root.Close()
	obs := &auditObserver{log: log, ident: ident, plan: p, root: audit.NewRootID(absRoot), errOut: errOut}
	s, err := apply.Begin(root, apply.Options{Observer: obs})
	if err != nil {
		var re *apply.RecoveryError
		if !errors.As(err, &re) {
			return finish(exitInternal, fmt.Errorf("plan apply: %w", err))
		}
		logRecovery(log, re.Report, err, errOut)
		return finish(exitRollbackFailed, fmt.Errorf("plan apply: an interrupted apply could not be recovered; the tree is in neither state (run 'lola recover --root DIR'): %w", err))
	}
	defer s.Close()
	if rec := s.Recovered(); rec.Kind != apply.RecoveryNone {
		rep.Recovered = &planApplyRecoveryRep{Kind: rec.Kind, Staging: rec.Staging}
		logRecovery(log, rec, nil, errOut)
		if !f.json {
			fmt.Fprintf(errOut, "lola: recovered an interrupted apply first: %s\n", rec.Kind)
		}
	}

	eq, err := planApplyRelation(s, f.fs)
	if err != nil {
		return finish(exitInternal, fmt.Errorf("plan apply: %w", err))
	}
	v, err := pathrule.Validate(p, eq)
	if err != nil {
		if len(rejection.All(err)) > 0 {
			return reject(p, audit.Correlation{}, err)
		}
		return finish(exitInternal, fmt.Errorf("plan apply: %w", err))
	}
	prep, err := s.Prepare(v, p)
	if err != nil {
		if len(rejection.All(err)) > 0 {
			return reject(p, audit.Correlation{}, err)
		}
		if errors.Is(err, apply.ErrRelationMismatch) {
			return finish(exitUsage, fmt.Errorf("plan apply: --fs %s: %w", f.fs, err))
		}
		return finish(exitInternal, fmt.Errorf("plan apply: %w", err))
	}
	rep.Valid = true
	if f.dryRun {
		rep.Outcome, rep.Changes = "dry-run", prep.Changes()
		if err := prep.Discard(); err != nil {
			return finish(exitInternal, err)
		}
		if !f.json {
			printTreeDiff(out, prep.Changes())
		}
		return finish(exitOK, nil)
	}

	res := s.Commit(prep)
	rep.Outcome = res.Outcome.String()
	if res.Trigger >= 0 {
		rep.Trigger = &rejection.IntentRef{Index: res.Trigger, Op: res.TriggerOp}
	}
	switch res.Outcome {
	case apply.OutcomeCommitted:
		if !f.json {
			fmt.Fprintf(out, "committed %d intents\n", p.Len())
		}
		return finish(exitOK, nil)
	case apply.OutcomeRolledBack:
		return finish(exitRolledBack, fmt.Errorf("plan apply: %s; rolled back, the tree is as it was before the plan", describeFailure(res)))
	default:
		return finish(exitRollbackFailed, fmt.Errorf("ROLLBACK FAILED: %s, and undoing it failed (%v). The tree under --root is in NEITHER the pre-plan NOR the post-plan state. Run 'lola recover --root DIR'; the staging directory has been kept", describeFailure(res), res.RollbackErr))
	}
}

func describeFailure(res apply.Result) string {
	what := "the apply failed"
	if res.Trigger >= 0 {
		what = fmt.Sprintf("intent #%d (%s) failed", res.Trigger, res.TriggerOp)
	}
	if res.Cause != nil {
		what += ": " + res.Cause.Error()
	}
	return what
}

// planApplyRelation is the relation named by --fs, or under auto the one
// the root's filesystem was observed to use.
func planApplyRelation(s *apply.Session, name string) (pathrule.Equality, error) {
	if name != pathrule.Auto {
		return pathrule.ParseEquality(name)
	}
	fnd, err := s.Probe()
	if err != nil {
		return nil, err
	}
	return pathrule.ForFindings(pathrule.Findings{
		CaseInsensitive:          fnd.CaseInsensitive || fnd.CasefoldFlag,
		NormalizationInsensitive: fnd.NormalizationInsensitive,
		IgnoresIgnorable:         fnd.IgnoresIgnorable,
	}), nil
}

// printTreeDiff renders a dry run for people.
func printTreeDiff(w io.Writer, changes []apply.Change) {
	counts := map[apply.ChangeKind]int{}
	for _, c := range changes {
		counts[c.Kind]++
	}
	fmt.Fprintf(w, "dry run: %d added, %d removed, %d replaced, %d renamed, %d unchanged; nothing was applied\n",
		counts[apply.ChangeAdded], counts[apply.ChangeRemoved], counts[apply.ChangeReplaced], counts[apply.ChangeRenamed], counts[apply.ChangeNoop])
	for _, c := range changes {
		path := c.Path
		if c.Dir {
			path += "/"
		}
		switch c.Kind {
		case apply.ChangeAdded:
			fmt.Fprintf(w, "  + %s (%s)\n", path, sizeText(c.Size))
		case apply.ChangeRemoved:
			if c.Dir {
				fmt.Fprintf(w, "  - %s (%d files, %s)\n", path, c.Files, sizeText(c.OldSize))
			} else {
				fmt.Fprintf(w, "  - %s (%s)\n", path, sizeText(c.OldSize))
			}
		case apply.ChangeReplaced:
			fmt.Fprintf(w, "  ~ %s (%s -> %s)\n", path, sizeText(c.OldSize), sizeText(c.Size))
		case apply.ChangeRenamed:
			fmt.Fprintf(w, "  > %s -> %s\n", c.From, path)
		case apply.ChangeNoop:
			fmt.Fprintf(w, "  = %s (delete: nothing there)\n", path)
		}
	}
}

func sizeText(n int64) string {
	if n < 0 {
		return "size known after fetch"
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// auditObserver writes an apply's trail into the audit log.
type auditObserver struct {
	log    *audit.Log
	ident  audit.Extension
	plan   *plan.Plan
	root   audit.RootID
	corr   audit.Correlation
	errOut io.Writer
	ops    map[int]schema.Op
}

func (o *auditObserver) Begin(intents []apply.ResolvedIntent) error {
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
	o.corr, err = o.log.Begin(audit.PlanRecord{Extension: o.ident, Tier: audit.TierPlanFile, Root: o.root, Intents: recs})
	return err
}

func (o *auditObserver) Tag() string { return o.corr.String() }

func (o *auditObserver) Event(e apply.Event) {
	if o.corr.IsZero() {
		return
	}
	ref := rejection.IntentRef{Index: e.Intent, Op: o.ops[e.Intent]}
	if err := o.log.Event(o.corr, audit.Step(audit.EventKind(e.Kind), ref, e.Path)); err != nil {
		fmt.Fprintln(o.errOut, "lola: warning: audit event not logged:", err)
	}
}

func (o *auditObserver) Outcome(r apply.Result) {
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
		out = audit.RollbackFailed(ref, r.RollbackErr)
	default:
		out = audit.RollbackFailedUnattributed(r.RollbackErr)
	}
	if err := o.log.Outcome(o.corr, out); err != nil {
		fmt.Fprintln(o.errOut, "lola: WARNING: the outcome could not be logged:", err)
	}
}

// logRecovery records what recovery did under the interrupted apply's
// correlation id, when its journal named one.
func logRecovery(log *audit.Log, rec apply.RecoveryReport, err error, errOut io.Writer) {
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
	log.Event(corr, audit.RecoveryStarted())
	if lerr := log.Outcome(corr, out); lerr != nil {
		fmt.Fprintln(errOut, "lola: warning: the recovery could not be logged:", strings.TrimSpace(lerr.Error()))
	}
}
