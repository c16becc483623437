package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
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
			out := cmd.OutOrStdout()
			failed := 0
			for _, r := range results {
				tier := "tier 1"
				if r.Tier.Native() {
					tier = "tier 2"
				}
				switch {
				case r.Err != nil:
					failed++
					fmt.Fprintf(out, "FAIL  %s  %s: %v\n", r.Case, tier, r.Err)
					if r.Diff != "" {
						fmt.Fprint(out, r.Diff)
					}
				case r.Wrote:
					fmt.Fprintf(out, "wrote %s  %s: testdata/%s.plan.json\n", r.Case, tier, r.Case)
				default:
					fmt.Fprintf(out, "ok    %s  %s\n", r.Case, tier)
				}
			}
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
