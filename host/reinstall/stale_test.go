package reinstall

import (
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/schema"
)

// Only files of items the new record no longer lists are stale, matched
// by path component or module prefix.
func TestStaleFiles(t *testing.T) {
	old := install.Record{Skills: []string{"s1", "s2"}, Commands: []string{"hello"}, Files: map[string]string{
		".claude/skills/s1/SKILL.md": "a", ".claude/skills/s2/SKILL.md": "b", ".claude/skills/s2/ref.md": "c",
		".cursor/rules/mm-s2.mdc": "d", ".claude/commands/hello.md": "e", ".claude/skills/s12/SKILL.md": "f",
	}}
	cur := install.Record{Skills: []string{"s1"}, Commands: []string{"hello"}}
	got := strings.Join(staleFiles(old, cur), " ")
	if got != ".claude/skills/s2/SKILL.md .claude/skills/s2/ref.md .cursor/rules/mm-s2.mdc" {
		t.Fatalf("stale = %s", got)
	}
	if s := staleFiles(old, old); len(s) != 0 {
		t.Fatalf("nothing removed, yet stale %v", s)
	}
}

// A file the old record lists and the new plan does not write is stale
// (a target updated to write elsewhere), whatever the items; one written
// again, changed or not, is not; both rules' files are listed once.
func TestStaleOfIncludesWhatThePlanNoLongerWrites(t *testing.T) {
	old := install.Record{Skills: []string{"s1", "s2"}, Files: map[string]string{
		"v1/s1/SKILL.md": "a", "v1/s2/SKILL.md": "b", "kept/s1.md": "c",
	}}
	cur := install.Record{Skills: []string{"s1"}}
	changes := []apply.Change{
		{Op: schema.OpWrite, Path: "v2/s1/SKILL.md", Kind: apply.ChangeAdded},
		{Op: schema.OpWrite, Path: "kept/s1.md", Kind: apply.ChangeNoop},
		{Op: schema.OpDelete, Path: "v1/s1/SKILL.md", Kind: apply.ChangeNoop},
	}
	if got := strings.Join(staleOf(old, cur, changes), " "); got != "v1/s1/SKILL.md v1/s2/SKILL.md" {
		t.Fatalf("stale = %s", got)
	}
}
