// Package privcopy writes a private copy of a program for a child that
// takes it by path (the tier-1 shim, a tier-2 exec): a fresh directory
// only this user can use (0700), the file created exclusively in it (0600,
// 0700 for an executable), its sha256 taken from the bytes as they were
// copied, never read back. host/pipeline (a pinned artifact) and
// host/extension (a built-in embedded in lola) share it.
//
// Non-guarantee: a process of the same user can still replace the file
// after Write returns; callers hold the run to Sum (the shim reports the
// digest of what it read) or compare it before exec.
package privcopy

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Copy is one private copy. Cleanup removes its directory.
type Copy struct {
	Path    string
	Sum     [sha256.Size]byte
	Cleanup func()
}

// ErrTooLarge is returned when src holds more than max bytes.
var ErrTooLarge = errors.New("privcopy: the source exceeds its bound")

// Write copies at most max bytes of src into a new private file named
// name. Anything past max fails with ErrTooLarge, nothing left behind.
func Write(src io.Reader, name string, executable bool, max int64) (Copy, error) {
	dir, err := os.MkdirTemp("", "lola-private-")
	if err != nil {
		return Copy{}, errors.New("privcopy: cannot create a private directory")
	}
	cleanup := func() { os.RemoveAll(dir) }
	mode := os.FileMode(0o600)
	if executable {
		mode = 0o700
	}
	path := filepath.Join(dir, filepath.Base(name))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		cleanup()
		return Copy{}, errors.New("privcopy: cannot create the copy")
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(src, max+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		cleanup()
		return Copy{}, fmt.Errorf("privcopy: the copy failed: %w", err)
	case n > max:
		cleanup()
		return Copy{}, ErrTooLarge
	}
	c := Copy{Path: path, Cleanup: cleanup}
	h.Sum(c.Sum[:0])
	return c, nil
}
