package fsroottest

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// What fn mounts is seen inside and not outside: the file written on a
// tmpfs mounted in fn is absent from the directory once fn has returned
// (the test goroutine's namespace never had the mount).
func TestInPrivateMountsIsolates(t *testing.T) {
	dir := t.TempDir()
	var inside bool
	InPrivateMounts(t, func() string {
		if err := unix.Mount("tmpfs", dir, "tmpfs", 0, ""); err != nil {
			return "cannot mount a tmpfs: " + err.Error()
		}
		if err := os.WriteFile(filepath.Join(dir, "on-tmpfs"), nil, 0o644); err != nil {
			t.Error(err)
			return ""
		}
		_, err := os.Stat(filepath.Join(dir, "on-tmpfs"))
		inside = err == nil
		return ""
	})
	if !inside {
		t.Fatal("the file written on the mount is not seen inside")
	}
	if _, err := os.Stat(filepath.Join(dir, "on-tmpfs")); err == nil {
		t.Fatal("a mount made in the private namespace is seen outside it")
	}
}

// A reason fn returns skips the test.
func TestInPrivateMountsSkips(t *testing.T) {
	var sub *testing.T
	t.Run("fn skips", func(t *testing.T) {
		sub = t
		InPrivateMounts(t, func() string { return "not here" })
	})
	if !sub.Skipped() {
		t.Fatal("the reason fn returned did not skip the test")
	}
}
