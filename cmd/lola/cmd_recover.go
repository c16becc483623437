package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pipeline"
)

func init() { topCommands = append(topCommands, newRecoverCmd) }

func newRecoverCmd() *cobra.Command {
	var root, home string
	var asJSON bool
	c := &cobra.Command{
		Use:   "recover --root DIR [--json]",
		Short: "Finish or undo an apply that was interrupted under a root",
		Long: `An apply killed mid-way (kill -9, power loss) leaves a journal in a staging
directory under the root. recover locks the root and reads it: if the commit
point had not been reached every change is undone and the tree is the
pre-plan tree again ("rolled-back"); if it had, the commit is completed
("completed"); staging that never touched the tree is removed
("discarded"). Every 'lola plan apply' does this first on its own; this
command does it alone. The outcome is appended to the audit log under the
interrupted plan's correlation id.

--json prints {"recovery": "none"|"discarded"|"rolled-back"|"completed"|"failed",
"staging": NAME, "error": ...}.

Exit status: 0 recovered or nothing to do; 2 usage; 6 the journal could not
be undone (the tree is in neither state; staging is kept); 1 internal error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if st, err := os.Stat(root); err != nil || !st.IsDir() {
				return exitcode.Wrap(exitcode.Usage, errors.New("recover: --root is not a directory"))
			}
			abs, err := filepath.Abs(root)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			r, err := fsroot.Open(abs)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, errors.New("recover: --root cannot be opened"))
			}
			defer r.Close()
			var log *audit.Log
			keyHome := home
			if st, err := openState(home); err == nil {
				keyHome = st.home
				if log, err = st.openAudit(); err == nil {
					defer log.Close()
				} else {
					fmt.Fprintln(cmd.ErrOrStderr(), "lola: warning: audit log unavailable; recovery proceeds unlogged:", err)
				}
			} else {
				// A broken config.yaml must not stand in the way of
				// recovery: only the key is needed.
				fmt.Fprintln(cmd.ErrOrStderr(), "lola: warning: state unavailable; recovery proceeds unlogged:", err)
				if keyHome == "" {
					if keyHome, err = config.Home(); err != nil {
						return exitcode.Wrap(exitcode.Usage, fmt.Errorf("recover: %w", err))
					}
				}
			}
			// Only a journal authenticated by this host's key is executed.
			key, err := apply.LoadKey(keyHome)
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, fmt.Errorf("recover: %w", err))
			}
			warn := func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), "lola: warning:", s) }
			rep, rerr := apply.Recover(r, key)
			pipeline.LogRecovery(log, rep, rerr, warn)
			pipeline.WarnUntrusted(rep, warn)
			code := exitcode.ForRecover(rerr)
			if asJSON {
				out := struct {
					Recovery  apply.Recovery `json:"recovery"`
					Staging   string         `json:"staging,omitempty"`
					Untrusted []string       `json:"untrusted,omitempty"`
					Error     string         `json:"error,omitempty"`
				}{Recovery: rep.Kind, Staging: rep.Staging, Untrusted: rep.Untrusted}
				if rerr != nil {
					out.Recovery = apply.RecoveryFailed
					out.Error = rerr.Error()
				}
				if err := writeJSON(cmd.OutOrStdout(), out); err != nil {
					return exitcode.Wrap(exitcode.Internal, err)
				}
				if code != exitcode.OK {
					return exitcode.Wrap(code, errors.New(""))
				}
				return nil
			}
			if rerr != nil {
				if code == exitcode.RollbackFailed {
					return exitcode.Wrap(code, fmt.Errorf("RECOVERY FAILED: the tree is in neither the pre-plan nor the post-plan state; staging %s is kept: %w", rep.Staging, rerr))
				}
				return exitcode.Wrap(code, fmt.Errorf("recover: %w", rerr))
			}
			switch rep.Kind {
			case apply.RecoveryNone:
				fmt.Fprintln(cmd.OutOrStdout(), "nothing to recover")
			case apply.RecoveryCompleted:
				fmt.Fprintln(cmd.OutOrStdout(), "completed: the interrupted apply had passed its commit point; the tree is the post-plan tree")
			default:
				fmt.Fprintf(cmd.OutOrStdout(), "%s: the tree is the pre-plan tree\n", rep.Kind)
			}
			return nil
		},
	}
	c.Flags().StringVar(&root, "root", "", "the root an apply was interrupted under (required)")
	c.Flags().StringVar(&home, "home", "", "Lola's state directory, for the audit log (default $LOLA_HOME, else ~/.lola)")
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	_ = c.MarkFlagRequired("root")
	return c
}
