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
	if !hasKeptServer(rep, ".mcp.json", "github", KeptUnowned) {
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
	if !hasKeptServer(rep, ".mcp.json", "github", KeptEdited) {
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

func hasKeptServer(rep Report, path, name, reason string) bool {
	for _, k := range rep.Kept {
		if k.Path == path && k.Server == name && k.Reason == reason {
			return true
		}
	}
	return false
}

// A record without server values (today's Lola's) proves a server only
// with the value the target's install would write now: uninstall removes
// such an unchanged server, as today's Lola does, and keeps an edited one.
func TestUninstallOfALegacyRecordJudgesServersByWhatTheTargetWouldWrite(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", mcpModule())
	e.addMCPTarget(t,
		skillWrite+","+mcpWrite(`{"github":{"command":"gh"},"notes":{"command":"n"}}`),
		skillDelete+","+mcpWrite(`{}`))
	o := e.options("sample", "claude-code")
	mustInstall(t, o)
	if err := UpdateRegistry(e.home, func(reg *Registry) error {
		r := reg.All()[0]
		r.Files, r.MCPValues = nil, nil
		reg.Put(r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	writeTree(t, e.project, map[string]string{".mcp.json": `{"mcpServers": {"github": {"command": "my-gh"}, "notes": {"command": "n"}}}`})
	rep, err := Uninstall(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("uninstall: %v %+v", err, rep.Result)
	}
	got := serversIn(t, e.project)
	if len(got) != 1 || got["github"] != digest(t, `{"command":"my-gh"}`) {
		t.Errorf("servers after uninstall %v, want only the user's edited github", got)
	}
	if !hasKeptServer(rep, ".mcp.json", "github", KeptEdited) {
		t.Errorf("kept %+v, want github named as edited", rep.Kept)
	}
}

// The guard's own proof on uninstall, whatever the narrowing did: a plan
// removing or changing a server the record claims by name but whose value
// is not the recorded one is refused, and so is deleting a file holding
// it; the recorded value may go.
func TestUninstallGuardOwnsOnlyServersWithTheirRecordedValue(t *testing.T) {
	wrote := digest(t, `{"command":"gh"}`)
	rec := &Record{MCPs: []string{"github"}, MCPValues: map[string]map[string]string{".mcp.json": {"github": wrote}}}
	m := ownedBy(*rec, map[string]bool{".mcp.json": true}, map[string]bool{".mcp.json": true})
	m.proof = rec
	for _, c := range []struct{ before, after string }{
		{`{"mcpServers":{"github":{"command":"my-gh"}}}`, `{"mcpServers":{}}`},
		{`{"mcpServers":{"github":{"command":"my-gh"}}}`, `{"mcpServers":{"github":{"command":"gh"}}}`},
	} {
		if why := m.jsonRewrite(".mcp.json", []byte(c.before), true, []byte(c.after)); !strings.Contains(why, `"github"`) {
			t.Errorf("%s -> %s: %q, want a refusal naming github", c.before, c.after, why)
		}
	}
	if why := m.jsonDelete(".mcp.json", []byte(`{"mcpServers":{"github":{"command":"my-gh"}}}`)); !strings.Contains(why, `"github"`) {
		t.Errorf("delete: %q, want a refusal naming github", why)
	}
	if why := m.jsonRewrite(".mcp.json", []byte(`{"mcpServers": {"github": {"command": "gh"}}}`), true, []byte(`{"mcpServers":{}}`)); why != "" {
		t.Errorf("removing the recorded value refused: %s", why)
	}
	if why := m.jsonDelete(".mcp.json", []byte(`{"mcpServers":{"github":{"command":"gh"}}}`)); why != "" {
		t.Errorf("deleting a file of only the recorded value refused: %s", why)
	}
}

// A record without server values whose servers the target's install
// would leave as they are (its plan does not write the file: the file
// already holds exactly what it would write) proves them with their
// values there: uninstall removes them.
func TestUninstallOfALegacyRecordWhenTheInstallWouldNotRewriteTheFile(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", mcpModule())
	e.addMCPTarget(t, skillWrite, skillDelete+","+mcpWrite(`{}`))
	writeTree(t, e.project, map[string]string{".mcp.json": `{"mcpServers": {"github": {"command": "gh"}, "notes": {"command": "n"}}}`})
	o := e.options("sample", "claude-code")
	mustInstall(t, o)
	if err := UpdateRegistry(e.home, func(reg *Registry) error {
		r := reg.All()[0]
		r.MCPs, r.MCPValues = []string{"github", "notes"}, nil
		reg.Put(r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rep, err := Uninstall(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("uninstall: %v %+v", err, rep.Result)
	}
	if got := serversIn(t, e.project); len(got) != 0 {
		t.Errorf("servers after uninstall %v, want none (the record claims both, unchanged)", got)
	}
}
