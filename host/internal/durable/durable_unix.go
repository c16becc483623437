//go:build unix

package durable

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Fd flushes the file or directory open as fd (fsync).
func Fd(fd int) error {
	calls.Add(1)
	return unix.Fsync(fd)
}

// DeviceOf is the filesystem f lies on (st_dev); the zero Device when it
// cannot be stat'ed.
func DeviceOf(f *os.File) Device {
	fi, err := f.Stat()
	if err != nil {
		return Device{}
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Device{}
	}
	return Device{dev: uint64(st.Dev), known: true}
}

// DeviceOfFd is DeviceOf for a raw descriptor.
func DeviceOfFd(fd int) Device {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return Device{}
	}
	return Device{dev: uint64(st.Dev), known: true}
}
