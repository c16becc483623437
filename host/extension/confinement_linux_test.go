//go:build linux

package extension

import (
	"slices"
	"testing"

	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/audit"
)

// TestProbeMatchesTheKernel compares the probe with the kernel's own answer
// and checks the probe installed nothing (a second probe agrees, and this
// process can still do what a seccomp filter would refuse).
func TestProbeMatchesTheKernel(t *testing.T) {
	before, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	if err != nil {
		before = -1
	}
	c := ProbeConfinement()
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil {
		abi = 0
	}
	if c.LandlockABI != abi {
		t.Fatalf("probe says landlock ABI %d, kernel %d", c.LandlockABI, abi)
	}
	for _, l := range []audit.Layer{audit.LayerWazero, audit.LayerMemoryLimit, audit.LayerClock} {
		if !slices.Contains(c.Layers, l) {
			t.Fatalf("layer %s missing from %v", l, c.Layers)
		}
	}
	if slices.Contains(c.Layers, audit.LayerLandlockFS) != (abi >= 1) || slices.Contains(c.Layers, audit.LayerLandlockNet) != (abi >= 4) {
		t.Fatalf("landlock layers %v disagree with ABI %d", c.Layers, abi)
	}
	if slices.Contains(c.Layers, audit.LayerSeccomp) != c.Seccomp {
		t.Fatalf("seccomp %v but layers %v", c.Seccomp, c.Layers)
	}
	for _, l := range c.Layers {
		if _, err := audit.ParseLayer(l.String()); err != nil {
			t.Fatalf("layer %q outside audit's vocabulary", l)
		}
	}
	if again := ProbeConfinement(); again.Seccomp != c.Seccomp || !slices.Equal(again.Layers, c.Layers) {
		t.Fatalf("second probe differs: %+v vs %+v", again, c)
	}
	after, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	if err != nil {
		after = -1
	}
	if after != before {
		t.Fatalf("the probe changed this process's seccomp mode from %d to %d", before, after)
	}
}
