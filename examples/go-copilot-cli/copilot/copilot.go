// Package copilot is the mapping GitHub Copilot's two Lola targets share
// (copilot-cli and copilot-vscode, as in today's Lola): where each kind
// goes and how a skill is rewritten. The targets differ only in MCP
// servers and in what VS Code has no user-scope place for.
package copilot

import (
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/sdk-go/assistant"
	"github.com/lola-pm/lola/sdk-go/frontmatter"
)

// Target returns the copilot-cli mapping, named name.
//
//	kind          project                                user (root = home)
//	skills        .github/skills/<skill>/                .copilot/skills/<skill>/
//	commands      .github/prompts/<name>.prompt.md       .copilot/prompts/<name>.prompt.md
//	agents        .github/agents/<name>.agent.md         .copilot/agents/<name>.agent.md
//	instructions  .github/copilot-instructions.md        .copilot/copilot-instructions.md
//	MCP servers   .vscode/mcp.json ("mcpServers")        .copilot/mcp-config.json
func Target(name string) *assistant.Target {
	return &assistant.Target{
		Name:         name,
		Skills:       assistant.Scoped{Project: ".github/skills", User: ".copilot/skills"},
		Commands:     assistant.Scoped{Project: ".github/prompts", User: ".copilot/prompts"},
		Agents:       assistant.Scoped{Project: ".github/agents", User: ".copilot/agents"},
		Instructions: assistant.Scoped{Project: ".github/copilot-instructions.md", User: ".copilot/copilot-instructions.md"},
		MCP:          assistant.Scoped{Project: ".vscode/mcp.json", User: ".copilot/mcp-config.json"},
		MCPContainer: "mcpServers",
		CommandFile:  func(n string) string { return n + ".prompt.md" },
		AgentFile:    func(n string) string { return n + ".agent.md" },
		Skill:        Skill,
	}
}

// Skill is the SKILL.md Copilot reads: frontmatter reduced to name,
// description and applyTo (from applyTo, else globs), the body trimmed. A
// skill without a description is not installed, as today.
func Skill(s schema.Skill, doc string) (string, bool) {
	meta, body := frontmatter.Parse(doc)
	desc, ok := meta.Get("description")
	if !ok || !desc.Truthy() {
		return "", false
	}
	out := &frontmatter.Map{}
	out.Set("name", frontmatter.Str(s.Name))
	out.Set("description", desc)
	if v, ok := meta.Get("applyTo"); ok && v.Truthy() {
		out.Set("applyTo", v)
	} else if v, ok := meta.Get("globs"); ok && v.Truthy() {
		out.Set("applyTo", v)
	}
	return frontmatter.Render(out, body), true
}
