package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/fsroot/fsroottest"
)

// Issue 11's "done when": for every built-in assistant, lola install then
// lola uninstall leaves the project byte-identical to the tree before it
// (every entry, mode and content; no .lola.lock, no staging directory),
// and a dry-run install changes nothing at all, not even the project
// directory's change time. The project starts with files of the user's
// own, including one inside a directory an install writes into.
func TestEndToEndInstallUninstallLeavesNoTrace(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, names := builtLola(t)
	base := t.TempDir()
	home, src := filepath.Join(base, "home"), filepath.Join(base, "kit")
	env := []string{"LOLA_HOME=" + home}
	modWriteFiles(t, src, map[string]string{
		"skills/s1/SKILL.md": "---\nname: s1\ndescription: One\n---\nbody\n",
		"commands/c1.md":     "---\ndescription: C1\n---\nDo it\n",
		"agents/a1.md":       "---\nname: a1\ndescription: A1\n---\nAgent\n",
	})
	if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			project := filepath.Join(base, "p-"+name)
			modWriteFiles(t, project, map[string]string{
				"README.md":          "mine\n",
				".claude/notes.md":   "my notes\n",
				".cursor/keep.txt":   "keep\n",
				"src/main.go":        "package main\n",
				".github/CODEOWNERS": "* @me\n",
			})
			before, stamped := listTree(t, project), fsroottest.Stamps(t, project)
			args := atProject([]string{"install", "kit", "-a", name}, project)
			if r := runBuilt(t, exe, env, append(append([]string{}, args...), "--dry-run")...); r.code != 0 {
				t.Fatalf("dry run: %+v", r)
			}
			if after := fsroottest.Stamps(t, project); after != stamped {
				t.Fatalf("a dry-run install left a trace:\nbefore:\n%s\nafter:\n%s", stamped, after)
			}
			if r := runBuilt(t, exe, env, args...); r.code != 0 {
				t.Fatalf("install: %+v", r)
			}
			if after := listTree(t, project); after == before {
				t.Fatal("the install wrote nothing into the project")
			}
			if r := runBuilt(t, exe, env, atProject([]string{"uninstall", "kit", "-a", name}, project)...); r.code != 0 {
				t.Fatalf("uninstall: %+v", r)
			}
			if after := listTree(t, project); after != before {
				t.Fatalf("install then uninstall left the project changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if strings.Contains(listTree(t, project), ".lola") {
				t.Fatal("a file of lola's is left in the project")
			}
		})
	}
}
