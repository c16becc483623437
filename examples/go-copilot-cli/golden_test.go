package main

import (
	"testing"

	"github.com/lola-pm/lola/sdk-go/assistant/assistanttest"
	"github.com/lola-pm/lola/sdk-go/lolatest"
)

// managed are the manifest's managed: files.
var managed = []string{".github/copilot-instructions.md", ".copilot/copilot-instructions.md", ".vscode/mcp.json", ".copilot/mcp-config.json"}

// TestEqualToTodaysLola replays today's Lola's install and uninstall of
// the fixture modules, in both scopes, and requires the same files.
func TestEqualToTodaysLola(t *testing.T) {
	assistanttest.Replay(t, "copilot-cli", managed, "../testdata")
}

// TestHostileRequestsRefused: requests the target must refuse.
func TestHostileRequestsRefused(t *testing.T) {
	assistanttest.Hostile(t, "copilot-cli", ".vscode/mcp.json", "../testdata")
}

// TestGolden runs the target in-process on every testdata request (the
// replayed steps) and compares the plan with its golden.
func TestGolden(t *testing.T) { lolatest.Golden(t, "testdata") }

// TestTierParity builds the target as tier 1 and tier 2 and asserts both
// emit, byte for byte, the plan the in-process run emits.
func TestTierParity(t *testing.T) { lolatest.TierParity(t, ".", "testdata") }
