package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/modsource"
	"github.com/lola-pm/lola/host/module"
)

func init() { modCommands = append(modCommands, newModUpdateCmd) }

func newModUpdateCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "update [NAME]",
		Short: "Fetch modules again from the source they were added from",
		Long: `Fetch NAME (or every module in the store) again from the folder, archive
or git repository it was added from (recorded in $LOLA_HOME/sources/, or,
for a module today's Lola added, in the module's .lola/source.yml), at
the recorded ref. Each module is staged and checked in full and replaces
the old one in one step; a refused update leaves it as it was, and the
other modules are still updated. Installed files do not change: run
'lola update' afterwards.

Exit status: 0 updated (or nothing to update); otherwise the most severe
code of the modules not updated: 1 no such module, no source recorded or
a fetch that failed; 2 a bad name; 3 refused input.`,
		Example: `  lola mod update
  lola mod update my-skills`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, home, err := modStore()
			if err != nil {
				return err
			}
			var names []module.Name
			if len(args) == 1 {
				n, err := modParseName(args[0])
				if err != nil {
					return err
				}
				names = []module.Name{n}
			} else {
				ls, err := s.List()
				if err != nil {
					return exitcode.Wrap(exitcode.Internal, err)
				}
				for _, l := range ls {
					n, err := module.ParseName(l.Name)
					if err != nil {
						continue // List only yields valid names; skip rather than guess
					}
					names = append(names, n)
				}
			}
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			if len(names) == 0 {
				fmt.Fprintln(out, "No modules to update")
				return nil
			}
			client := &remoteOnDemand{home: home}
			var failed []string
			var codes []int
			var last error
			for _, n := range names {
				added, err := modsource.Update(cmd.Context(), s, home, n, modsource.UpdateOptions{Cloner: client, Fetcher: client})
				if err != nil {
					if len(names) > 1 {
						fmt.Fprintf(errOut, "lola: %s: not updated: %s\n", n, shownText(err.Error()))
					}
					failed, last = append(failed, n.String()), err
					codes = append(codes, exitcode.ForModule(err))
					continue
				}
				l := added.Module.Layout()
				fmt.Fprintf(out, "Updated %s: %s, %s, %s\n", n, countText(len(l.Skills), "skill"), countText(len(l.Commands), "command"), countText(len(l.Agents), "agent"))
			}
			if len(failed) > 0 {
				if len(names) == 1 {
					return modError(last)
				}
				return exitcode.Wrap(exitcode.Worst(codes...), fmt.Errorf("%s not updated: %v; the others are", countText(len(failed), "module"), failed))
			}
			fmt.Fprintln(out, "Run 'lola update' to install the new content.")
			return nil
		},
	}
	return c
}
