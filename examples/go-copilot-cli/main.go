// Command copilot-cli is Lola's built-in GitHub Copilot CLI target, equal
// to today's Lola's: see package copilot for the mapping it shares with
// copilot-vscode. MCP servers go into .vscode/mcp.json (project) or
// ~/.copilot/mcp-config.json (user) under "mcpServers", as the module
// declares them.
package main

import (
	"github.com/lola-pm/lola/examples/go-copilot-cli/copilot"
	lola "github.com/lola-pm/lola/sdk-go"
)

var target = copilot.Target("copilot-cli")

func init() { lola.Register(target.Handler()) }

func main() { lola.Main() }
