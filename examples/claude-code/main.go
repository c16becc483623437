// Command claude-code is Lola's built-in Claude Code target: it maps the
// modules of a request onto the layout Claude Code reads. It is an ordinary
// sdk-go extension, built as tier 1 and tier 2 from this one source.
//
// Module layout (paths inside a module)        Claude Code layout (root-relative)
//
//	skills/<skill>/SKILL.md                  .claude/skills/<skill>/SKILL.md
//	skills/<skill>/<supporting files...>     .claude/skills/<skill>/<supporting files...>
//	commands/<name>.md                       .claude/commands/<name>.md
//	agents/<name>.md                         .claude/agents/<name>.md
//	AGENTS.md or instructions.md             the module's block in the managed section
//	                                         of CLAUDE.md (scope project) or
//	                                         .claude/CLAUDE.md (scope user)
//
// The root is the project for scope "project" and the user's home for
// scope "user". Every other module file (lola.yaml, README.md, hooks, ...)
// is not installed. A skill directory without SKILL.md, or a command or
// agent that is not a .md file directly under commands/ or agents/, fails
// the run. Uninstall deletes what install wrote for each module and removes
// its block; the user's text around lola's section is kept byte for byte
// (see github.com/lola-pm/lola/sdk-go/managed).
package main

import lola "github.com/lola-pm/lola/sdk-go"

func init() { lola.Register(plan) }

func main() { lola.Main() }
