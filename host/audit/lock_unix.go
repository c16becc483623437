//go:build unix

package audit

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/host/internal/errpath"
)

// lockFile takes an exclusive flock on f, blocking. flock locks belong to
// the open file description, so two Logs on one file exclude each other
// even within one process, and separate processes always do.
func lockFile(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			return err
		}
	}
}

// lockFileShared takes a shared flock on f, blocking: readers see no
// half-written record.
func lockFileShared(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_SH)
		if err != unix.EINTR {
			return err
		}
	}
}

func unlockFile(f *os.File) { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN) }

// tightenMode makes an existing log owner-only: the log is private to the
// user whatever umask or earlier tool created it.
func tightenMode(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("audit: stat log: %w", errpath.Strip(err))
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("audit: the log is not a regular file")
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return fmt.Errorf("audit: restrict log permissions: %w", errpath.Strip(err))
		}
	}
	return nil
}

// syncDir makes the log's directory entry durable (best effort: the record
// fsync is what callers rely on).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = durable.File(d)
		d.Close()
	}
}
