package reinstall

import (
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/install"
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
