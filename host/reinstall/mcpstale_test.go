package reinstall

import (
	"encoding/json"
	"strings"
	"testing"
)

// Only the stale servers leave; the user's server, other top-level members
// and their values stay; a file left with only "$schema" and empty
// containers is reported empty; what is not one JSON object is left alone.
func TestWithoutServers(t *testing.T) {
	stale := map[string]bool{"drop": true}
	in := `{"$schema": "s", "theme": {"drop": 1}, "mcpServers": {"mine": {"command": "m", "args": ["a", 1.50]}, "drop": {"command": "d"}, "keep": {}}}`
	out, changed, empty := withoutServers([]byte(in), stale)
	if !changed || empty {
		t.Fatalf("changed %v empty %v", changed, empty)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	servers := got["mcpServers"].(map[string]any)
	if _, ok := servers["drop"]; ok || len(servers) != 2 {
		t.Fatalf("servers %v", servers)
	}
	if !strings.Contains(string(out), `1.50`) || !strings.Contains(string(out), `"theme": {`) || strings.Index(string(out), "mine") > strings.Index(string(out), "keep") {
		t.Fatalf("a value, a non-container member or the order changed:\n%s", out)
	}
	if _, changed, _ := withoutServers([]byte(`{"mcpServers": {"mine": {}}}`), stale); changed {
		t.Fatal("changed a file without a stale server")
	}
	if _, changed, _ := withoutServers([]byte(`{"mcpServers": {"drop": {}}} {}`), stale); changed {
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
		if _, changed, empty := withoutServers([]byte(c.in), stale); !changed || empty != c.empty {
			t.Errorf("%s: changed %v empty %v, want empty %v", c.in, changed, empty, c.empty)
		}
	}
}
