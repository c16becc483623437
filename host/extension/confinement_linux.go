//go:build linux

package extension

import (
	"errors"
	"runtime"
	"strings"

	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/audit"
)

// shimSeccompArchs are the architectures host/shim has a seccomp filter
// for (its seccomp_linux_<arch>.go files).
var shimSeccompArchs = []string{"amd64", "arm64"}

func probeConfinement() Confinement {
	c := Confinement{OS: runtime.GOOS, Layers: append([]audit.Layer(nil), tier1Base...)}
	var notes []string
	if abi, err := llsyscall.LandlockGetABIVersion(); err == nil && abi >= 1 {
		c.LandlockABI = abi
		c.Layers = append(c.Layers, audit.LayerLandlockFS)
		if abi >= 4 {
			c.Layers = append(c.Layers, audit.LayerLandlockNet)
		} else {
			notes = append(notes, "landlock ABI below 4: TCP is not restricted")
		}
	} else {
		notes = append(notes, "landlock is not available on this kernel")
	}
	kernel := seccompFilterSupported()
	arch := false
	for _, a := range shimSeccompArchs {
		arch = arch || a == runtime.GOARCH
	}
	switch {
	case !kernel:
		notes = append(notes, "the kernel does not offer seccomp filters")
	case !arch:
		notes = append(notes, "no seccomp filter for "+runtime.GOARCH)
	default:
		c.Seccomp = true
		c.Layers = append(c.Layers, audit.LayerSeccomp)
	}
	c.Note = strings.Join(notes, "; ")
	return c
}

// seccompFilterSupported asks the kernel: PR_GET_SECCOMP fails with EINVAL
// on a kernel built without seccomp; PR_SET_SECCOMP with a filter and a
// NULL program fails with EFAULT where filters are supported and EINVAL
// where they are not, installing nothing either way.
func seccompFilterSupported() bool {
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		return false
	}
	err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, 0, 0, 0)
	return errors.Is(err, unix.EFAULT)
}
