//go:build unix

package fsroot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// TestReadlinkReadsTheLinkItself: Readlink returns a link's own target
// text, relative or absolute, without following it (a link to a link
// reads the first), refuses a name that is not a link, and reads through
// the directory's descriptor: renaming the root away afterwards changes
// nothing.
func TestReadlinkReadsTheLinkItself(t *testing.T) {
	root, outside := hostileTree(t)
	r, err := Open(root)
	must(t, err)
	defer r.Close()
	moved := root + ".moved"
	must(t, os.Rename(root, moved))
	for name, want := range map[string]string{"out-abs": outside, "out-rel": "../outside", "in-rel": "real"} {
		got, err := r.Dir().Readlink(name)
		if err != nil || got != want {
			t.Errorf("Readlink(%s) = %q, %v; want %q", name, got, err, want)
		}
	}
	a, err := r.Dir().OpenDir("a")
	must(t, err)
	defer a.Close()
	if got, err := a.Readlink("hop"); err != nil || got != "../out-rel" {
		t.Errorf("a/hop: %q, %v", got, err)
	}
	if _, err := r.Dir().Readlink("file"); err == nil {
		t.Error("Readlink of a regular file succeeded")
	}
	long := strings.Repeat("x/", 2000) + "y" // 4001 bytes: Linux's longest is 4095
	must(t, os.Symlink(long, filepath.Join(moved, "long")))
	if got, err := r.Dir().Readlink("long"); err != nil || got != long {
		t.Errorf("a 4001-byte target: %d bytes, %v", len(got), err)
	}
}

// TestOpenDirPathRefusesLinksOnTheWay: OpenDirPath opens a nested
// directory beneath the root and refuses a path through any symbolic
// link, even one that stays inside, as every plan path is resolved.
func TestOpenDirPathRefusesLinksOnTheWay(t *testing.T) {
	forEachResolution(t, func(t *testing.T) {
		root, _ := hostileTree(t)
		r, err := Open(root)
		must(t, err)
		defer r.Close()
		sub, err := r.Dir().OpenDirPath([]string{"real", "sub"})
		must(t, err)
		if sub.Rel() != "real/sub" {
			t.Errorf("Rel %q", sub.Rel())
		}
		sub.Close()
		for _, c := range [][]string{{"in-rel", "sub"}, {"out-rel"}, {"real", "climb"}} {
			_, err := r.Dir().OpenDirPath(c)
			wantRule(t, err, schema.RulePathSymlink)
		}
		_, err = r.Dir().OpenDirPath([]string{"file"})
		wantRule(t, err, schema.RulePathNotDirectory)
		if _, err := r.Dir().OpenDirPath(nil); err == nil || errors.Is(err, os.ErrNotExist) {
			t.Errorf("empty path: %v", err)
		}
	})
}
