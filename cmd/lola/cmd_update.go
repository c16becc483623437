package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/reinstall"
	"github.com/lola-pm/lola/schema"
)

func init() { topCommands = append(topCommands, newUpdateCmd) }

func newUpdateCmd() *cobra.Command {
	var assistant string
	var verbose, dryRun bool
	c := &cobra.Command{
		Use:   "update [MODULE] [-a ASSISTANT] [-v] [--dry-run]",
		Short: "Install again, from the store's current content, what installed.yml records",
		Long: `Run again every install $LOLA_HOME/installed.yml records (only MODULE's,
only ASSISTANT's, when given) from the module's current content in the
store: after 'lola mod update', or after editing a module. Each install is
one plan through its assistant's target extension, validated whole and
applied atomically, as 'lola install' does (its hooks run again, and an
install made with --append-context references the same paths again; one
no longer there stops the run at that install, exit 2). What the module
no longer has is removed: the files lola wrote for a skill, command or
agent it dropped (a file you changed since is kept and named), and an MCP
server it dropped from the assistant's MCP configuration.

The installs run one after the other and share one audit correlation id
('lola audit show --correlation ID'). Each is one plan of its own: one that
fails is reported with its cause and left as it was (nothing applied, or
rolled back), and the others still run. An install whose project
directory is gone is skipped and reported stale.

Exit status: 0 updated (or nothing to update); otherwise the most severe
code of the installs that failed, as 'lola install' has them (6 over 5
over 4 over 3 over 2 over 1).`,
		Example: `  lola update
  lola update my-skills
  lola update -a cursor --dry-run`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkAssistantFlag([]string{assistant}, nil); err != nil {
				return err
			}
			o, err := installOptions(cmd, "project", []string{""})
			if err != nil {
				return err
			}
			o.DryRun = dryRun
			f := reinstall.Filter{Assistant: assistant}
			if len(args) == 1 {
				f.Module = args[0]
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			res, err := reinstall.Run(ctx, o, f)
			if err == nil && len(res.Done) == 0 && len(res.Stale) == 0 {
				fmt.Fprintln(cmd.OutOrStdout(), "No installations to update")
				return nil
			}
			if err := printReinstall(cmd, res, err, verbose, "no longer in the module"); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "Update complete")
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVarP(&assistant, "assistant", "a", "", "only the installs for this assistant")
	fl.BoolVarP(&verbose, "verbose", "v", false, "list every file each install changed")
	fl.BoolVar(&dryRun, "dry-run", false, "check every plan; change nothing")
	return c
}

// printReinstall prints a reinstall.Run: each install done, with the stale
// files and servers removed (gone says why: "no longer in the module") or
// kept, the stale projects, and each install that failed (the run goes
// on past a failure); it returns the worst failure's exit code.
func printReinstall(cmd *cobra.Command, res reinstall.Result, err error, verbose bool, gone string) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	for _, d := range res.Done {
		fmt.Fprintf(out, "  %s  %s  %s: %s\n", shown(d.Record.Module), shown(d.Record.Assistant), updateWhere(d.Record), updateCounts(d.Report))
		for _, p := range d.Stale.Removed {
			fmt.Fprintf(out, "    - %s (%s)\n", shownText(p), gone)
		}
		for _, n := range d.Stale.Servers {
			fmt.Fprintf(out, "    - mcp:%s (%s)\n", shown(n), gone)
		}
		for _, p := range d.Stale.Kept {
			fmt.Fprintf(errOut, "lola: warning: %s is %s but changed since lola wrote it; kept\n", shownText(p), gone)
		}
		for _, s := range d.Stale.KeptServers {
			fmt.Fprintf(errOut, "lola: warning: mcp:%s in %s is no longer in the module but is not as lola wrote it (changed since, or installed before lola recorded server values); kept\n", shown(s.Name), shownText(s.Path))
		}
		if verbose && d.Report.Result != nil {
			for _, c := range d.Report.Result.Changes {
				installPrintChange(out, c)
			}
		}
	}
	for _, r := range res.Stale {
		fmt.Fprintf(errOut, "lola: warning: %s for %s: the project %s no longer exists (stale; lola uninstall it or recreate the directory)\n", shown(r.Module), shown(r.Assistant), shownText(r.ProjectPath))
	}
	if err != nil {
		if !errors.Is(err, reinstall.ErrFailed) || len(res.Failed) == 0 {
			return exitcode.Wrap(exitcode.Internal, err)
		}
		codes := make([]int, 0, len(res.Failed))
		for _, d := range res.Failed {
			codes = append(codes, updateFailed(cmd, d))
		}
		if !res.Correlation.IsZero() {
			fmt.Fprintf(errOut, "audit correlation %s\n", res.Correlation)
		}
		return exitcode.Wrap(exitcode.Worst(codes...), fmt.Errorf("%s of %s not updated; the others are", countText(len(res.Failed), "install"), countText(len(res.Failed)+len(res.Done), "install")))
	}
	if !res.Correlation.IsZero() {
		fmt.Fprintf(out, "audit correlation %s\n", res.Correlation)
	}
	return nil
}

// updateFailed tells people about one install the update could not do,
// as 'lola install' would (its hooks, its target's log, the plan's
// refusal or rollback), and returns its exit code.
func updateFailed(cmd *cobra.Command, d reinstall.Done) int {
	errOut := cmd.ErrOrStderr()
	fmt.Fprintf(errOut, "lola: not updated: %s for %s in %s\n", shown(d.Record.Module), shown(d.Record.Assistant), updateWhere(d.Record))
	code := exitcode.ForStopped(d.Report, d.Err)
	ferr := installFinish(cmd, d.Report, d.Err, false, false)
	if ferr == nil && d.Err != nil {
		ferr = d.Err
	}
	if ferr != nil {
		if msg := ferr.Error(); msg != "" {
			fmt.Fprintf(errOut, "lola:   %s\n", msg)
		}
	}
	return code
}

func updateWhere(r install.Record) string {
	if r.Scope == string(schema.ScopeUser) {
		return "user scope"
	}
	return "project " + shownText(r.ProjectPath)
}

func updateCounts(rep install.Report) string {
	if rep.Result == nil {
		return "no result"
	}
	s := installChangeCounts(rep.Result.Changes)
	if rep.Result.Outcome.String() == "dry-run" {
		s = "would be " + s
	}
	return s
}
