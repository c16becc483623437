package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
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
replaced, renamed, with sizes), and changes nothing: it creates nothing
under --root, not even for an instant. With --fs auto the filesystem is
identified by reading its type; where that cannot tell how it compares
names (FUSE, NFS, SMB, ZFS, a casefolded directory, an unknown type) the
dry run compares them under the relation that folds the most, and says
so in a note ("relation_note" with --json), while the apply observes the
filesystem.

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
	Violations []rejection.Entry     `json:"violations"`
	Trigger    *rejection.IntentRef  `json:"trigger,omitempty"`
	Error      string                `json:"error,omitempty"`
	Changes    []apply.Change        `json:"changes,omitempty"`
	Recovered  *planApplyRecoveryRep `json:"recovered,omitempty"`
	// RelationNote says, for a dry run on a filesystem lola cannot
	// identify without writing, which relation stood in and why.
	RelationNote string `json:"relation_note,omitempty"`
}

type planApplyRecoveryRep struct {
	Kind    apply.Recovery `json:"kind"`
	Staging string         `json:"staging,omitempty"`
}

// planApplyLogPath is where the audit log lives for this invocation.
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
	return io.ReadAll(io.LimitReader(r, plan.DefaultLimits().MaxBytes()+1))
}

func runPlanApply(cmd *cobra.Command, f planApplyFlags, arg string) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	rep := planApplyReport{Violations: []rejection.Entry{}}
	if f.fs != pathrule.Auto {
		if _, err := pathrule.ParseEquality(f.fs); err != nil {
			return exitcode.Wrap(exitcode.Usage, fmt.Errorf("plan apply: --fs: %w", err))
		}
	}
	if st, err := os.Stat(f.root); err != nil || !st.IsDir() {
		return exitcode.Wrap(exitcode.Usage, errors.New("plan apply: --root is not a directory"))
	}
	body, err := readPlanArg(cmd, arg)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("plan apply: %w", err))
	}
	who := pipeline.Proposer{Extension: planFileIdentity(arg, body), Tier: audit.TierPlanFile}
	st, err := openState(f.home)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("plan apply: %w", err))
	}
	opts := pipeline.Options{FS: f.fs, DryRun: f.dryRun, Home: st.home, Warn: func(s string) { fmt.Fprintln(errOut, "lola: warning:", s) }}
	if !f.dryRun {
		if opts.Log, err = st.openAudit(); err != nil {
			return exitcode.Wrap(exitcode.Internal, fmt.Errorf("plan apply: %w", err))
		}
		defer opts.Log.Close()
		if opts.Remote, err = st.remoteClient(); err != nil {
			return exitcode.Wrap(exitcode.Usage, fmt.Errorf("plan apply: %w", err))
		}
	}

	p, err := plan.Decode(bytes.NewReader(body), plan.DefaultLimits())
	var pr pipeline.Result
	switch {
	case err != nil && len(rejection.All(err)) > 0:
		// Refused before it was a plan: logged like every rejection.
		pr = pipeline.Result{Outcome: pipeline.OutcomeRejected, Err: err}
		if opts.Log != nil {
			if _, lerr := opts.Log.Rejected(audit.Rejection{Extension: who.Extension, Tier: who.Tier, Err: err}); lerr != nil {
				fmt.Fprintln(errOut, "lola: warning: the rejection could not be logged:", lerr)
			}
		}
	case err != nil:
		return exitcode.Wrap(exitcode.Internal, fmt.Errorf("plan apply: %w", err))
	default:
		pr, err = pipeline.Apply(cmd.Context(), f.root, p, who, opts)
		if err != nil {
			if errors.Is(err, pipeline.ErrRelationMismatch) {
				err = fmt.Errorf("--fs %s: %w", f.fs, err)
			}
			return exitcode.Wrap(exitcode.ForApply(err), fmt.Errorf("plan apply: %w", err))
		}
	}

	rep.Outcome = pr.Outcome.String()
	rep.Valid = pr.Outcome != pipeline.OutcomeRejected
	if pr.Outcome == pipeline.OutcomeRejected {
		if es := rejection.Entries(pr.Err); es != nil {
			rep.Violations = es
		}
	} else if pr.Err != nil {
		rep.Error = pr.Err.Error()
	}
	rep.Trigger = pr.Trigger
	if pr.Outcome == pipeline.OutcomeDryRun {
		rep.Changes, rep.RelationNote = pr.Changes, pr.RelationNote
	}
	if pr.Recovered.Kind != apply.RecoveryNone {
		rep.Recovered = &planApplyRecoveryRep{Kind: pr.Recovered.Kind, Staging: pr.Recovered.Staging}
		if !f.json {
			fmt.Fprintf(errOut, "lola: recovered an interrupted apply first: %s\n", pr.Recovered.Kind)
		}
	}
	if f.json {
		if err := writeJSON(out, rep); err != nil {
			return exitcode.Wrap(exitcode.Internal, err)
		}
	} else {
		switch pr.Outcome {
		case pipeline.OutcomeDryRun:
			printTreeDiff(out, pr.Changes, pr.RelationNote)
		case pipeline.OutcomeCommitted:
			fmt.Fprintf(out, "committed %d intents (%s)\n", p.Len(), changeCounts(pr.Changes))
		}
	}
	return pipelineExit(exitcode.ForOutcome(pr.Outcome), pr, f.root, f.json, errOut)
}

// changeCounts spells how many paths each kind of change touched.
func changeCounts(changes []apply.Change) string {
	n := map[apply.ChangeKind]int{}
	for _, c := range changes {
		n[c.Kind]++
	}
	return fmt.Sprintf("%d added, %d removed, %d replaced, %d renamed, %d unchanged",
		n[apply.ChangeAdded], n[apply.ChangeRemoved], n[apply.ChangeReplaced], n[apply.ChangeRenamed], n[apply.ChangeNoop])
}

// printTreeDiff prints a dry run's changes, then note (pipeline.Result's
// RelationNote) when there is one.
func printTreeDiff(w io.Writer, changes []apply.Change, note string) {
	counts := map[apply.ChangeKind]int{}
	for _, c := range changes {
		counts[c.Kind]++
	}
	fmt.Fprintf(w, "dry run: %d added, %d removed, %d replaced, %d renamed, %d unchanged; nothing was applied\n",
		counts[apply.ChangeAdded], counts[apply.ChangeRemoved], counts[apply.ChangeReplaced], counts[apply.ChangeRenamed], counts[apply.ChangeNoop])
	for _, c := range changes {
		path := shownText(c.Path)
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
			fmt.Fprintf(w, "  > %s -> %s\n", shownText(c.From), path)
		case apply.ChangeNoop:
			fmt.Fprintf(w, "  = %s (delete: nothing there)\n", path)
		}
	}
	if note != "" {
		fmt.Fprintf(w, "note: %s\n", note)
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
