package module

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

func TestMCPServersKeepFileOrderAndRawBytes(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string // name=config pairs
	}{
		{"file order", `{"mcpServers":{"zeta":{"command":"z","args":["1"]},"alpha":{"url":"https://x.example"}}}`,
			[]string{`zeta={"command":"z","args":["1"]}`, `alpha={"url":"https://x.example"}`}},
		{"repeated name: first place, last value (as Python reads it)", `{"mcpServers":{"a":{"n":1},"b":{},"a":{"n":2}}}`,
			[]string{`a={"n":2}`, `b={}`}},
		{"not JSON", `{"mcpServers":`, nil},
		{"mcpServers not an object", `{"mcpServers":["a"]}`, nil},
		{"document not an object", `[1]`, nil},
		{"server not an object is skipped", `{"mcpServers":{"a":"run me","b":{"command":"b"}}}`, []string{`b={"command":"b"}`}},
		{"empty name skipped", `{"mcpServers":{"":{"command":"x"}}}`, nil},
		{"no mcpServers", `{"servers":{}}`, nil},
	} {
		got := mcpServers([]byte(c.doc))
		if got == nil {
			t.Fatalf("%s: nil list (the request promises a list)", c.name)
		}
		var pairs []string
		for _, s := range got {
			pairs = append(pairs, s.Name+"="+string(s.Config))
		}
		if !reflect.DeepEqual(pairs, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, pairs, c.want)
		}
	}
}

func TestInventorySingleSkillAndSidecars(t *testing.T) {
	files := []schema.File{
		{Path: "SKILL.md", Content: "---\nname: solo\n---\n"},
		{Path: "commands/ship.md", Content: "x"},
		{Path: "commands/ship/a.md", Content: "a"},
		{Path: "commands/shipment.md", Content: "y"},
		{Path: "scripts/go.sh", Content: "#!/bin/sh\n", Executable: true},
	}
	l := Layout{SingleSkill: true, Skills: []Skill{{Name: "solo"}}, Commands: []Command{
		{Name: "ship", Path: "commands/ship.md"}, {Name: "shipment", Path: "commands/shipment.md"}, {Name: "gone", Path: "commands/gone.md"},
	}}
	inv := l.Inventory(files)
	if !inv.SingleSkill || len(inv.Skills) != 1 || inv.Skills[0].Dir != "" || len(inv.Skills[0].Files) != len(files) {
		t.Fatalf("single skill: %+v", inv.Skills)
	}
	if len(inv.Commands) != 2 {
		t.Fatalf("a command whose file is not handed over is listed: %+v", inv.Commands)
	}
	if !reflect.DeepEqual(inv.Commands[0].Sidecar, []string{"commands/ship/a.md"}) || inv.Commands[1].Sidecar != nil {
		t.Fatalf("sidecars: %+v", inv.Commands)
	}
	b, _ := json.Marshal(inv)
	for _, k := range []string{`"skills":`, `"commands":`, `"agents":[]`, `"mcpServers":[]`} {
		if !json.Valid(b) || !strings.Contains(string(b), k) {
			t.Fatalf("inventory JSON lacks %s: %s", k, b)
		}
	}
}

// BenchmarkInventory: the inventory of a module of 40 skills with 5 files
// each, 40 commands, 40 agents and an mcps.json of 20 servers.
func BenchmarkInventory(b *testing.B) {
	var files []schema.File
	l := Layout{}
	mcps := `{"mcpServers": {`
	for i := range 40 {
		n := fmt.Sprintf("s%02d", i)
		l.Skills = append(l.Skills, Skill{Name: n, Path: "skills/" + n})
		for j := range 5 {
			files = append(files, schema.File{Path: fmt.Sprintf("skills/%s/f%d.md", n, j), Content: "x"})
		}
		l.Commands = append(l.Commands, Command{Name: n, Path: "commands/" + n + ".md"})
		files = append(files, schema.File{Path: "commands/" + n + ".md"})
		l.Agents = append(l.Agents, Agent{Name: n, Path: "agents/" + n + ".md"})
		files = append(files, schema.File{Path: "agents/" + n + ".md"})
		if i < 20 {
			if i > 0 {
				mcps += ","
			}
			mcps += fmt.Sprintf(`"m%02d": {"command": "x", "args": ["%d"]}`, i, i)
		}
	}
	files = append(files, schema.File{Path: "mcps.json", Content: mcps + "}}"})
	b.ReportAllocs()
	for b.Loop() {
		_ = l.Inventory(files)
	}
}
