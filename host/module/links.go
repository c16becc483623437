package module

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// The source-link rule. A symbolic link inside a module source is staged
// as what it resolves to when, followed through any chain of links, it
// reaches a regular file or a directory inside the source's root: the
// folder given to mod add, the whole checkout of a repository, the top of
// an archive. Everything else is refused, naming the link and its target:
//
//   - an absolute target, at the link or anywhere in the chain
//     (path.absolute);
//   - a target that climbs out of the root with ".." (path.traversal;
//     for a folder, the refusal suggests adding the folder that holds
//     both with --module-content);
//   - a target that does not exist, a chain of more than maxLinkHops
//     links (a loop) or of more than maxLinkSteps components, a target
//     in a .git directory, and a directory that holds the link itself (a
//     cycle) (path.symlink);
//   - a target on another mount or device (path.cross-device), a file
//     used as a directory (path.not-directory), a target that is neither
//     a regular file nor a directory (path.invalid).
//
// Resolution is the kernel's, done by lola one component at a time through
// directory descriptors (host/fsroot): each component is examined with
// Lstat relative to the descriptor of the directory holding it, a link's
// target is read with Readlink and spliced in, a directory is opened with
// OpenDir (no link, no mount crossing), and ".." is taken lexically from
// the real path reached so far, never from the filesystem. So no path
// string an attacker can swap is ever resolved by the kernel with links
// followed, and a component replaced while it is resolved is refused or
// leads elsewhere inside the root, never outside it.
const (
	// maxLinkHops is how many links one resolution follows (Linux's
	// MAXSYMLINKS): a chain longer than that is taken for a loop.
	maxLinkHops = 40
	// maxLinkSteps bounds the components one resolution examines, so
	// the work (and the descriptors held) per link stays small whatever
	// its targets spell.
	maxLinkSteps = 256
)

// scope is what a source's root is to the user, for the refusals of links
// that leave it.
type scope struct {
	what   string // "folder given to mod add", "repository", "archive"
	folder string // a folder source's absolute path, for the --module-content hint
}

var (
	repositoryScope = scope{what: "repository"}
	archiveScope    = scope{what: "archive"}
)

func folderScope(abs string) scope { return scope{what: "folder given to mod add", folder: abs} }

// escape is the refusal's reason for a link whose target climbs levels
// directories above the root.
func (sc scope) escape(levels int) string {
	why := "leads outside the " + sc.what
	comps := strings.FieldsFunc(filepath.ToSlash(sc.folder), func(r rune) bool { return r == '/' })
	if sc.folder == "" || levels >= len(comps) {
		return why
	}
	up := "the parent folder"
	if levels > 1 {
		up = "the folder " + strconv.Itoa(levels) + " levels up"
	}
	return why + ": add " + up + ", which holds both, with --module-content=" + quoteName(strings.Join(comps[len(comps)-levels:], "/"))
}

// levelsAbove is how far above the root a target climbs, given the
// components left after its first ".." out of the root.
func levelsAbove(rest []string) int {
	level, most := 1, 1
	for _, c := range rest {
		switch c {
		case "", ".":
		case "..":
			level++
			most = max(most, level)
		default:
			if level--; level == 0 {
				return most
			}
		}
	}
	return most
}

// resolved is where a link leads: the regular file named file in dir, or
// (file "") the directory dir. entry is the file's, or the directory's; at
// is the file's root-relative path.
type resolved struct {
	dir   *fsroot.Dir
	owned bool // dir was opened by the resolution: close it
	file  string
	at    string
	entry fsroot.Entry
	// refuse renders a refusal of the link with its target named.
	refuse func(rule schema.Rule, why string) error
}

func (r *resolved) close() {
	if r.owned {
		r.dir.Close()
	}
}

// resolveLink resolves the link name in d (staged at p) under the
// source-link rule.
func (w *treeWalk) resolveLink(d *fsroot.Dir, name, p string) (*resolved, error) {
	target, err := d.Readlink(name)
	if errors.Is(err, fsroot.ErrLinkTargetTooLong) {
		return nil, entryViolation(schema.RulePathSymlink, p, "symbolic link whose target is longer than "+strconv.Itoa(fsroot.MaxLinkTarget)+" bytes")
	}
	if err != nil {
		// No longer a link (swapped since it was listed), or unreadable.
		return nil, entryViolation(schema.RulePathSymlink, p, "symbolic link replaced while being read")
	}
	refuse := func(rule schema.Rule, why string) error {
		return entryViolation(rule, p, "symbolic link to "+quoteName(target)+" "+why)
	}
	pending, abs := splitTarget(target)
	if abs {
		return nil, refuse(schema.RulePathAbsolute, "is absolute: a link is copied only when it resolves inside the "+w.scope.what)
	}
	c := newCursor(w.root, d)
	r, err := w.follow(c, pending, refuse)
	if err != nil {
		c.close()
		return nil, err
	}
	return r, nil
}

// follow walks the pending components of a link's target from c's
// directory, splicing in the target of every further link met, to the
// file or directory they end at.
func (w *treeWalk) follow(c *cursor, pending []string, refuse func(schema.Rule, string) error) (*resolved, error) {
	hops, steps := 1, 0
	for len(pending) > 0 {
		comp := pending[0]
		pending = pending[1:]
		if comp == "" || comp == "." {
			continue
		}
		if steps++; steps > maxLinkSteps {
			return nil, refuse(schema.RulePathSymlink, "is too long to resolve (more than "+strconv.Itoa(maxLinkSteps)+" components)")
		}
		if comp == ".." {
			if !c.up() {
				return nil, refuse(schema.RulePathTraversal, w.scope.escape(levelsAbove(pending)))
			}
			continue
		}
		at := c.at(comp)
		top, err := c.top()
		if err != nil {
			return nil, stepRefusal(refuse, fsroot.Rel(c.comps), err)
		}
		e, err := top.Lstat(comp)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, refuse(schema.RulePathSymlink, "dangles: "+quoteName(at)+" does not exist")
		}
		if err != nil {
			return nil, stepRefusal(refuse, at, err)
		}
		switch e.Kind {
		case fsroot.KindSymlink:
			if hops++; hops > maxLinkHops {
				return nil, refuse(schema.RulePathSymlink, "loops (more than "+strconv.Itoa(maxLinkHops)+" links to follow)")
			}
			t, err := top.Readlink(comp)
			if err != nil {
				return nil, stepRefusal(refuse, at, err)
			}
			more, abs := splitTarget(t)
			if abs {
				return nil, refuse(schema.RulePathAbsolute, "leads to "+quoteName(at)+", a link to the absolute "+quoteName(t))
			}
			pending = append(more, pending...)
		case fsroot.KindDir:
			if comp == ".git" {
				return nil, refuse(schema.RulePathSymlink, "leads into "+quoteName(at)+": version-control state, left out of every source")
			}
			sub, err := top.OpenDir(comp)
			if err != nil {
				return nil, stepRefusal(refuse, at, err)
			}
			c.down(comp, sub)
		case fsroot.KindFile:
			if len(pending) > 0 {
				return nil, refuse(schema.RulePathNotDirectory, "uses the file "+quoteName(at)+" as a directory")
			}
			dir, owned := c.take()
			return &resolved{dir: dir, owned: owned, file: comp, at: at, entry: e, refuse: refuse}, nil
		default:
			return nil, refuse(schema.RulePathInvalid, "leads to "+quoteName(at)+", which is not a regular file or directory")
		}
	}
	top, err := c.top()
	if err != nil {
		return nil, stepRefusal(refuse, fsroot.Rel(c.comps), err)
	}
	e, err := top.Stat()
	if err != nil {
		return nil, stepRefusal(refuse, fsroot.Rel(c.comps), err)
	}
	dir, owned := c.take()
	return &resolved{dir: dir, owned: owned, entry: e, refuse: refuse}, nil
}

// stepRefusal renders a failure met at the root-relative path at while a
// link was resolved: fsroot's refusals keep their rule (a mount crossed,
// a component swapped for a link, a file used as a directory); anything
// else is an error of the link.
func stepRefusal(refuse func(schema.Rule, string) error, at string, err error) error {
	var v *rejection.Violation
	if !errors.As(err, &v) {
		return refuse(schema.RulePathSymlink, "cannot be resolved at "+quoteName(at)+": "+strings.TrimPrefix(err.Error(), "fsroot: "))
	}
	switch v.Rule {
	case schema.RulePathCrossDevice:
		return refuse(v.Rule, "crosses a mount or device at "+quoteName(at))
	case schema.RulePathSymlink:
		return refuse(v.Rule, "changed while it was resolved ("+quoteName(at)+" was replaced)")
	}
	return refuse(v.Rule, "fails at "+quoteName(at)+": "+v.Detail)
}

// splitTarget splits a link's target into components ("/"-separated, and
// "\\" too on Windows) and reports whether it is absolute (rooted, or with
// a drive or UNC volume).
func splitTarget(t string) (comps []string, abs bool) {
	t = filepath.ToSlash(t)
	if strings.HasPrefix(t, "/") || filepath.IsAbs(t) || filepath.VolumeName(t) != "" {
		return nil, true
	}
	return strings.Split(t, "/"), false
}

// cursor is the directory a resolution stands in: its real path beneath
// the root and, per level, the directory open there, or nil until needed.
// Directories above the link's own are opened from the root (OpenDirPath,
// under the rules of every plan path) only when a ".." reaches them, each
// at most once; directories entered are opened beneath their parent's
// descriptor. The root and the link's directory are the walk's, never
// closed here.
type cursor struct {
	root  *fsroot.Dir
	comps []string
	dirs  []*fsroot.Dir // dirs[i] is comps[:i] open, or nil
	owned []bool
}

func newCursor(root, start *fsroot.Dir) *cursor {
	var comps []string
	if rel := start.Rel(); rel != "." {
		comps = strings.Split(rel, "/")
	}
	c := &cursor{root: root, comps: comps, dirs: make([]*fsroot.Dir, len(comps)+1), owned: make([]bool, len(comps)+1)}
	c.dirs[0], c.dirs[len(comps)] = root, start
	return c
}

// at is the root-relative path of name in the current directory.
func (c *cursor) at(name string) string {
	if len(c.comps) == 0 {
		return name
	}
	return fsroot.Rel(c.comps) + "/" + name
}

// top returns the current directory, opening it from the root if needed.
func (c *cursor) top() (*fsroot.Dir, error) {
	k := len(c.comps)
	if c.dirs[k] == nil {
		d, err := c.root.OpenDirPath(c.comps)
		if err != nil {
			return nil, err
		}
		c.dirs[k], c.owned[k] = d, true
	}
	return c.dirs[k], nil
}

// up moves to the parent directory; false at the root.
func (c *cursor) up() bool {
	k := len(c.comps)
	if k == 0 {
		return false
	}
	c.release(k)
	c.comps, c.dirs, c.owned = c.comps[:k-1], c.dirs[:k], c.owned[:k]
	return true
}

// down enters the directory name, opened as d.
func (c *cursor) down(name string, d *fsroot.Dir) {
	c.comps = append(c.comps, name)
	c.dirs = append(c.dirs, d)
	c.owned = append(c.owned, true)
}

// take hands the current directory over to the caller (owned: the caller
// closes it) and closes every other directory the cursor opened.
func (c *cursor) take() (d *fsroot.Dir, owned bool) {
	k := len(c.comps)
	d, owned = c.dirs[k], c.owned[k]
	c.dirs[k], c.owned[k] = nil, false
	c.close()
	return d, owned
}

func (c *cursor) release(k int) {
	if c.owned[k] && c.dirs[k] != nil {
		c.dirs[k].Close()
	}
	c.dirs[k], c.owned[k] = nil, false
}

func (c *cursor) close() {
	for k := range c.dirs {
		c.release(k)
	}
}
