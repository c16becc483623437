package main

import (
	"bufio"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/install"
)

func init() { topCommands = append(topCommands, newUninstallCmd) }

type uninstallFlags struct {
	assistant string
	scope     string
	dryRun    bool
	json      bool
	workspace string
	force     bool
	verbose   bool
}

func newUninstallCmd() *cobra.Command {
	var f uninstallFlags
	c := &cobra.Command{
		Use:   "uninstall MODULE [-a ASSISTANT] [-f] [--scope project|user] [--dry-run] [--json] [PROJECT]",
		Short: "Remove what 'lola install' put in place for a module",
		Long: `Remove MODULE from the files ASSISTANT reads, in PROJECT (default: the
current directory) or, with --scope user, in your home.

The assistant's target extension is asked for an uninstall plan for the
same module files it installed, so exactly what the install wrote is
removed: its files, its block in shared files such as CLAUDE.md (your own
text there stays), and the directories the install created once they are
empty. The record leaves $LOLA_HOME/installed.yml. Install hooks do not run.

Only files lola wrote and that still hold what it wrote are deleted: a file
you edited since the install, or one you added inside a directory lola
created, is kept and named in the output.

When the target extension is gone (lola ext rm --force removed it), the
uninstall goes by installed.yml's record instead: the files lola recorded
writing that still hold what it wrote are deleted (one plan, audited as
` + install.ByRecordProposer + `); what the target wrote into shared files (an
instructions block, MCP servers) stays, and a warning names it. Symbolic links the install
replaced (--replace-symlinks) are put back once their directory is empty.

Without -a, every assistant installed.yml records for MODULE in that scope
and project is uninstalled, one after the other. When that is more than
one, lola asks first at a terminal ("Uninstall all? [y/N]"); without a
terminal it refuses (exit 2) unless -f/--force says to uninstall them all.

Every removed file is listed. -v/--verbose also shows the target
extension's stderr (its log) when it succeeded; a failure always shows it.

--dry-run shows the tree diff and changes nothing (tier-1 targets only).

Exit status: 0 uninstalled; 2 usage (not installed there, unknown module or
assistant); 3 the plan was rejected; 4 the target failed, or its pin or
trust refused it (nothing ran); 5 rolled back; 6 rollback failed.`,
		Example: `  # Remove my-skills from Claude Code in this project
  lola uninstall my-skills -a claude-code

  # From every assistant it was installed for in ~/work/app, without asking
  lola uninstall my-skills -f ~/work/app

  # Preview a user-scope uninstall
  lola uninstall my-skills -a cursor --scope user --dry-run`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUninstall(cmd, f, args)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&f.assistant, "assistant", "a", "", "assistant to uninstall from (default: every one installed.yml records)")
	fl.StringVarP(&f.scope, "scope", "s", "project", "project (in PROJECT) or user (in your home)")
	fl.StringVar(&f.workspace, "workspace", "", "OpenClaw workspace, as for lola install (only with -a openclaw)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "show the tree diff; change nothing")
	fl.BoolVar(&f.json, "json", false, "print one JSON object per assistant")
	fl.BoolVarP(&f.force, "force", "f", false, "without -a, uninstall every assistant recorded here without asking")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "also show the target extension's stderr (its log) when it succeeded; a failure always shows it")
	return c
}

func runUninstall(cmd *cobra.Command, f uninstallFlags, args []string) error {
	// An assistant installed.yml records passes even when its target is
	// gone (lola ext rm --force): the uninstall then goes by the record.
	recorded := func(a string) bool {
		home, err := lolaHome("")
		if err != nil {
			return false
		}
		reg, err := install.ReadRegistry(home)
		return err == nil && len(reg.OfAssistant(a)) > 0
	}
	if err := checkAssistantFlag([]string{f.assistant}, recorded); err != nil {
		return err
	}
	o, err := installOptions(cmd, f.scope, args)
	if err != nil {
		return err
	}
	o.DryRun = f.dryRun
	if err := openClawRoot(&o, f.assistant, f.workspace, len(args) > 1); err != nil {
		return err
	}
	assistants := []string{f.assistant}
	if f.assistant == "" {
		if assistants, err = install.InstalledAssistants(o); err != nil {
			return exitcode.Wrap(exitcode.ForInstall(install.Report{}, err), err)
		}
		if len(assistants) > 1 && !f.force && !f.dryRun && !confirmUninstallAll(cmd, o.Module, assistants) {
			return exitcode.Wrap(exitcode.Usage, fmt.Errorf("%s is installed here for %d assistants (%s); name one with -a ASSISTANT, or uninstall all with -f/--force; nothing was uninstalled",
				shown(o.Module), len(assistants), shown(strings.Join(assistants, ", "))))
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	for _, a := range assistants {
		o.Assistant = a
		rep, err := install.Uninstall(ctx, o)
		if ferr := installFinish(cmd, rep, err, f.json, f.verbose); ferr != nil {
			return ferr
		}
	}
	return nil
}

// confirmUninstallAll asks at a terminal whether to uninstall module for
// every one of assistants; without a terminal on both ends it is no.
func confirmUninstallAll(cmd *cobra.Command, module string, assistants []string) bool {
	in, errOut := cmd.InOrStdin(), cmd.ErrOrStderr()
	if !installIsTerminal(in) || !installIsTerminal(errOut) {
		return false
	}
	fmt.Fprintf(errOut, "%s is installed here for %s.\nUninstall all? [y/N] ", shown(module), shown(strings.Join(assistants, ", ")))
	line, _ := bufio.NewReader(in).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes"
}
