package shim

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/benchtest"
)

// The warm tier-1 start (issue 11, item 5), measured on the real targets
// that `make build` leaves in examples/*/dist and bin/lola. Each benchmark
// skips when they are not built.

// extRunRequest is what `lola ext run` sends a bare artifact.
const extRunRequest = `{"protocol":1,"operation":"generate","modules":[]}`

func repoFile(b *testing.B, rel string) string {
	b.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", rel))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s is not built (make build): %v", rel, err)
	}
	return p
}

// BenchmarkWarmTier1Breakdown runs each SDK's target (Go claude-code,
// Rust cursor, AssemblyScript gemini-cli) through the shim child
// (bin/lola-shim), compilation cache warm, and reports where each run's
// time went: the shim's own phases (Phases) and, as the rest of the wall
// time, process start and exit.
func BenchmarkWarmTier1Breakdown(b *testing.B) {
	for _, t := range []struct{ name, wasm string }{
		{"go-claude-code", "examples/go-claude-code/dist/claude-code.wasm"},
		{"rust-claude-code", "examples/claude-code/dist/claude-code.wasm"},
		{"rust-cursor", "examples/cursor/dist/cursor.wasm"},
		{"as-gemini-cli", "examples/gemini-cli/dist/gemini-cli.wasm"},
	} {
		b.Run(t.name, func(b *testing.B) { warmTier1Breakdown(b, repoFile(b, t.wasm)) })
	}
}

func warmTier1Breakdown(b *testing.B, mod string) {
	// The production child (bin/lola-shim): a test binary would key its
	// cache by a hash of its own 20 MB executable (a development build)
	// and start slower.
	exe := repoFile(b, "bin/lola-shim")
	dir := filepath.Join(b.TempDir(), "cache")
	req := []byte(extRunRequest)
	a, err := NewArgs(mod, nil, DefaultLimits(), dir)
	if err != nil {
		b.Fatal(err)
	}
	inv, err := NewInvocation(exe, a)
	if err != nil {
		b.Fatal(err)
	}
	run := func() (time.Duration, Phases) {
		cmd := exec.Command(inv.Path, inv.Args...)
		cmd.Env = inv.Env
		cmd.Stdin = bytes.NewReader(req)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v\n%s", err, errb.Bytes())
		}
		wall := time.Since(start)
		rep, err := ParseReport(errb.Bytes())
		if err != nil || rep.Outcome.Kind != KindOK || rep.Outcome.Phases == nil {
			b.Fatalf("report %+v (%v)\n%s", rep.Outcome, err, errb.Bytes())
		}
		return wall, *rep.Outcome.Phases
	}
	run() // fill the cache
	var sum Phases
	var wall time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, p := run()
		wall += w
		sum.Read += p.Read
		sum.Scan += p.Scan
		sum.Compile += p.Compile
		sum.Confine += p.Confine + p.Request
		sum.Instantiate += p.Instantiate
		sum.Run += p.Run
		sum.Total += p.Total
	}
	n := float64(b.N) * 1000
	b.ReportMetric(float64(wall.Microseconds()-sum.Total)/n, "ms/process-start+exit")
	b.ReportMetric(float64(sum.Read)/n, "ms/read+hash")
	b.ReportMetric(float64(sum.Scan)/n, "ms/prescan")
	b.ReportMetric(float64(sum.Compile)/n, "ms/cache-lookup")
	b.ReportMetric(float64(sum.Confine)/n, "ms/confine")
	b.ReportMetric(float64(sum.Instantiate)/n, "ms/instantiate")
	b.ReportMetric(float64(sum.Run)/n, "ms/lola_run")
}

// BenchmarkTier1Target compares, for each SDK's target, a whole warm
// `lola ext run --dry-run` with what it cannot be faster than:
//
//   - go-claude-code/floor: in this process, a cache-hit compilation,
//     instantiation and the ABI calls of the same module (no process, no
//     confinement, no host checks);
//   - version: one bare `lola --version` process (`lola --help` while the
//     CLI has no --version);
//   - rust-cursor and as-gemini-cli: tier 1 against the same target's
//     native build (tier 2) through the same command, in pairs.
//
// scripts/benchratio.awk prints ext-run / (floor + version), and tier 1 /
// tier 2 for Rust and AssemblyScript.
func BenchmarkTier1Target(b *testing.B) {
	lola := repoFile(b, "bin/lola")
	home := b.TempDir()
	root := b.TempDir()
	extRun := func(b *testing.B, artifact string, native bool) {
		args := []string{"ext", "run", "--root", root, "--dry-run", "--json", "--home", home}
		if native {
			args = append(args, "--trust-native")
		}
		cmd := exec.Command(lola, append(args, artifact)...)
		cmd.Env = append(os.Environ(), "LOLA_HOME="+home)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			b.Fatalf("lola %v: %v\n%s\n%s", args, err, out.Bytes(), errb.Bytes())
		}
	}
	warm := func(b *testing.B, artifact string, native bool) {
		extRun(b, artifact, native)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			extRun(b, artifact, native)
		}
	}
	goMod := repoFile(b, "examples/go-claude-code/dist/claude-code.wasm")
	b.Run("go-claude-code/ext-run", func(b *testing.B) { warm(b, goMod, false) })
	b.Run("go-claude-code/floor", func(b *testing.B) {
		wasm, err := os.ReadFile(goMod)
		if err != nil {
			b.Fatal(err)
		}
		dir := filepath.Join(b.TempDir(), "cache")
		l := DefaultLimits()
		once := func() {
			cache, cdir, err := openCache(dir)
			if err != nil {
				b.Fatal(err)
			}
			eng, d := compile(wasm, l, time.Now().Add(l.timeout), cache, cdir)
			if d != nil {
				b.Fatal(d)
			}
			plan, _, d := execute(eng, []byte(extRunRequest), l, time.Now().Add(l.timeout), testKnobs{}, discardLog{}, &Phases{})
			if d != nil || !json.Valid(plan) {
				b.Fatalf("%v %q", d, plan)
			}
			eng.rt.Close(b.Context())
		}
		once()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			once()
		}
	})
	b.Run("version", func(b *testing.B) {
		// `lola --version` where the CLI has it; otherwise `lola --help`,
		// the same bare process start and command-tree setup.
		arg := "--version"
		if exec.Command(lola, arg).Run() != nil {
			arg = "--help"
		}
		for i := 0; i < b.N; i++ {
			if out, err := exec.Command(lola, arg).CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
		}
	})
	for _, t := range []struct{ name, wasm, native string }{
		{"rust-cursor", "examples/cursor/dist/cursor.wasm", "examples/cursor/dist/cursor"},
		{"as-gemini-cli", "examples/gemini-cli/dist/gemini-cli.wasm", "examples/gemini-cli/dist/gemini-cli"},
	} {
		// The two tiers run alternately in one loop, and each reports its
		// median (tier1-wall-ms, tier2-wall-ms): measured one after the
		// other, the ratio of two runs of 60-100 ms mostly measures what
		// else the machine did meanwhile.
		b.Run(t.name, func(b *testing.B) {
			wasm, native := repoFile(b, t.wasm), repoFile(b, t.native)
			extRun(b, wasm, false)
			extRun(b, native, true)
			b.ResetTimer()
			t1, t2 := benchtest.Pairs(b.N, func() { extRun(b, wasm, false) }, func() { extRun(b, native, true) })
			b.StopTimer()
			b.ReportMetric(benchtest.MedianMS(t1), "tier1-wall-ms")
			b.ReportMetric(benchtest.MedianMS(t2), "tier2-wall-ms")
		})
	}
}

type discardLog struct{}

func (discardLog) Write(p []byte) (int, error) { return len(p), nil }
