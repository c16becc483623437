package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// mcpConfigOf is each assistant's MCP config (openclaw has none).
var mcpConfigOf = map[string]string{
	"claude-code": ".mcp.json", "opencode": "opencode.json",
	"copilot-cli": ".vscode/mcp.json", "copilot-vscode": ".vscode/mcp.json",
	"cursor": ".cursor/mcp.json", "gemini-cli": ".gemini/settings.json",
}

// For every assistant with an MCP config: a user's server of the name a
// module's server has is not lola's to take (uninstall would delete it),
// so the install is refused with conflict.unowned naming it, with and
// without --force, and the project is byte-identical afterwards.
func TestEndToEndUsersServerOfTheModulesNameIsRefused(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	for assistant, file := range mcpConfigOf {
		t.Run(assistant, func(t *testing.T) {
			base := t.TempDir()
			home, project, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "kit")
			modWriteFiles(t, src, mcpSample)
			container := "mcpServers"
			switch assistant {
			case "opencode":
				container = "mcp"
			case "copilot-vscode":
				container = "servers"
			}
			modWriteFiles(t, project, map[string]string{file: `{"` + container + `": {"kit-local": {"command": "the-users-own"}}}` + "\n"})
			env := []string{"LOLA_HOME=" + home}
			if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
				t.Fatalf("mod add: %d %s", r.code, r.err)
			}
			before := modeTree(t, project)
			for _, force := range []bool{false, true} {
				args := atProject([]string{"install", "kit", "-a", assistant}, project)
				if force {
					args = append(args, "--force")
				}
				r := runBuilt(t, exe, env, args...)
				if r.code != exitRejected || !strings.Contains(r.err+r.out, "conflict.unowned") || !strings.Contains(r.err+r.out, `"kit-local"`) {
					t.Fatalf("%v: exit %d, want %d with conflict.unowned naming \"kit-local\"\n%s%s", args, r.code, exitRejected, r.out, r.err)
				}
				if d := treeDiff(before, modeTree(t, project)); d != "" {
					t.Fatalf("%v changed the project:\n%s", args, d)
				}
			}
			if _, err := os.Stat(filepath.Join(home, "installed.yml")); err == nil {
				t.Error("installed.yml written for a refused install")
			}
		})
	}
}

// A managed file the user had is the user's however empty lola leaves it:
// a config holding nothing but $schema, and empty instruction files, are
// all there, as they were, after install and uninstall — for every
// assistant. A config lola created goes again.
func TestEndToEndUsersEmptyManagedFilesSurviveUninstall(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	if runtime.GOOS == "windows" {
		t.Skip("modes are compared as POSIX bits")
	}
	exe, _ := builtLola(t)
	for _, assistant := range []string{"claude-code", "opencode", "copilot-cli", "copilot-vscode", "openclaw", "cursor", "gemini-cli"} {
		t.Run(assistant, func(t *testing.T) {
			base := t.TempDir()
			home, project, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "kit")
			modWriteFiles(t, src, mcpSample)
			user := map[string]string{"CLAUDE.md": "", "AGENTS.md": "", "GEMINI.md": "", ".github/copilot-instructions.md": ""}
			if f := mcpConfigOf[assistant]; f != "" {
				user[f] = `{"$schema": "https://example.org/schema.json"}`
			}
			modWriteFiles(t, project, user)
			env := []string{"LOLA_HOME=" + home}
			if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
				t.Fatalf("mod add: %d %s", r.code, r.err)
			}
			before := modeTree(t, project)
			for _, op := range []string{"install", "uninstall"} {
				if r := runBuilt(t, exe, env, atProject([]string{op, "kit", "-a", assistant}, project)...); r.code != 0 {
					t.Fatalf("%s: exit %d\n%s%s", op, r.code, r.out, r.err)
				}
			}
			if d := treeDiff(before, modeTree(t, project)); d != "" {
				t.Errorf("the user's managed files are not as they were:\n%s", d)
			}
			// Without the user's files, whatever lola created goes again.
			for p := range user {
				if err := os.Remove(filepath.Join(project, p)); err != nil {
					t.Fatal(err)
				}
			}
			empty := modeTree(t, project)
			for _, op := range []string{"install", "uninstall"} {
				if r := runBuilt(t, exe, env, atProject([]string{op, "kit", "-a", assistant}, project)...); r.code != 0 {
					t.Fatalf("%s into an empty project: exit %d\n%s%s", op, r.code, r.out, r.err)
				}
			}
			if d := treeDiff(empty, modeTree(t, project)); d != "" {
				t.Errorf("what lola created is not gone:\n%s", d)
			}
		})
	}
}
