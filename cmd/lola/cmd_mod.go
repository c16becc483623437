package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/module"
)

func init() { topCommands = append(topCommands, newModCmd) }

// modCommands are the `lola mod` subcommands; each file registers its own.
var modCommands []func() *cobra.Command

func newModCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "mod",
		Short: "Add, list, inspect and remove modules in the module store",
		Long: `A module is a folder of skills, commands, agents and instructions, laid out
as today's Lola lays it out (content in module/ when present, else the root):

  skills/<name>/SKILL.md   a skill (or one SKILL.md at the root: a single skill)
  commands/<name>.md       a slash command
  agents/<name>.md         a subagent
  AGENTS.md                instructions (non-empty)
  mcps.json                MCP servers ("mcpServers")
  lola.yaml                install hooks (hooks: {pre-install: ..., post-install: ...})

Modules are kept in $LOLA_HOME/modules/<name>/ (default ~/.lola), private
to the user (0700).`,
		Example: `  lola mod add ./my-skills
  lola mod add https://github.com/user/my-skills.git --ref v1.0.0
  lola mod ls
  lola mod info my-skills
  lola mod rm my-skills`,
	}
	for _, sub := range modCommands {
		c.AddCommand(sub())
	}
	return c
}

// modStore opens the module store under $LOLA_HOME.
func modStore() (*module.Store, string, error) {
	home, err := config.Home()
	if err != nil {
		return nil, "", exitcode.Wrap(exitcode.Usage, err)
	}
	s, err := module.OpenStore(home)
	if err != nil {
		return nil, "", exitcode.Wrap(exitcode.Internal, err)
	}
	return s, home, nil
}

// modError is a module store error as people read it, with the code
// exitcode.ForModule decided: an unknown module says where to look.
func modError(err error) error {
	code := exitcode.ForModule(err)
	if errors.Is(err, module.ErrNotFound) {
		err = fmt.Errorf("%w (not found in the store; see lola mod ls)", err)
	}
	return exitcode.Wrap(code, err)
}

// modParseName validates a NAME argument.
func modParseName(s string) (module.Name, error) {
	n, err := module.ParseName(s)
	if err != nil {
		return n, exitcode.Wrap(exitcode.Usage, err)
	}
	return n, nil
}

// modSummary is one module as `mod ls --json` and `mod add --json` report it.
type modSummary struct {
	Name         string   `json:"name"`
	Skills       []string `json:"skills"`
	Commands     []string `json:"commands"`
	Agents       []string `json:"agents"`
	Instructions bool     `json:"instructions"`
	MCPs         []string `json:"mcps"`
	Hooks        []string `json:"hooks"`
	Error        string   `json:"error,omitempty"`
}

func newModSummary(name string, l module.Layout) modSummary {
	s := modSummary{Name: name, Skills: []string{}, Commands: []string{}, Agents: []string{}, MCPs: []string{}, Hooks: []string{}, Instructions: l.Instructions}
	for _, x := range l.Skills {
		s.Skills = append(s.Skills, x.Name)
	}
	for _, x := range l.Commands {
		s.Commands = append(s.Commands, x.Name)
	}
	for _, x := range l.Agents {
		s.Agents = append(s.Agents, x.Name)
	}
	s.MCPs = append(s.MCPs, l.MCPs...)
	if l.Hooks.PreInstall != "" {
		s.Hooks = append(s.Hooks, "pre-install")
	}
	if l.Hooks.PostInstall != "" {
		s.Hooks = append(s.Hooks, "post-install")
	}
	return s
}

// countText renders "1 skill", "3 violations".
func countText(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
