package module

import (
	"errors"
	"slices"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// copyTree stages every entry of the directory src, except .git
// directories (version-control state, not module content; today's Lola
// drops them too, and so do the archive sources). sc says what src is to
// the user (a folder, a repository's checkout, an unpacked archive), for
// the refusals of symbolic links.
//
// The tree is read with the executor's descriptor discipline
// (host/fsroot): src is opened once, and every directory beneath it is
// opened relative to its parent's descriptor with openat2
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_XDEV (a component walk
// with O_NOFOLLOW and device and mount checks where openat2 is missing);
// entries are listed, examined and opened relative to the descriptor of
// the directory that holds them, never by a path string. So a directory
// swapped for a symbolic link after it was listed is refused
// (path.symlink), never read through, and a bind mount or another
// filesystem inside the tree is refused (path.cross-device), as a plan
// touching it would be. Anything that is neither a regular file, a
// directory nor a symbolic link is refused (path.invalid).
//
// A symbolic link is refused (path.symlink) when the stager does not
// follow links (s.follow false: extension bundles); otherwise it is
// resolved under the source-link rule (resolveLink) and staged as what it
// resolves to: a regular file's content, or a directory copied
// recursively, every entry of the copy counted against the bounds.
//
// src itself is the user's choice: ParseSource refused it when its last
// component is a symbolic link, and it is opened once, by name.
func copyTree(src string, s *stager, sc scope) error {
	root, err := fsroot.Open(src)
	if err != nil {
		return err // fsroot's error names the operation and the cause, never the path
	}
	defer root.Close()
	w := &treeWalk{s: s, root: root.Dir(), scope: sc}
	return w.dir(root.Dir(), "")
}

// treeWalk is one copyTree: the stager it feeds, the source's root and
// the real directories being copied, outermost first (a link that leads
// to one of them would copy it into itself forever).
type treeWalk struct {
	s      *stager
	root   *fsroot.Dir
	scope  scope
	active []fsroot.Entry
}

// dir stages the entries of the open directory d, whose staged path is rel
// ("" for the root), in name order. d.Rel() is where d really is beneath
// the root, which differs from rel inside a directory reached by a link.
func (w *treeWalk) dir(d *fsroot.Dir, rel string) error {
	self, err := d.Stat()
	if err != nil {
		return errorAt(relOr(rel), err)
	}
	w.active = append(w.active, self)
	defer func() { w.active = w.active[:len(w.active)-1] }()
	names, err := d.ReadNames()
	if err != nil {
		return errorAt(relOr(rel), err)
	}
	slices.Sort(names)
	for _, n := range names {
		p := n
		if rel != "" {
			p = rel + "/" + n
		}
		if err := w.entry(d, n, p); err != nil {
			return err
		}
	}
	return nil
}

func (w *treeWalk) entry(d *fsroot.Dir, name, p string) error {
	e, err := d.Lstat(name)
	if err != nil {
		return errorAt(p, err)
	}
	switch e.Kind {
	case fsroot.KindSymlink:
		if !w.s.follow {
			return entryViolation(schema.RulePathSymlink, p, "symbolic link")
		}
		return w.link(d, name, p)
	case fsroot.KindDir:
		if name == ".git" {
			return nil
		}
		if err := w.s.mkdir(p); err != nil {
			return err
		}
		sub, err := d.OpenDir(name)
		if err != nil {
			return entryRefusal(p, err)
		}
		defer sub.Close()
		return w.dir(sub, p)
	case fsroot.KindFile:
		return copyFile(d, name, p, e, w.s)
	default:
		return entryViolation(schema.RulePathInvalid, p, "not a regular file or directory")
	}
}

// link stages the symbolic link name in d at p as what it resolves to.
func (w *treeWalk) link(d *fsroot.Dir, name, p string) error {
	r, err := w.resolveLink(d, name, p)
	if err != nil {
		return err
	}
	defer r.close()
	if r.file != "" {
		err := copyFile(r.dir, r.file, p, r.entry, w.s)
		var v *rejection.Violation
		if errors.As(err, &v) && v.Rule == schema.RulePathCrossDevice {
			return r.refuse(v.Rule, "crosses a mount or device at "+quoteName(r.at))
		}
		return err
	}
	for _, a := range w.active {
		if a.Same(r.entry) {
			return r.refuse(schema.RulePathSymlink, "leads to "+quoteName(r.dir.Rel())+", a directory that holds the link (a cycle)")
		}
	}
	if err := w.s.mkdir(p); err != nil {
		return err
	}
	return w.dir(r.dir, p)
}

// copyFile stages one regular file, opened relative to its directory's
// descriptor without following a link or crossing a mount, and refuses it
// if what opened is not the regular file the listing saw.
func copyFile(d *fsroot.Dir, name, p string, seen fsroot.Entry, s *stager) error {
	f, err := d.OpenFileBeneath(name)
	if err != nil {
		return entryRefusal(p, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return errorAt(p, err)
	}
	if !opened.Mode().IsRegular() || !sameEntry(seen, opened) {
		return entryViolation(schema.RulePathSymlink, p, "replaced while being read")
	}
	return s.file(p, opened.Size(), opened.Mode().Perm(), f) // a folder's modes are kept, as today's Lola's copy keeps them
}

// entryRefusal renders an fsroot refusal with the module-relative path
// (fsroot names paths relative to the folder, which is the same thing),
// and keeps any other failure as an error at p.
func entryRefusal(p string, err error) error {
	var v *rejection.Violation
	if errors.As(err, &v) {
		return entryViolation(v.Rule, p, v.Detail)
	}
	return errorAt(p, err)
}

func relOr(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

func errorAt(rel string, err error) error {
	return &entryError{path: rel, err: errpath.Strip(err)}
}

type entryError struct {
	path string
	err  error
}

func (e *entryError) Error() string { return "entry " + quoteName(e.path) + ": " + e.err.Error() }
func (e *entryError) Unwrap() error { return e.err }
