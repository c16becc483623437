package main

import (
	"fmt"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/spf13/cobra"
)

func init() { topCommands = append(topCommands, newCompletionsCmd) }

// completionShells are the shells `lola completions` writes scripts for,
// as today's Lola offers them. cobra's own `lola completion SHELL` (which
// also knows powershell) stays.
var completionShells = []string{"bash", "zsh", "fish"}

func newCompletionsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completions bash|zsh|fish",
		Short: "Print a shell completion script",
		Long: `Print the completion script for SHELL on stdout.

Install it system-wide, per user, or load it into the running shell.`,
		Example: `  lola completions bash > ~/.local/share/bash-completion/completions/lola
  lola completions zsh  > "${fpath[1]}/_lola"
  lola completions fish > ~/.config/fish/completions/lola.fish
  eval "$(lola completions bash)"`,
		ValidArgs: completionShells,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("completions takes one SHELL (bash, zsh or fish), not %d arguments", len(args))
			}
			for _, s := range completionShells {
				if args[0] == s {
					return nil
				}
			}
			return fmt.Errorf("Invalid value for SHELL: %q is not one of bash, zsh, fish", args[0])
		},
		RunE: func(c *cobra.Command, args []string) error {
			out, root := c.OutOrStdout(), c.Root()
			var err error
			switch args[0] {
			case "bash":
				err = root.GenBashCompletionV2(out, true)
			case "zsh":
				err = root.GenZshCompletion(out)
			default:
				err = root.GenFishCompletion(out, true)
			}
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			return nil
		},
	}
}
