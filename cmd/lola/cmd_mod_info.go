package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/module"
)

func init() { modCommands = append(modCommands, newModInfoCmd) }

func newModInfoCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "info NAME [--json]",
		Short: "Show a module's skills, commands, agents, instructions and hooks",
		Long: `Show what a stored module holds: skills with the description from their
SKILL.md frontmatter, commands (with argument hints), agents (with models),
whether it has instructions (AGENTS.md), its MCP servers and the install
hooks its lola.yaml declares.`,
		Example: `  lola mod info my-skills
  lola mod info my-skills --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := modParseName(args[0])
			if err != nil {
				return err
			}
			s, _, err := modStore()
			if err != nil {
				return err
			}
			m, err := s.Get(name)
			if err != nil {
				return modExit(err)
			}
			l := m.Layout()
			if asJSON {
				return jsonOrInternal(cmd.OutOrStdout(), struct {
					Name string `json:"name"`
					module.Layout
				}{m.Name().String(), modNonNil(l)})
			}
			modPrintInfo(cmd.OutOrStdout(), m.Name().String(), l)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, `print {"name", "content_dir", "skills", "commands", "agents", "instructions", "mcps", "hooks", "single_skill"}`)
	return c
}

// modNonNil makes empty lists [] rather than null in JSON.
func modNonNil(l module.Layout) module.Layout {
	if l.Skills == nil {
		l.Skills = []module.Skill{}
	}
	if l.Commands == nil {
		l.Commands = []module.Command{}
	}
	if l.Agents == nil {
		l.Agents = []module.Agent{}
	}
	if l.MCPs == nil {
		l.MCPs = []string{}
	}
	return l
}

func modPrintInfo(w io.Writer, name string, l module.Layout) {
	fmt.Fprintln(w, name)
	if l.ContentDir != "" {
		fmt.Fprintf(w, "  content: %s/\n", l.ContentDir)
	}
	section := func(title string, n int) bool {
		fmt.Fprintf(w, "\n%s\n", title)
		if n == 0 {
			fmt.Fprintln(w, "  (none)")
		}
		return n > 0
	}
	described := func(label, desc string) {
		if desc == "" {
			fmt.Fprintf(w, "  %s\n", modPrintable(label))
			return
		}
		fmt.Fprintf(w, "  %s  %s\n", modPrintable(label), modPrintable(desc))
	}
	if section("Skills", len(l.Skills)) {
		for _, s := range l.Skills {
			described(s.Name, s.Description)
		}
	}
	if section("Commands", len(l.Commands)) {
		for _, c := range l.Commands {
			label := "/" + c.Name
			if c.ArgumentHint != "" {
				label += " " + c.ArgumentHint
			}
			described(label, c.Description)
		}
	}
	if section("Agents", len(l.Agents)) {
		for _, a := range l.Agents {
			label := "@" + a.Name
			if a.Model != "" {
				label += " (" + a.Model + ")"
			}
			described(label, a.Description)
		}
	}
	fmt.Fprintln(w)
	if l.Instructions {
		fmt.Fprintln(w, "Instructions: AGENTS.md")
	} else {
		fmt.Fprintln(w, "Instructions: (none)")
	}
	if len(l.MCPs) > 0 {
		fmt.Fprintf(w, "MCP servers: %s\n", modPrintable(strings.Join(l.MCPs, ", ")))
	}
	fmt.Fprintln(w, "\nHooks")
	if l.Hooks.PreInstall == "" && l.Hooks.PostInstall == "" {
		fmt.Fprintln(w, "  (none)")
	}
	if l.Hooks.PreInstall != "" {
		fmt.Fprintf(w, "  pre-install: %s\n", modPrintable(l.Hooks.PreInstall))
	}
	if l.Hooks.PostInstall != "" {
		fmt.Fprintf(w, "  post-install: %s\n", modPrintable(l.Hooks.PostInstall))
	}
}
