//go:build unix

package fsroot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteNewFileModeExactUnderUmask: the staged file's mode is the
// mode asked for even when the umask takes bits away (the fchmod that
// WriteNewFile skips when the creation mode is already right must happen
// here), and the identity returned is the file's on disk.
func TestWriteNewFileModeExactUnderUmask(t *testing.T) {
	dir := t.TempDir()
	r, err := Open(dir)
	must(t, err)
	defer r.Close()
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	for name, perm := range map[string]fs.FileMode{"x": 0o755, "r": 0o644} {
		e, err := r.Dir().WriteNewFile(name, perm, []byte("body "+name), false)
		must(t, err)
		st, err := os.Lstat(filepath.Join(dir, name))
		must(t, err)
		if st.Mode().Perm() != perm {
			t.Fatalf("%s: mode %v, want %v", name, st.Mode().Perm(), perm)
		}
		got, err := r.Dir().Lstat(name)
		must(t, err)
		if !e.Same(got) || e.Kind != KindFile || e.Mode.Perm() != perm {
			t.Fatalf("%s: returned %+v, on disk %+v", name, e, got)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		must(t, err)
		if string(b) != "body "+name {
			t.Fatalf("%s: content %q", name, b)
		}
	}
}

// TestWriteNewFileRefusesExistingAndSymlink: the create is exclusive and
// follows nothing: a file or a symlink planted at the name stays as it
// was, and the symlink's target is not written.
func TestWriteNewFileRefusesExistingAndSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "target")
	must(t, os.WriteFile(target, []byte("theirs"), 0o644))
	must(t, os.Symlink(target, filepath.Join(dir, "link")))
	must(t, os.WriteFile(filepath.Join(dir, "file"), []byte("mine"), 0o600))
	r, err := Open(dir)
	must(t, err)
	defer r.Close()
	for _, name := range []string{"link", "file"} {
		if _, err := r.Dir().WriteNewFile(name, 0o644, []byte("x"), true); !errors.Is(err, fs.ErrExist) {
			t.Fatalf("%s: err %v, want exists", name, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "theirs" {
		t.Fatalf("symlink target written: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "file")); string(b) != "mine" {
		t.Fatalf("existing file written: %q", b)
	}
}
