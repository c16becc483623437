//go:build unix

package apply

import (
	"io/fs"
	"syscall"

	"github.com/lola-pm/lola/host/fsroot"
)

// sameFile: the opened file is the entry resolution observed.
func sameFile(fi fs.FileInfo, e fsroot.Entry) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && uint64(st.Ino) == e.Ino && uint64(st.Dev) == e.Dev
}
