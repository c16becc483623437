//go:build unix

package apply

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The key is made once, 0600, and read back the same; a key others could
// read or write (so could forge journals with), a symlink, or one of the
// wrong size is refused.
func TestLoadKey(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	k1, err := LoadKey(home)
	must(t, err)
	fi, err := os.Stat(filepath.Join(home, KeyName))
	must(t, err)
	if fi.Mode().Perm() != 0o600 || len(k1) != keySize {
		t.Fatalf("key file %v, %d bytes", fi.Mode(), len(k1))
	}
	k2, err := LoadKey(home)
	must(t, err)
	if !bytes.Equal(k1, k2) {
		t.Fatal("a second load drew another key")
	}
	must(t, os.Chmod(filepath.Join(home, KeyName), 0o644))
	if _, err := LoadKey(home); !errors.Is(err, ErrKey) {
		t.Fatalf("a world-readable key was accepted: %v", err)
	}
	other := t.TempDir()
	must(t, os.WriteFile(filepath.Join(other, "k"), k1, 0o600))
	h2 := t.TempDir()
	must(t, os.Symlink(filepath.Join(other, "k"), filepath.Join(h2, KeyName)))
	if _, err := LoadKey(h2); err == nil {
		t.Fatal("a symlinked key was accepted")
	}
	h3 := t.TempDir()
	must(t, os.WriteFile(filepath.Join(h3, KeyName), []byte("short"), 0o600))
	if _, err := LoadKey(h3); !errors.Is(err, ErrKey) {
		t.Fatalf("a short key was accepted: %v", err)
	}
}
