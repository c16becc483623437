package module

import (
	"errors"
	"slices"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// copyFolder stages every entry of the directory src, except .git
// directories (version-control state, not module content; today's Lola
// drops them too, and so do the archive sources).
//
// The folder is read with the executor's descriptor discipline
// (host/fsroot): src is opened once, and every directory beneath it is
// opened relative to its parent's descriptor with openat2
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_XDEV (a component walk
// with O_NOFOLLOW and device and mount checks where openat2 is missing);
// entries are listed, examined and opened relative to the descriptor of
// the directory that holds them, never by a path string. So a directory
// swapped for a symbolic link after it was listed is refused
// (path.symlink), never read through, and a bind mount or another
// filesystem inside the folder is refused (path.cross-device), as a plan
// touching it would be. Symbolic links are refused wherever they are
// (path.symlink), and anything that is neither a regular file nor a
// directory (path.invalid).
//
// src itself is the user's choice: ParseSource refused it when its last
// component is a symbolic link, and it is opened once, by name.
func copyFolder(src string, s *stager) error {
	root, err := fsroot.Open(src)
	if err != nil {
		return err // fsroot's error names the operation and the cause, never the path
	}
	defer root.Close()
	return copyDir(root.Dir(), "", s)
}

// copyDir stages the entries of the open directory d, whose
// module-relative path is rel ("" for the folder itself), in name order.
func copyDir(d *fsroot.Dir, rel string, s *stager) error {
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
		if err := copyEntry(d, n, p, s); err != nil {
			return err
		}
	}
	return nil
}

func copyEntry(d *fsroot.Dir, name, p string, s *stager) error {
	e, err := d.Lstat(name)
	if err != nil {
		return errorAt(p, err)
	}
	switch e.Kind {
	case fsroot.KindSymlink:
		return entryViolation(schema.RulePathSymlink, p, "symbolic link")
	case fsroot.KindDir:
		if name == ".git" {
			return nil
		}
		if err := s.mkdir(p); err != nil {
			return err
		}
		sub, err := d.OpenDir(name)
		if err != nil {
			return entryRefusal(p, err)
		}
		defer sub.Close()
		return copyDir(sub, p, s)
	case fsroot.KindFile:
		return copyFile(d, name, p, e, s)
	default:
		return entryViolation(schema.RulePathInvalid, p, "not a regular file or directory")
	}
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
	return s.file(p, opened.Size(), opened.Mode()&0o111 != 0, f)
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
