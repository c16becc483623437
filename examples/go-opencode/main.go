// Command opencode is Lola's built-in OpenCode target: the mapping of a
// module (as the host's inventory describes it) onto the files OpenCode
// reads, equal to today's Lola's. Built as tier 1 and tier 2 from this one
// source; everything but the mapping is sdk-go/assistant.
//
//	kind          project                          user (root = home)
//	skills        .opencode/skills/<skill>/        .config/opencode/skills/<skill>/
//	commands      .opencode/commands/<name>.md     .config/opencode/commands/<name>.md
//	agents        .opencode/agents/<name>.md       .config/opencode/agents/<name>.md
//	instructions  AGENTS.md (managed section)      .config/opencode/AGENTS.md
//	MCP servers   opencode.json ("mcp")            .config/opencode/opencode.json
//
// Agents get "mode: subagent" in their frontmatter. MCP servers are
// rewritten into OpenCode's dialect (local: type local, command as one
// array, environment; remote: type remote), ${VAR} becoming {env:VAR}.
package main

import (
	"regexp"

	lola "github.com/lola-pm/lola/sdk-go"
	"github.com/lola-pm/lola/sdk-go/assistant"
	"github.com/lola-pm/lola/sdk-go/frontmatter"
	"github.com/lola-pm/lola/sdk-go/jsonconfig"
)

var target = &assistant.Target{
	Name:         "opencode",
	Skills:       assistant.Scoped{Project: ".opencode/skills", User: ".config/opencode/skills"},
	Commands:     assistant.Scoped{Project: ".opencode/commands", User: ".config/opencode/commands"},
	Agents:       assistant.Scoped{Project: ".opencode/agents", User: ".config/opencode/agents"},
	Instructions: assistant.Scoped{Project: "AGENTS.md", User: ".config/opencode/AGENTS.md"},
	MCP:          assistant.Scoped{Project: "opencode.json", User: ".config/opencode/opencode.json"},
	MCPContainer: "mcp",
	MCPSeed: func() jsonconfig.Value {
		v := jsonconfig.NewObject()
		v.Set("$schema", jsonconfig.Str("https://opencode.ai/config.json"))
		return v
	},
	MCPServer:       server,
	SkillMDVerbatim: true,
	Agent: func(_, doc string) string {
		meta, body := frontmatter.Parse(doc)
		meta.Set("mode", frontmatter.Str("subagent"))
		return frontmatter.Render(meta, body)
	},
}

var envRef = regexp.MustCompile(`\$\{([^}]+)\}`)

// env rewrites ${VAR} to OpenCode's {env:VAR} in a string value.
func env(v jsonconfig.Value) jsonconfig.Value {
	if v.Kind == jsonconfig.String {
		v.Str = envRef.ReplaceAllString(v.Str, "{env:$1}")
	}
	return v
}

func envObject(v jsonconfig.Value) jsonconfig.Value {
	out := jsonconfig.NewObject()
	for _, m := range v.Members {
		out.Set(m.Key, env(m.Value))
	}
	return out
}

// server is a module's MCP server in OpenCode's dialect.
func server(in jsonconfig.Value) jsonconfig.Value {
	out := jsonconfig.NewObject()
	if t, _ := in.Get("type"); t.Kind == jsonconfig.String && (t.Str == "http" || t.Str == "sse") {
		out.Set("type", jsonconfig.Str("remote"))
		if u, ok := in.Get("url"); ok && u.Kind != jsonconfig.Null {
			out.Set("url", env(u))
		}
		if h, ok := in.Get("headers"); ok && h.Kind == jsonconfig.Object && len(h.Members) > 0 {
			out.Set("headers", envObject(h))
		}
		return out
	}
	out.Set("type", jsonconfig.Str("local"))
	if c, ok := in.Get("command"); ok && c.Kind == jsonconfig.String && c.Str != "" {
		cmd := jsonconfig.Value{Kind: jsonconfig.Array, Items: []jsonconfig.Value{c}}
		if a, ok := in.Get("args"); ok && a.Kind == jsonconfig.Array {
			cmd.Items = append(cmd.Items, a.Items...)
		}
		out.Set("command", cmd)
	}
	if e, ok := in.Get("env"); ok && e.Kind == jsonconfig.Object && len(e.Members) > 0 {
		out.Set("environment", envObject(e))
	}
	return out
}

func init() { lola.Register(target.Handler()) }

func main() { lola.Main() }
