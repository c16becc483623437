// Command opencode is Lola's built-in OpenCode target: it maps the modules
// of a request onto the layout OpenCode reads, as today's Lola does. It is
// an ordinary sdk-go extension, built as tier 1 and tier 2 from this one
// source.
//
// Module layout (paths inside a module)   OpenCode layout (root-relative; scope user: under .config/opencode/)
//
//	skills/<skill>/SKILL.md             .opencode/skills/<skill>/SKILL.md
//	skills/<skill>/<supporting files>   .opencode/skills/<skill>/<supporting files>
//	commands/<name>.md                  .opencode/commands/<name>.md (as is)
//	agents/<name>.md                    .opencode/agents/<name>.md (frontmatter mode: subagent)
//	AGENTS.md or instructions.md,       the module's block in the managed section of
//	and the list of its skills          AGENTS.md (project) or .config/opencode/AGENTS.md (user)
//
// The root is the project for scope "project" and the user's home for scope
// "user" (OpenCode's global configuration directory is ~/.config/opencode).
// Every other module file (lola.yaml, README.md, hooks, ...) is not
// installed. A skill directory without SKILL.md, a command or agent that is
// not a .md file directly under commands/ or agents/, a module path the host
// would refuse, or a module name that could forge a marker fails the run.
// Uninstall deletes what install wrote for each module and removes its
// block; the user's text around lola's section in AGENTS.md is kept byte
// for byte (see github.com/lola-pm/lola/sdk-go/managed).
package main

import lola "github.com/lola-pm/lola/sdk-go"

func init() { lola.Register(plan) }

func main() { lola.Main() }
