package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// mcpSample is a module with a script that must stay executable and MCP
// servers (one local, one remote).
var mcpSample = map[string]string{
	"skills/tidy/SKILL.md":        "---\nname: tidy\ndescription: Tidies\n---\nRun scripts/tidy.sh.\n",
	"skills/tidy/scripts/tidy.sh": "#!/bin/sh\necho tidy\n",
	"mcps.json":                   `{"mcpServers": {"kit-local": {"command": "npx", "args": ["-y", "kit"]}, "kit-remote": {"type": "http", "url": "https://mcp.example.org/kit"}}}`,
	"AGENTS.md":                   "Tidy first.\n",
}

// mcpUserConfigs are the user's own MCP configs, formatted unusually
// (tabs, CRLF, a one-line object, escapes, odd spacing): lola must change
// only its own members and give every byte back on uninstall. (A container
// the user left empty, "servers": {}, is not given back: sdk-go/jsonconfig
// documents why.)
var mcpUserConfigs = map[string]string{
	".mcp.json":             "{\r\n\t\"mcpServers\" : {\r\n\t\t\"mine\" : { \"command\" : \"my-server\", \"args\" : [ \"--x\" ] }\r\n\t},\r\n\t\"note\": \"caf\\u00e9 \\/ ok\"\r\n}\r\n",
	"opencode.json":         `{"theme":"dark",   "keybinds":{"leader":"ctrl+x"}}`,
	".vscode/mcp.json":      "{\n    \"inputs\": [],\n    \"servers\": {\"mine\":{\"type\":\"stdio\",\"command\":\"my-server\"}}\n}",
	".cursor/mcp.json":      "{ \"mcpServers\":{\"mine\":{\"command\":\"my-server\",\"args\":[\"--port\",\"1\"]}} ,\"x\":1}",
	".gemini/settings.json": "{\r\n\t\"theme\":\"Default\",\r\n\t\"mcpServers\":{ \"mine\" : {\"command\":\"my-server\"} }\r\n}\r\n",
}

// mcpUserMember is a piece of each user config, as the user laid it out,
// that must survive the install byte for byte.
var mcpUserMember = map[string]string{
	".mcp.json":             "\t\t\"mine\" : { \"command\" : \"my-server\", \"args\" : [ \"--x\" ] }",
	"opencode.json":         `{"theme":"dark",   "keybinds":{"leader":"ctrl+x"}`,
	".vscode/mcp.json":      `{"mine":{"type":"stdio","command":"my-server"}`,
	".cursor/mcp.json":      `{ "mcpServers":{"mine":{"command":"my-server","args":["--port","1"]}`,
	".gemini/settings.json": "{\r\n\t\"theme\":\"Default\",\r\n\t\"mcpServers\":{ \"mine\" : {\"command\":\"my-server\"}",
}

// TestEndToEndMCPConfigsAndScriptsRestored runs the built bin/lola: for
// each assistant with MCP servers, install puts the module's servers into
// the user's config (keeping the user's members), installs the skill's
// script executable, and uninstall gives the project back exactly, bytes
// and modes, the user's unusually formatted configs included.
func TestEndToEndMCPConfigsAndScriptsRestored(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	if runtime.GOOS == "windows" {
		t.Skip("execute bits are a POSIX notion")
	}
	exe, _ := filepath.Abs(filepath.Join("..", "..", "bin", "lola"))
	if v := os.Getenv("LOLA_BUILT_BINARY"); v != "" {
		exe = v
	}
	if _, err := os.Stat(exe); err != nil {
		t.Skip("no " + exe + ": run make build first (make test does)")
	}
	for assistant, file := range map[string]string{
		"claude-code": ".mcp.json", "opencode": "opencode.json",
		"copilot-cli": ".vscode/mcp.json", "copilot-vscode": ".vscode/mcp.json",
		"openclaw": "", "cursor": ".cursor/mcp.json", "gemini-cli": ".gemini/settings.json",
	} {
		t.Run(assistant, func(t *testing.T) {
			base := t.TempDir()
			home, project, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "kit")
			modWriteFiles(t, src, mcpSample)
			if err := os.Chmod(filepath.Join(src, "skills/tidy/scripts/tidy.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			modWriteFiles(t, project, mcpUserConfigs)
			lola := func(args ...string) {
				t.Helper()
				cmd := exec.Command(exe, args...)
				cmd.Env = append(os.Environ(), "LOLA_HOME="+home)
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := cmd.Run(); err != nil {
					t.Fatalf("lola %s: %v\n%s", strings.Join(args, " "), err, out.Bytes())
				}
			}
			lola("mod", "add", src)
			before := modeTree(t, project)
			lola(atProject([]string{"install", "kit", "-a", assistant}, project)...)
			after := modeTree(t, project)
			script := map[string]string{"claude-code": ".claude", "opencode": ".opencode", "copilot-cli": ".github", "copilot-vscode": ".github", "openclaw": "", "cursor": ".cursor", "gemini-cli": ".lola/modules/kit"}[assistant]
			script = strings.TrimPrefix(script+"/skills/tidy/scripts/tidy.sh", "/")
			if !strings.HasSuffix(after[script], " mode=755") {
				t.Errorf("%s: %q, want it installed executable", script, after[script])
			}
			if file != "" {
				var doc map[string]any
				if err := json.Unmarshal([]byte(strings.SplitN(after[file], "\x00", 2)[0]), &doc); err != nil {
					t.Fatalf("%s is not JSON after install: %v\n%s", file, err, after[file])
				}
				if !strings.Contains(after[file], "kit-local") || !strings.Contains(after[file], "kit-remote") {
					t.Errorf("%s lacks the module's servers:\n%s", file, after[file])
				}
				if !strings.Contains(after[file], mcpUserMember[file]) {
					t.Errorf("the user's part was reformatted:\n%s", after[file])
				}
			}
			lola(atProject([]string{"uninstall", "kit", "-a", assistant}, project)...)
			if d := treeDiff(before, modeTree(t, project)); d != "" {
				t.Errorf("uninstall did not restore the project:\n%s", d)
			}
		})
	}
}

// modeTree maps each file under dir to its content and permission bits.
func modeTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." || info.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b) + "\x00 mode=" + strings.TrimPrefix(info.Mode().Perm().String(), "-")
		if info.Mode().Perm()&0o111 != 0 {
			out[rel] = string(b) + "\x00 mode=755"
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func treeDiff(want, got map[string]string) string {
	var d []string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			d = append(d, "removed: "+k)
		} else if g != v {
			d = append(d, "changed: "+k+"\n  was "+v+"\n  now "+g)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			d = append(d, "left behind: "+k)
		}
	}
	sort.Strings(d)
	return strings.Join(d, "\n")
}
