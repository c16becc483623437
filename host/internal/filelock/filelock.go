// Package filelock serialises read-modify-write cycles of one of lola's
// state files ($LOLA_HOME/installed.yml, $LOLA_HOME/extensions.lock)
// across lola processes, with an advisory lock on a sibling lock file.
//
// Guarantees: while fn runs, no other caller of WithExclusive on the same
// path (in this or another process on the same machine) runs; the lock is
// released when fn returns, panics, or the process dies. Non-guarantees:
// the lock is advisory, so a process that writes the state file without
// it is not held off; it is not meant for network file systems; the lock
// file itself stays (it is empty and mode 0600).
package filelock

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/internal/errpath"
)

// Acquire takes an exclusive lock on path, creating path (mode 0600) if
// it does not exist, and returns the func that releases it. A lock that
// cannot be taken is an error naming only the file's base name.
func Acquire(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", filepath.Base(path), errpath.Strip(err))
	}
	if err := lockExclusive(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", filepath.Base(path), errpath.Strip(err))
	}
	return func() { unlock(f); f.Close() }, nil
}

// WithExclusive runs fn while holding Acquire's lock on path; fn does not
// run when the lock cannot be taken.
func WithExclusive(path string, fn func() error) error {
	release, err := Acquire(path)
	if err != nil {
		return err
	}
	defer release()
	return fn()
}
