package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/market"
	"github.com/lola-pm/lola/host/remote"
)

func init() { topCommands = append(topCommands, newMarketCmd) }

func newMarketCmd() *cobra.Command {
	c := &cobra.Command{
		Use:     "market",
		Aliases: []string{"repo"},
		Short:   "Add, list, enable, disable, update and remove marketplaces (module catalogs)",
		Long: `A marketplace is a YAML catalog of modules (name, description, version,
repository, and optionally path, ref, tags, hooks). 'lola search' searches
the enabled ones; 'lola install @MARKET/MODULE[@REF]' installs from one.

Catalogs are fetched over https by lola's remote client, under the remote
access policy of $LOLA_HOME/config.yaml (addresses that are not globally
routable are refused unless re-admitted there), at most 1 MiB, or read from
a local file. They are parsed strictly: an unknown key, a bad module name,
or a repository that is not https:// or ssh:// refuses the whole catalog.

'lola repo' is the same command.`,
		Example: `  lola market add community https://example.com/catalog.yml
  lola market ls
  lola market set community --disable
  lola market update
  lola market rm community`,
	}
	c.AddCommand(newMarketAddCmd(), newMarketLsCmd(), newMarketSetCmd(), newMarketRmCmd(), newMarketUpdateCmd())
	return c
}

// marketRegistry opens the registry with a remote client bounded for
// catalogs.
func marketRegistry() (*market.Registry, error) {
	st, err := openState("")
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err)
	}
	lim, err := remote.NewLimits(market.MaxCatalogBytes, time.Minute, market.MaxCatalogRepoBytes, remote.DefaultLimits().CloneTimeout())
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Internal, err)
	}
	o, err := remote.OptionsFromHome(st.home, st.cfg, lim)
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err)
	}
	c, err := remote.New(o)
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Internal, err)
	}
	return market.Open(st.home, c, o.Policy), nil
}

func newMarketAddCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "add NAME URL",
		Short: "Register a marketplace and fetch its catalog",
		Long: `Register a marketplace and fetch its catalog. URL is one of:

  https://host/path/catalog.yml          a catalog file, fetched over https
  git+https://host/org/repo.git[#PATH]   a catalog kept in a git repository
  git+ssh://git@host/org/repo.git[#PATH]
  git@host:org/repo.git[#PATH]           git's scp-like ssh spelling
  https://host/org/repo.git[#PATH]       git, recognised by the .git suffix
  ./catalog.yml                          a local file

A git repository is cloned (depth 1) by lola's remote client under the
remote access policy. The catalog is PATH when given (relative, no '..',
no symbolic link), else NAME.yml, NAME.yaml, marketplace.yml or
marketplace.yaml at the root, else the only .yml/.yaml file there; none or
several is an error naming them. The URL is kept as given: 'lola market
update' clones it again.`,
		Example: `  lola market add general https://example.com/general-market.yml
  lola market add internal git+https://git.example.com/org/market.git#catalogs/internal.yml
  lola market add internal git@git.example.com:org/market.git`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := marketRegistry()
			if err != nil {
				return err
			}
			c, err := r.Add(cmd.Context(), args[0], args[1])
			if err != nil {
				return exitcode.Wrap(exitcode.ForMarket(err), err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Added marketplace '%s' with %s\n", args[0], countText(len(c.Modules), "module"))
			return nil
		},
	}
}

func newMarketLsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "ls [NAME]",
		Short: "List marketplaces, or the modules of one",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := marketRegistry()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(args) == 1 {
				ref, err := r.Ref(args[0])
				if err != nil {
					return exitcode.Wrap(exitcode.ForMarket(err), err)
				}
				c, err := r.Cached(ref.Name)
				if err != nil {
					return exitcode.Wrap(exitcode.ForMarket(err), err)
				}
				fmt.Fprintf(out, "%s (%s)\n", shown(ref.Name), marketStatus(ref.Enabled))
				for _, e := range c.Modules {
					ver := shown(e.Version)
					if e.Ref != "" {
						ver += " (ref " + shown(e.Ref) + ")"
					}
					fmt.Fprintf(out, "  %-24s %-10s %s\n", shown(e.Name), ver, shown(e.Description))
				}
				return nil
			}
			ls, err := r.List()
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			if len(ls) == 0 {
				fmt.Fprintln(out, "No marketplaces registered (lola market add NAME URL)")
				return nil
			}
			fmt.Fprintf(out, "%-24s %8s  %s\n", "NAME", "MODULES", "STATUS")
			for _, l := range ls {
				n := "?"
				if l.Catalog != nil {
					n = fmt.Sprint(len(l.Catalog.Modules))
				}
				fmt.Fprintf(out, "%-24s %8s  %s\n", shown(l.Name), n, marketStatus(l.Enabled))
			}
			return nil
		},
	}
}

func marketStatus(on bool) string {
	if on {
		return "enabled"
	}
	return "disabled"
}

func newMarketSetCmd() *cobra.Command {
	var enable, disable bool
	c := &cobra.Command{
		Use:   "set NAME --enable|--disable",
		Short: "Enable or disable a marketplace",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if enable == disable {
				return exitcode.Wrap(exitcode.Usage, errors.New("give exactly one of --enable or --disable"))
			}
			r, err := marketRegistry()
			if err != nil {
				return err
			}
			if err := r.SetEnabled(args[0], enable); err != nil {
				return exitcode.Wrap(exitcode.ForMarket(err), err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Marketplace '%s' %s\n", args[0], marketStatus(enable))
			return nil
		},
	}
	c.Flags().BoolVar(&enable, "enable", false, "search and install from it")
	c.Flags().BoolVar(&disable, "disable", false, "skip it in search and install")
	return c
}

func newMarketRmCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a marketplace and its cached catalog",
		Long: `Remove a marketplace. Modules installed from it stay. Removing one that is
not registered says so and succeeds (exit 0), as today's Lola does.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := marketRegistry()
			if err != nil {
				return err
			}
			if err := r.Remove(args[0]); err != nil {
				if errors.Is(err, market.ErrNotFound) {
					fmt.Fprintf(cmd.OutOrStdout(), "Marketplace '%s' not found\n", shown(args[0]))
					return nil
				}
				return exitcode.Wrap(exitcode.ForMarket(err), err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Removed marketplace '%s'\n", args[0])
			return nil
		},
	}
}

func newMarketUpdateCmd() *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "update [NAME] [--all]",
		Short: "Fetch marketplace catalogs again",
		Long: `Fetch NAME's catalog again (every marketplace without NAME). A catalog that
is refused keeps the one fetched before.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := marketRegistry()
			if err != nil {
				return err
			}
			if len(args) == 1 && all {
				return exitcode.Wrap(exitcode.Usage, errors.New("cannot give both NAME and --all"))
			}
			var names []string
			if len(args) == 1 {
				names = args
			} else {
				ls, err := r.List()
				if err != nil {
					return exitcode.Wrap(exitcode.Internal, err)
				}
				for _, l := range ls {
					names = append(names, l.Name)
				}
			}
			out := cmd.OutOrStdout()
			if len(names) == 0 {
				fmt.Fprintln(out, "No marketplaces registered (lola market add NAME URL)")
				return nil
			}
			var last error
			for _, n := range names {
				c, err := r.Update(cmd.Context(), n)
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "lola: marketplace '%s' not updated: %v\n", shown(n), err)
					last = err
					continue
				}
				fmt.Fprintf(out, "Updated marketplace '%s' (%s)\n", n, countText(len(c.Modules), "module"))
			}
			if last != nil {
				return exitcode.Wrap(exitcode.ForMarket(last), errors.New("")) // each was told above
			}
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "every marketplace (the default without NAME)")
	return c
}
