package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// updateProject is one end-to-end update case: its own $LOLA_HOME,
// project and module source (mm), the module added and installed for
// one assistant.
type updateProject struct {
	exe, a, home, project, src string
	env                        []string
}

// installForUpdate writes files into mm's source, adds the module and
// installs it for a into a fresh project.
func installForUpdate(t *testing.T, exe, a string, files map[string]string) *updateProject {
	t.Helper()
	base := t.TempDir()
	p := &updateProject{exe: exe, a: a, home: filepath.Join(base, "home"), project: filepath.Join(base, "project"), src: filepath.Join(base, "mm")}
	p.env = []string{"LOLA_HOME=" + p.home, "HOME=" + filepath.Join(base, "user")}
	modWriteFiles(t, p.src, files)
	if err := os.MkdirAll(p.project, 0o755); err != nil {
		t.Fatal(err)
	}
	p.lola(t, "mod", "add", p.src)
	p.lola(t, atProject([]string{"install", "mm", "-a", a}, p.project)...)
	return p
}

// lola runs the built lola in p's environment; any exit but 0 fails.
func (p *updateProject) lola(t *testing.T, args ...string) lolaRun {
	t.Helper()
	r := runBuilt(t, p.exe, p.env, args...)
	if r.code != 0 {
		t.Fatalf("%v: %+v", args, r)
	}
	return r
}

// update refreshes mm from its source and re-runs its installs.
func (p *updateProject) update(t *testing.T) lolaRun {
	t.Helper()
	p.lola(t, "mod", "update", "mm")
	return p.lola(t, "update", "mm")
}

// uninstallLeaves uninstalls mm and fails unless the project then holds
// exactly want (root-relative, sorted as projectEntries lists them).
func (p *updateProject) uninstallLeaves(t *testing.T, want ...string) {
	t.Helper()
	p.lola(t, atProject([]string{"uninstall", "mm", "-a", p.a}, p.project)...)
	if got := projectEntries(t, p.project); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the uninstall left %v, want %v", got, want)
	}
}

// entriesTo is what projectEntries lists of file and the directories
// above it, up to the project.
func (p *updateProject) entriesTo(file string) []string {
	rel, _ := filepath.Rel(p.project, file)
	out := []string{filepath.ToSlash(rel)}
	for d := filepath.Dir(rel); d != "."; d = filepath.Dir(d) {
		out = append([]string{filepath.ToSlash(d)}, out...)
	}
	return out
}

func (p *updateProject) registry() string { return readFileOr(filepath.Join(p.home, "installed.yml")) }

// With the built targets: after a module loses a skill, lola update
// removes the files lola wrote for it, keeps one the user edited (named
// on stderr), drops the removed files from installed.yml, and the audit
// log still verifies.
func TestEndToEndUpdateRemovesWhatTheModuleNoLongerHas(t *testing.T) {
	exe, _ := builtLola(t)
	files := map[string]string{}
	for _, s := range []string{"s1", "s2", "s3"} {
		files["skills/"+s+"/SKILL.md"] = "---\nname: " + s + "\ndescription: " + s + "\n---\nbody\n"
	}
	p := installForUpdate(t, exe, "claude-code", files)
	project, src := p.project, p.src
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
	r := p.update(t)
	if !strings.Contains(r.out, "- .claude/skills/s2/SKILL.md (no longer in the module)") || !strings.Contains(r.err, ".claude/skills/s3/SKILL.md is no longer in the module but changed") {
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
	if reg := p.registry(); strings.Contains(reg, "skills/s2/") {
		t.Errorf("installed.yml still records s2:\n%s", reg)
	}
	p.lola(t, "audit", "verify")
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
	for _, a := range projectTargets {
		t.Run(a, func(t *testing.T) {
			p := installForUpdate(t, exe, a, map[string]string{
				"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nbody\n",
				"AGENTS.md":          "# MM\n\nUse s1.\n",
				"mcps.json":          `{"mcpServers": {"mm-server": {"command": "mm", "args": ["serve"]}}}`,
			})
			if reg := p.registry(); !strings.Contains(reg, "- mm-server") || !strings.Contains(reg, "has_instructions: true") {
				t.Fatalf("the install does not record its MCP server and instructions:\n%s", reg)
			}
			p.lola(t, "update", "mm")
			if reg := p.registry(); !strings.Contains(reg, "- mm-server") || !strings.Contains(reg, "has_instructions: true") {
				t.Fatalf("after an unchanged update the record forgot the shared parts:\n%s", reg)
			}
			p.uninstallLeaves(t)
		})
	}
}

// projectTargets are the built-in targets that install into a project.
var projectTargets = []string{"claude-code", "cursor", "gemini-cli", "opencode", "copilot-vscode"}

// For every built-in project target: after the module drops an MCP
// server, lola update removes that server from the assistant's MCP
// configuration (today's Lola removes orphaned MCPs), keeping the
// module's other server and, where the user added one to the file, the
// user's own. Once the module has none left, a configuration file lola
// created that holds nothing else is deleted; one holding the user's
// server keeps it, and keeps it after uninstall.
func TestEndToEndUpdateRemovesDroppedMCPServers(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	for _, a := range projectTargets {
		for _, userServer := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/user-server=%v", a, userServer), func(t *testing.T) {
				p := installForUpdate(t, exe, a, map[string]string{
					"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nbody\n",
					"mcps.json":          `{"mcpServers": {"mm-keep": {"command": "k"}, "mm-drop": {"command": "d"}}}`,
				})
				config := mcpConfigHolding(t, p.project, "mm-drop")
				if userServer {
					addServerBeside(t, config, "mm-keep", "user-own")
				}
				modWriteFiles(t, p.src, map[string]string{"mcps.json": `{"mcpServers": {"mm-keep": {"command": "k"}}}`})
				p.update(t)
				b, err := os.ReadFile(config)
				if err != nil || strings.Contains(string(b), "mm-drop") || !strings.Contains(string(b), "mm-keep") || userServer != strings.Contains(string(b), "user-own") {
					t.Fatalf("after update %s holds:\n%s (%v)", config, b, err)
				}
				if reg := p.registry(); strings.Contains(reg, "mm-drop") {
					t.Errorf("installed.yml still records mm-drop:\n%s", reg)
				}
				if err := os.Remove(filepath.Join(p.src, "mcps.json")); err != nil {
					t.Fatal(err)
				}
				p.update(t)
				b, err = os.ReadFile(config)
				switch {
				case err == nil && strings.Contains(string(b), "mm-"):
					t.Fatalf("after the module lost its servers %s holds:\n%s", config, b)
				case userServer && (err != nil || !strings.Contains(string(b), "user-own")):
					t.Fatalf("the user's server is gone from %s: %q %v", config, b, err)
				case !userServer && err == nil:
					t.Errorf("%s, created by lola and left holding nothing of anyone's, is still there:\n%s", config, b)
				}
				if !userServer {
					p.uninstallLeaves(t)
					return
				}
				p.uninstallLeaves(t, p.entriesTo(config)...)
				if b, err := os.ReadFile(config); err != nil || !strings.Contains(string(b), "user-own") {
					t.Fatalf("the uninstall took the user's server from %s: %q %v", config, b, err)
				}
			})
		}
	}
}

// mcpConfigHolding is the one JSON file under project that mentions
// server.
func mcpConfigHolding(t *testing.T, project, server string) string {
	t.Helper()
	var found []string
	filepath.Walk(project, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".json") && strings.Contains(readFileOr(p), server) {
			found = append(found, p)
		}
		return nil
	})
	if len(found) != 1 {
		t.Fatalf("JSON files under the project holding %s: %v", server, found)
	}
	return found[0]
}

// addServerBeside adds, as the user would by hand, a server named name
// to config's JSON, in the object that holds beside and shaped as it is.
func addServerBeside(t *testing.T, config, beside, name string) {
	t.Helper()
	editObjectHolding(t, config, beside, func(m map[string]any) { m[name] = m[beside] })
}

// editObjectHolding rewrites config's JSON, as an editor would (keys
// sorted, re-indented), after edit changed the object that holds key.
func editObjectHolding(t *testing.T, config, key string, edit func(map[string]any)) {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(readFileOr(config)), &doc); err != nil {
		t.Fatal(err)
	}
	var find func(v any) bool
	find = func(v any) bool {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m[key]; ok {
			edit(m)
			return true
		}
		for _, c := range m {
			if find(c) {
				return true
			}
		}
		return false
	}
	if !find(doc) {
		t.Fatalf("no object in %s holds %s", config, key)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A server lola wrote that the user then changed is theirs: once the
// module drops it, lola update keeps it with the user's value and says so
// on stderr, installed.yml no longer claims it, and the uninstall leaves
// it (and the file holding it) in place. So is one whose value lola never
// recorded (an install recorded by today's Lola, which writes no
// mcp_values): nothing proves it still holds what lola wrote, so it stays
// byte for byte.
func TestEndToEndUpdateKeepsADroppedMCPServerTheUserChanged(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	type variant struct {
		name    string
		prepare func(t *testing.T, p *updateProject, config string)
	}
	edited := variant{"edited", func(t *testing.T, p *updateProject, config string) {
		editObjectHolding(t, config, "mm-drop", func(m map[string]any) {
			m["mm-drop"] = map[string]any{"command": "the-users-own-tool"}
		})
	}}
	unrecorded := variant{"unrecorded", func(t *testing.T, p *updateProject, config string) {
		reg := filepath.Join(p.home, "installed.yml")
		b, err := os.ReadFile(reg)
		if err != nil || !strings.Contains(string(b), "mcp_values:") {
			t.Fatalf("installed.yml records no mcp_values to take away: %v\n%s", err, b)
		}
		if err := os.WriteFile(reg, []byte(withoutYAMLKey(string(b), "mcp_values")), 0o644); err != nil {
			t.Fatal(err)
		}
	}}
	for _, a := range projectTargets {
		for _, v := range []variant{edited, unrecorded} {
			if v.name == "unrecorded" && a != "claude-code" {
				continue // the record is the host's, the same for every target
			}
			t.Run(a+"/"+v.name, func(t *testing.T) {
				p := installForUpdate(t, exe, a, map[string]string{
					"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nbody\n",
					"mcps.json":          `{"mcpServers": {"mm-keep": {"command": "k"}, "mm-drop": {"command": "d"}}}`,
				})
				config := mcpConfigHolding(t, p.project, "mm-drop")
				v.prepare(t, p, config)
				dropValue := serverValue(t, config, "mm-drop")
				modWriteFiles(t, p.src, map[string]string{"mcps.json": `{"mcpServers": {"mm-keep": {"command": "k"}}}`})
				r := p.update(t)
				b := readFileOr(config)
				if got := serverValue(t, config, "mm-drop"); got != dropValue || !strings.Contains(b, "mm-keep") {
					t.Fatalf("after update mm-drop is %s (was %s) in %s:\n%s", got, dropValue, config, b)
				}
				if !strings.Contains(r.err, "mcp:mm-drop in ") || !strings.Contains(r.err, "kept") || strings.Contains(r.out, "mcp:mm-drop") {
					t.Errorf("update does not name the kept server on stderr, or reports it removed:\nstdout:\n%s\nstderr:\n%s", r.out, r.err)
				}
				if reg := p.registry(); strings.Contains(reg, "mm-drop") {
					t.Errorf("installed.yml still claims mm-drop:\n%s", reg)
				}
				p.uninstallLeaves(t, p.entriesTo(config)...)
				if got := serverValue(t, config, "mm-drop"); got != dropValue || strings.Contains(readFileOr(config), "mm-keep") {
					t.Fatalf("after uninstall %s holds:\n%s", config, readFileOr(config))
				}
			})
		}
	}
}

// serverValue is the compact JSON value of the member name of the object
// in config's JSON that holds it ("" when none does).
func serverValue(t *testing.T, config, name string) string {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(readFileOr(config)), &doc); err != nil {
		t.Fatalf("%s: %v", config, err)
	}
	var find func(v any) string
	find = func(v any) string {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		if s, ok := m[name]; ok {
			b, _ := json.Marshal(s)
			return string(b)
		}
		for _, c := range m {
			if got := find(c); got != "" {
				return got
			}
		}
		return ""
	}
	return find(doc)
}

// withoutYAMLKey drops from a YAML document every "key:" line and the
// lines indented beneath it, as a writer that does not know the key
// (today's Lola) leaves the record.
func withoutYAMLKey(doc, key string) string {
	var out []string
	skip := -1
	for _, line := range strings.Split(doc, "\n") {
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if skip >= 0 && (indent > skip || strings.TrimSpace(line) == "") {
			continue
		}
		skip = -1
		if strings.HasPrefix(strings.TrimLeft(line, " "), key+":") {
			skip = indent
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// For every built-in project target: the install records each command and
// agent it wrote a file for (copilot-vscode's "NAME.prompt.md" and
// "NAME.agent.md" included), and after the module drops one of each, lola
// update removes the files lola wrote for them.
func TestEndToEndUpdateRemovesDroppedCommandsAndAgents(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	for _, a := range projectTargets {
		t.Run(a, func(t *testing.T) {
			p := installForUpdate(t, exe, a, map[string]string{
				"commands/keep-cmd.md": "---\ndescription: k\n---\nkeep\n",
				"commands/drop-cmd.md": "---\ndescription: d\n---\ndrop\n",
				"agents/keep-agent.md": "---\ndescription: k\n---\nkeep\n",
				"agents/drop-agent.md": "---\ndescription: d\n---\ndrop\n",
			})
			written := func(name string) []string {
				var out []string
				filepath.Walk(p.project, func(path string, info os.FileInfo, err error) error {
					if err == nil && !info.IsDir() && strings.Contains(filepath.Base(path), name) {
						out = append(out, path)
					}
					return nil
				})
				return out
			}
			reg := p.registry()
			for _, n := range []string{"drop-cmd", "drop-agent"} {
				if len(written(n)) > 0 && !strings.Contains(reg, "- "+n+"\n") {
					t.Errorf("%s wrote %v but the record does not list %s:\n%s", a, written(n), n, reg)
				}
			}
			for _, f := range []string{"commands/drop-cmd.md", "agents/drop-agent.md"} {
				if err := os.Remove(filepath.Join(p.src, f)); err != nil {
					t.Fatal(err)
				}
			}
			p.update(t)
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
