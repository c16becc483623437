package assistant

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
)

// An uninstall deletes a shared file only when the host says lola created
// it: the same emptied CLAUDE.md and .mcp.json, had the user made them,
// are written back (the host refuses deleting them, conflict.unowned).
func TestSharedFilesAreDeletedOnlyWhenLolaCreatedThem(t *testing.T) {
	raw, err := os.ReadFile("../../examples/testdata/modules/kit.module.json")
	if err != nil {
		t.Fatal(err)
	}
	var m schema.Module
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	tg := &Target{
		Name:         "test",
		Skills:       Scoped{Project: ".claude/skills"},
		Commands:     Scoped{Project: ".claude/commands"},
		Agents:       Scoped{Project: ".claude/agents"},
		Instructions: Scoped{Project: "CLAUDE.md"},
		MCP:          Scoped{Project: ".mcp.json"},
		MCPContainer: "mcpServers",
	}
	plan := func(op schema.Operation, current []schema.File, created ...string) map[string]*schema.Intent {
		t.Helper()
		var p lola.Plan
		req := &lola.Request{Protocol: 1, Operation: op, Scope: schema.ScopeProject, Modules: []schema.Module{m}, Current: current, Created: created}
		if err := tg.Plan(req, &p); err != nil {
			t.Fatal(err)
		}
		out := map[string]*schema.Intent{}
		for _, in := range p.Intents() {
			in := in
			switch {
			case in.Write != nil:
				out[in.Write.Path] = &in
			case in.Delete != nil:
				out[in.Delete.Path] = &in
			}
		}
		return out
	}
	installed := plan(schema.OperationInstall, nil)
	var current []schema.File
	for _, p := range []string{"CLAUDE.md", ".mcp.json"} {
		w := installed[p]
		if w == nil || w.Write == nil {
			t.Fatalf("install wrote no %s", p)
		}
		current = append(current, schema.File{Path: p, Content: w.Write.Content})
	}
	gone := plan(schema.OperationUninstall, current, "CLAUDE.md", ".mcp.json")
	for _, p := range []string{"CLAUDE.md", ".mcp.json"} {
		if in := gone[p]; in == nil || in.Delete == nil {
			t.Errorf("lola created %s and its part is gone: not deleted (%+v)", p, in)
		}
	}
	kept := plan(schema.OperationUninstall, current)
	for i, p := range []string{"CLAUDE.md", ".mcp.json"} {
		if in := kept[p]; in == nil || in.Write == nil {
			t.Errorf("the user's %s, emptied of lola's part: not written back (%+v)", p, in)
		} else if want := schema.IfContentSHA256([]byte(current[i].Content)); in.Write.IfContent != want {
			// A compare-and-swap on what the request carried: an edit
			// made before the host applies refuses the plan.
			t.Errorf("%s rewritten with if_content %q, want %q", p, in.Write.IfContent, want)
		}
	}
	// Computed from no file: the write may apply only while there is none.
	for _, p := range []string{"CLAUDE.md", ".mcp.json"} {
		if in := installed[p]; in.Write.IfContent != schema.IfContentAbsent {
			t.Errorf("%s created with if_content %q, want absent", p, in.Write.IfContent)
		}
	}
}

// A module file's mode (File.Mode) is carried to its copy with its
// execute bit, so a 0664 source installs as 0664; a file without one is
// written with neither.
func TestCopiesKeepTheModuleFilesMode(t *testing.T) {
	raw, err := os.ReadFile("../../examples/testdata/modules/kit.module.json")
	if err != nil {
		t.Fatal(err)
	}
	var m schema.Module
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for i := range m.Files {
		switch m.Files[i].Path {
		case "skills/tidy/reference/notes.md":
			m.Files[i].Mode = "0664"
		case "skills/tidy/scripts/tidy.sh":
			m.Files[i].Mode, m.Files[i].Executable = "0750", true
		}
	}
	tg := &Target{Name: "test", Skills: Scoped{Project: ".claude/skills"}}
	var p lola.Plan
	if err := tg.Plan(&lola.Request{Protocol: 1, Operation: schema.OperationInstall, Scope: schema.ScopeProject, Modules: []schema.Module{m}}, &p); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]any{
		".claude/skills/tidy/reference/notes.md": {"0664", false},
		".claude/skills/tidy/scripts/tidy.sh":    {"0750", true},
		".claude/skills/tidy/SKILL.md":           {"", false},
	}
	for _, in := range p.Intents() {
		if in.Write == nil {
			continue
		}
		if w, ok := want[in.Write.Path]; ok {
			if in.Write.Mode != w[0] || in.Write.Executable != w[1] {
				t.Errorf("%s: mode %q executable %v, want %v", in.Write.Path, in.Write.Mode, in.Write.Executable, w)
			}
			delete(want, in.Write.Path)
		}
	}
	if len(want) != 0 {
		t.Errorf("not written: %v", want)
	}
}
