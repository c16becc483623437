package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/spf13/cobra"
)

func init() {
	topCommands = append(topCommands, newSearchCmd)
	modCommands = append(modCommands, newModSearchCmd)
}

func newSearchCmd() *cobra.Command {
	var onlyMod, onlyMarket bool
	c := &cobra.Command{
		Use:   "search QUERY [--mod] [--market]",
		Short: "Search the module store and the enabled marketplaces",
		Long: `Search the local module store and the catalogs of the enabled
marketplaces (as last fetched: 'lola market update' refreshes them).
In the store a module matches by its name or a skill's, command's or
agent's name (or a skill's description); in a catalog by its name,
description or tags. The match is a case-insensitive substring.
--mod searches only the store, --market only the marketplaces; both
together is a usage error (exit 2).`,
		Example: `  lola search git
  lola search lint --market`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if onlyMod && onlyMarket {
				return exitcode.Wrap(exitcode.Usage, errors.New("--mod and --market are mutually exclusive"))
			}
			return runSearch(cmd, args[0], !onlyMarket, !onlyMod)
		},
	}
	c.Flags().BoolVar(&onlyMod, "mod", false, "only the local module store")
	c.Flags().BoolVar(&onlyMarket, "market", false, "only the enabled marketplaces")
	return c
}

func newModSearchCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "search QUERY",
		Short: "Search the local module store (old spelling of lola search QUERY --mod)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// On stderr, so a script reading stdout sees only the results.
			fmt.Fprintln(cmd.ErrOrStderr(), "lola: 'lola mod search' is deprecated; use 'lola search --mod'")
			return runSearch(cmd, args[0], true, false)
		},
	}
}

func runSearch(cmd *cobra.Command, query string, local, markets bool) error {
	out := cmd.OutOrStdout()
	found := 0
	if local {
		s, _, err := modStore()
		if err != nil {
			return err
		}
		hits, err := s.Search(query)
		if err != nil {
			return exitcode.Wrap(exitcode.Internal, err)
		}
		var lines []string
		for _, l := range hits {
			line := "  " + shown(l.Name)
			if l.Module != nil {
				ly := l.Module.Layout()
				line += fmt.Sprintf("  (%s, %s, %s)", countText(len(ly.Skills), "skill"), countText(len(ly.Commands), "command"), countText(len(ly.Agents), "agent"))
			}
			lines = append(lines, line)
		}
		if len(lines) > 0 {
			fmt.Fprintf(out, "Module store (%s)\n%s\n", countText(len(lines), "module"), strings.Join(lines, "\n"))
			found += len(lines)
		}
	}
	if markets {
		r, err := marketRegistry()
		if err != nil {
			return err
		}
		hits, err := r.Search(query)
		if err != nil {
			return exitcode.Wrap(exitcode.ForMarket(err), err)
		}
		if len(hits) > 0 {
			fmt.Fprintf(out, "Marketplaces (%s)\n", countText(len(hits), "module"))
			for _, h := range hits {
				ver := shown(h.Entry.Version)
				if h.Entry.Ref != "" { // a pinned ref, as today's Lola's Ref column shows it
					ver += " (ref " + shown(h.Entry.Ref) + ")"
				}
				fmt.Fprintf(out, "  @%s/%s  %s  %s\n", shown(h.Market), shown(h.Entry.Name), ver, shown(h.Entry.Description))
			}
			found += len(hits)
		}
	}
	if found == 0 {
		fmt.Fprintf(out, "No modules found matching '%s'\n", shown(query))
		switch {
		case !markets:
			fmt.Fprintln(out, "Tip: drop --mod to search the marketplaces too")
		case !local:
			fmt.Fprintln(out, "Tip: drop --market to search the module store too")
		default:
			fmt.Fprintln(out, "Tip: check the spelling, or add a marketplace with 'lola market add'")
		}
	}
	return nil
}
