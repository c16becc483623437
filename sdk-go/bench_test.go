package lola_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	lola "github.com/lola-pm/lola/sdk-go"
)

func benchRequest(b *testing.B) []byte {
	b.Helper()
	return mustRead(b, filepath.Join(vectorsDir, "several-modules.request.json"))
}

// BenchmarkPlanBuild is the guest-side cost of building and encoding a
// plan of ten writes, the same code both tiers run.
func BenchmarkPlanBuild(b *testing.B) {
	for b.Loop() {
		var p lola.Plan
		for i := 0; i < 10; i++ {
			if err := p.Write("skills/s/file.md", "content"); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := p.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTier1InstantiateAndRun: a fresh instance per request, as the
// shim does (instantiate + _initialize + the ABI calls), module precompiled.
func BenchmarkTier1InstantiateAndRun(b *testing.B) {
	_, wasm := buildFixture(b)
	d := newABIDriver(b, mustRead(b, wasm))
	req := benchRequest(b)
	for b.Loop() {
		in := d.instantiate(b)
		if _, st, err := in.run(req); err != nil || st != 0 {
			b.Fatal(st, err)
		}
		in.mod.Close(b.Context())
	}
}

// BenchmarkTier1Call: one lola_run on a warm instance.
func BenchmarkTier1Call(b *testing.B) {
	_, wasm := buildFixture(b)
	in := newABIDriver(b, mustRead(b, wasm)).instantiate(b)
	req := benchRequest(b)
	for b.Loop() {
		if _, st, err := in.run(req); err != nil || st != 0 {
			b.Fatal(st, err)
		}
	}
}

// BenchmarkTier2Run: spawn the native build, request on stdin, plan on stdout.
func BenchmarkTier2Run(b *testing.B) {
	native, _ := buildFixture(b)
	req := benchRequest(b)
	for b.Loop() {
		cmd := exec.Command(native)
		cmd.Stdin = bytes.NewReader(req)
		if out, err := cmd.Output(); err != nil || len(out) == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkTier1Compile: wazero compiling the fixture module with no cache
// (the cold cost the shim's compilation cache removes).
func BenchmarkTier1Compile(b *testing.B) {
	_, wasm := buildFixture(b)
	mod := mustRead(b, wasm)
	for b.Loop() {
		newABIDriver(b, mod)
	}
}
