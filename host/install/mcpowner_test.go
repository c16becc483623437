package install

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addMCPTarget installs, as claude-code, a tier-2 target that answers an
// install with installPlan's intents and an uninstall with
// uninstallPlan's (each a comma-separated list of intents), managing
// .mcp.json.
func (e env) addMCPTarget(t *testing.T, installPlan, uninstallPlan string) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "target")
	body := "#!/bin/sh\nreq=$(cat)\ncase \"$req\" in\n*'\"operation\":\"uninstall\"'*) cat <<'PLAN'\n{\"protocol\":1,\"intents\":[" + uninstallPlan + "]}\nPLAN\n;;\n*) cat <<'PLAN'\n{\"protocol\":1,\"intents\":[" + installPlan + "]}\nPLAN\n;;\nesac\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	e.addTarget(t, "claude-code", map[string]string{"tier2": script}, "paths: [.claude/, .mcp.json]\nmanaged: [.mcp.json]\n")
}

// mcpWrite is a write intent of .mcp.json holding servers (a JSON object).
func mcpWrite(servers string) string {
	b, _ := json.Marshal(`{"mcpServers":` + servers + `}`)
	return `{"op":"write","path":".mcp.json","content":` + string(b) + `}`
}

const skillWrite = `{"op":"write","path":".claude/skills/alpha/SKILL.md","content":"alpha\n"}`
const skillDelete = `{"op":"delete","path":".claude/skills/alpha"}`

// serversIn is the mcpServers members of the project's .mcp.json, each
// value compact.
func serversIn(t *testing.T, project string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(project, ".mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v:\n%s", err, b)
	}
	out := map[string]string{}
	for k, v := range doc.MCPServers {
		d, _ := ServerDigest(v)
		out[k] = d
	}
	return out
}

func digest(t *testing.T, v string) string {
	t.Helper()
	d, ok := ServerDigest([]byte(v))
	if !ok {
		t.Fatalf("not JSON: %s", v)
	}
	return d
}

func mcpModule() map[string]string {
	return map[string]string{
		"skills/alpha/SKILL.md": "---\nname: alpha\ndescription: A\n---\nA\n",
		"mcps.json":             `{"mcpServers":{"github":{"command":"gh"},"notes":{"command":"n"}}}`,
	}
}

// A server the user had before the install, with exactly the value the
// module brings, stays the user's: the install (which writes it back
// unchanged) does not record it, and uninstall, whose target removes the
// module's servers by name, keeps it and names it. A server the install
// added is lola's and goes.
func TestUninstallKeepsTheUsersServerOfTheModulesValue(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", mcpModule())
	e.addMCPTarget(t,
		skillWrite+","+mcpWrite(`{"github":{"command":"gh"},"notes":{"command":"n"}}`),
		skillDelete+","+mcpWrite(`{}`))
	writeTree(t, e.project, map[string]string{".mcp.json": `{"mcpServers": {"github": {"command": "gh"}}}`})
	o := e.options("sample", "claude-code")
	rep := mustInstall(t, o)
	if strings.Join(rep.Record.MCPs, ",") != "notes" {
		t.Errorf("record claims %v, want only notes (github was the user's)", rep.Record.MCPs)
	}
	if _, ok := rep.Record.MCPValues[".mcp.json"]["github"]; ok {
		t.Errorf("mcp_values records the user's github: %v", rep.Record.MCPValues)
	}
	rep, err := Uninstall(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("uninstall: %v %+v", err, rep.Result)
	}
	got := serversIn(t, e.project)
	if len(got) != 1 || got["github"] != digest(t, `{"command":"gh"}`) {
		t.Errorf("servers after uninstall %v, want the user's github only", got)
	}
	if !keptServer(rep, ".mcp.json", "github", KeptUnowned) {
		t.Errorf("kept %+v, want github in .mcp.json named as not lola's", rep.Kept)
	}
}

// A server lola added and the user edited since is the user's: uninstall
// keeps its value and names it (as an edited file is); the server lola
// added and nobody touched goes.
func TestUninstallKeepsAServerTheUserEdited(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", mcpModule())
	e.addMCPTarget(t,
		skillWrite+","+mcpWrite(`{"github":{"command":"gh"},"notes":{"command":"n"}}`),
		skillDelete+","+mcpWrite(`{"mine":{"command":"m"}}`))
	o := e.options("sample", "claude-code")
	rep := mustInstall(t, o)
	if strings.Join(rep.Record.MCPs, ",") != "github,notes" {
		t.Fatalf("record claims %v, want github and notes", rep.Record.MCPs)
	}
	writeTree(t, e.project, map[string]string{".mcp.json": `{"mcpServers": {"github": {"command": "my-gh"}, "notes": {"command": "n"}, "mine": {"command": "m"}}}`})
	rep, err := Uninstall(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("uninstall: %v %+v", err, rep.Result)
	}
	got := serversIn(t, e.project)
	want := map[string]string{"github": digest(t, `{"command":"my-gh"}`), "mine": digest(t, `{"command":"m"}`)}
	if len(got) != len(want) || got["github"] != want["github"] || got["mine"] != want["mine"] {
		t.Errorf("servers after uninstall %v, want the user's edited github and mine", got)
	}
	if !keptServer(rep, ".mcp.json", "github", KeptEdited) {
		t.Errorf("kept %+v, want github in .mcp.json named as edited", rep.Kept)
	}
}

// Claims come from the parsed servers, never from a substring: a server
// name that appears only as a string inside another server's value is
// not claimed.
func TestRecordClaimsOnlyParsedServers(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", mcpModule())
	e.addMCPTarget(t, skillWrite+","+strings.Replace(mcpWrite(`{"wrapper":{"command":"w","args":["github","notes"]}}`), `".mcp.json"`, `".claude/mcp.json"`, 1), skillDelete)
	rep := mustInstall(t, e.options("sample", "claude-code"))
	if len(rep.Record.MCPs) != 0 || len(rep.Record.MCPValues) != 0 {
		t.Errorf("record claims %v %v from strings inside another server", rep.Record.MCPs, rep.Record.MCPValues)
	}
}

func keptServer(rep Report, path, name, reason string) bool {
	for _, k := range rep.Kept {
		if k.Path == path && k.Server == name && k.Reason == reason {
			return true
		}
	}
	return false
}
