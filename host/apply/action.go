package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// node is a directory an action happens in: one the plan's resolution
// opened (d set from the start), or one the host creates (d set once the
// mkdir action has run).
type node struct {
	d      *fsroot.Dir
	parent *node
	name   string
	rel    []string
	owned  bool // d was opened by the apply (not the resolver) and must be closed
}

func (n *node) relPath(name string) string {
	return fsroot.Rel(append(append([]string(nil), n.rel...), name))
}

// Action kinds, as journaled.
const (
	actAside  = "aside"  // move the entry at path into staging/aside/slot
	actMkdir  = "mkdir"  // create the directory path
	actRename = "rename" // move from to path
	actPlace  = "place"  // move staging/new/slot to path
)

// action is one change to the live tree. The journaled fields say what the
// change is and how to recognise that it happened (Ino: the inode that
// ends up at the destination); at/from are the descriptors it runs on.
type action struct {
	Op     string `json:"op"`
	Intent int    `json:"intent"`
	Path   string `json:"path"`
	From   string `json:"from,omitempty"`
	Slot   int    `json:"slot,omitempty"`
	Ino    uint64 `json:"ino,omitempty"`
	// Prior (mkdir only) is the inode that stood at Path before the plan
	// (a deleted entry the host recreates as a directory), which undo must
	// not remove.
	Prior uint64 `json:"prior,omitempty"`

	at, from         *node
	atName, fromName string
	mk               *node // mkdir: the node it creates
	made             bool  // mkdir: this process created it
	replace          bool  // aside made for a write over an existing file
}

func slotName(n int) string { return strconv.Itoa(n) }

// changeErr is a failure to perform one action, naming it without host paths.
type changeErr struct {
	op, path string
	err      error
}

func (e *changeErr) Error() string {
	return fmt.Sprintf("%s %s: %s", e.op, e.path, e.err.Error())
}
func (e *changeErr) Unwrap() error { return e.err }

func changeFail(op, path string, err error) error { return &changeErr{op: op, path: path, err: err} }

// do performs a in this process, on its held descriptors.
func (s *stage) do(a *action) error {
	switch a.Op {
	case actAside:
		e, err := a.at.d.Lstat(a.atName)
		if err != nil {
			return changeFail(a.Op, a.Path, err)
		}
		if e.Ino != a.Ino {
			return changeFail(a.Op, a.Path, errors.New("the entry changed since validation"))
		}
		if err := fsroot.Rename(a.at.d, a.atName, s.aside, slotName(a.Slot), fsroot.NoReplace); err != nil {
			return changeFail(a.Op, a.Path, err)
		}
	case actMkdir:
		if err := a.at.d.Mkdir(a.atName, 0o755); err != nil {
			return changeFail(a.Op, a.Path, err)
		}
		a.made = true
		d, err := a.at.d.OpenDir(a.atName)
		if err != nil {
			return changeFail(a.Op, a.Path, err)
		}
		a.mk.d, a.mk.owned = d, true
	case actRename:
		e, err := a.from.d.Lstat(a.fromName)
		if err != nil {
			return changeFail(a.Op, a.From, err)
		}
		if e.Ino != a.Ino {
			return changeFail(a.Op, a.From, errors.New("the entry changed since validation"))
		}
		if err := fsroot.Rename(a.from.d, a.fromName, a.at.d, a.atName, fsroot.NoReplace); err != nil {
			return changeFail(a.Op, a.Path, err)
		}
	case actPlace:
		if err := fsroot.Rename(s.fresh, slotName(a.Slot), a.at.d, a.atName, fsroot.NoReplace); err != nil {
			return changeFail(a.Op, a.Path, err)
		}
	default:
		return fmt.Errorf("apply: unknown action %q", a.Op)
	}
	return nil
}

// locate finds the directory and name of a journaled root-relative path:
// from the held descriptor when there is one, else by resolving it beneath
// the root now (recovery). ok is false when its parent does not exist.
func (s *stage) locate(n *node, name, path string) (*fsroot.Dir, string, bool, error) {
	if n != nil && n.d != nil {
		return n.d, name, true, nil
	}
	rs := s.root.NewResolver()
	s.resolvers = append(s.resolvers, rs)
	d, nm, ok, err := rs.Parent(relPath(path))
	if errors.Is(err, rejection.Rule(schema.RulePathNotDirectory)) {
		// A parent that is (again, or still) a file: the change under it
		// cannot have happened, or was already undone.
		return nil, "", false, nil
	}
	return d, nm, ok, err
}

type relPath string

func (p relPath) Components() []string { return strings.Split(string(p), "/") }

// undo reverses a if evidence shows it took effect, and does nothing when
// it did not; running it twice is running it once.
func (s *stage) undo(a *action) error {
	switch a.Op {
	case actAside:
		if _, err := s.aside.Lstat(slotName(a.Slot)); errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		d, name, ok, err := s.locate(a.at, a.atName, a.Path)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("cannot restore %s: its parent is gone", a.Path)
		}
		return fsroot.Rename(s.aside, slotName(a.Slot), d, name, fsroot.NoReplace)
	case actMkdir:
		if a.at != nil && a.at.d != nil && !a.made {
			return nil // this process never created it
		}
		if a.mk != nil && a.mk.owned && a.mk.d != nil {
			a.mk.d.Close()
			a.mk.d = nil
		}
		d, name, ok, err := s.locate(a.at, a.atName, a.Path)
		if err != nil || !ok {
			return err
		}
		e, err := d.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		if e.Kind != fsroot.KindDir || a.Prior != 0 && e.Ino == a.Prior {
			return nil // not the directory this apply made
		}
		if err := d.Rmdir(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	case actRename:
		d, name, ok, err := s.locate(a.at, a.atName, a.Path)
		if err != nil || !ok {
			return err
		}
		e, err := d.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) || err == nil && e.Ino != a.Ino {
			return nil
		} else if err != nil {
			return err
		}
		fd, fname, ok, err := s.locate(a.from, a.fromName, a.From)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("cannot move %s back: the parent of %s is gone", a.Path, a.From)
		}
		return fsroot.Rename(d, name, fd, fname, fsroot.NoReplace)
	case actPlace:
		d, name, ok, err := s.locate(a.at, a.atName, a.Path)
		if err != nil || !ok {
			return err
		}
		e, err := d.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) || err == nil && e.Ino != a.Ino {
			return nil
		} else if err != nil {
			return err
		}
		return fsroot.Rename(d, name, s.fresh, slotName(a.Slot), fsroot.NoReplace)
	}
	return fmt.Errorf("apply: unknown action %q", a.Op)
}
