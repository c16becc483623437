package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/install"
)

// contextSource is a module laid out as today's Lola's docs describe
// --append-context for: content under module/, instructions that link to
// a file beside them.
var contextSource = map[string]string{
	"module/AGENTS.md":              "Follow the conventions in `context/conventions.md`\n",
	"module/context/conventions.md": "Tabs, not spaces.\n",
}

// instructionsFileOf is where each assistant's target puts a module's
// instructions, and how it wraps them.
var instructionsFileOf = map[string]struct {
	path string
	wrap func(module, text string) string
}{
	"claude-code": {"CLAUDE.md", managedSection},
	"gemini-cli":  {"GEMINI.md", managedSection},
	"cursor": {".cursor/rules/kit-instructions.mdc", func(module, text string) string {
		return "---\ndescription: " + module + " module instructions\nglobs:\nalwaysApply: true\n---\n\n" + text
	}},
}

func managedSection(module, text string) string {
	return "<!-- lola:instructions:start -->\n<!-- lola:module:" + module + ":start -->\n" + text +
		"\n<!-- lola:module:" + module + ":end -->\n<!-- lola:instructions:end -->\n"
}

// Through the built CLI, for Claude Code, Cursor and Gemini CLI: the
// instructions become one reference per --append-context path (the
// module's file in the store absolutely, a project file relative to the
// project; a repeat once, an empty one skipped), installed.yml records the
// paths as given, lola list shows them, lola update installs the same
// references again after the module changed and refuses (exit 2, nothing
// changed) once a path is gone, and uninstall removes the file and the
// record.
func TestEndToEndAppendContext(t *testing.T) {
	exe, _ := builtLola(t)
	for assistant, where := range instructionsFileOf {
		t.Run(assistant, func(t *testing.T) {
			base := t.TempDir()
			home, project, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "kit")
			modWriteFiles(t, src, contextSource)
			modWriteFiles(t, project, map[string]string{"docs/team.md": "Be kind.\n"})
			env := []string{"LOLA_HOME=" + home}
			if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
				t.Fatalf("mod add: %+v", r)
			}
			given := []string{"module/AGENTS.md", filepath.Join(project, "docs/team.md"), "module/AGENTS.md", ""}
			args := []string{"install", "kit", "-a", assistant}
			for _, g := range given {
				args = append(args, "--append-context", g)
			}
			if r := runBuilt(t, exe, env, atProject(args, project)...); r.code != 0 {
				t.Fatalf("install: %+v", r)
			}
			stored, err := filepath.EvalSymlinks(filepath.Join(home, "modules", "kit", "module", "AGENTS.md"))
			if err != nil {
				t.Fatal(err)
			}
			want := where.wrap("kit", "Read the module context from `"+stored+"`\nRead the module context from `docs/team.md`")
			file := filepath.Join(project, filepath.FromSlash(where.path))
			if got := readFileOr(file); got != want {
				t.Fatalf("%s =\n%s\nwant\n%s", where.path, got, want)
			}

			// installed.yml: today's shape, the paths as given.
			raw, _ := os.ReadFile(filepath.Join(home, "installed.yml"))
			if !strings.Contains(string(raw), "append_context:\n") {
				t.Errorf("installed.yml has no append_context list:\n%s", raw)
			}
			reg, err := install.ReadRegistry(home)
			if err != nil {
				t.Fatal(err)
			}
			recs := reg.Find("kit", assistant, "project", project)
			if len(recs) != 1 || strings.Join(recs[0].AppendContext, "|") != strings.Join(given, "|") || !recs[0].HasInstructions {
				t.Fatalf("record = %+v", recs)
			}

			r := runBuilt(t, exe, env, "list")
			if r.code != 0 || !strings.Contains(r.out, "  append-context ("+assistant+"): module/AGENTS.md, "+filepath.Join(project, "docs/team.md")+", module/AGENTS.md, \n") {
				t.Errorf("list: %+v", r)
			}
			r = runBuilt(t, exe, env, "list", "--json")
			var listed struct {
				Installations []struct {
					AppendContext []string `json:"append_context"`
				} `json:"installations"`
			}
			if err := json.Unmarshal([]byte(r.out), &listed); err != nil || len(listed.Installations) != 1 || strings.Join(listed.Installations[0].AppendContext, "|") != strings.Join(given, "|") {
				t.Errorf("list --json: %v %s", err, r.out)
			}

			// A new version of the module: update keeps the references.
			modWriteFiles(t, src, map[string]string{"module/AGENTS.md": "Something else entirely.\n"})
			for _, a := range [][]string{{"mod", "update", "kit"}, {"update", "kit"}} {
				if r := runBuilt(t, exe, env, a...); r.code != 0 {
					t.Fatalf("%v: %+v", a, r)
				}
			}
			if got := readFileOr(file); got != want {
				t.Fatalf("after update %s =\n%s\nwant\n%s", where.path, got, want)
			}

			// A path gone since: the update warns, naming it, and takes the
			// module's instructions out (no reference to a missing file),
			// as lola install does; the record keeps the paths.
			if err := os.Remove(filepath.Join(project, "docs/team.md")); err != nil {
				t.Fatal(err)
			}
			r = runBuilt(t, exe, env, "update", "kit")
			if r.code != exitOK || !strings.Contains(r.err, "no such file: "+filepath.Join(project, "docs/team.md")) {
				t.Fatalf("update with a context file gone: exit %d, want 0 naming it\n%s%s", r.code, r.out, r.err)
			}
			// (gemini-cli's target keeps a block whose module no longer has
			// instructions, on update as when a module drops its AGENTS.md:
			// a gap of that target, not of --append-context.)
			if got := readFileOr(file); assistant != "gemini-cli" && strings.Contains(got, "Read the module context") {
				t.Fatalf("after an update with a context file gone %s still refers to it:\n%s", where.path, got)
			}
			if reg, _ := install.ReadRegistry(home); len(reg.All()) != 1 || len(reg.All()[0].AppendContext) != len(given) {
				t.Fatalf("the record after that update: %+v", reg.All())
			}

			if r := runBuilt(t, exe, env, atProject([]string{"uninstall", "kit", "-a", assistant}, project)...); r.code != 0 {
				t.Fatalf("uninstall: %+v", r)
			}
			if got := readFileOr(file); got != "" {
				t.Errorf("after uninstall %s = %q", where.path, got)
			}
			if reg, _ := install.ReadRegistry(home); len(reg.All()) != 0 {
				t.Errorf("records after uninstall: %+v", reg.All())
			}
		})
	}
}

// --append-context of a file that does not exist (with one that does):
// the install goes on for every assistant, a warning names the missing
// path, and the assistant's instructions file gets no block at all, as
// today's Lola does; installed.yml records the install without
// instructions.
func TestEndToEndAppendContextMissingFileWritesNoBlock(t *testing.T) {
	exe, _ := builtLola(t)
	base := t.TempDir()
	home, project, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "kit")
	modWriteFiles(t, src, contextSource)
	modWriteFiles(t, project, map[string]string{"CLAUDE.md": "# Mine\n"})
	env := []string{"LOLA_HOME=" + home, "HOME=" + filepath.Join(base, "user")}
	if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	r := runBuilt(t, exe, env, "install", "kit", "-a", "claude-code", "--append-context", "module/AGENTS.md", "--append-context", "module/NOPE.md", project)
	if r.code != exitOK || !strings.Contains(r.err, "no such file: module/NOPE.md") || !strings.Contains(r.err, "instructions are not installed") {
		t.Fatalf("exit %d, want 0 with a warning naming module/NOPE.md\n%s%s", r.code, r.out, r.err)
	}
	if b := mustRead(t, filepath.Join(project, "CLAUDE.md")); string(b) != "# Mine\n" {
		t.Fatalf("CLAUDE.md got a block:\n%s", b)
	}
	list := runBuilt(t, exe, env, "list")
	if !strings.Contains(list.out, "kit  claude-code") {
		t.Fatalf("the install is not recorded:\n%s", list.out)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
