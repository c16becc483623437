package reinstall

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/install"
)

// everyValue takes every stale server as lola's.
func everyValue(string, json.RawMessage) bool { return true }

// Only the stale servers leave; the user's server, other top-level members
// and their values stay; a file left with only "$schema" and empty
// containers is reported empty; what is not one JSON object is left alone.
func TestWithoutServers(t *testing.T) {
	stale := map[string]bool{"drop": true}
	in := `{"$schema": "s", "theme": {"drop": 1}, "mcpServers": {"mine": {"command": "m", "args": ["a", 1.50]}, "drop": {"command": "d"}, "keep": {}}}`
	e := withoutServers([]byte(in), stale, everyValue)
	if !slices.Equal(e.removed, []string{"drop"}) || e.empty {
		t.Fatalf("removed %v empty %v", e.removed, e.empty)
	}
	var got map[string]any
	if err := json.Unmarshal(e.out, &got); err != nil {
		t.Fatal(err)
	}
	servers := got["mcpServers"].(map[string]any)
	if _, ok := servers["drop"]; ok || len(servers) != 2 {
		t.Fatalf("servers %v", servers)
	}
	out := string(e.out)
	if !strings.Contains(out, `1.50`) || !strings.Contains(out, `"theme": {`) || strings.Index(out, "mine") > strings.Index(out, "keep") {
		t.Fatalf("a value, a non-container member or the order changed:\n%s", out)
	}
	if e := withoutServers([]byte(`{"mcpServers": {"mine": {}}}`), stale, everyValue); len(e.removed) != 0 {
		t.Fatal("changed a file without a stale server")
	}
	if e := withoutServers([]byte(`{"mcpServers": {"drop": {}}} {}`), stale, everyValue); len(e.removed) != 0 {
		t.Fatal("edited what is not one JSON object")
	}
	for _, c := range []struct {
		in    string
		empty bool
	}{
		{`{"$schema": "x", "servers": {"drop": {}}}`, true},
		{`{"mcp": {"drop": {}}, "model": "m"}`, false},
		{`{"mcpServers": {"drop": {}, "mine": {}}}`, false},
	} {
		if e := withoutServers([]byte(c.in), stale, everyValue); len(e.removed) != 1 || e.empty != c.empty {
			t.Errorf("%s: removed %v empty %v, want empty %v", c.in, e.removed, e.empty, c.empty)
		}
	}
}

// A stale server whose value is not the one lola recorded (the user's
// now, under the name lola once wrote) stays, byte for byte, and is
// listed as kept; the file is not rewritten for it.
func TestStaleServerTheUserChangedIsKept(t *testing.T) {
	wrote, _ := install.ServerDigest([]byte(`{"command": "d", "args": ["x"]}`))
	recorded := map[string]string{"drop": wrote, "gone": wrote}
	mine := func(name string, v json.RawMessage) bool {
		d, ok := install.ServerDigest(v)
		return ok && recorded[name] == d
	}
	stale := map[string]bool{"drop": true, "gone": true}
	edited := `{"mcpServers": {"drop": {"command": "my-own-tool"}, "mine": {}}}`
	e := withoutServers([]byte(edited), stale, mine)
	if len(e.removed) != 0 || e.out != nil || !slices.Equal(e.kept, []string{"drop"}) {
		t.Fatalf("an edited stale server: removed %v kept %v out %q", e.removed, e.kept, e.out)
	}
	// Re-indented, its keys reordered by an editor: still lola's value.
	reordered := "{\n  \"mcpServers\": {\n    \"drop\": {\"args\": [\"x\"],\n \"command\": \"d\"},\n    \"gone\": {\"command\": \"changed\"}\n  }\n}\n"
	e = withoutServers([]byte(reordered), stale, mine)
	if !slices.Equal(e.removed, []string{"drop"}) || !slices.Equal(e.kept, []string{"gone"}) || !strings.Contains(string(e.out), `"changed"`) {
		t.Fatalf("a reordered stale server: removed %v kept %v\n%s", e.removed, e.kept, e.out)
	}
	// No digest recorded (today's Lola's record): nothing is proved, all kept.
	none := func(string, json.RawMessage) bool { return false }
	if e := withoutServers([]byte(`{"mcpServers": {"drop": {"command": "d", "args": ["x"]}}}`), stale, none); len(e.removed) != 0 || !slices.Equal(e.kept, []string{"drop"}) {
		t.Fatalf("without a recorded value: removed %v kept %v", e.removed, e.kept)
	}
}
