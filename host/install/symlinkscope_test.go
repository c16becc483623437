package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// Issue 28 item 6: only links on paths the plan writes, or on their
// parents, are asked about and replaced. CLAUDE.md -> AGENTS.md (a common
// setup) with a module that has no instructions: claude-code's plan does
// not write CLAUDE.md, so the install neither asks nor refuses, and the
// link stays a link through install and uninstall. A link on a parent of a
// written path (.claude/skills) is still in scope: asked about (alone),
// and replaced with consent, CLAUDE.md still untouched.
func TestReplaceSymlinksOnlyTouchesLinksThePlanWrites(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	e := newEnv(t)
	mod := plainModule()
	delete(mod, "AGENTS.md") // no instructions: nothing for CLAUDE.md
	e.addModule(t, "sample", mod)
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, map[string]string{"AGENTS.md": "# Shared notes\n"})
	if err := os.Symlink("AGENTS.md", filepath.Join(e.project, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	isLink := func(what string) {
		t.Helper()
		if fi, err := os.Lstat(filepath.Join(e.project, "CLAUDE.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s: CLAUDE.md is no longer a link (%v)", what, err)
		}
		if readOr(t, filepath.Join(e.project, "AGENTS.md")) != "# Shared notes\n" {
			t.Fatalf("%s: AGENTS.md changed", what)
		}
	}

	o := e.options("sample", "claude-code")
	var asked [][]Symlink
	o.ConfirmSymlinks = func(ls []Symlink) bool { asked = append(asked, ls); return false }
	rep := mustInstall(t, o)
	if len(asked) != 0 || len(rep.Symlinks) != 0 || len(rep.Replaced) != 0 {
		t.Fatalf("asked %v, reported %v, replaced %v: the plan writes no link", asked, rep.Symlinks, rep.Replaced)
	}
	isLink("after install")
	if _, err := Uninstall(context.Background(), e.options("sample", "claude-code")); err != nil {
		t.Fatalf("uninstall: %v", err)
	}
	isLink("after uninstall")

	// A link on a written path's parent is in scope, and only it.
	writeTree(t, e.project, map[string]string{"shared/skills/mine/SKILL.md": "my skill\n"})
	if err := os.MkdirAll(filepath.Join(e.project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../shared/skills", filepath.Join(e.project, ".claude/skills")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, e.project)
	rep, err := Install(context.Background(), o)
	if err == nil && rep.Applied() {
		t.Fatal("a declined link on a written path's parent was installed through")
	}
	if len(asked) != 1 || len(asked[0]) != 1 || asked[0][0].Path != ".claude/skills" {
		t.Fatalf("asked %v, want .claude/skills alone", asked)
	}
	if rep.Result != nil && !errors.Is(rep.Result.Err, rejection.Rule(schema.RulePathSymlink)) && !errors.Is(err, rejection.Rule(schema.RulePathSymlink)) {
		t.Errorf("refusal: %v %v", err, rep.Result.Err)
	}
	sameTree(t, "project after the declined prompt", snapshot(t, e.project), before)

	o.ConfirmSymlinks, o.ReplaceSymlinks = nil, true
	rep = mustInstall(t, o)
	if len(rep.Replaced) != 1 || rep.Replaced[0].Path != ".claude/skills" {
		t.Fatalf("replaced %v, want .claude/skills alone", rep.Replaced)
	}
	isLink("after install with --replace-symlinks")
}

// An uninstall whose plan deletes beneath a linked parent (.claude
// swapped for a link out of the project after the install) is refused by
// path.symlink, naming the link, and nothing changes inside or outside: a
// delete is in scope as a write is (without this, the refusal was an
// internal error from the ownership check's os.Root).
func TestUninstallRefusesADeleteThroughAManagedLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	mustInstall(t, e.options("sample", "claude-code"))
	outside := t.TempDir()
	if err := os.Rename(filepath.Join(e.project, ".claude"), filepath.Join(outside, "claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "claude"), filepath.Join(e.project, ".claude")); err != nil {
		t.Fatal(err)
	}
	before, outBefore := snapshot(t, e.project), snapshot(t, outside)
	rep, err := Uninstall(context.Background(), e.options("sample", "claude-code"))
	if !errors.Is(err, rejection.Rule(schema.RulePathSymlink)) || len(rep.Symlinks) != 1 || rep.Symlinks[0].Path != ".claude" {
		t.Fatalf("uninstall: %v, symlinks %v: want path.symlink naming .claude", err, rep.Symlinks)
	}
	sameTree(t, "project", snapshot(t, e.project), before)
	sameTree(t, "outside", snapshot(t, outside), outBefore)
}
