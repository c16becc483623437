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

Without -f/--force, rm asks first at a terminal, naming the installs it
will uninstall ("Continue? [y/N]"; no prints "Cancelled", exit 0), and
without a terminal it refuses (exit 2, nothing removed): a script never
removes a module without --force. The first
uninstall that fails stops the run: the ones before it stay uninstalled,
the rest are named, and the module stays in the store so that rm can be
run again.

Exit status: 0 removed, or cancelled at the prompt; 1 no such module; 2
bad name, or no terminal to ask at and no --force; otherwise the failed uninstall's code, as 'lola
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
			if !force {
				o.Confirm = func(recs []install.Record) error { return modRmConfirm(cmd, name.String(), recs) }
			}
			res, err := modrm.Remove(ctx, s, name, o)
			if errors.Is(err, modrm.ErrCancelled) {
				fmt.Fprintln(out, "Cancelled")
				return nil
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
				var refused modRmRefused
				if errors.As(err, &refused) {
					return err
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

// modRmRefused is mod rm's refusal to remove without --force where no
// terminal can be asked (exit 2).
type modRmRefused struct{ error }

func (e modRmRefused) Unwrap() error { return e.error }

// modRmConfirm asks at a terminal (stdin and stderr both) whether to
// remove the module, naming every install it uninstalls first; a no is
// modrm.ErrCancelled. Without a terminal it refuses, as a script must
// never remove a module without --force.
func modRmConfirm(cmd *cobra.Command, name string, recs []install.Record) error {
	in, errOut := cmd.InOrStdin(), cmd.ErrOrStderr()
	if !installIsTerminal(in) || !installIsTerminal(errOut) {
		what := ""
		if len(recs) > 0 {
			what = fmt.Sprintf(", uninstalling it first where it is installed (%s: %s)", countText(len(recs), "place"), modRmWhere(recs))
		}
		return modRmRefused{exitcode.Wrap(exitcode.Usage, fmt.Errorf("mod rm removes %s from the store%s; with no terminal to ask at, pass -f/--force to do so; nothing was removed", shown(name), what))}
	}
	fmt.Fprintf(errOut, "Remove module %s from the store?\n", shown(name))
	if len(recs) > 0 {
		fmt.Fprintf(errOut, "It is also uninstalled from %s:\n", countText(len(recs), "location"))
		for _, r := range recs {
			fmt.Fprintf(errOut, "  %s in %s\n", shown(r.Assistant), updateWhere(r))
		}
	}
	fmt.Fprint(errOut, "Continue? [y/N] ")
	line, _ := bufio.NewReader(in).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
		return nil
	}
	return modrm.ErrCancelled
}
