//go:build unix

package filelock

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockExclusive takes an exclusive flock on f, blocking (retried on EINTR).
func lockExclusive(f *os.File) error {
	for {
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != unix.EINTR {
			return err
		}
	}
}

func unlock(f *os.File) { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN) }
