//go:build unix

package apply

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// Two sessions on one root never interleave: while one holds the root, the
// lock cannot be taken (probed without blocking), and a second Begin
// completes only after the first Close.
func TestLockSerializes(t *testing.T) {
	root := t.TempDir()
	s1, err := Begin(openRoot(t, root), Options{})
	must(t, err)
	f, err := os.OpenFile(filepath.Join(root, LockName), os.O_RDWR, 0)
	must(t, err)
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); !errors.Is(err, unix.EWOULDBLOCK) {
		t.Fatalf("lock free while a session holds the root: %v", err)
	}
	began := make(chan error)
	go func() {
		s2, err := Begin(openRoot(t, root), Options{})
		if err == nil {
			s2.Close()
		}
		began <- err
	}()
	must(t, s1.Close())
	must(t, <-began)
	must(t, unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB))
}
