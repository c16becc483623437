package fsroot

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// privateBindMount gives the calling thread a private mount namespace and
// bind-mounts srcDir on dstDir and srcFile on dstFile there. It returns a
// skip reason when the machine does not permit it.
func privateBindMount(srcDir, dstDir, srcFile, dstFile string) string {
	runtime.LockOSThread()
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return "unshare(CLONE_NEWNS) not permitted: " + err.Error()
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return "making / private not permitted: " + err.Error()
	}
	if err := unix.Mount(srcDir, dstDir, "", unix.MS_BIND, ""); err != nil {
		return "bind mount not permitted: " + err.Error()
	}
	if err := unix.Mount(srcFile, dstFile, "", unix.MS_BIND, ""); err != nil {
		return "file bind mount not permitted: " + err.Error()
	}
	return ""
}

func forceWalk(t *testing.T) {
	noOpenat2.Store(true)
	t.Cleanup(func() { noOpenat2.Store(false) })
}
