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
					if os.IsNotExist(err) {
						// A failure golden (<name>.error.txt): the example's own
						// test asserts its message; here both tiers must fail.
						if _, _, status := runNative(t, ex.native, r); status == 0 {
							t.Fatalf("%s has no golden plan, but the extension succeeded", name)
						}
						if _, code := runThroughHost(t, ex.wasm, r); code != 4 {
							t.Fatalf("%s through the host, tier 1: exit %d, want 4", name, code)
						}
						return
					}
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
					// Both tiers through the real host: the same plan.
					one, code1 := runThroughHost(t, ex.wasm, r)
					two, code2 := runThroughHost(t, ex.native, r)
					d1, d2 := describeReported(t, one.Intents), describeReported(t, two.Intents)
					if code1 != 0 || code2 != 0 || strings.Join(d1, "\n") != strings.Join(d2, "\n") {
						t.Fatalf("through the host: exit %d/%d\n tier 1: %q\n tier 2: %q", code1, code2, d1, d2)
					}
					if w := describeExpected(t, want); strings.Join(d1, "\n") != strings.Join(w, "\n") {
						t.Fatalf("through the host the plan differs from golden\n got: %q\nwant: %q", d1, w)
					}
				})
			}
		})
	}
}
