//go:build unix

package shim

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

func ownedByMe(st fs.FileInfo) error {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if int(s.Uid) != os.Geteuid() {
		return errors.New("cache directory is owned by another user")
	}
	return nil
}
