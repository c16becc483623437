package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func init() { modCommands = append(modCommands, newModLsCmd) }

func newModLsCmd() *cobra.Command {
	var asJSON, verbose bool
	c := &cobra.Command{
		Use:   "ls [-v] [--json]",
		Short: "List the modules in the store",
		Long: `List the modules in $LOLA_HOME/modules with what each holds. A directory
in the store that is not a valid module is listed with its error.`,
		Example: `  lola mod ls
  lola mod ls --json | jq -r '.modules[].name'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, _, err := modStore()
			if err != nil {
				return err
			}
			listed, err := s.List()
			if err != nil {
				return modError(err)
			}
			out := make([]modSummary, 0, len(listed))
			for _, e := range listed {
				if e.Err != nil {
					out = append(out, modSummary{Name: e.Name, Skills: []string{}, Commands: []string{}, Agents: []string{}, MCPs: []string{}, Hooks: []string{}, Error: e.Err.Error()})
					continue
				}
				out = append(out, newModSummary(e.Name, e.Module.Layout()))
			}
			if asJSON {
				return jsonOrInternal(cmd.OutOrStdout(), struct {
					Modules []modSummary `json:"modules"`
				}{out})
			}
			w := cmd.OutOrStdout()
			if len(out) == 0 {
				fmt.Fprintln(w, "No modules found in the store. Add one with: lola mod add SOURCE")
				return nil
			}
			for _, m := range out {
				if m.Error != "" {
					fmt.Fprintf(w, "%s  (unusable: %s)\n", shown(m.Name), shownText(m.Error))
					continue
				}
				parts := []string{countText(len(m.Skills), "skill"), countText(len(m.Commands), "command"), countText(len(m.Agents), "agent")}
				if m.Instructions {
					parts = append(parts, "instructions")
				}
				if len(m.MCPs) > 0 {
					parts = append(parts, countText(len(m.MCPs), "MCP server"))
				}
				if len(m.Hooks) > 0 {
					parts = append(parts, "hooks: "+strings.Join(m.Hooks, ", "))
				}
				fmt.Fprintf(w, "%s  %s\n", shown(m.Name), strings.Join(parts, ", "))
				if verbose {
					for _, l := range []struct {
						what  string
						names []string
					}{{"skills", m.Skills}, {"commands", m.Commands}, {"agents", m.Agents}, {"mcps", m.MCPs}} {
						if len(l.names) > 0 {
							fmt.Fprintf(w, "  %s: %s\n", l.what, shown(strings.Join(l.names, ", ")))
						}
					}
				}
			}
			return nil
		},
	}
	c.Flags().BoolVarP(&verbose, "verbose", "v", false, "also name each module's skills, commands, agents and MCP servers")
	c.Flags().BoolVar(&asJSON, "json", false, `print {"modules": [{"name", "skills", "commands", "agents", "instructions", "mcps", "hooks", "error"}]}`)
	return c
}
