// Command copilot-vscode is Lola's built-in GitHub Copilot (VS Code)
// target, equal to today's Lola's: copilot-cli's mapping (package copilot)
// except that MCP servers go into .vscode/mcp.json under VS Code's
// "servers" key with an explicit type (stdio, or http for a server with a
// url), and that VS Code has no user-scope place for commands or MCP
// servers, so a user-scope install leaves those out.
package main

import (
	"github.com/lola-pm/lola/examples/go-copilot-cli/copilot"
	lola "github.com/lola-pm/lola/sdk-go"
	"github.com/lola-pm/lola/sdk-go/assistant"
	"github.com/lola-pm/lola/sdk-go/jsonconfig"
)

var target = func() *assistant.Target {
	t := copilot.Target("copilot-vscode")
	t.Commands.User = ""
	t.MCP = assistant.Scoped{Project: ".vscode/mcp.json"}
	t.MCPContainer = "servers"
	t.MCPServer = func(v jsonconfig.Value) jsonconfig.Value {
		if _, ok := v.Get("type"); !ok {
			kind := "stdio"
			if _, ok := v.Get("url"); ok {
				kind = "http"
			}
			v.Set("type", jsonconfig.Str(kind))
		}
		return v
	}
	return t
}()

func init() { lola.Register(target.Handler()) }

func main() { lola.Main() }
