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

A line is a module reference with an optional version specifier,
fragment and content directory:
  my-skill                       a module in the store (or in one marketplace)
  @community/git-tools>=1.0,<2   from a marketplace, versions 1.x
  python-tools~1.2               >=1.2,<1.3 (^1.2 is >=1.2,<2)
  git+https://github.com/u/r.git@v1.0.0          a git URL at a ref
  https://github.com/u/r.git#subdirectory=plugins/dev&assistant=claude-code,cursor
  https://github.com/u/r.git@main --module-content=plugins/dev
Blank lines, lines starting with '#' and the rest of a line from a
' #' are ignored. A version is known only from a marketplace catalog; a
specifier on a module without one is reported unchecked.

Assistants: -a (repeatable), else the line's #assistant=, else every
assistant target lola knows. Each install is one plan applied atomically;
all share one audit correlation id. Every line is read and run on its
own: a line that does not parse is named with its number and skipped,
and a line or install that fails is reported; the others still run.

Exit status: 0 in sync (or dry run); 1 no such file; otherwise the most
severe code of what failed: 1 a module not found, 2 a line that does not
parse, an install's code as 'lola install' has them.`,
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
			reqs, bad, err := sync.ReadFile(file)
			if err != nil {
				code := exitcode.ForSyncFile(err)
				if errors.Is(err, sync.ErrNoFile) {
					fmt.Fprintln(errOut, "lola: write one module a line, e.g.\n  my-skill\n  @community/git-tools>=1.0\n  https://github.com/user/repo.git#subdirectory=plugins/dev")
					err = fmt.Errorf("Config file not found: %s", file)
				}
				return exitcode.Wrap(code, err)
			}
			var codes []int
			for _, b := range bad {
				fmt.Fprintf(errOut, "lola: skipped: %s\n", shownText(b.Error()))
				codes = append(codes, exitcode.ForSyncFile(b))
			}
			if len(reqs) == 0 {
				if len(bad) == 0 {
					fmt.Fprintln(out, "No modules specified in "+filepath.Base(file))
					return nil
				}
				return exitcode.Wrap(exitcode.Worst(codes...), fmt.Errorf("no line of %s parses", filepath.Base(file)))
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
			if err != nil && !errors.Is(err, sync.ErrFailed) {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			for _, s := range res.Failed {
				codes = append(codes, syncFailed(cmd, s))
			}
			fmt.Fprintf(out, "%d installed, %d already installed, %d would install", counts[sync.Installed], counts[sync.Skipped], counts[sync.WouldInstall])
			if n := len(res.Failed) + len(bad); n > 0 {
				fmt.Fprintf(out, ", %d failed", n)
			}
			fmt.Fprintln(out)
			if !res.Correlation.IsZero() {
				fmt.Fprintf(out, "audit correlation %s\n", res.Correlation)
			}
			if len(codes) > 0 {
				return exitcode.Wrap(exitcode.Worst(codes...), fmt.Errorf("%s of %s did not sync; the others did", countText(len(bad)+len(res.Failed), "step"), filepath.Base(file)))
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&file, "file", sync.DefaultFile, "the requirements file (relative to PROJECT)")
	fl.BoolVar(&dryRun, "dry-run", false, "say what would be installed; fetch and change nothing")
	fl.BoolVarP(&verbose, "verbose", "v", false, "also list what is already installed")
	fl.StringArrayVarP(&assistants, "assistant", "a", nil, "assistant to sync for (repeatable; default: each line's, else every one)")
	return c
}

// syncFailed tells people about one step of a sync that failed: the line,
// and for an install the report 'lola install' would print. It returns
// the step's exit code.
func syncFailed(cmd *cobra.Command, s sync.Step) int {
	errOut := cmd.ErrOrStderr()
	where := fmt.Sprintf("line %d (%s)", s.Req.Line, shownText(s.Req.Raw))
	if s.Assistant != "" {
		where += " for " + shown(s.Assistant)
	}
	fmt.Fprintf(errOut, "lola: not synced: %s\n", where)
	code := exitcode.ForSync(s.Report, s.Err)
	var ferr error
	if s.Assistant != "" && (s.Report.Result != nil || s.Report.Launched != nil) {
		ferr = installFinish(cmd, s.Report, s.Err, false, false)
	}
	switch {
	case errors.Is(s.Err, install.ErrModuleNotFound):
		ferr = fmt.Errorf("module %s not found in the store or an enabled marketplace", shown(s.Module))
	case ferr == nil && s.Err != nil:
		ferr = s.Err
	}
	if ferr != nil {
		if msg := ferr.Error(); msg != "" {
			fmt.Fprintf(errOut, "lola:   %s\n", shownText(msg))
		}
	}
	return code
}
