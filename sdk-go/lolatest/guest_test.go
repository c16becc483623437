package lolatest

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckGuestRefusesALeak: an extension importing lolatest from a
// non-test file (testdata/leaky) is refused, natively by its module list
// and in either build by lolatest's own symbols; so the pass that the
// fixture's TierParity gets is not a check that cannot fail.
func TestCheckGuestRefusesALeak(t *testing.T) {
	dir := t.TempDir()
	native := filepath.Join(dir, "leaky")
	if err := goBuild(native, nil, "-trimpath", "-ldflags=-s -w", "./testdata/leaky"); err != nil {
		t.Fatal(err)
	}
	err := guestLeaks(native, "")
	if err == nil || !strings.Contains(err.Error(), "wazero") {
		t.Fatalf("a native build importing lolatest passed: %v", err)
	}
	if err := guestLeaks("", native); err == nil || !strings.Contains(err.Error(), "non-test file") {
		t.Fatalf("lolatest's symbols went unnoticed: %v", err)
	}
}

// TestCheckGuestPassesTheFixture: lolatest's fixture, whose tests import
// lolatest, builds both ways without it.
func TestCheckGuestPassesTheFixture(t *testing.T) {
	native, wasm := Build(t, "./internal/fixture")
	if err := guestLeaks(native, wasm); err != nil {
		t.Fatal(err)
	}
}
