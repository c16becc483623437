package reinstall

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/internal/jsonobject"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// The real removal of the servers a new module version dropped, through
// removeStaleServers and the pipeline, on disk: only the stale server
// whose value is still the one lola recorded (mcp_values) goes; a stale
// server the user edited since, and one with no recorded value, stay byte
// for byte and are reported kept; the user's own server and settings
// stay. Removing the digest check (taking every stale server as lola's)
// deletes the user's edited server, and this test fails.
func TestStaleServerRemovalOnDiskKeepsWhatTheUserEdited(t *testing.T) {
	base := t.TempDir()
	home, root := filepath.Join(base, "home"), filepath.Join(base, "project")
	ext := filepath.Join(home, "extensions", "mcp-target")
	for _, d := range []string{root, filepath.Join(ext, "dist")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	manifest := "name: mcp-target\nversion: 0.1.0\nkind: target\nartifacts: {tier2: dist/mcp-target}\npaths: [.mcp.json]\nmanaged: [.mcp.json]\n"
	if err := os.WriteFile(filepath.Join(ext, "lola-extension.yaml"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ext, "dist", "mcp-target"), []byte("#!/bin/sh\nexit 1\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	const edited = `{"command": "my-own-tool"}`
	const legacy = `{"command": "l"}`
	mcp := `{"theme": "dark", "mcpServers": {"mine": {"command": "m"}, "drop": {"command": "d", "args": ["x"]}, "edited": ` + edited + `, "legacy": ` + legacy + `}}`
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(mcp), 0o644); err != nil {
		t.Fatal(err)
	}
	wroteDrop, _ := install.ServerDigest([]byte(`{"command": "d", "args": ["x"]}`))
	wroteEdited, _ := install.ServerDigest([]byte(`{"command": "e"}`))
	old := install.Record{
		Module: "m", Assistant: "mcp-target", Scope: "project", ProjectPath: root,
		MCPs:      []string{"drop", "edited", "legacy"},
		MCPValues: map[string]map[string]string{".mcp.json": {"drop": wroteDrop, "edited": wroteEdited}},
	}
	log, err := audit.Open(filepath.Join(home, audit.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	removed, kept, err := removeStaleServers(context.Background(), root, home, old, nil, log)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []StaleServer{{Name: "drop", Path: ".mcp.json"}}) {
		t.Errorf("removed %v, want only drop", removed)
	}
	if !slices.Equal(kept, []StaleServer{{Name: "edited", Path: ".mcp.json"}, {Name: "legacy", Path: ".mcp.json"}}) {
		t.Errorf("kept %v, want edited and legacy", kept)
	}
	got, err := os.ReadFile(filepath.Join(root, ".mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	top, ok := jsonobject.Decode(got)
	if !ok {
		t.Fatalf("not one JSON object:\n%s", got)
	}
	var servers []jsonobject.Member
	for _, m := range top {
		switch m.Name {
		case "theme":
			if string(m.Raw) != `"dark"` {
				t.Errorf("the user's setting is now %s", m.Raw)
			}
		case "mcpServers":
			servers, _ = jsonobject.Decode(m.Raw)
		}
	}
	values := map[string]string{}
	for _, s := range servers {
		values[s.Name] = string(s.Raw)
	}
	want := map[string]string{"mine": `{"command": "m"}`, "edited": edited, "legacy": legacy}
	if len(values) != len(want) {
		t.Errorf("servers left %v, want %v", values, want)
	}
	for n, v := range want {
		if d1, _ := install.ServerDigest([]byte(values[n])); values[n] == "" || d1 != digestOf(t, v) {
			t.Errorf("server %s = %q, want %q kept", n, values[n], v)
		}
	}
}

func digestOf(t *testing.T, v string) string {
	t.Helper()
	d, ok := install.ServerDigest([]byte(v))
	if !ok {
		t.Fatalf("not JSON: %s", v)
	}
	return d
}

// The stale-server rewrite is a compare-and-swap on the bytes lola read:
// an edit the user makes to the file between that read and the apply
// (here, after the plan was built from it) refuses the plan,
// conflict.changed, and the user's edit stays byte for byte.
func TestStaleServerRewriteRefusesAFileEditedSinceItWasRead(t *testing.T) {
	base := t.TempDir()
	home, root := filepath.Join(base, "home"), filepath.Join(base, "project")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	read := `{"mcpServers": {"drop": {"command": "d"}, "mine": {"command": "m"}}}`
	wrote, _ := install.ServerDigest([]byte(`{"command": "d"}`))
	old := install.Record{MCPs: []string{"drop"}, MCPValues: map[string]map[string]string{".mcp.json": {"drop": wrote}}}
	intents, removed, _ := staleServerPlan([]schema.File{{Path: ".mcp.json", Content: read}}, map[string]bool{"drop": true}, old, nil)
	if len(intents) != 1 || len(removed) != 1 || intents[0].IfContent != schema.IfContentSHA256([]byte(read)) {
		t.Fatalf("plan %+v: want one write carrying the sha256 of what was read", intents)
	}
	edited := `{"mcpServers": {"drop": {"command": "d"}, "mine": {"command": "m"}, "added-meanwhile": {"command": "x"}}}`
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	log, err := audit.Open(filepath.Join(home, audit.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	err = applyOwnPlan(context.Background(), root, home, intents, log, "removing")
	if !errors.Is(err, rejection.Rule(schema.RuleConflictChanged)) {
		t.Fatalf("err = %v, want conflict.changed", err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, ".mcp.json")); string(got) != edited {
		t.Errorf(".mcp.json = %s, want the user's edit kept", got)
	}
}
