//go:build unix

package apply

import (
	"os"
	"syscall"
)

func inoOf(fi os.FileInfo) uint64 { return uint64(fi.Sys().(*syscall.Stat_t).Ino) }
