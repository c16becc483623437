package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mod update fetches a module again from where it was added; with nothing
// in the store it says so; an unknown module is exit 1 "not found"; a
// source that now breaks a rule leaves the stored module as it was.
func TestModUpdateCLI(t *testing.T) {
	home := modTestHome(t)
	if code, out, _ := runModCLI(t, "update"); code != exitOK || !strings.Contains(out, "No modules to update") {
		t.Fatalf("empty store: %d %q", code, out)
	}
	src := filepath.Join(t.TempDir(), "my-module")
	modWriteFiles(t, src, map[string]string{"skills/one/SKILL.md": "---\ndescription: one\n---\n"})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatalf("add: %d %s", code, errs)
	}
	modWriteFiles(t, src, map[string]string{"commands/two.md": "---\ndescription: two\n---\n"})
	code, out, errs := runModCLI(t, "update", "my-module")
	if code != exitOK || !strings.Contains(out, "Updated my-module: 1 skill, 1 command") {
		t.Fatalf("update: %d %q %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(home, "modules", "my-module", "commands", "two.md")); err != nil {
		t.Fatal("the update did not bring the new command")
	}
	if code, _, errs := runModCLI(t, "update", "nonexistent"); code != exitInternal || !strings.Contains(errs, "not found") {
		t.Fatalf("unknown module: %d %q", code, errs)
	}
	modWriteFiles(t, src, map[string]string{"CON.md": "x", "con.md": "y"}) // a namespace clash the store refuses
	if code, _, errs := runModCLI(t, "update", "my-module"); code != exitRejected {
		t.Fatalf("refused update: %d %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(home, "modules", "my-module", "con.md")); err == nil {
		t.Fatal("a refused update changed the stored module")
	}
	if code, _, _ := runModCLI(t, "rm", "my-module", "--force"); code != exitOK {
		t.Fatal("rm")
	}
	if _, err := os.Stat(filepath.Join(home, "sources", "my-module.yml")); err == nil {
		t.Fatal("rm left the source record")
	}
}

// Today's Lola's scenarios: an unknown module is exit 1 and "not found".
func TestModUnknownIsNotFound(t *testing.T) {
	modTestHome(t)
	for _, args := range [][]string{{"rm", "nonexistent", "--force"}, {"info", "nonexistent"}} {
		if code, _, errs := runModCLI(t, args...); code != exitInternal || !strings.Contains(errs, "not found") {
			t.Errorf("mod %v: %d %q", args, code, errs)
		}
	}
	for _, args := range [][]string{{"install", "nonexistent", "-a", "claude-code"}, {"uninstall", "nonexistent", "-a", "claude-code"}} {
		if code, out, errs := runUsage(t, args...); code != exitInternal || !strings.Contains(errs, "not found") {
			t.Errorf("%v: %d %q %q", args, code, out, errs)
		}
	}
}

// --module-content picks the module inside a larger folder, and mod
// update fetches the same directory again. The whole folder is stored,
// as today's Lola stores it, and the content directory recorded in the
// module's .lola/source.yml.
func TestModAddModuleContent(t *testing.T) {
	home := modTestHome(t)
	src := filepath.Join(t.TempDir(), "mono")
	modWriteFiles(t, src, map[string]string{"packages/skills/skills/one/SKILL.md": "---\ndescription: one\n---\n", "README.md": "x"})
	if code, out, errs := runModCLI(t, "add", src, "--module-content", "packages/skills"); code != exitOK || !strings.Contains(out, "1 skill") {
		t.Fatalf("add: %d %s %s", code, out, errs)
	}
	if code, _, errs := runModCLI(t, "add", src, "--name", "other", "--content-path", "../x"); code != exitRejected {
		t.Fatalf("climbing content path: %d %s", code, errs)
	}
	modWriteFiles(t, src, map[string]string{"packages/skills/skills/two/SKILL.md": "---\ndescription: two\n---\n"})
	if code, out, errs := runModCLI(t, "update", "mono"); code != exitOK || !strings.Contains(out, "2 skills") {
		t.Fatalf("update: %d %s %s", code, out, errs)
	}
	if code, out, _ := runModCLI(t, "info", "mono"); code != exitOK || !strings.Contains(out, "content: packages/skills/\n") {
		t.Fatalf("the content directory after the update: %d\n%s", code, out)
	}
	if got := readFileOr(filepath.Join(home, "modules", "mono", ".lola", "source.yml")); got != "content_dirname: packages/skills\nsource: "+src+"\ntype: folder\n" {
		t.Fatalf("the module's .lola/source.yml:\n%s", got)
	}
}

// --module-content / (or .; --content-path alike) forces the source's root
// as the content even when a module/ folder is there, as today's Lola does,
// and an explicit DIR is the content as it is (its own module/ not
// preferred); the choice is kept with the stored module, so mod update
// reads the new content the same way.
func TestModAddModuleContentRootForcesRoot(t *testing.T) {
	modTestHome(t)
	src := filepath.Join(t.TempDir(), "repo")
	modWriteFiles(t, src, map[string]string{
		"module/skills/inner/SKILL.md":           "---\ndescription: inner\n---\n",
		"skills/outer/SKILL.md":                  "---\ndescription: outer\n---\n",
		"packages/x/skills/px/SKILL.md":          "---\ndescription: px\n---\n",
		"packages/x/module/skills/pxin/SKILL.md": "---\ndescription: pxin\n---\n",
	})
	skills := func(name string) string {
		t.Helper()
		code, out, errs := runModCLI(t, "info", name, "--json")
		var info struct {
			Skills []struct{ Name string } `json:"skills"`
		}
		if code != exitOK || json.Unmarshal([]byte(out), &info) != nil {
			t.Fatalf("info %s: %d %s %s", name, code, out, errs)
		}
		var ns []string
		for _, s := range info.Skills {
			ns = append(ns, s.Name)
		}
		return strings.Join(ns, ",")
	}
	for _, add := range [][]string{
		{"add", src, "--name", "auto"},
		{"add", src, "--name", "root", "--module-content", "/"},
		{"add", src, "--name", "dot", "--content-path", "."},
		{"add", src, "--name", "slash", "--content-path", "/"},
		{"add", src, "--name", "sub", "--module-content", "packages/x"},
	} {
		if code, out, errs := runModCLI(t, add...); code != exitOK {
			t.Fatalf("%v: %d %s %s", add, code, out, errs)
		}
	}
	for name, want := range map[string]string{"auto": "inner", "root": "outer", "dot": "outer", "slash": "outer", "sub": "px"} {
		if got := skills(name); got != want {
			t.Errorf("%s: skills %q, want %q", name, got, want)
		}
	}
	if code, out, _ := runModCLI(t, "info", "root"); code != exitOK || !strings.Contains(out, "Source\n  type: folder\n  location: "+src+"\n  content: /\n") {
		t.Errorf("info root does not name the content chosen:\n%s", out)
	}
	modWriteFiles(t, src, map[string]string{"skills/outer2/SKILL.md": "---\ndescription: outer2\n---\n"})
	if code, out, errs := runModCLI(t, "update", "root"); code != exitOK {
		t.Fatalf("update: %d %s %s", code, out, errs)
	}
	if got := skills("root"); got != "outer,outer2" {
		t.Errorf("after mod update: skills %q, want the root's outer,outer2", got)
	}
}

func TestModLsVerbose(t *testing.T) {
	modTestHome(t)
	src := filepath.Join(t.TempDir(), "vm")
	modWriteFiles(t, src, map[string]string{"skills/one/SKILL.md": "---\ndescription: one\n---\n", "commands/go.md": "---\ndescription: go\n---\n"})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	code, out, _ := runModCLI(t, "ls", "-v")
	if code != exitOK || !strings.Contains(out, "  skills: one") || !strings.Contains(out, "  commands: go") {
		t.Fatalf("%d %s", code, out)
	}
	if _, out, _ := runModCLI(t, "ls"); strings.Contains(out, "skills: one") {
		t.Fatalf("ls without -v names skills:\n%s", out)
	}
}
