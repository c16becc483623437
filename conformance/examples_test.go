package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestExamplesMatchGoldenPlans runs each example's tier-2 build on its
// golden requests.
func TestExamplesMatchGoldenPlans(t *testing.T) {
	for _, p := range examples {
		t.Run(filepath.Base(p.dir), func(t *testing.T) {
			ex := build(t, p)
			reqs, _ := filepath.Glob(filepath.Join(repoRoot(t), p.dir, "testdata/*.request.json"))
			if len(reqs) == 0 {
				t.Fatalf("%s has no golden requests", p.dir)
			}
			sort.Strings(reqs)
			for _, r := range reqs {
				name := strings.TrimSuffix(filepath.Base(r), ".request.json")
				t.Run(name, func(t *testing.T) {
					want, err := os.ReadFile(strings.TrimSuffix(r, ".request.json") + ".plan.json")
					if err != nil {
						t.Fatal(err)
					}
					plan, stderr, status := runNative(t, ex.native, r)
					if status != 0 {
						t.Fatalf("status %d: %s", status, stderr)
					}
					validatePlanSchema(t, plan)
					if got, want := canonical(t, plan), canonical(t, want); !bytes.Equal(got, want) {
						t.Fatalf("plan differs from golden\n got: %s\nwant: %s", got, want)
					}
				})
			}
		})
	}
}
