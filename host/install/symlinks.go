package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
)

// Symlinks at managed paths. The path rules refuse a plan that writes
// through or onto a symbolic link (path.symlink), and that stays the
// default. With the user's consent (Options.ReplaceSymlinks, or
// Options.ConfirmSymlinks answering yes) an install replaces, before its
// plan runs, exactly the links found on the paths the plan writes: a link
// that is a parent of a written path becomes an empty real directory, a
// link at a written path is removed (the plan then writes the file). Each
// replacement is audited (override replace-symlink, with the old target)
// under the install's correlation id and recorded in installed.yml;
// uninstall puts each link back once the directory it became is empty
// again. If the plan does not commit, the links are put back at once.
//
// Non-guarantees: what the link pointed at is not copied; while the link
// is replaced the assistant no longer sees that content. A directory that
// still holds files at uninstall (another module's, the user's) is kept and
// the link is not restored; the report says so.

// Symlink is a symbolic link found on a path a plan writes.
type Symlink struct {
	Path   string `json:"path"`   // root-relative, slash form
	Target string `json:"target"` // the link's text
	// Parent is true when the plan writes beneath the link (a linked
	// directory), false when it writes the link's own path.
	Parent bool `json:"parent"`
	// Copy is true for a link at one of the target's managed files
	// (CLAUDE.md -> AGENTS.md, say): it is replaced by a regular file
	// holding a copy of what it pointed at, so the user's text stays where
	// the assistant reads it and the target merges its block into it. Only
	// a regular file inside the root is copied (never one outside it: that
	// could put a private file into the project); otherwise the link is
	// only removed.
	Copy bool `json:"copy,omitempty"`
}

// maxLinkCopy bounds the content copied in place of a managed file's link.
const maxLinkCopy = 1 << 20

// findSymlinks lists the symbolic links on the paths p writes, renames to,
// fetches or clones into (see linksOn).
func findSymlinks(root string, p *plan.Plan) []Symlink {
	var paths []string
	for _, in := range p.Intents() {
		switch {
		case in.Write != nil:
			paths = append(paths, in.Write.Path)
		case in.Rename != nil:
			paths = append(paths, in.Rename.To)
		case in.Fetch != nil:
			paths = append(paths, in.Fetch.Dest)
		case in.Clone != nil:
			paths = append(paths, in.Clone.Dest)
		}
	}
	return linksOn(root, paths, false)
}

// linksOn examines each path's components in order and reports the first
// symbolic link on each (nothing beyond a link is examined: it would be
// the link's target). copyFiles marks links at the paths themselves as to
// be replaced by a copy (managed files).
func linksOn(root string, paths []string, copyFiles bool) []Symlink {
	seen := map[string]int{}
	var out []Symlink
	for _, target := range paths {
		pp, err := pathrule.Parse(target)
		if err != nil {
			continue
		}
		parts := pp.Components()
		for i := 1; i <= len(parts); i++ {
			rel := strings.Join(parts[:i], "/")
			abs := filepath.Join(root, filepath.FromSlash(rel))
			fi, err := os.Lstat(abs)
			if err != nil {
				break
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				parent := i < len(parts)
				if k, ok := seen[rel]; ok {
					out[k].Parent = out[k].Parent || parent
					out[k].Copy = out[k].Copy && !parent
				} else {
					seen[rel] = len(out)
					t, _ := os.Readlink(abs)
					out = append(out, Symlink{Path: rel, Target: t, Parent: parent, Copy: copyFiles && !parent})
				}
				break
			}
			if !fi.IsDir() {
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// linkCopy is what a managed file's link is replaced by: the content of a
// regular file it resolves to inside root, or ok false.
func linkCopy(root, abs string) ([]byte, bool) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, false
	}
	dest, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, false
	}
	rel, err := filepath.Rel(realRoot, dest)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil, false
	}
	fi, err := os.Stat(dest)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxLinkCopy {
		return nil, false
	}
	b, err := os.ReadFile(dest)
	if err != nil || len(b) > maxLinkCopy {
		return nil, false
	}
	return b, true
}

// replaceSymlinks audits and replaces each link, and returns what it
// replaced (in order) for installed.yml and for undo. On an error the links
// already replaced are put back.
func replaceSymlinks(root string, log *audit.Log, c audit.Correlation, links []Symlink) ([]ReplacedLink, error) {
	var done []ReplacedLink
	for _, l := range links {
		if _, err := log.Override(c, audit.OverrideRecord{Action: audit.OverrideReplaceSymlink, Paths: []string{l.Path}, LinkTarget: l.Target}); err != nil {
			restoreSymlinks(root, nil, c, done)
			return nil, fmt.Errorf("the replacement of the symbolic link %s could not be audited: %w", l.Path, err)
		}
		abs := filepath.Join(root, filepath.FromSlash(l.Path))
		// Remove only the link we saw: if it changed since, stop.
		if t, err := os.Readlink(abs); err != nil || t != l.Target {
			restoreSymlinks(root, nil, c, done)
			return nil, fmt.Errorf("the symbolic link %s changed while lola was replacing it", l.Path)
		}
		r := ReplacedLink{Path: l.Path, Target: l.Target, Dir: l.Parent}
		var content []byte
		copied := false
		if l.Copy {
			content, copied = linkCopy(root, abs)
		}
		if err := os.Remove(abs); err != nil {
			restoreSymlinks(root, nil, c, done)
			return nil, fmt.Errorf("cannot remove the symbolic link %s: %w", l.Path, errpath.Strip(err))
		}
		if copied {
			if err := os.WriteFile(abs, content, 0o644); err != nil {
				_ = os.Remove(abs)
				_ = os.Symlink(l.Target, abs)
				restoreSymlinks(root, nil, c, done)
				return nil, fmt.Errorf("cannot write the copy replacing %s: %w", l.Path, errpath.Strip(err))
			}
			r.Copied = hashHex(content)
		}
		if l.Parent {
			if err := os.Mkdir(abs, 0o755); err != nil {
				_ = os.Symlink(l.Target, abs)
				restoreSymlinks(root, nil, c, done)
				return nil, fmt.Errorf("cannot create the directory replacing %s: %w", l.Path, errpath.Strip(err))
			}
		}
		done = append(done, r)
	}
	return done, nil
}

// restoreSymlinks puts back each replaced link (last first) whose place is
// free again: absent, or an empty directory. It returns the links it could
// not restore. log may be nil (undo of a replacement that never became an
// install: the replace records already say what happened).
func restoreSymlinks(root string, log *audit.Log, c audit.Correlation, links []ReplacedLink) []ReplacedLink {
	var kept []ReplacedLink
	for i := len(links) - 1; i >= 0; i-- {
		l := links[i]
		abs := filepath.Join(root, filepath.FromSlash(l.Path))
		fi, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err == nil && fi.IsDir():
			if os.Remove(abs) != nil { // fails unless empty
				kept = append(kept, l)
				continue
			}
		case err == nil && fi.Mode().IsRegular() && l.Copied != "":
			// The copy made in the link's place: put the link back only if
			// it still holds exactly what was copied (the target removed
			// its block again); anything else is the user's now.
			sum := ""
			if r, err := os.OpenRoot(root); err == nil {
				sum, _ = fileSum(r, l.Path)
				r.Close()
			}
			if sum != l.Copied || os.Remove(abs) != nil {
				kept = append(kept, l)
				continue
			}
		case err == nil && fi.Mode()&fs.ModeSymlink != 0:
			if t, _ := os.Readlink(abs); t == l.Target {
				continue // already back
			}
			kept = append(kept, l)
			continue
		default:
			kept = append(kept, l)
			continue
		}
		if err := os.Symlink(l.Target, abs); err != nil {
			kept = append(kept, l)
			continue
		}
		if log != nil {
			_, _ = log.Override(c, audit.OverrideRecord{Action: audit.OverrideRestoreSymlink, Paths: []string{l.Path}, LinkTarget: l.Target})
		}
	}
	return kept
}
