package sibling

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A sibling is chosen only when it is a regular executable file: a
// symlink, a directory or a non-executable file there is not; neither is
// the executable itself.
func TestFindChoosesOnlyARegularExecutable(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "lola")
	sib := filepath.Join(dir, "helper")
	if runtime.GOOS == "windows" {
		sib += ".exe"
	}
	if _, ok := Find(exe, "helper"); ok {
		t.Fatal("no sibling, yet one was chosen")
	}
	if err := os.WriteFile(sib, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := Find(exe, "helper"); ok && runtime.GOOS != "windows" {
		t.Fatal("a non-executable sibling was chosen")
	}
	if err := os.Chmod(sib, 0o700); err != nil {
		t.Fatal(err)
	}
	if p, ok := Find(exe, "helper"); !ok || p != sib {
		t.Fatalf("the executable sibling was not chosen: %q %v", p, ok)
	}
	if runtime.GOOS != "windows" {
		os.Remove(sib)
		if err := os.Symlink("/bin/sh", sib); err != nil {
			t.Fatal(err)
		}
		if _, ok := Find(exe, "helper"); ok {
			t.Fatal("a symlinked sibling was chosen")
		}
		if err := os.Mkdir(filepath.Join(dir, "subdir"), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, ok := Find(exe, "subdir"); ok {
			t.Fatal("a directory was chosen")
		}
		if err := os.WriteFile(exe, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, ok := Find(exe, "lola"); ok {
			t.Fatal("the executable itself was chosen as its own sibling")
		}
	}
}
