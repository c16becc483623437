package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/install"
)

func init() { topCommands = append(topCommands, newListCmd) }

func newListCmd() *cobra.Command {
	var asJSON bool
	var assistant string
	c := &cobra.Command{
		Use:   "list [-a ASSISTANT] [--json]",
		Short: "List installed modules (from $LOLA_HOME/installed.yml)",
		Long: `List every install 'lola install' recorded in $LOLA_HOME/installed.yml:
the module, the assistant, the scope and project, and what it installed.
The file has today's Lola's shape, so installs recorded by either are
listed.`,
		Example: `  lola list
  lola list -a claude-code
  lola list --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			home, err := config.Home()
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			reg, err := install.ReadRegistry(home)
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			recorded := func(a string) bool {
				for _, r := range reg.All() {
					if r.Assistant == a {
						return true
					}
				}
				return false
			}
			if err := checkAssistantFlag([]string{assistant}, recorded); err != nil {
				return err
			}
			var recs []install.Record
			for _, r := range reg.All() {
				if assistant == "" || r.Assistant == assistant {
					recs = append(recs, r)
				}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				type jsonRecord struct {
					Module          string   `json:"module"`
					Assistant       string   `json:"assistant"`
					Scope           string   `json:"scope"`
					ProjectPath     string   `json:"project_path,omitempty"`
					Skills          []string `json:"skills"`
					Commands        []string `json:"commands"`
					Agents          []string `json:"agents"`
					MCPs            []string `json:"mcps"`
					HasInstructions bool     `json:"has_instructions"`
					AppendContext   []string `json:"append_context,omitempty"`
					Version         string   `json:"version,omitempty"`
					Ref             string   `json:"ref,omitempty"`
				}
				list := []jsonRecord{}
				for _, r := range recs {
					list = append(list, jsonRecord{r.Module, r.Assistant, r.Scope, r.ProjectPath, listNonNil(r.Skills), listNonNil(r.Commands), listNonNil(r.Agents), listNonNil(r.MCPs), r.HasInstructions, r.AppendContext, r.Version, r.Ref})
				}
				return jsonOrInternal(out, map[string]any{"installations": list})
			}
			if len(recs) == 0 {
				fmt.Fprintln(out, "No modules installed (lola install MODULE -a ASSISTANT)")
				return nil
			}
			for _, r := range recs {
				where := "user"
				if r.Scope != "user" {
					where = r.Scope + " " + shownText(r.ProjectPath)
				}
				fmt.Fprintf(out, "%s  %s  %s\n", shown(r.Module), shown(r.Assistant), where)
				var parts []string
				for _, p := range []struct {
					what  string
					names []string
				}{{"skills", r.Skills}, {"commands", r.Commands}, {"agents", r.Agents}, {"mcps", r.MCPs}} {
					if len(p.names) > 0 {
						parts = append(parts, p.what+": "+shown(strings.Join(p.names, ", ")))
					}
				}
				if r.HasInstructions {
					parts = append(parts, "instructions")
				}
				if len(parts) > 0 {
					fmt.Fprintf(out, "  %s\n", strings.Join(parts, "; "))
				}
				// As today's Lola lists them, when set.
				if r.Version != "" {
					fmt.Fprintf(out, "  version: %s\n", shown(r.Version))
				}
				if r.Ref != "" {
					fmt.Fprintf(out, "  ref: %s\n", shown(r.Ref))
				}
				if len(r.AppendContext) > 0 {
					// As today's Lola lists it, per install.
					fmt.Fprintf(out, "  append-context (%s): %s\n", shown(r.Assistant), shown(strings.Join(r.AppendContext, ", ")))
				}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, `print {"installations": [{"module", "assistant", "scope", "project_path", "skills", "commands", "agents", "mcps", "has_instructions", "append_context", "version", "ref"}]}`)
	c.Flags().StringVarP(&assistant, "assistant", "a", "", "only installs for this assistant")
	return c
}

func listNonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
