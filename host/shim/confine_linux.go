//go:build linux

package shim

import (
	"fmt"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// confine is step 2 on Linux: Landlock with no filesystem access at all (no
// rule grants anything), TCP bind and connect denied where the kernel's ABI
// offers it (v4+), IPC scoping where offered (v6+), then the seccomp filter.
// Landlock is applied best-effort up to the newest ABI go-landlock knows and
// the level the kernel achieved is reported; a kernel without Landlock runs
// with seccomp alone and says so. An error means the process may be
// partially confined and the shim must not run the module.
func confine(k testKnobs) (Confinement, error) {
	c := Confinement{OS: "linux"}
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		abi = 0
		c.Note = "landlock is not available on this kernel"
	}
	c.LandlockABI = abi
	if abi >= 1 {
		// V11 names every right go-landlock knows; BestEffort trims it to
		// what this kernel enforces. No rules: nothing is allowed.
		if err := landlock.V11.BestEffort().Restrict(); err != nil {
			return c, fmt.Errorf("landlock: %w", err)
		}
		c.LandlockFS = true
		c.LandlockTCP = abi >= 4
	}
	if k.landlockOnly {
		return c, nil
	}
	ok, err := installSeccomp()
	if err != nil {
		return c, fmt.Errorf("seccomp: %w", err)
	}
	c.Seccomp = ok
	if !ok {
		c.Note = joinNote(c.Note, "no seccomp filter for this architecture")
	}
	return c, nil
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
