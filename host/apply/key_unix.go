//go:build unix

package apply

import (
	"io/fs"
	"os"
	"syscall"
)

func openNoFollow(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}

// keyModeTooOpen: group or others may read or write it, or it is not ours.
func keyModeTooOpen(st fs.FileInfo) bool {
	if st.Mode().Perm()&0o077 != 0 {
		return true
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) != os.Geteuid()
}
