package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With the built targets: after a module loses a skill, lola update
// removes the files lola wrote for it, keeps one the user edited (named
// on stderr), drops the removed files from installed.yml, and the audit
// log still verifies.
func TestEndToEndUpdateRemovesWhatTheModuleNoLongerHas(t *testing.T) {
	exe, _ := builtLola(t)
	base := t.TempDir()
	home, project, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "mm")
	env := []string{"LOLA_HOME=" + home}
	for _, s := range []string{"s1", "s2", "s3"} {
		modWriteFiles(t, src, map[string]string{"skills/" + s + "/SKILL.md": "---\nname: " + s + "\ndescription: " + s + "\n---\nbody\n"})
	}
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"mod", "add", src}, {"install", "mm", "-a", "claude-code", project}} {
		if r := runBuilt(t, exe, env, args...); r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
	}
	s3 := filepath.Join(project, ".claude/skills/s3/SKILL.md")
	if err := os.WriteFile(s3, []byte("my edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(src, "skills/s2")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(src, "skills/s3")); err != nil {
		t.Fatal(err)
	}
	if r := runBuilt(t, exe, env, "mod", "update", "mm"); r.code != 0 {
		t.Fatalf("mod update: %+v", r)
	}
	r := runBuilt(t, exe, env, "update", "mm")
	if r.code != 0 || !strings.Contains(r.out, "- .claude/skills/s2/SKILL.md (no longer in the module)") || !strings.Contains(r.err, ".claude/skills/s3/SKILL.md is no longer in the module but changed") {
		t.Fatalf("update: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude/skills/s2")); err == nil {
		t.Error("the removed skill's directory is still there")
	}
	if b, err := os.ReadFile(s3); err != nil || string(b) != "my edit\n" {
		t.Errorf("the user's edit was lost: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude/skills/s1/SKILL.md")); err != nil {
		t.Error("the remaining skill is gone")
	}
	if b, _ := os.ReadFile(filepath.Join(home, "installed.yml")); strings.Contains(string(b), "skills/s2/") {
		t.Errorf("installed.yml still records s2:\n%s", b)
	}
	if r := runBuilt(t, exe, env, "audit", "verify"); r.code != 0 {
		t.Errorf("audit verify: %+v", r)
	}
}

// For every built-in project target: a reinstall of an unchanged module
// (lola update, or lola install again) writes nothing to the shared files
// (CLAUDE.md, .mcp.json, ...) since they already hold the module's part,
// and installed.yml must still say that part is lola's: the record keeps
// the module's MCP servers and instructions, and a later uninstall
// removes them (it was refused with conflict.unowned, the entry taken for
// the user's, when the record forgot them).
func TestEndToEndUpdateUnchangedKeepsSharedParts(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	for _, a := range []string{"claude-code", "cursor", "gemini-cli", "opencode", "copilot-vscode"} {
		t.Run(a, func(t *testing.T) {
			base := t.TempDir()
			home, project, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "mm")
			env := []string{"LOLA_HOME=" + home}
			modWriteFiles(t, src, map[string]string{
				"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nbody\n",
				"AGENTS.md":          "# MM\n\nUse s1.\n",
				"mcps.json":          `{"mcpServers": {"mm-server": {"command": "mm", "args": ["serve"]}}}`,
			})
			if err := os.MkdirAll(project, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"mod", "add", src}, {"install", "mm", "-a", a, project}} {
				if r := runBuilt(t, exe, env, args...); r.code != 0 {
					t.Fatalf("%v: %+v", args, r)
				}
			}
			before := readFileOr(filepath.Join(home, "installed.yml"))
			if !strings.Contains(before, "- mm-server") || !strings.Contains(before, "has_instructions: true") {
				t.Fatalf("the install does not record its MCP server and instructions:\n%s", before)
			}
			if r := runBuilt(t, exe, env, "update", "mm"); r.code != 0 {
				t.Fatalf("update: %+v", r)
			}
			after := readFileOr(filepath.Join(home, "installed.yml"))
			if !strings.Contains(after, "- mm-server") || !strings.Contains(after, "has_instructions: true") {
				t.Fatalf("after an unchanged update the record forgot the shared parts:\n%s", after)
			}
			if r := runBuilt(t, exe, env, "uninstall", "mm", "-a", a, project); r.code != 0 {
				t.Fatalf("uninstall after update: %+v", r)
			}
			if got := projectEntries(t, project); len(got) != 0 {
				t.Errorf("the uninstall left %v", got)
			}
		})
	}
}

// For every built-in project target: after the module drops an MCP
// server, lola update removes that server from the assistant's MCP
// configuration (today's Lola removes orphaned MCPs), keeping the
// module's other server and the user's own; once the module has none
// left, a configuration file lola created and that holds nothing else is
// deleted, and one holding the user's server keeps it.
func TestEndToEndUpdateRemovesDroppedMCPServers(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	for _, a := range []string{"claude-code", "cursor", "gemini-cli", "opencode", "copilot-vscode"} {
		t.Run(a, func(t *testing.T) {
			base := t.TempDir()
			home, project, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "mm")
			env := []string{"LOLA_HOME=" + home, "HOME=" + filepath.Join(base, "user")}
			modWriteFiles(t, src, map[string]string{
				"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nbody\n",
				"mcps.json":          `{"mcpServers": {"mm-keep": {"command": "k"}, "mm-drop": {"command": "d"}}}`,
			})
			if err := os.MkdirAll(project, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"mod", "add", src}, {"install", "mm", "-a", a, project}} {
				if r := runBuilt(t, exe, env, args...); r.code != 0 {
					t.Fatalf("%v: %+v", args, r)
				}
			}
			configs := func() map[string]string {
				out := map[string]string{}
				filepath.Walk(project, func(p string, info os.FileInfo, err error) error {
					if err == nil && strings.HasSuffix(p, ".json") {
						b, _ := os.ReadFile(p)
						out[p] = string(b)
					}
					return nil
				})
				return out
			}
			var config string
			for p, b := range configs() {
				if strings.Contains(b, "mm-drop") {
					config = p
				}
			}
			if config == "" {
				t.Fatalf("no MCP configuration holds the module's servers: %v", configs())
			}
			modWriteFiles(t, src, map[string]string{"mcps.json": `{"mcpServers": {"mm-keep": {"command": "k"}}}`})
			for _, args := range [][]string{{"mod", "update", "mm"}, {"update", "mm"}} {
				if r := runBuilt(t, exe, env, args...); r.code != 0 {
					t.Fatalf("%v: %+v", args, r)
				}
			}
			b, err := os.ReadFile(config)
			if err != nil || strings.Contains(string(b), "mm-drop") || !strings.Contains(string(b), "mm-keep") {
				t.Fatalf("after update %s holds:\n%s (%v)", config, b, err)
			}
			if reg := readFileOr(filepath.Join(home, "installed.yml")); strings.Contains(reg, "mm-drop") {
				t.Errorf("installed.yml still records mm-drop:\n%s", reg)
			}
			if err := os.Remove(filepath.Join(src, "mcps.json")); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"mod", "update", "mm"}, {"update", "mm"}} {
				if r := runBuilt(t, exe, env, args...); r.code != 0 {
					t.Fatalf("%v: %+v", args, r)
				}
			}
			if b, err := os.ReadFile(config); err == nil && strings.Contains(string(b), "mm-") {
				t.Fatalf("after the module lost its servers %s holds:\n%s", config, b)
			} else if err == nil {
				t.Errorf("%s, created by lola and left holding nothing of anyone's, is still there:\n%s", config, b)
			}
			if r := runBuilt(t, exe, env, "uninstall", "mm", "-a", a, project); r.code != 0 {
				t.Fatalf("uninstall: %+v", r)
			}
			if got := projectEntries(t, project); len(got) != 0 {
				t.Errorf("the uninstall left %v", got)
			}
		})
	}
}

// For every built-in project target: the install records each command and
// agent it wrote a file for (copilot-vscode's "NAME.prompt.md" and
// "NAME.agent.md" included), and after the module drops one of each, lola
// update removes the files lola wrote for them.
func TestEndToEndUpdateRemovesDroppedCommandsAndAgents(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	for _, a := range []string{"claude-code", "cursor", "gemini-cli", "opencode", "copilot-vscode"} {
		t.Run(a, func(t *testing.T) {
			base := t.TempDir()
			home, project, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "mm")
			env := []string{"LOLA_HOME=" + home, "HOME=" + filepath.Join(base, "user")}
			modWriteFiles(t, src, map[string]string{
				"commands/keep-cmd.md": "---\ndescription: k\n---\nkeep\n",
				"commands/drop-cmd.md": "---\ndescription: d\n---\ndrop\n",
				"agents/keep-agent.md": "---\ndescription: k\n---\nkeep\n",
				"agents/drop-agent.md": "---\ndescription: d\n---\ndrop\n",
			})
			if err := os.MkdirAll(project, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"mod", "add", src}, {"install", "mm", "-a", a, project}} {
				if r := runBuilt(t, exe, env, args...); r.code != 0 {
					t.Fatalf("%v: %+v", args, r)
				}
			}
			written := func(name string) []string {
				var out []string
				filepath.Walk(project, func(p string, info os.FileInfo, err error) error {
					if err == nil && !info.IsDir() && strings.Contains(filepath.Base(p), name) {
						out = append(out, p)
					}
					return nil
				})
				return out
			}
			reg := readFileOr(filepath.Join(home, "installed.yml"))
			for _, n := range []string{"drop-cmd", "drop-agent"} {
				if len(written(n)) > 0 && !strings.Contains(reg, "- "+n+"\n") {
					t.Errorf("%s wrote %v but the record does not list %s:\n%s", a, written(n), n, reg)
				}
			}
			if err := os.Remove(filepath.Join(src, "commands/drop-cmd.md")); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(src, "agents/drop-agent.md")); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"mod", "update", "mm"}, {"update", "mm"}} {
				if r := runBuilt(t, exe, env, args...); r.code != 0 {
					t.Fatalf("%v: %+v", args, r)
				}
			}
			for _, n := range []string{"drop-cmd", "drop-agent"} {
				if left := written(n); len(left) > 0 {
					t.Errorf("after update %s is still installed: %v", n, left)
				}
			}
			if len(written("keep-cmd")) == 0 {
				t.Error("the kept command is gone")
			}
		})
	}
}
