//go:build unix

package fsroot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/fsroot/fsroottest"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

type comps []string

func (c comps) Components() []string { return c }

func p(s string) comps { return comps(strings.Split(s, "/")) }

// hostileTree builds a root with an outside directory next to it and the
// classic attacks in it, and returns the root's name and the outside's.
func hostileTree(t *testing.T) (string, string) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside, filepath.Join(root, "real", "sub"), filepath.Join(root, "a")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(root, "file"), []byte("f"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "real", "f"), []byte("f"), 0o644))
	must(t, os.Symlink(outside, filepath.Join(root, "out-abs")))
	must(t, os.Symlink("../outside", filepath.Join(root, "out-rel")))
	must(t, os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "in-abs")))
	must(t, os.Symlink("real", filepath.Join(root, "in-rel")))
	must(t, os.Symlink("real/f", filepath.Join(root, "in-file")))
	// Escapes only on the second resolution: a/hop points at a link that
	// itself climbs out.
	must(t, os.Symlink("../out-rel", filepath.Join(root, "a", "hop")))
	must(t, os.Symlink("sub/../../..", filepath.Join(root, "real", "climb")))
	return root, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantRule(t *testing.T, err error, rule schema.Rule) {
	t.Helper()
	if err == nil {
		t.Fatalf("resolved; want %s", rule)
	}
	if !errors.Is(err, rejection.Rule(rule)) {
		t.Fatalf("error %q; want rule %s", err, rule)
	}
	if strings.Contains(err.Error(), "/tmp") || strings.Contains(err.Error(), os.TempDir()) {
		t.Fatalf("diagnostic carries a host path: %q", err)
	}
}

var hostileCases = []struct {
	path string
	rule schema.Rule
}{
	{"../outside/x", schema.RulePathTraversal},
	{"real/../../outside/x", schema.RulePathTraversal},
	{"/etc/passwd", schema.RulePathAbsolute},
	{"out-abs/x", schema.RulePathSymlink},
	{"out-rel/x", schema.RulePathSymlink},
	{"in-abs/f", schema.RulePathSymlink},
	{"in-rel/f", schema.RulePathSymlink},
	{"in-rel/sub/new", schema.RulePathSymlink},
	{"in-file", schema.RulePathSymlink}, // symlink as final component
	{"out-abs", schema.RulePathSymlink}, // final, pointing outside
	{"a/hop/x", schema.RulePathSymlink}, // escapes on the second resolution
	{"real/climb/x", schema.RulePathSymlink},
	{"file/x", schema.RulePathNotDirectory},
	{"real/f/x/y", schema.RulePathNotDirectory},
}

func forEachResolution(t *testing.T, f func(t *testing.T)) {
	t.Run("openat2", f)
	t.Run("walk", func(t *testing.T) {
		forceWalk(t)
		f(t)
	})
}

func TestResolveRefusesHostilePaths(t *testing.T) {
	forEachResolution(t, func(t *testing.T) {
		root, outside := hostileTree(t)
		r, err := Open(root)
		must(t, err)
		defer r.Close()
		for _, c := range hostileCases {
			t.Run(c.path, func(t *testing.T) {
				rs := r.NewResolver()
				defer rs.Close()
				_, err := rs.Resolve(p(c.path), 0)
				wantRule(t, err, c.rule)
				// Refusal is also where an excused path's prefix is checked.
				if n := len(p(c.path)); n > 1 {
					// A non-directory is what a delete excuses; every
					// other refusal stands, under the same rule.
					_, err = rs.Resolve(p(c.path), n-1)
					if c.rule != schema.RulePathNotDirectory {
						wantRule(t, err, c.rule)
					}
				}
			})
		}
		ents, _ := os.ReadDir(outside)
		if len(ents) != 0 {
			t.Fatalf("outside changed: %v", ents)
		}
	})
}

func TestResolveAccepts(t *testing.T) {
	forEachResolution(t, func(t *testing.T) {
		root, _ := hostileTree(t)
		r, err := Open(root)
		must(t, err)
		defer r.Close()
		rs := r.NewResolver()
		defer rs.Close()

		res, err := rs.Resolve(p("real/sub/new/deeper/f.txt"), 0)
		must(t, err)
		if got := strings.Join(res.Create(), "/"); got != "new/deeper" || res.Base().Rel() != "real/sub" || res.Name() != "f.txt" {
			t.Fatalf("base %q create %q name %q", res.Base().Rel(), got, res.Name())
		}
		res, err = rs.Resolve(p("real/f"), 0)
		must(t, err)
		if res.Entry().Kind != KindFile || len(res.Create()) != 0 {
			t.Fatalf("entry %v create %v", res.Entry().Kind, res.Create())
		}
		// Two-part validation: file used as a directory beneath a delete
		// of that file is fine; the deleted path and what lies beneath are
		// created by the host.
		res, err = rs.Resolve(p("file/x/y"), 1)
		must(t, err)
		if got := strings.Join(res.Create(), "/"); got != "file/x" || res.Base().Rel() != "." || !res.AfterDelete() {
			t.Fatalf("excused: base %q create %q", res.Base().Rel(), got)
		}
		res, err = rs.Resolve(p("real/f"), 2)
		must(t, err)
		if res.Entry().Exists() || len(res.Create()) != 0 || !res.AfterDelete() {
			t.Fatalf("excused at its own delete: %+v", res)
		}
		// But the prefix of an excused path still resolves against the
		// pre-plan tree.
		_, err = rs.Resolve(p("in-rel/f/x"), 2)
		wantRule(t, err, schema.RulePathSymlink)
		_, err = rs.Resolve(p("in-rel"), 1)
		wantRule(t, err, schema.RulePathSymlink)
	})
}

// TestResolveRefusesBindMount mounts a directory beneath the root inside a
// private mount namespace owned by this test's thread.
func TestResolveRefusesBindMount(t *testing.T) {
	forEachResolution(t, func(t *testing.T) {
		root, outside := hostileTree(t)
		must(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644))
		must(t, os.MkdirAll(filepath.Join(root, "mnt"), 0o755))
		must(t, os.WriteFile(filepath.Join(root, "mfile"), nil, 0o644))
		fsroottest.InPrivateMounts(t, func() string {
			if reason := bindMounts(outside, filepath.Join(root, "mnt"), filepath.Join(outside, "secret"), filepath.Join(root, "mfile")); reason != "" {
				return reason
			}
			r, err := Open(root)
			if err != nil {
				t.Error(err)
				return ""
			}
			defer r.Close()
			for _, path := range []string{"mnt/secret", "mnt/new/x", "mnt", "mfile"} {
				rs := r.NewResolver()
				_, err := rs.Resolve(p(path), 0)
				rs.Close()
				if !errors.Is(err, rejection.Rule(schema.RulePathCrossDevice)) {
					t.Errorf("%s: %v; want %s", path, err, schema.RulePathCrossDevice)
				}
			}
			return ""
		})
	})
}
