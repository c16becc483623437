//go:build unix && !linux

package fsroot

import "testing"

// bindMounts is never reached: fsroottest.InPrivateMounts skips first.
func bindMounts(srcDir, dstDir, srcFile, dstFile string) string {
	return "bind mounts are a Linux test"
}

// forceWalk: the walk is the only resolution here.
func forceWalk(t *testing.T) {}
