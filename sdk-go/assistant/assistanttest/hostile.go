package assistanttest

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
)

// Hostile feeds the registered handler requests built from the kit fixture
// module with one thing broken each, and requires each to fail the run
// (handler error, no plan) with a message naming what is wrong. mcpFile is
// the target's project MCP config ("" when it has none): handed over as
// JSONC, it must be refused rather than rewritten.
func Hostile(t *testing.T, assistant, mcpFile, fixtures string) {
	t.Helper()
	base := func() schema.Request {
		var m schema.Module
		mustJSON(t, filepath.Join(fixtures, "modules", "kit.module.json"), &m)
		return schema.Request{Protocol: 1, Operation: schema.OperationInstall, Assistant: assistant, Scope: schema.ScopeProject, Modules: []schema.Module{m}}
	}
	cases := []struct {
		name, want string
		mutate     func(r *schema.Request)
	}{
		{"no inventory (an older host)", "no inventory", func(r *schema.Request) { r.Modules[0].Inventory = nil }},
		{"inventory names a file not sent", "does not carry", func(r *schema.Request) {
			r.Modules[0].Inventory.Agents[0].Path = "agents/ghost.md"
		}},
		{"skill name escapes its directory", "not a single path component", func(r *schema.Request) {
			r.Modules[0].Inventory.Skills[0].Name = "../../.ssh"
		}},
		{"command name with a separator", "not a single path component", func(r *schema.Request) {
			r.Modules[0].Inventory.Commands[0].Name = "a/b"
		}},
		{"skill file outside the skill", "outside", func(r *schema.Request) {
			s := &r.Modules[0].Inventory.Skills[0]
			s.Files = append(s.Files, "AGENTS.md")
		}},
		{"sidecar outside the command's directory", "outside", func(r *schema.Request) {
			r.Modules[0].Inventory.Commands[0].Sidecar = []string{"AGENTS.md"}
		}},
		{"module file path traversal", "path.traversal", func(r *schema.Request) {
			r.Modules[0].Files[0].Path = "../AGENTS.md"
		}},
		{"module name that forges a marker", "module name", func(r *schema.Request) {
			r.Modules[0].Name = "x:end --> <!-- lola:module:y"
		}},
		{"unknown scope", "scope", func(r *schema.Request) { r.Scope = "system" }},
	}
	if mcpFile != "" {
		cases = append(cases,
			struct {
				name, want string
				mutate     func(r *schema.Request)
			}{"MCP server that is not an object", "not a JSON object", func(r *schema.Request) {
				r.Modules[0].Inventory.MCPServers[0].Config = json.RawMessage(`"rm -rf ~"`)
			}},
			struct {
				name, want string
				mutate     func(r *schema.Request)
			}{"user's MCP config is JSONC", "not valid JSON", func(r *schema.Request) {
				r.Current = []schema.File{{Path: mcpFile, Content: "{\n  // mine\n  \"x\": 1\n}\n"}}
			}},
		)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := base()
			c.mutate(&r)
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			plan, status, err := lola.Process(b)
			if status != lola.StatusHandlerError || plan != nil || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("status %s plan %d bytes err %v; want a handler error containing %q and no plan", status, len(plan), err, c.want)
			}
		})
	}
}
