package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hostile cases of the managed files of the cursor and gemini-cli
// targets, run on their tier-2 builds: a user's MCP config of unusual
// formatting keeps its bytes through install and uninstall, a broken one is
// refused (nothing planned) instead of replaced, and a GEMINI.md lola
// created goes again when its last module does.

type managedCase struct {
	dir, assistant, config string
}

var managedCases = []managedCase{
	{"examples/cursor", "cursor", ".cursor/mcp.json"},
	{"examples/gemini-cli", "gemini-cli", ".gemini/settings.json"},
}

const hostileModule = `{"name": "m", "files": [
 {"path": "mcps.json", "content": "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"é\"]}}}"},
 {"path": "AGENTS.md", "content": "Be kind.\n"}],
 "inventory": {"skills": [], "commands": [], "agents": [], "instructions": "AGENTS.md",
  "mcpServers": [{"name": "s", "config": {"command": "x", "args": ["é"]}}]}}`

// runRequest writes a request built from parts and runs exe on it.
// runRequest runs one request through a native target; created names the
// managed files lola created (schema.Request.Created).
func runRequest(t *testing.T, exe, op, assistant string, current map[string]string, created ...string) (plan map[string]string, deleted []string, stderr string, status int) {
	t.Helper()
	var cur []map[string]string
	for p, c := range current {
		cur = append(cur, map[string]string{"path": p, "content": c})
	}
	req := map[string]any{"protocol": 1, "operation": op, "assistant": assistant, "scope": "project",
		"modules": []json.RawMessage{json.RawMessage(hostileModule)}}
	if cur != nil {
		req["current"] = cur
	}
	if created != nil {
		req["created"] = created
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "req.json")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runNative(t, exe, f)
	if status != 0 {
		return nil, nil, string(errOut), status
	}
	var p struct {
		Intents []struct{ Op, Path, Content string }
	}
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	plan = map[string]string{}
	for _, in := range p.Intents {
		if in.Op == "write" {
			plan[in.Path] = in.Content
		} else if in.Op == "delete" {
			deleted = append(deleted, in.Path)
		}
	}
	return plan, deleted, string(errOut), 0
}

func TestManagedConfigKeepsTheUsersBytes(t *testing.T) {
	const user = "{\"theme\":\"x\",   \"mcpServers\" :{\n\t\"mine\":{\"command\":\"m\",\"env\":{\"K\":\"\\u00e9\"}}\n}\n, \"z\":[1,2.50e3]}\n"
	for _, c := range managedCases {
		t.Run(c.assistant, func(t *testing.T) {
			p := findExample(t, c.dir)
			ex := build(t, p)
			plan, _, stderr, status := runRequest(t, ex.native, "install", c.assistant, map[string]string{c.config: user})
			if status != 0 {
				t.Fatalf("install: status %d: %s", status, stderr)
			}
			merged := plan[c.config]
			if !strings.HasPrefix(merged, "{\"theme\":\"x\",   \"mcpServers\" :{\n\t\"mine\":{\"command\":\"m\",\"env\":{\"K\":\"\\u00e9\"}},\n\t\"s\": {\n") ||
				!strings.HasSuffix(merged, "}\n, \"z\":[1,2.50e3]}\n") || !strings.Contains(merged, `"\u00e9"`) {
				t.Fatalf("merged config:\n%s", merged)
			}
			plan, deleted, stderr, status := runRequest(t, ex.native, "uninstall", c.assistant, map[string]string{c.config: merged})
			if status != 0 {
				t.Fatalf("uninstall: status %d: %s", status, stderr)
			}
			if plan[c.config] != user || len(deleted) > 1 {
				t.Fatalf("after uninstall:\n%q\nwant\n%q (deleted %v)", plan[c.config], user, deleted)
			}
		})
	}
}

func TestManagedConfigBrokenIsRefused(t *testing.T) {
	for _, c := range managedCases {
		t.Run(c.assistant, func(t *testing.T) {
			ex := build(t, findExample(t, c.dir))
			for _, bad := range []string{"{\"mcpServers\": ", "[]", "{\"mcpServers\": []}", "// mine\n{}",
				"{\"mcpServers\": {}, \"mcpServers\": {}}", "{\"mcpServers\": {\"s\": {}, \"s\": {}}}"} {
				for _, op := range []string{"install", "uninstall"} {
					_, _, stderr, status := runRequest(t, ex.native, op, c.assistant, map[string]string{c.config: bad})
					if status != 2 || !strings.Contains(stderr, "managed.invalid") {
						t.Fatalf("%s over %q: status %d, stderr %q; want 2 and managed.invalid", op, bad, status, stderr)
					}
				}
			}
		})
	}
}

func TestGeminiMDLolaCreatedGoesAgain(t *testing.T) {
	ex := build(t, findExample(t, "examples/gemini-cli"))
	plan, _, stderr, status := runRequest(t, ex.native, "install", "gemini-cli", nil)
	if status != 0 {
		t.Fatalf("install: %d %s", status, stderr)
	}
	// Upstream writes two blank lines first; every target starts a file it
	// creates with lola's section (the project's shared difference).
	want := "<!-- lola:instructions:start -->\n<!-- lola:module:m:start -->\nBe kind.\n<!-- lola:module:m:end -->\n<!-- lola:instructions:end -->\n"
	if plan["GEMINI.md"] != want {
		t.Fatalf("GEMINI.md %q, want %q", plan["GEMINI.md"], want)
	}
	cur := map[string]string{"GEMINI.md": plan["GEMINI.md"], ".gemini/settings.json": plan[".gemini/settings.json"]}
	gone, deleted, stderr, status := runRequest(t, ex.native, "uninstall", "gemini-cli", cur, "GEMINI.md", ".gemini/settings.json")
	if status != 0 || len(gone) != 0 || strings.Join(deleted, " ") != ".gemini/settings.json GEMINI.md" {
		t.Fatalf("uninstall: status %d %s, writes %v, deletes %v", status, stderr, gone, deleted)
	}
	// The same files, had the user made them (nothing says lola created
	// them), are written back emptied instead: never deleted.
	kept, deleted, stderr, status := runRequest(t, ex.native, "uninstall", "gemini-cli", cur)
	if _, ok := kept["GEMINI.md"]; status != 0 || len(deleted) != 0 || !ok {
		t.Fatalf("uninstall of the user's files: status %d %s, writes %v, deletes %v", status, stderr, kept, deleted)
	}
}

func findExample(t *testing.T, dir string) project {
	t.Helper()
	for _, p := range examples {
		if p.dir == dir {
			return p
		}
	}
	t.Fatalf("no example %s", dir)
	return project{}
}

// TestManagedConfigOnlySchemaLeft: a config holding nothing but its
// $schema after lola's servers go is deleted when lola created it (as
// upstream deletes it), and written back as the user had it otherwise.
func TestManagedConfigOnlySchemaLeft(t *testing.T) {
	for _, c := range managedCases {
		t.Run(c.assistant, func(t *testing.T) {
			ex := build(t, findExample(t, c.dir))
			user := "{\"$schema\": \"https://example.org/s.json\"}"
			plan, _, stderr, status := runRequest(t, ex.native, "install", c.assistant, map[string]string{c.config: user})
			if status != 0 {
				t.Fatalf("install: %d %s", status, stderr)
			}
			cur := map[string]string{c.config: plan[c.config]}
			written, deleted, stderr, status := runRequest(t, ex.native, "uninstall", c.assistant, cur, c.config)
			_, rewritten := written[c.config]
			if status != 0 || rewritten || !strings.Contains(" "+strings.Join(deleted, " ")+" ", " "+c.config+" ") {
				t.Fatalf("uninstall, lola created it: status %d %s, wrote %v, deleted %v", status, stderr, written, deleted)
			}
			written, deleted, stderr, status = runRequest(t, ex.native, "uninstall", c.assistant, cur)
			if status != 0 || written[c.config] != user || strings.Contains(" "+strings.Join(deleted, " ")+" ", " "+c.config+" ") {
				t.Fatalf("uninstall, the user's file: status %d %s, wrote %v, deleted %v", status, stderr, written, deleted)
			}
		})
	}
}
