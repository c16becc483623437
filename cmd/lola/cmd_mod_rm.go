package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/modsource"
)

func init() { modCommands = append(modCommands, newModRmCmd) }

func newModRmCmd() *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "rm NAME [-f|--force]",
		Short: "Remove a module from the store",
		Long: `Remove a module from the store. While $LOLA_HOME/installed.yml lists an
install of it, rm refuses (uninstall first, or --force to remove it anyway;
its installed files stay where they are). The module disappears from the
store in one rename, then its files are deleted.

Exit status: 0 removed; 1 no such module; 2 bad name, or still installed.`,
		Example: `  lola mod rm my-skills
  lola mod rm my-skills --force`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := modParseName(args[0])
			if err != nil {
				return err
			}
			s, home, err := modStore()
			if err != nil {
				return err
			}
			if err := install.RemoveModule(s, home, name, force); err != nil {
				return modExit(err)
			}
			if err := modsource.Remove(home, name); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "lola: warning: %s's source record stays: %v\n", name, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Removed %s\n", name)
			return nil
		},
	}
	c.Flags().BoolVarP(&force, "force", "f", false, "remove even while installed.yml lists installs of it")
	return c
}
