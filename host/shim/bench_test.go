package shim

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// timeToFirstByte execs cmd and returns when the first stdout byte arrives,
// then drains and waits.
func timeToFirstByte(b *testing.B, cmd *exec.Cmd) time.Duration {
	b.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	one := make([]byte, 1)
	if _, err := io.ReadFull(out, one); err != nil {
		b.Fatalf("no plan byte: %v\n%s", err, errb.Bytes())
	}
	d := time.Since(start)
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		b.Fatalf("%v\n%s", err, errb.Bytes())
	}
	return d
}

func shimCmd(b *testing.B, module, cacheDir string, req []byte) *exec.Cmd {
	b.Helper()
	a, err := NewArgs(module, nil, DefaultLimits(), cacheDir)
	if err != nil {
		b.Fatal(err)
	}
	inv, err := SelfInvocation(a)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(inv.Path, inv.Args...)
	cmd.Env = append(inv.Env, childEnv+"=shim")
	cmd.Stdin = bytes.NewReader(req)
	return cmd
}

// BenchmarkFirstPlanByte: a Go reactor (~4 MB of wasm) through the whole
// shim child, from exec to the first plan byte on stdout. cold compiles
// every time (no cache); cache-hit loads the compiled module from the cache.
func BenchmarkFirstPlanByte(b *testing.B) {
	mod := guestReactor.build(b)
	_, req := roundTripRequest(b)
	b.Run("cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			d := timeToFirstByte(b, shimCmd(b, mod, "", req))
			b.ReportMetric(float64(d.Microseconds())/1000, "ms/first-byte")
		}
	})
	b.Run("cache-hit", func(b *testing.B) {
		dir := filepath.Join(b.TempDir(), "cache")
		timeToFirstByte(b, shimCmd(b, mod, dir, req)) // fill
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			d := timeToFirstByte(b, shimCmd(b, mod, dir, req))
			b.ReportMetric(float64(d.Microseconds())/1000, "ms/first-byte")
		}
	})
}

// BenchmarkTiers: one source, a whole run each: tier 1 warm (the shim child
// with a cache hit) against tier 2 (the native build as a plain process).
func BenchmarkTiers(b *testing.B) {
	mod := guestReactor.build(b)
	native := guestNative.build(b)
	_, req := roundTripRequest(b)
	dir := filepath.Join(b.TempDir(), "cache")
	var want []byte
	b.Run("tier1-warm", func(b *testing.B) {
		timeToFirstByte(b, shimCmd(b, mod, dir, req))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			cmd := shimCmd(b, mod, dir, req)
			out, err := cmd.Output()
			if err != nil {
				b.Fatal(err)
			}
			want = out
		}
	})
	b.Run("tier2", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cmd := exec.Command(native)
			cmd.Stdin = bytes.NewReader(req)
			cmd.Env = []string{}
			out, err := cmd.Output()
			if err != nil {
				b.Fatal(err)
			}
			if want != nil && !bytes.Equal(out, want) {
				b.Fatal("tiers disagree")
			}
		}
	})
}
