//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/fsroot/fsroottest"
)

// A dry run through the built binary — plan apply --dry-run and ext run
// --dry-run of a built-in tier-1 target, both under the default --fs auto
// — creates nothing anywhere under the root: every entry's change and
// modification times, and the root's, are as they were. A real apply
// refused by the rules leaves nothing of lola's either.
func TestDryRunThroughTheBinaryCreatesNothing(t *testing.T) {
	exe, builtins := builtLola(t)
	if !strings.Contains(strings.Join(builtins, " "), "claude-code") {
		t.Skip("no built-in claude-code target beside " + exe)
	}
	root, home, dir := t.TempDir(), t.TempDir(), t.TempDir()
	for p, body := range map[string]string{"README.md": "mine", ".claude/skills/old/SKILL.md": "old"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	planFile := filepath.Join(dir, "p.json")
	os.WriteFile(planFile, []byte(`{"protocol":1,"intents":[{"op":"write","path":".claude/skills/s/SKILL.md","content":"s"},{"op":"delete","path":"README.md"}]}`), 0o644)
	conflict := filepath.Join(dir, "c.json")
	os.WriteFile(conflict, []byte(`{"protocol":1,"intents":[{"op":"write","path":"a","content":"1"},{"op":"rename","from":"nothing","to":"b"}]}`), 0o644)
	lola := func(want int, args ...string) string {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "LOLA_HOME="+home)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != want {
			t.Fatalf("lola %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, out)
		}
		return string(out)
	}
	// Warm the home (keys, audit log) so that nothing but the run is seen.
	lola(exitOK, "plan", "apply", "--dry-run", "--root", t.TempDir(), planFile)
	before := fsroottest.Stamps(t, root)
	for _, args := range [][]string{
		{"plan", "apply", "--dry-run", "--root", root, planFile},
		{"plan", "apply", "--dry-run", "--json", "--root", root, planFile},
		{"ext", "run", "--dry-run", "--root", root, examplesClaudeCode(t)},
	} {
		out := lola(exitOK, args...)
		if strings.Contains(out, "note:") || strings.Contains(out, "relation_note") {
			t.Fatalf("a note on this machine's filesystem: %s", out)
		}
		if after := fsroottest.Stamps(t, root); after != before {
			t.Fatalf("lola %s wrote under the root:\nbefore:\n%s\nafter:\n%s", strings.Join(args, " "), before, after)
		}
	}
	listed := listTree(t, root)
	lola(exitRejected, "plan", "apply", "--root", root, conflict)
	if after := listTree(t, root); after != listed {
		t.Fatalf("a rejected apply left:\n%s\nwant:\n%s", after, listed)
	}
}

// examplesClaudeCode is the claude-code target's directory as make build
// left it (manifest and dist/), for running it by path.
func examplesClaudeCode(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "examples", "claude-code"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
