package install

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
)

// createdDirs lists the directories beneath root that applying p will
// create: the missing ancestors of every path p writes, renames to,
// fetches or clones into. They are recorded in installed.yml so that an
// uninstall can remove them again once they are empty, and so leave the
// tree exactly as it was. It only reads (through os.Root: a symlink out
// of root is not followed); paths that do not parse are skipped, since the
// pipeline refuses such a plan anyway.
func createdDirs(root string, p *plan.Plan) []string {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil
	}
	defer r.Close()
	seen := map[string]bool{}
	var out []string
	for _, in := range p.Intents() {
		var target string
		switch {
		case in.Write != nil:
			target = in.Write.Path
		case in.Rename != nil:
			target = in.Rename.To
		case in.Fetch != nil:
			target = in.Fetch.Dest
		case in.Clone != nil:
			target = in.Clone.Dest
		default:
			continue
		}
		pp, err := pathrule.Parse(target)
		if err != nil {
			continue
		}
		parts := pp.Components()
		for i := 1; i < len(parts); i++ {
			dir := strings.Join(parts[:i], "/")
			if seen[dir] {
				continue
			}
			seen[dir] = true
			if _, err := r.Lstat(filepath.FromSlash(dir)); errors.Is(err, fs.ErrNotExist) {
				out = append(out, dir)
			}
		}
	}
	sort.Strings(out)
	return out
}

// RemoveEmptyDirs removes, deepest first, each of dirs (root-relative)
// that is an empty directory now; anything else is left alone. It works
// through os.Root, so no symlink leads it out of root, and os.Root.Remove
// of a directory removes it only when empty. It returns those removed.
// host/reinstall uses it for the directories an old version created.
func RemoveEmptyDirs(root string, dirs []string) []string {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil
	}
	defer r.Close()
	sorted := append([]string(nil), dirs...)
	sort.Slice(sorted, func(i, j int) bool {
		if a, b := strings.Count(sorted[i], "/"), strings.Count(sorted[j], "/"); a != b {
			return a > b
		}
		return sorted[i] > sorted[j]
	})
	var removed []string
	for _, d := range sorted {
		if _, err := pathrule.Parse(d); err != nil {
			continue // installed.yml is input too
		}
		rel := filepath.FromSlash(d)
		fi, err := r.Lstat(rel)
		if err != nil || !fi.IsDir() {
			continue
		}
		f, err := r.Open(rel)
		if err != nil {
			continue
		}
		names, err := f.Readdirnames(1)
		f.Close()
		if len(names) > 0 || err == nil {
			continue
		}
		if r.Remove(rel) == nil {
			removed = append(removed, d)
		}
	}
	return removed
}
