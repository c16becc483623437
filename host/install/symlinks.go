package install

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/fsroot"
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
// A link the plan does not write, at or beneath (CLAUDE.md -> AGENTS.md
// with a module that has no instructions), is out of scope: never asked
// about, never replaced; a managed file on such a link is left out of the
// request rather than read through it.
//
// Every look at a link, its replacement and its restoration act through
// the root's descriptors (host/fsroot): the link's directory is opened
// beneath the root without following anything, and the link is read,
// removed, copied and made again in that held directory. A directory on
// the way that was swapped for a link (to outside the root, say) is
// refused, never followed, so nothing outside the root is removed or
// created; the link is then reported as not restored.
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
	return linksOn(root, planPaths(p, false), false)
}

// planPaths lists the paths p writes, renames to, fetches or clones into,
// and with deletes also those it deletes or renames from: every path it
// acts on.
func planPaths(p *plan.Plan, deletes bool) []string {
	var paths []string
	for _, in := range p.Intents() {
		switch {
		case in.Write != nil:
			paths = append(paths, in.Write.Path)
		case in.Rename != nil:
			paths = append(paths, in.Rename.To)
			if deletes {
				paths = append(paths, in.Rename.From)
			}
		case in.Fetch != nil:
			paths = append(paths, in.Fetch.Dest)
		case in.Clone != nil:
			paths = append(paths, in.Clone.Dest)
		case in.Delete != nil && deletes:
			paths = append(paths, in.Delete.Path)
		}
	}
	return paths
}

// linksOn examines each path's components in order and reports the first
// symbolic link on each (nothing beyond a link is examined: it would be
// the link's target). copyFiles marks links at the paths themselves as to
// be replaced by a copy (managed files). It reads through the root's
// descriptors (fsroot): a directory on the way is opened without
// following anything, so a link swapped in meanwhile is seen as a link.
func linksOn(root string, paths []string, copyFiles bool) []Symlink {
	r, err := fsroot.Open(root)
	if err != nil {
		return nil
	}
	defer r.Close()
	seen := map[string]int{}
	var out []Symlink
	for _, target := range paths {
		pp, err := pathrule.Parse(target)
		if err != nil {
			continue
		}
		l, ok := firstLink(r.Dir(), pp.Components())
		if !ok {
			continue
		}
		rel := strings.Join(pp.Components()[:l.depth], "/")
		parent := l.depth < len(pp.Components())
		if k, ok := seen[rel]; ok {
			out[k].Parent = out[k].Parent || parent
			out[k].Copy = out[k].Copy && !parent
			continue
		}
		seen[rel] = len(out)
		out = append(out, Symlink{Path: rel, Target: l.target, Parent: parent, Copy: copyFiles && !parent})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

type foundLink struct {
	depth  int // components up to and including the link
	target string
}

// firstLink walks parts beneath d by descriptor and reports the first
// symbolic link met, if any: a missing component, a non-directory on the
// way or anything fsroot refuses to open (a mount point) ends the walk
// with none.
func firstLink(d *fsroot.Dir, parts []string) (foundLink, bool) {
	cur := d
	defer func() {
		if cur != d {
			cur.Close()
		}
	}()
	for i, c := range parts {
		e, err := cur.Lstat(c)
		if err != nil {
			return foundLink{}, false
		}
		if e.Kind == fsroot.KindSymlink {
			t, _ := cur.Readlink(c)
			return foundLink{depth: i + 1, target: t}, true
		}
		if e.Kind != fsroot.KindDir || i == len(parts)-1 {
			return foundLink{}, false
		}
		next, err := cur.OpenDir(c)
		if err != nil {
			return foundLink{}, false
		}
		if cur != d {
			cur.Close()
		}
		cur = next
	}
	return foundLink{}, false
}

// openParent opens, by descriptor beneath r, the directory holding the
// root-relative slash path rel and returns it with rel's final name. No
// component on the way may be a symbolic link (path.symlink) or a mount
// point: a directory swapped for a link is refused, never followed. The
// caller closes the directory when it is not r.Dir() (close reports it).
func openParent(r *fsroot.Root, rel string) (dir *fsroot.Dir, name string, close func(), err error) {
	pp, err := pathrule.Parse(rel)
	if err != nil {
		return nil, "", nil, err
	}
	comps := pp.Components()
	if len(comps) == 1 {
		return r.Dir(), comps[0], func() {}, nil
	}
	d, err := r.Dir().OpenDirPath(comps[:len(comps)-1])
	if err != nil {
		return nil, "", nil, err
	}
	return d, comps[len(comps)-1], func() { d.Close() }, nil
}

// linkCopy is what the managed file's link at rel is replaced by: the
// content of the regular file its text names inside the root, or ok false.
//
// The link's relative text is resolved lexically against rel's directory
// (one that climbs out of the root is not copied; neither is an absolute
// text, even one naming a place in the root, since the root's own name is
// not trusted to still lead to it), and the file is then opened beneath the root by descriptor under the
// plan-path rules: no component of it may be a symbolic link or a mount
// point, so nothing outside the root is ever read. Non-guarantee: a link
// to a link, or to a path through a linked directory, is not copied (the
// link is only removed, as for one pointing outside).
func linkCopy(r *fsroot.Root, rel string) ([]byte, bool) {
	dir, name, closeDir, err := openParent(r, rel)
	if err != nil {
		return nil, false
	}
	text, err := dir.Readlink(name)
	closeDir()
	if err != nil || text == "" {
		return nil, false
	}
	if filepath.IsAbs(text) || strings.HasPrefix(filepath.ToSlash(text), "/") {
		return nil, false
	}
	var comps []string
	pp, _ := pathrule.Parse(rel)
	base := pp.Components()
	comps = append(comps, base[:len(base)-1]...)
	for _, c := range strings.Split(filepath.ToSlash(text), "/") {
		switch c {
		case "", ".":
		case "..":
			if len(comps) == 0 {
				return nil, false // climbs out of the root
			}
			comps = comps[:len(comps)-1]
		default:
			comps = append(comps, c)
		}
	}
	if len(comps) == 0 {
		return nil, false
	}
	fdir, fname, closeF, err := openParent(r, strings.Join(comps, "/"))
	if err != nil {
		return nil, false
	}
	defer closeF()
	f, err := fdir.OpenFileBeneath(fname)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxLinkCopy {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxLinkCopy+1))
	if err != nil || len(b) > maxLinkCopy {
		return nil, false
	}
	return b, true
}

// replaceSymlinks audits and replaces each link, and returns what it
// replaced (in order) for installed.yml and for undo. On an error the links
// already replaced are put back.
//
// Every step acts through the descriptor of the link's directory, opened
// beneath the root without following anything (fsroot): if a directory on
// the way was swapped for a link, the replacement is refused, so nothing
// outside the root is removed or created.
func replaceSymlinks(root string, log *audit.Log, c audit.Correlation, links []Symlink) ([]ReplacedLink, error) {
	r, err := fsroot.Open(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var done []ReplacedLink
	fail := func(err error) ([]ReplacedLink, error) {
		restoreIn(r, nil, c, done)
		return nil, err
	}
	for _, l := range links {
		if _, err := log.Override(c, audit.OverrideRecord{Action: audit.OverrideReplaceSymlink, Paths: []string{l.Path}, LinkTarget: l.Target}); err != nil {
			return fail(fmt.Errorf("the replacement of the symbolic link %s could not be audited: %w", l.Path, err))
		}
		dir, name, closeDir, err := openParent(r, l.Path)
		if err != nil {
			return fail(fmt.Errorf("the symbolic link %s changed while lola was replacing it: %w", l.Path, errpath.Strip(err)))
		}
		rl, err := replaceOne(r, dir, name, l)
		closeDir()
		if err != nil {
			return fail(err)
		}
		done = append(done, rl)
	}
	return done, nil
}

// replaceOne replaces the link l, whose final name is name in dir.
func replaceOne(r *fsroot.Root, dir *fsroot.Dir, name string, l Symlink) (ReplacedLink, error) {
	// Remove only the link we saw: if it changed since, stop.
	if e, err := dir.Lstat(name); err != nil || e.Kind != fsroot.KindSymlink {
		return ReplacedLink{}, fmt.Errorf("the symbolic link %s changed while lola was replacing it", l.Path)
	}
	if t, err := dir.Readlink(name); err != nil || t != l.Target {
		return ReplacedLink{}, fmt.Errorf("the symbolic link %s changed while lola was replacing it", l.Path)
	}
	rl := ReplacedLink{Path: l.Path, Target: l.Target, Dir: l.Parent}
	var content []byte
	copied := false
	if l.Copy {
		content, copied = linkCopy(r, l.Path)
	}
	if err := dir.Unlink(name); err != nil {
		return ReplacedLink{}, fmt.Errorf("cannot remove the symbolic link %s: %w", l.Path, errpath.Strip(err))
	}
	if copied {
		if _, err := dir.WriteNewFile(name, 0o644, content, true); err != nil {
			_ = dir.Unlink(name)
			_ = dir.Symlink(l.Target, name)
			return ReplacedLink{}, fmt.Errorf("cannot write the copy replacing %s: %w", l.Path, errpath.Strip(err))
		}
		rl.Copied = hashHex(content)
	}
	if l.Parent {
		if err := dir.Mkdir(name, 0o755); err != nil {
			_ = dir.Symlink(l.Target, name)
			return ReplacedLink{}, fmt.Errorf("cannot create the directory replacing %s: %w", l.Path, errpath.Strip(err))
		}
	}
	return rl, nil
}

// restoreSymlinks puts back each replaced link (last first) whose place is
// free again: absent, or an empty directory. It returns the links it could
// not restore. log may be nil (undo of a replacement that never became an
// install: the replace records already say what happened).
//
// Each link is restored through the descriptor of its directory, opened
// beneath the root without following anything: a directory on the way
// swapped for a link (to outside the root, or anywhere) keeps the link
// unrestored, and nothing is removed or created through it.
func restoreSymlinks(root string, log *audit.Log, c audit.Correlation, links []ReplacedLink) []ReplacedLink {
	r, err := fsroot.Open(root)
	if err != nil {
		return links
	}
	defer r.Close()
	return restoreIn(r, log, c, links)
}

func restoreIn(r *fsroot.Root, log *audit.Log, c audit.Correlation, links []ReplacedLink) []ReplacedLink {
	var kept []ReplacedLink
	for i := len(links) - 1; i >= 0; i-- {
		l := links[i]
		dir, name, closeDir, err := openParent(r, l.Path)
		if err != nil {
			kept = append(kept, l)
			continue
		}
		restored, ok := restoreOne(dir, name, l)
		closeDir()
		if !ok {
			kept = append(kept, l)
			continue
		}
		if restored && log != nil {
			_, _ = log.Override(c, audit.OverrideRecord{Action: audit.OverrideRestoreSymlink, Paths: []string{l.Path}, LinkTarget: l.Target})
		}
	}
	return kept
}

// restoreOne puts the link l back as name in dir. ok is false when it is
// kept unrestored; restored is false when it was already back.
func restoreOne(dir *fsroot.Dir, name string, l ReplacedLink) (restored, ok bool) {
	e, err := dir.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return false, false
	case e.Kind == fsroot.KindDir:
		if dir.Rmdir(name) != nil { // fails unless empty
			return false, false
		}
	case e.Kind == fsroot.KindFile && l.Copied != "":
		// The copy made in the link's place: put the link back only if
		// it still holds exactly what was copied (the target removed
		// its block again); anything else is the user's now. The file
		// hashed must still be the one at name when it is removed.
		sum, seen, ok := sumOf(dir, name)
		if !ok || sum != l.Copied {
			return false, false
		}
		if now, err := dir.Lstat(name); err != nil || !now.Same(seen) || dir.Unlink(name) != nil {
			return false, false
		}
	case e.Kind == fsroot.KindSymlink:
		if t, _ := dir.Readlink(name); t == l.Target {
			return false, true // already back
		}
		return false, false
	default:
		return false, false
	}
	if dir.Symlink(l.Target, name) != nil {
		return false, false
	}
	return true, true
}

// sumOf hashes the regular file name in dir, opened without following
// anything, and returns it with the identity of the file hashed.
func sumOf(dir *fsroot.Dir, name string) (string, fsroot.Entry, bool) {
	f, err := dir.OpenFileBeneath(name)
	if err != nil {
		return "", fsroot.Entry{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return "", fsroot.Entry{}, false
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fsroot.Entry{}, false
	}
	e, err := dir.Lstat(name)
	if err != nil || e.Kind != fsroot.KindFile {
		return "", fsroot.Entry{}, false
	}
	return hex.EncodeToString(h.Sum(nil)), e, true
}
