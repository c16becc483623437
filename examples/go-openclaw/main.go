// Command openclaw is Lola's built-in OpenClaw target, equal to today's
// Lola's: skills only, into the workspace's skills/ directory, OpenClaw's
// highest-priority discovery path. Commands, agents, instructions and MCP
// servers are not installed (OpenClaw has no place for them yet).
//
// The root is the workspace: `lola install -a openclaw --workspace W`
// installs into ~/.openclaw/workspace (no W), ~/.openclaw/workspace-W (a
// name) or W (a path); scope user installs into ~/.openclaw/workspace.
package main

import (
	lola "github.com/lola-pm/lola/sdk-go"
	"github.com/lola-pm/lola/sdk-go/assistant"
)

var target = &assistant.Target{
	Name:   "openclaw",
	Skills: assistant.Scoped{Project: "skills", User: ".openclaw/workspace/skills"},
}

func init() { lola.Register(target.Handler()) }

func main() { lola.Main() }
