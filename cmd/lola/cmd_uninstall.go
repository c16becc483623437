package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/install"
)

func init() { topCommands = append(topCommands, newUninstallCmd) }

type uninstallFlags struct {
	assistant string
	scope     string
	dryRun    bool
	json      bool
	workspace string
}

func newUninstallCmd() *cobra.Command {
	var f uninstallFlags
	c := &cobra.Command{
		Use:   "uninstall MODULE [-a ASSISTANT] [--scope project|user] [--dry-run] [--json] [PROJECT]",
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
created, is kept and named in the output. Symbolic links the install
replaced (--replace-symlinks) are put back once their directory is empty.

Without -a, every assistant installed.yml records for MODULE in that scope
and project is uninstalled, one after the other.

--dry-run shows the tree diff and changes nothing (tier-1 targets only).

Exit status: 0 uninstalled; 2 usage (not installed there, unknown module or
assistant); 3 the plan was rejected; 4 the target failed; 5 rolled back;
6 rollback failed.`,
		Example: `  # Remove my-skills from Claude Code in this project
  lola uninstall my-skills -a claude-code

  # From every assistant it was installed for in ~/work/app
  lola uninstall my-skills ~/work/app

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
	return c
}

func runUninstall(cmd *cobra.Command, f uninstallFlags, args []string) error {
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
		if assistants, err = uninstallAssistants(o); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	for _, a := range assistants {
		o.Assistant = a
		rep, err := install.Uninstall(ctx, o)
		if ferr := installFinish(cmd, rep, err, f.json, false); ferr != nil {
			return ferr
		}
	}
	return nil
}

// uninstallAssistants lists the assistants installed.yml records for the
// module in the scope and project of o.
func uninstallAssistants(o install.Options) ([]string, error) {
	reg, err := install.ReadRegistry(o.Home)
	if err != nil {
		return nil, withCode(exitInternal, err)
	}
	project := ""
	if o.Scope != "user" {
		dir := o.Project
		if dir == "" {
			dir = "."
		}
		if project, err = uninstallAbsDir(dir); err != nil {
			return nil, withCode(exitUsage, err)
		}
	}
	var out []string
	for _, r := range reg.Find(o.Module, "", string(o.Scope), "") {
		if r.ProjectPath == project {
			out = append(out, r.Assistant)
		}
	}
	if len(out) == 0 {
		return nil, withCode(exitUsage, fmt.Errorf("%s is not installed in this %s scope (see lola list)", o.Module, o.Scope))
	}
	return out, nil
}

func uninstallAbsDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", errors.New("the project directory does not exist or is not a directory")
	}
	return abs, nil
}
