package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/modinit"
)

func init() { modCommands = append(modCommands, newModInitCmd) }

func newModInitCmd() *cobra.Command {
	var o modinit.Options
	var noSkill, noCommand, noAgent, minimal bool
	c := &cobra.Command{
		Use:   "init [NAME] [-s SKILL] [-c COMMAND] [-g AGENT] [--no-skill] [--no-command] [--no-agent] [--no-mcps] [--no-instructions] [--minimal] [--force]",
		Short: "Scaffold a new module folder to fill in",
		Long: `Create a module folder: README.md at its root and, in module/, the folders
skills/, commands/ and agents/ with an example of each, mcps.json and
AGENTS.md. Placeholders are marked TODO.

With NAME, the folder NAME is created in the current directory (an existing
one is refused: exit 1). Without NAME, the current directory is filled in.
--force fills in an existing NAME too; it never overwrites or removes a
file that is already there (those are listed as kept).

Exit status: 0 created; 1 the folder exists (or cannot be written);
2 a bad name.`,
		Example: `  lola mod init my-skills
  lola mod init my-skills -s code-review -c review-pr --no-agent
  lola mod init --minimal`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if minimal {
				noSkill, noCommand, noAgent, o.NoMCPs, o.NoInstructions = true, true, true, true, true
			}
			if noSkill {
				o.Skill = ""
			}
			if noCommand {
				o.Command = ""
			}
			if noAgent {
				o.Agent = ""
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			} else {
				o.Existing = true
			}
			r, err := modinit.Init(dir, o)
			if err != nil {
				return exitcode.Wrap(exitcode.ForModule(err), err) // a bad name 2; an existing directory 1
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "Initialized module %s in %s\n", r.Name, r.Dir)
			for _, p := range r.Created {
				fmt.Fprintf(out, "  + %s\n", p)
			}
			for _, p := range r.Skipped {
				fmt.Fprintf(out, "  = %s (exists, kept)\n", p)
			}
			shown := r.Dir
			if wd, err := os.Getwd(); err == nil {
				if rel, err := filepath.Rel(wd, r.Dir); err == nil {
					shown = "./" + filepath.ToSlash(rel)
					if rel == "." {
						shown = "."
					}
				}
			}
			fmt.Fprintf(out, "Next: replace the TODO markers, then lola mod add %s\n", shown)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVarP(&o.Skill, "skill", "s", "example-skill", "name of the example skill")
	fl.BoolVar(&noSkill, "no-skill", false, "no example skill")
	fl.StringVarP(&o.Command, "command", "c", "example-command", "name of the example slash command")
	fl.BoolVar(&noCommand, "no-command", false, "no example command")
	fl.StringVarP(&o.Agent, "agent", "g", "example-agent", "name of the example agent")
	fl.BoolVar(&noAgent, "no-agent", false, "no example agent")
	fl.BoolVar(&o.NoMCPs, "no-mcps", false, "no mcps.json")
	fl.BoolVar(&o.NoInstructions, "no-instructions", false, "no AGENTS.md")
	fl.BoolVar(&minimal, "minimal", false, "only the folders and README.md, no examples")
	fl.BoolVar(&o.Existing, "force", false, "fill in an existing folder (never overwriting a file)")
	return c
}
