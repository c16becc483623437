package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/shim"
	"github.com/lola-pm/lola/schema"
)

func script(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the test extensions are POSIX shell scripts")
	}
	p := filepath.Join(t.TempDir(), "ext")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunExtensionNativeReturnsItsPlan(t *testing.T) {
	t.Setenv("LOLA_TEST_SECRET", "s3cr3t")
	ext := script(t, `cat >/dev/null
if env | grep -q s3cr3t; then echo leaked >&2; exit 9; fi
printf '{"protocol":1,"intents":[{"op":"write","path":"%s","content":"x"}]}' "$(basename "$(pwd)" | cut -c1-9)"
`)
	caps, _ := capability.Grant(nil)
	got, err := RunExtension(context.Background(), Launch{Name: "t", Tier: audit.TierNative, Artifact: ext, Caps: caps, Timeout: 10 * time.Second},
		schema.Request{Protocol: 1, Operation: schema.OperationGenerate, Modules: []schema.Module{}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Child.Outcome != child.OutcomePlanReceived {
		t.Fatalf("outcome %v: %s", got.Child.Outcome, got.Child.Diagnostics)
	}
	layers := got.Layers()
	if len(layers) < 2 || layers[0] != audit.LayerDeadline || layers[1] != audit.LayerOutputBounds {
		t.Fatalf("a native run's layers %v lack the host's deadline and output bounds", layers)
	}
	in := got.Plan().Intent(0)
	if !strings.HasPrefix(in.Write.Path, "lola-ext-") {
		t.Fatalf("the extension did not run in a scratch directory: %q", in.Write.Path)
	}
}

func TestRunExtensionKillsAStuckNativeExtension(t *testing.T) {
	ext := script(t, "sleep 30\n")
	caps, _ := capability.Grant(nil)
	start := time.Now()
	got, err := RunExtension(context.Background(), Launch{Name: "t", Tier: audit.TierNative, Artifact: ext, Caps: caps, Timeout: 300 * time.Millisecond},
		schema.Request{Protocol: 1, Operation: schema.OperationGenerate})
	if err != nil {
		t.Fatal(err)
	}
	if got.Child.Outcome != child.OutcomeKilledDeadline {
		t.Fatalf("outcome %v", got.Child.Outcome)
	}
	if d := time.Since(start); d > 300*time.Millisecond+child.DefaultGrace+time.Second {
		t.Fatalf("took %s", d)
	}
}

func TestRunExtensionRefusesWhatReturnsNoPlan(t *testing.T) {
	caps, _ := capability.Grant(nil)
	for _, l := range []Launch{
		{Tier: audit.TierHook, Artifact: "/bin/true", Caps: caps},
		{Tier: audit.TierNative, Artifact: "relative/ext", Caps: caps},
	} {
		if _, err := RunExtension(context.Background(), l, schema.Request{Protocol: 1}); err == nil {
			t.Errorf("%+v ran", l)
		}
	}
}

// A tier-1 run's artifact digest is the one the shim reported for the
// bytes it ran; there is none for tier 2 or without the shim's line, and
// the caller then hashes the file.
func TestLaunchedArtifactSumIsTheShims(t *testing.T) {
	sum := [32]byte{1, 2, 3}
	l := Launched{tier: audit.TierWasm, Shim: &shim.Report{Module: sum, HasModule: true}}
	if got, ok := l.ArtifactSum(); !ok || got != sum {
		t.Fatalf("tier 1: %x %v", got, ok)
	}
	for _, l := range []Launched{
		{tier: audit.TierWasm, Shim: &shim.Report{Module: sum}},
		{tier: audit.TierWasm},
		{tier: audit.TierNative, Shim: &shim.Report{Module: sum, HasModule: true}},
	} {
		if _, ok := l.ArtifactSum(); ok {
			t.Errorf("%+v has a digest", l)
		}
	}
}
