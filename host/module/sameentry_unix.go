//go:build unix

package module

import (
	"io/fs"
	"syscall"

	"github.com/lola-pm/lola/host/fsroot"
)

// sameEntry reports whether the opened file is the entry the listing saw
// (same device and inode).
func sameEntry(seen fsroot.Entry, opened fs.FileInfo) bool {
	st, ok := opened.Sys().(*syscall.Stat_t)
	return ok && uint64(st.Ino) == seen.Ino && uint64(st.Dev) == seen.Dev
}
