// Command claude-code is Lola's built-in Claude Code target: the mapping of
// a module (as the host's inventory describes it) onto the files Claude
// Code reads, equal to today's Lola's. It is an ordinary sdk-go extension,
// built as tier 1 and tier 2 from this one source; everything but the
// mapping is sdk-go/assistant.
//
//	kind          project                        user (root = home)
//	skills        .claude/skills/<skill>/        .claude/skills/<skill>/
//	commands      .claude/commands/<name>.md     .claude/commands/<name>.md
//	agents        .claude/agents/<name>.md       .claude/agents/<name>.md
//	instructions  CLAUDE.md (managed section)    .claude/CLAUDE.md
//	MCP servers   .mcp.json ("mcpServers")       .mcp.json
//
// Agents get "name: <agent>" in their frontmatter and "model: inherit"
// when the author wrote no model (see README.md for the one difference from
// today's Lola).
package main

import (
	lola "github.com/lola-pm/lola/sdk-go"
	"github.com/lola-pm/lola/sdk-go/assistant"
	"github.com/lola-pm/lola/sdk-go/frontmatter"
)

var target = &assistant.Target{
	Name:         "claude-code",
	Skills:       assistant.Scoped{Project: ".claude/skills", User: ".claude/skills"},
	Commands:     assistant.Scoped{Project: ".claude/commands", User: ".claude/commands"},
	Agents:       assistant.Scoped{Project: ".claude/agents", User: ".claude/agents"},
	Instructions: assistant.Scoped{Project: "CLAUDE.md", User: ".claude/CLAUDE.md"},
	MCP:          assistant.Scoped{Project: ".mcp.json", User: ".mcp.json"},
	MCPContainer: "mcpServers",
	Agent:        agent,
}

// agent is the agent file Claude Code reads: its frontmatter with name set
// (Claude Code requires it) and model defaulting to inherit, re-serialised
// and with the body trimmed, as today's Lola writes it.
func agent(name, doc string) string {
	meta, body := frontmatter.Parse(doc)
	meta.Set("name", frontmatter.Str(name))
	if _, ok := meta.Get("model"); !ok {
		meta.Set("model", frontmatter.Str("inherit"))
	}
	return frontmatter.Render(meta, body)
}

func init() { lola.Register(target.Handler()) }

func main() { lola.Main() }
