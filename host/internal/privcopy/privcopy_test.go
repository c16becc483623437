package privcopy

import (
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The copy is private (directory 0700, file 0600 or 0700), holds the
// bytes with their digest; a source over the bound fails with ErrTooLarge
// and leaves no directory behind.
func TestWriteIsPrivateAndBounded(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, exec := range []bool{false, true} {
		c, err := Write(strings.NewReader("body"), "../m.wasm", exec, 4)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(c.Path)
		di, _ := os.Stat(filepath.Dir(c.Path))
		want := os.FileMode(0o600)
		if exec {
			want = 0o700
		}
		b, _ := os.ReadFile(c.Path)
		if fi.Mode().Perm() != want || di.Mode().Perm() != 0o700 || string(b) != "body" || c.Sum != sha256.Sum256(b) || filepath.Base(c.Path) != "m.wasm" {
			t.Fatalf("exec %v: file %v dir %v body %q", exec, fi.Mode(), di.Mode(), b)
		}
		c.Cleanup()
	}
	if _, err := Write(strings.NewReader("bodyx"), "m", false, 4); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the bound: %v", err)
	}
	if left, _ := os.ReadDir(os.Getenv("TMPDIR")); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}
