package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/modrm"
	"github.com/lola-pm/lola/host/modsource"
)

func init() { modCommands = append(modCommands, newModRmCmd) }

func newModRmCmd() *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "rm NAME [-f|--force]",
		Short: "Uninstall a module everywhere and remove it from the store",
		Long: `Remove a module from the store, after uninstalling it from every install
$LOLA_HOME/installed.yml records, as 'lola uninstall' does each one (its
target's plan, applied atomically, only what lola wrote removed), all under
one audit correlation id. An install whose project no longer exists only
loses its record.

While installs are recorded, rm asks first at a terminal ("Continue?
[y/N]"); without one it refuses (exit 2) unless -f/--force. The first
uninstall that fails stops the run: the ones before it stay uninstalled,
the rest are named, and the module stays in the store so that rm can be
run again.

Exit status: 0 removed; 1 no such module; 2 bad name, or installs recorded
without --force; otherwise the failed uninstall's code, as 'lola
uninstall' has them.`,
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
			base, err := installOptions(cmd, "project", args)
			if err != nil {
				return err
			}
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			o := modrm.Options{Base: base, Uninstall: force}
			res, err := modrm.Remove(ctx, s, name, o)
			var inUse *install.InUseError
			if errors.As(err, &inUse) && !force && modRmConfirm(cmd, inUse) {
				o.Uninstall = true
				res, err = modrm.Remove(ctx, s, name, o)
			}
			for _, d := range res.Done {
				fmt.Fprintf(out, "Uninstalled %s from %s (%s)\n", name, shown(d.Record.Assistant), updateWhere(d.Record))
				for _, k := range d.Report.Kept {
					fmt.Fprintf(errOut, "lola: warning: kept %s (%s)\n", keptWhat(k), keptWhy(k))
				}
			}
			for _, r := range res.Stale {
				fmt.Fprintf(errOut, "lola: warning: %s for %s: the project %s no longer exists; its record is dropped\n", name, shown(r.Assistant), shownText(r.ProjectPath))
			}
			if errors.Is(err, modrm.ErrStopped) && res.Failed != nil {
				code := exitcode.ForStopped(res.Failed.Report, res.FailedErr)
				ferr := installFinish(cmd, res.Failed.Report, res.FailedErr, false, false)
				for _, r := range res.Remaining {
					fmt.Fprintf(errOut, "lola: not uninstalled (the run stopped): %s for %s in %s\n", name, shown(r.Assistant), updateWhere(r))
				}
				fmt.Fprintf(errOut, "lola: %s stays in the store; run lola mod rm again once the cause is fixed\n", name)
				if len(res.Done) > 0 || !res.Failed.Report.Correlation.IsZero() {
					fmt.Fprintf(errOut, "audit correlation %s\n", res.Correlation)
				}
				if ferr == nil { // the report said nothing of the failure: the run's error does
					ferr = exitcode.Wrap(code, err)
				}
				return ferr
			}
			if err != nil {
				if errors.As(err, &inUse) {
					return exitcode.Wrap(exitcode.ForModule(err), fmt.Errorf("%s is installed in %s (%s); uninstall them with -f/--force, or lola uninstall each; nothing was removed",
						name, countText(len(inUse.Installs), "place"), modRmWhere(inUse.Installs)))
				}
				return modError(err)
			}
			if err := modsource.Remove(home, name); err != nil {
				fmt.Fprintf(errOut, "lola: warning: %s's source record stays: %v\n", name, err)
			}
			if !res.Correlation.IsZero() {
				fmt.Fprintf(out, "audit correlation %s\n", res.Correlation)
			}
			fmt.Fprintf(out, "Removed %s\n", name)
			return nil
		},
	}
	c.Flags().BoolVarP(&force, "force", "f", false, "uninstall every recorded install of it without asking")
	return c
}

func modRmWhere(recs []install.Record) string {
	var ws []string
	for _, r := range recs {
		ws = append(ws, shown(r.Assistant)+" in "+updateWhere(r))
	}
	return strings.Join(ws, "; ")
}

// modRmConfirm asks at a terminal whether to uninstall the module from
// every recorded install; without a terminal on both ends it is no.
func modRmConfirm(cmd *cobra.Command, e *install.InUseError) bool {
	in, errOut := cmd.InOrStdin(), cmd.ErrOrStderr()
	if !installIsTerminal(in) || !installIsTerminal(errOut) {
		return false
	}
	fmt.Fprintf(errOut, "Remove module %s from the store?\nIt is also uninstalled from %s:\n", shown(e.Module), countText(len(e.Installs), "location"))
	for _, r := range e.Installs {
		fmt.Fprintf(errOut, "  %s in %s\n", shown(r.Assistant), updateWhere(r))
	}
	fmt.Fprint(errOut, "Continue? [y/N] ")
	line, _ := bufio.NewReader(in).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes"
}
