//go:build !linux

package shim

import "runtime"

// confine is step 2 where the OS offers no unprivileged confinement the shim
// uses: a no-op that says so. The guarantee rests on wazero (no preopens, no
// environment, no argv, no sockets).
func confine(testKnobs) (Confinement, error) {
	return Confinement{OS: runtime.GOOS, Note: "no OS confinement on " + runtime.GOOS + ": the guarantee rests on wazero"}, nil
}
