package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// decode builds a validated plan from its JSON, under the byte relation.
func decode(t testing.TB, js string) (*plan.Plan, *pathrule.Validated) {
	t.Helper()
	p, err := plan.Decode(strings.NewReader(js), plan.DefaultLimits())
	must(t, err)
	v, err := pathrule.Validate(p, pathrule.Bytes)
	must(t, err)
	return p, v
}

// tree writes a fixture: "name" -> content for files, "name/" for
// directories, "name@" -> target for symlinks, "name*" executable.
func tree(t testing.TB, root string, spec map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(spec))
	for k := range spec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := spec[k]
		switch {
		case strings.HasSuffix(k, "/"):
			must(t, os.MkdirAll(filepath.Join(root, k), 0o755))
		case strings.HasSuffix(k, "@"):
			must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, k)), 0o755))
			must(t, os.Symlink(v, filepath.Join(root, strings.TrimSuffix(k, "@"))))
		default:
			mode := os.FileMode(0o644)
			if strings.HasSuffix(k, "*") {
				k, mode = strings.TrimSuffix(k, "*"), 0o755
			}
			must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, k)), 0o755))
			must(t, os.WriteFile(filepath.Join(root, k), []byte(v), mode))
			must(t, os.Chmod(filepath.Join(root, k), mode))
		}
	}
}

// snapshot renders a tree's names, types, modes and contents, one line
// each, sorted; the lock file is the host's and left out, staging is not.
func snapshot(t testing.TB, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." || rel == LockName {
			return nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", filepath.ToSlash(rel), info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %q", b)
		}
		lines = append(lines, line)
		return nil
	})
	must(t, err)
	return strings.Join(lines, "\n")
}

func openRoot(t testing.TB, dir string) *fsroot.Root {
	t.Helper()
	r, err := fsroot.Open(dir)
	must(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}

func wantRule(t testing.TB, err error, rule schema.Rule) {
	t.Helper()
	if !errors.Is(err, rejection.Rule(rule)) {
		t.Fatalf("error %v; want rule %s", err, rule)
	}
}

func diffLines(a, b string) string {
	return "--- want\n" + a + "\n--- got\n" + b
}

func noStaging(t testing.TB, root string) {
	t.Helper()
	ents, err := os.ReadDir(root)
	must(t, err)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), StagingPrefix) {
			t.Fatalf("staging %s left behind", e.Name())
		}
	}
}

func openRootErr(dir string) (*fsroot.Root, error) { return fsroot.Open(dir) }

// testKey is the journal key every test session and recovery shares, as
// the processes of one host share the key in $LOLA_HOME.
var testKey = []byte("lola apply test journal key 32by")
