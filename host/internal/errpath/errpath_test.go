package errpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The path is gone from the message; the operation and the cause stay,
// and errors.Is still sees the cause.
func TestStripRemovesThePath(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "home-of-someone")
	_, openErr := os.Open(filepath.Join(secret, "missing"))
	linkErr := os.Rename(filepath.Join(secret, "a"), filepath.Join(secret, "b"))
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"path error", openErr, "open: "},
		{"wrapped path error", fmt.Errorf("reading %s: %w", secret, openErr), "open: "},
		{"link error", linkErr, "rename: "},
		{"synthetic", &fs.PathError{Op: "stat", Path: secret, Err: syscall.ENOENT}, "stat: "},
	} {
		got := Strip(tc.err)
		if strings.Contains(got.Error(), secret) || strings.Contains(got.Error(), "home-of-someone") {
			t.Errorf("%s: %q still names the path", tc.name, got)
		}
		if !strings.HasPrefix(got.Error(), tc.want) {
			t.Errorf("%s: %q, want the operation %q first", tc.name, got, tc.want)
		}
		if !errors.Is(got, fs.ErrNotExist) {
			t.Errorf("%s: %q no longer is fs.ErrNotExist", tc.name, got)
		}
	}
}

func TestStripLeavesOtherErrors(t *testing.T) {
	if Strip(nil) != nil {
		t.Fatal("nil became an error")
	}
	plain := errors.New("no path here")
	if Strip(plain) != plain {
		t.Fatal("an error without a path was changed")
	}
}
