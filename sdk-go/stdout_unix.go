//go:build (linux || darwin) && !wasip1

package lola

import (
	"os"
	"syscall"
)

// moveStdout dups fd 1 to a new close-on-exec descriptor, then makes fd 1
// a copy of fd 2; it returns the new descriptor as a file, or nil (nothing
// changed) when either step fails.
func moveStdout() *os.File {
	syscall.ForkLock.RLock()
	fd, err := syscall.Dup(1)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil
	}
	if err := dupOnto(2, 1); err != nil {
		syscall.Close(fd)
		return nil
	}
	return os.NewFile(uintptr(fd), "plan")
}
