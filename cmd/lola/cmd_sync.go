package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/sync"
)

func init() { topCommands = append(topCommands, newSyncCmd) }

func newSyncCmd() *cobra.Command {
	var file string
	var dryRun, verbose bool
	var assistants []string
	c := &cobra.Command{
		Use:   "sync [PROJECT] [--file FILE] [--dry-run] [-a ASSISTANT]... [-v]",
		Short: "Install the modules a project's .lola-req lists",
		Long: `Read PROJECT/.lola-req (or --file; relative to PROJECT) and install, for
each line, the module into PROJECT for each assistant that does not have it
yet, or has it at a version the line does not admit.

A line is a module reference with an optional version specifier and
fragment:
  my-skill                       a module in the store (or in one marketplace)
  @community/git-tools>=1.0,<2   from a marketplace, versions 1.x
  python-tools~1.2               >=1.2,<1.3 (^1.2 is >=1.2,<2)
  https://github.com/u/r.git#subdirectory=plugins/dev&assistant=claude-code,cursor
Blank lines and lines starting with '#' are ignored. A version is known
only from a marketplace catalog; a specifier on a module without one is
reported unchecked.

Assistants: -a (repeatable), else the line's #assistant=, else every
assistant target lola knows. Each install is one plan applied atomically;
all share one audit correlation id. The first failure stops the sync: the
installs before it stay, and the lines not processed are listed.

Exit status: 0 in sync (or dry run); 1 no such file, or a module not
found; 2 a line that does not parse; otherwise the failed install's code.`,
		Example: `  lola sync
  lola sync --dry-run
  lola sync ~/work/app --file requirements/lola.txt -a claude-code`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkAssistantFlag(assistants, nil); err != nil {
				return err
			}
			project := "."
			if len(args) == 1 {
				project = args[0]
			}
			abs, err := install.ProjectDir(project)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			if !filepath.IsAbs(file) {
				file = filepath.Join(abs, file)
			}
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			reqs, err := sync.ReadFile(file)
			if err != nil {
				code := exitcode.ForSyncFile(err)
				if errors.Is(err, sync.ErrNoFile) {
					fmt.Fprintln(errOut, "lola: write one module a line, e.g.\n  my-skill\n  @community/git-tools>=1.0\n  https://github.com/user/repo.git#subdirectory=plugins/dev")
					err = fmt.Errorf("Config file not found: %s", file)
				}
				return exitcode.Wrap(code, err)
			}
			if len(reqs) == 0 {
				fmt.Fprintln(out, "No modules specified in "+filepath.Base(file))
				return nil
			}
			o, err := installOptions(cmd, "project", []string{""})
			if err != nil {
				return err
			}
			reg, err := marketRegistry()
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			fmt.Fprintf(out, "Syncing from %s\n", filepath.Base(file))
			res, err := sync.Run(ctx, sync.Options{Base: o, Project: abs, Assistants: assistants, DryRun: dryRun, Market: reg}, reqs)
			counts := map[sync.Outcome]int{}
			for _, s := range res.Done {
				counts[s.Outcome]++
				if s.Outcome == sync.Skipped && !verbose {
					continue
				}
				line := fmt.Sprintf("  %s %s (%s)", s.Outcome, shown(s.Module), shown(s.Assistant))
				if s.Version != "" {
					line += " " + shown(s.Version)
				}
				fmt.Fprintln(out, line)
				if s.Unchecked {
					fmt.Fprintf(errOut, "lola: warning: line %d: %s has no known version; %s not checked\n", s.Req.Line, shown(s.Module), s.Req.Spec)
				}
			}
			fmt.Fprintf(out, "%d installed, %d already installed, %d would install\n", counts[sync.Installed], counts[sync.Skipped], counts[sync.WouldInstall])
			if err == nil {
				if !res.Correlation.IsZero() {
					fmt.Fprintf(out, "audit correlation %s\n", res.Correlation)
				}
				return nil
			}
			if res.Failed == nil {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			var ferr error
			if res.Failed.Assistant != "" && (res.Failed.Report.Result != nil || res.Failed.Report.Launched != nil) {
				ferr = installFinish(cmd, res.Failed.Report, res.Failed.Err, false, false)
			}
			for _, r := range res.Remaining {
				fmt.Fprintf(errOut, "lola: not synced (the run stopped): line %d: %s\n", r.Line, shownText(r.Raw))
			}
			if !res.Correlation.IsZero() {
				fmt.Fprintf(errOut, "audit correlation %s\n", res.Correlation)
			}
			if ferr != nil {
				return ferr
			}
			code := exitcode.ForSync(res.Failed.Report, res.Failed.Err)
			if errors.Is(res.Failed.Err, install.ErrModuleNotFound) {
				return exitcode.Wrap(code, fmt.Errorf("line %d: module %s not found in the store or an enabled marketplace", res.Failed.Req.Line, shown(res.Failed.Module)))
			}
			return exitcode.Wrap(code, fmt.Errorf("line %d (%s): %w", res.Failed.Req.Line, shownText(res.Failed.Req.Raw), res.Failed.Err))
		},
	}
	fl := c.Flags()
	fl.StringVar(&file, "file", sync.DefaultFile, "the requirements file (relative to PROJECT)")
	fl.BoolVar(&dryRun, "dry-run", false, "say what would be installed; fetch and change nothing")
	fl.BoolVarP(&verbose, "verbose", "v", false, "also list what is already installed")
	fl.StringArrayVarP(&assistants, "assistant", "a", nil, "assistant to sync for (repeatable; default: each line's, else every one)")
	return c
}
