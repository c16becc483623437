package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/exttest"
)

func init() { extCommands = append(extCommands, newExtTestCmd) }

func newExtTestCmd() *cobra.Command {
	var update bool
	var timeout time.Duration
	var home string
	c := &cobra.Command{
		Use:   "test [--update] [DIR]",
		Short: "Run an extension's golden tests through the real host, in every built tier",
		Long: `Run each testdata/<case>.request.json of the extension in DIR (default ".")
through the host, as 'lola ext run' would: every built tier (tier 1 confined
by the shim, tier 2 native), with the manifest's capabilities and path
grant. Each plan is held to every host rule under every --fs relation
(bytes, darwin, hfsplus, windows, darwin-case-sensitive; a dry run on an
empty scratch root, nothing applied), then compared with
testdata/<case>.plan.json; a mismatch prints a line diff.

--update writes each accepted plan as its golden instead (both tiers must
still agree): review the diff in version control. A case whose plan the
host refuses never gets a golden.

Exit codes: 0 every case passed; 2 usage (no manifest, no cases, nothing
built); 3 a case failed (refused, differing, or no plan).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			abs, err := filepath.Abs(dir)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			e, err := extension.Load(abs)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext test: %w", err))
			}
			st, err := openState(home)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext test: %w", err))
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			results, err := exttest.Run(ctx, exttest.Options{
				Ext: e, Update: update, Timeout: timeout, CacheDir: st.cacheDir(), ExtraEnv: extRunTestEnv,
			})
			if errors.Is(err, exttest.ErrNoCases) {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext test: %w in %s: add a request there (see the scaffold's testdata/)", err, dir))
			}
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext test: %w", err))
			}
			failed := printExtTestResults(cmd.OutOrStdout(), results)
			if failed > 0 {
				return exitcode.Wrap(exitcode.ForExtTest(results), fmt.Errorf("ext test: %d of %d runs failed", failed, len(results)))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&update, "update", false, "write each accepted plan as its case's golden")
	c.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "the outer deadline of each run")
	c.Flags().StringVar(&home, "home", "", "lola's home (default $LOLA_HOME or the platform's)")
	return c
}

// printExtTestResults prints one line per run, and the diff of a failed
// one, and returns how many failed. A case name, an error and a diff
// line come from the extension or its testdata (a golden file is
// anyone's text in a checked-out repository): each is rendered through
// shown or shownText, so no control sequence reaches the terminal.
func printExtTestResults(out io.Writer, results []exttest.Result) int {
	failed := 0
	for _, r := range results {
		tier := "tier 1"
		if r.Tier.Native() {
			tier = "tier 2"
		}
		switch {
		case r.Err != nil:
			failed++
			fmt.Fprintf(out, "FAIL  %s  %s: %s\n", shown(r.Case), tier, shownText(r.Err.Error()))
			if r.Diff != "" {
				for _, line := range strings.Split(strings.TrimSuffix(r.Diff, "\n"), "\n") {
					fmt.Fprintln(out, shownText(line))
				}
			}
		case r.Wrote:
			fmt.Fprintf(out, "wrote %s  %s: testdata/%s.plan.json\n", shown(r.Case), tier, shown(r.Case))
		default:
			fmt.Fprintf(out, "ok    %s  %s\n", shown(r.Case), tier)
		}
	}
	return failed
}
