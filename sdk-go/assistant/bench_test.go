package assistant

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
)

// BenchmarkPlanInstall: plan the install of the kit fixture module (skills,
// commands, agents, instructions, two MCP servers) with a user CLAUDE.md
// and .mcp.json handed over.
func BenchmarkPlanInstall(b *testing.B) {
	raw, err := os.ReadFile("../../examples/testdata/modules/kit.module.json")
	if err != nil {
		b.Fatal(err)
	}
	var m schema.Module
	if err := json.Unmarshal(raw, &m); err != nil {
		b.Fatal(err)
	}
	t := &Target{
		Name:         "bench",
		Skills:       Scoped{Project: ".claude/skills"},
		Commands:     Scoped{Project: ".claude/commands"},
		Agents:       Scoped{Project: ".claude/agents"},
		Instructions: Scoped{Project: "CLAUDE.md"},
		MCP:          Scoped{Project: ".mcp.json"},
		MCPContainer: "mcpServers",
	}
	req := &lola.Request{Protocol: 1, Operation: schema.OperationInstall, Scope: schema.ScopeProject, Modules: []schema.Module{m},
		Current: []schema.File{{Path: "CLAUDE.md", Content: "# Notes\n"}, {Path: ".mcp.json", Content: "{\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"x\"}\n  }\n}\n"}}}
	b.ReportAllocs()
	for b.Loop() {
		var p lola.Plan
		if err := t.Plan(req, &p); err != nil {
			b.Fatal(err)
		}
	}
}
