package conformance

import (
	"path/filepath"
	"testing"
)

// BenchmarkHostRun is one whole `lola ext run --dry-run` of each SDK's
// fixture on a request vector, per tier: process start, the shim (tier 1,
// compilation cache warm after the first run) or the native child (tier 2),
// decoding, every check, and the dry-run diff.
func BenchmarkHostRun(b *testing.B) {
	req := filepath.Join(repoRoot(b), "schema/vectors/requests/several-modules.request.json")
	for _, p := range fixtures {
		fx := build(b, p)
		for _, tier := range []struct{ name, artifact string }{{"tier1", fx.wasm}, {"tier2", fx.native}} {
			b.Run(p.lang+"/"+tier.name, func(b *testing.B) {
				if _, code := runThroughHost(b, tier.artifact, req); code != 0 {
					b.Fatalf("exit %d", code)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					runThroughHost(b, tier.artifact, req)
				}
			})
		}
	}
}

// BenchmarkTargetPlans: the cursor (Rust) and gemini-cli (AssemblyScript)
// targets planning the install of the module with every feature, through
// the host in both tiers (process start, compile cache, run, validation).
func BenchmarkTargetPlans(b *testing.B) {
	for _, p := range examples {
		if p.dir != "examples/cursor" && p.dir != "examples/gemini-cli" {
			continue
		}
		ex := build(b, p)
		req := filepath.Join(repoRoot(b), p.dir, "testdata/project-1-install-kit.request.json")
		for _, tier := range []struct{ name, artifact string }{{"tier1", ex.wasm}, {"tier2", ex.native}} {
			b.Run(filepath.Base(p.dir)+"/"+tier.name, func(b *testing.B) {
				if _, code := runThroughHost(b, tier.artifact, req); code != 0 {
					b.Fatalf("exit %d", code)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					runThroughHost(b, tier.artifact, req)
				}
			})
		}
	}
}
