package extension

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bundle beside a tier-1 module that does not verify refuses the add,
// and the refusal names the tier-1 module, never a native artifact.
func TestUnverifiedTier1BundleIsNamedAsTier1(t *testing.T) {
	home := t.TempDir()
	dir := mkext(t, filepath.Join(t.TempDir(), "demo"), manifest("demo", "target", "  tier1: dist/x.wasm\n"), map[string]string{
		"dist/x.wasm": "wasm-bytes", "dist/x.wasm" + BundleSuffix: bundleFor("other bytes"),
	})
	_, err := Add(home, dir, AddOptions{Trust: trusted})
	if !errors.Is(err, ErrUnsigned) {
		t.Fatalf("got %v", err)
	}
	if msg := err.Error(); strings.Contains(msg, "native") || strings.Contains(msg, "tier-2") || !strings.Contains(msg, "tier-1 module") || !strings.Contains(msg, "its bundle does not verify") {
		t.Fatalf("the refusal misnames the tier: %v", err)
	}
	dir = mkext(t, filepath.Join(t.TempDir(), "demo"), manifest("demo", "target", "  tier2: dist/x\n"), map[string]string{"dist/x": "native"})
	if _, err := Add(home, dir, AddOptions{Trust: trusted}); !errors.Is(err, ErrUnsigned) || !strings.Contains(err.Error(), "native (tier-2) artifact") {
		t.Fatalf("tier 2: %v", err)
	}
}

// Linking a directory whose native build is unsigned links its tier-1
// module (what runs when both are built) and names the native artifact
// as ignored; the native one alone is still refused.
func TestLinkWithAnUnsignedNativeBuildLinksTier1(t *testing.T) {
	home := t.TempDir()
	dir := mkext(t, filepath.Join(t.TempDir(), "demo"), manifest("demo", "target", bothTiers), map[string]string{"dist/x.wasm": "w", "dist/x": "n"})
	got, err := Link(home, dir, AddOptions{Trust: trusted})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(got.IgnoredNative, ErrUnsigned) || got.Entry.Artifacts[Tier2] != nil {
		t.Fatalf("ignored %v, pinned %+v", got.IgnoredNative, got.Entry.Artifacts)
	}
	cat, _ := Discover(home)
	e, err := cat.Lookup("demo")
	if err != nil || e.Tier() != Tier1 {
		t.Fatalf("%v %v", e, err)
	}
	if _, err := e.PinFor(Tier1, trusted); err != nil {
		t.Fatalf("tier 1 does not run: %v", err)
	}
	if _, err := e.PinFor(Tier2, trusted); !errors.Is(err, ErrUnsigned) {
		t.Fatalf("the unsigned native artifact would run: %v", err)
	}
	// Signed, it is not ignored.
	home = t.TempDir()
	os.WriteFile(filepath.Join(dir, "dist", "x"+BundleSuffix), []byte(bundleFor("n")), 0o644)
	if got, err := Link(home, dir, AddOptions{Trust: trusted}); err != nil || got.IgnoredNative != nil {
		t.Fatalf("%+v %v", got, err)
	}
}

// An extension named as a built-in is refused by Add and Link
// (ErrBuiltinName, naming the built-in), and nothing is placed or pinned:
// a built-in can be neither replaced nor shadowed.
func TestAddRefusesABuiltinName(t *testing.T) {
	builtinDir := mkext(t, filepath.Join(t.TempDir(), "bi-test"), manifest("bi-test", "target", "  tier1: dist/x.wasm\n"), map[string]string{"dist/x.wasm": "w"})
	RegisterBuiltinDir("bi-test", builtinDir)
	defer unregisterBuiltin("bi-test")
	home := t.TempDir()
	src := mkext(t, filepath.Join(t.TempDir(), "bi-test"), manifest("bi-test", "target", "  tier1: dist/x.wasm\n"), map[string]string{"dist/x.wasm": "mine"})
	for _, op := range []func() (*Added, error){
		func() (*Added, error) { return Add(home, src, AddOptions{}) },
		func() (*Added, error) { return Link(home, src, AddOptions{}) },
	} {
		_, err := op()
		if !errors.Is(err, ErrBuiltinName) || !strings.Contains(err.Error(), `"bi-test"`) {
			t.Fatalf("got %v", err)
		}
		if len(homeEntries(t, home)) != 0 {
			t.Fatalf("placed: %v", homeEntries(t, home))
		}
		if lock, _ := ReadLock(home); len(lock.Extensions) != 0 {
			t.Fatal("pinned")
		}
	}
}
