//go:build unix && !linux

package fsroot

import "testing"

func privateBindMount(srcDir, dstDir, srcFile, dstFile string) string {
	return "bind mounts in a private namespace are a Linux test; macOS has no per-thread mount namespace"
}

// forceWalk: the walk is the only resolution here.
func forceWalk(t *testing.T) {}
