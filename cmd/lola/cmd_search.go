package main

import (
	"fmt"
	"strings"

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
		Long: `Search module names, descriptions and tags, in the local module store and
in the catalogs of the enabled marketplaces (as last fetched: 'lola market
update' refreshes them). --mod searches only the store, --market only the
marketplaces. The match is a case-insensitive substring.`,
		Example: `  lola search git
  lola search lint --market`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(cmd, args[0], !onlyMarket || onlyMod, !onlyMod || onlyMarket)
		},
	}
	c.Flags().BoolVar(&onlyMod, "mod", false, "only the local module store")
	c.Flags().BoolVar(&onlyMarket, "market", false, "only the enabled marketplaces")
	return c
}

func newModSearchCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "search QUERY",
		Short: "Search the local module store (same as lola search QUERY --mod)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(cmd, args[0], true, false)
		},
	}
}

func runSearch(cmd *cobra.Command, query string, local, markets bool) error {
	out := cmd.OutOrStdout()
	q := strings.ToLower(query)
	found := 0
	if local {
		s, _, err := modStore()
		if err != nil {
			return err
		}
		ls, err := s.List()
		if err != nil {
			return withCode(exitInternal, err)
		}
		var lines []string
		for _, l := range ls {
			text := l.Name
			if l.Module != nil {
				for _, sk := range l.Module.Layout().Skills {
					text += "\n" + sk.Name + "\n" + sk.Description
				}
			}
			if strings.Contains(strings.ToLower(text), q) {
				line := "  " + modPrintable(l.Name)
				if l.Module != nil {
					ly := l.Module.Layout()
					line += fmt.Sprintf("  (%s, %s, %s)", countText(len(ly.Skills), "skill"), countText(len(ly.Commands), "command"), countText(len(ly.Agents), "agent"))
				}
				lines = append(lines, line)
			}
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
			return marketExit(err)
		}
		if len(hits) > 0 {
			fmt.Fprintf(out, "Marketplaces (%s)\n", countText(len(hits), "module"))
			for _, h := range hits {
				fmt.Fprintf(out, "  @%s/%s  %s  %s\n", h.Market, h.Entry.Name, modPrintable(h.Entry.Version), modPrintable(h.Entry.Description))
			}
			found += len(hits)
		}
	}
	if found == 0 {
		fmt.Fprintf(out, "No modules found matching '%s'\n", modPrintable(query))
	}
	return nil
}
