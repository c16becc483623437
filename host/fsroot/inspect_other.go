//go:build !linux

package fsroot

import "runtime"

// Inspect: only Linux is inspected (statfs's f_type against a table of
// known filesystems). Here nothing is conclusive: the caller observes the
// filesystem with Probe, or assumes the strictest relation.
func Inspect(*Dir) Inspection {
	return Inspection{FS: runtime.GOOS, Why: "the filesystem is identified without writing on Linux only"}
}
