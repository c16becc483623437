//go:build linux

package child

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// CgroupSubtree exposes the discovered delegated cgroup v2 directory, or
// why there is none, to the tests.
func CgroupSubtree() (string, error) { return cgroupSubtree() }

// IsSubreaper reports whether the test process is a child subreaper now.
func IsSubreaper() bool {
	var v int32
	_ = unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0)
	return v != 0
}

// afterForcedContainment undoes the process-wide side effect of a forced
// subreaper, so that the tests that follow see the machine's own choice
// (orphans going to init again) rather than a leftover of an earlier test.
func afterForcedContainment(c Containment) {
	if c != ContainmentSubreaper {
		return
	}
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	reaper.once = sync.Once{}
	reaper.err = nil
}
