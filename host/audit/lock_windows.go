//go:build windows

package audit

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"

	"github.com/lola-pm/lola/host/internal/errpath"
)

// lockFile takes an exclusive LockFileEx lock on the whole of f, blocking.
func lockFile(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, ^uint32(0), ^uint32(0), ol)
}

// lockFileShared takes a shared LockFileEx lock on the whole of f: readers
// see no half-written record.
func lockFileShared(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), 0, 0, ^uint32(0), ^uint32(0), ol)
}

func unlockFile(f *os.File) {
	ol := new(windows.Overlapped)
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, ^uint32(0), ^uint32(0), ol)
}

// tightenMode checks that the log is a regular file. Windows access control
// is by ACL, inherited from the user's profile directory; modes do not apply.
func tightenMode(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("audit: stat log: %w", errpath.Strip(err))
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("audit: the log is not a regular file")
	}
	return nil
}

// syncDir is a no-op: directories cannot be opened for flushing on Windows.
func syncDir(string) {}
