//go:build unix

package apply

import (
	"errors"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// Two sessions on one root never interleave: while one holds the root, the
// lock cannot be taken (probed without blocking), and a second Begin
// completes only after the first Close. The lock is the root directory's
// own: no lock file appears anywhere beneath the root.
func TestLockSerializes(t *testing.T) {
	root := t.TempDir()
	s1, err := Begin(openRoot(t, root), Options{Key: testKey})
	must(t, err)
	f, err := os.Open(root)
	must(t, err)
	if names, err := f.Readdirnames(-1); err != nil || len(names) != 0 {
		t.Fatalf("the session created %v in the root (%v)", names, err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); !errors.Is(err, unix.EWOULDBLOCK) {
		t.Fatalf("lock free while a session holds the root: %v", err)
	}
	began := make(chan error)
	go func() {
		s2, err := Begin(openRoot(t, root), Options{Key: testKey})
		if err == nil {
			s2.Close()
		}
		began <- err
	}()
	must(t, s1.Close())
	must(t, <-began)
	must(t, unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB))
}
