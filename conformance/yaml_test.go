package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestYAMLDumpMatchesPyYAML: sdk-assemblyscript's frontmatter YAML writer
// agrees with PyYAML's yaml.dump (what upstream Lola writes) on the vectors
// PyYAML produced for sdk-rust (sdk-rust/tests/data/yaml_dump.json), run
// through a probe module built from the SDK (tier 2).
func TestYAMLDumpMatchesPyYAML(t *testing.T) {
	probe := build(t, project{lang: "assemblyscript", dir: "sdk-assemblyscript", target: "assembly/probe.ts"})
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "sdk-rust/tests/data/yaml_dump.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Front, Dump string }
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	var files []map[string]string
	for i, c := range cases {
		files = append(files, map[string]string{"path": fmt.Sprintf("c%03d", i), "content": c.Front})
	}
	req, _ := json.Marshal(map[string]any{"protocol": 1, "operation": "install",
		"modules": []any{map[string]any{"name": "probe", "files": files}}})
	f := filepath.Join(t.TempDir(), "req.json")
	if err := os.WriteFile(f, req, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, status := runNative(t, probe.native, f)
	if status != 0 {
		t.Fatalf("probe: status %d: %s", status, stderr)
	}
	var plan struct {
		Intents []struct{ Path, Content string }
	}
	if err := json.Unmarshal(out, &plan); err != nil {
		t.Fatal(err)
	}
	if len(plan.Intents) != len(cases) || len(cases) < 50 {
		t.Fatalf("%d results for %d cases", len(plan.Intents), len(cases))
	}
	bad := 0
	for i, c := range cases {
		if got := plan.Intents[i].Content; got != c.Dump {
			bad++
			t.Errorf("front %q\n got  %q\n want %q", c.Front, got, c.Dump)
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d differ from PyYAML", bad, len(cases))
	}
}
