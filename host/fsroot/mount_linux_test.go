package fsroot

import (
	"testing"

	"golang.org/x/sys/unix"
)

// bindMounts bind-mounts srcDir on dstDir and srcFile on dstFile, on a
// thread fsroottest.InPrivateMounts gave a mount namespace of its own. It
// returns a skip reason when the machine does not permit it.
func bindMounts(srcDir, dstDir, srcFile, dstFile string) string {
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
