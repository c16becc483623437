package module

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// exampleModules are the fixture modules the assistant targets' goldens
// are built on (examples/testdata/modules): each target test feeds the
// module exactly as this store hands it to an extension, so the targets
// are tested against the host's inventory, not a hand-written one.
const exampleModules = "../../examples/testdata/modules"

// TestExampleModuleRequestsAreCurrent keeps examples/testdata/modules/
// <name>.module.json equal to what Schema returns for each fixture module
// (rewrite them with -update).
func TestExampleModuleRequestsAreCurrent(t *testing.T) {
	for _, name := range []string{"kit", "solo", "second", "edge"} {
		s, _ := newStore(t)
		// Named as the targets' goldens name it: a module/ folder would
		// otherwise name kit "module", as today's Lola does.
		if _, err := s.Add(context.Background(), mustSource(t, filepath.Join(exampleModules, name)), AddOptions{Name: mustName(t, name)}); err != nil {
			t.Fatal(err)
		}
		m, err := s.Get(mustName(t, name))
		if err != nil {
			t.Fatal(err)
		}
		sm, err := m.Schema(DefaultBounds())
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.MarshalIndent(sm, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		p := filepath.Join(exampleModules, name+".module.json")
		if *update {
			if err := os.WriteFile(p, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(p)
		if err != nil || string(want) != string(got) {
			t.Fatalf("%s is not what the store hands over (run with -update):\n%s", p, got)
		}
	}
}
