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
// opened (d set from the start), or one the host creates (d set once it is
// made in staging, before it is moved into place).
type node struct {
	d      *fsroot.Dir
	parent *node
	name   string
	rel    []string
	owned  bool // d was opened by the apply (not the resolver) and must be closed

	// fresh: made by the apply where nothing was before the plan (not
	// again after a staged delete; false for a directory that exists), so
	// writes into it are staged inside it and placed with it (nested).
	fresh  bool
	nested []placedWith
}

// placedWith is a write staged inside a directory the apply makes: it
// reaches the tree when that directory is moved into place.
type placedWith struct {
	intent int
	path   string
}

func (n *node) relPath(name string) string {
	return fsroot.Rel(append(append([]string(nil), n.rel...), name))
}

// Action kinds, as journaled.
const (
	actAside  = "aside"  // move the entry at path into staging/aside/slot
	actMkdir  = "mkdir"  // move the directory staging/new/slot (made there, holding its nested writes) to path
	actRename = "rename" // move from to path
	actPlace  = "place"  // move staging/new/slot to path
)

// ident is a file's identity as journaled: device, inode and birth time
// (see fsroot.Entry.Same for why an inode number alone is not one).
type ident struct {
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Btime int64  `json:"btime,omitempty"`
}

func identOf(e fsroot.Entry) ident { return ident{Dev: e.Dev, Ino: e.Ino, Btime: e.Btime} }

// is reports whether e is the file id names.
func (id ident) is(e fsroot.Entry) bool {
	return id.Ino != 0 && e.Same(fsroot.Entry{Kind: fsroot.KindFile, Dev: id.Dev, Ino: id.Ino, Btime: id.Btime})
}

// action is one change to the live tree. The journaled fields say what the
// change is and which file it moves (ID: the identity of the entry that
// ends up at the destination); at/from are the descriptors it runs on.
// Every action is a rename of a whole entry, so every undo is a rename
// back, made only after the entry found is shown to be the one moved.
type action struct {
	Op     string `json:"op"`
	Intent int    `json:"intent"`
	Path   string `json:"path"`
	From   string `json:"from,omitempty"`
	Slot   int    `json:"slot,omitempty"`
	ID     ident  `json:"id"`

	at, from         *node
	atName, fromName string
	mk               *node // mkdir: the node it creates
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

// ErrChanged is an entry that is not, by identity, the one validated or
// staged: it was swapped between Prepare and Commit.
var ErrChanged = errors.New("the entry changed since validation")

// move renames fromName in from to toName in to (never replacing), then
// checks that what arrived is id; if it is not, it is moved back where it
// came from and the move fails with ErrChanged. Checking after the rename
// closes the window between a check by name and the rename: whatever a
// racer swapped in is returned untouched. With precheck the source is
// also checked before the rename, so that an entry of the user's that is
// not id is not moved even for that instant (a source in the live tree);
// a source in the host's staging needs only the check after.
func move(from *fsroot.Dir, fromName string, to *fsroot.Dir, toName string, id ident, precheck bool) error {
	if precheck {
		e, err := from.Lstat(fromName)
		if err != nil {
			return err
		}
		if !id.is(e) {
			return ErrChanged
		}
	}
	if err := fsroot.Rename(from, fromName, to, toName, fsroot.NoReplace); err != nil {
		return err
	}
	e, err := to.Lstat(toName)
	if err == nil && id.is(e) {
		return nil
	}
	if berr := fsroot.Rename(to, toName, from, fromName, fsroot.NoReplace); berr != nil {
		return fmt.Errorf("%w, and what was moved could not be moved back: %v", ErrChanged, berr)
	}
	return ErrChanged
}

// do performs a in this process, on its held descriptors.
func (s *stage) do(a *action) error {
	var err error
	switch a.Op {
	case actAside:
		err = move(a.at.d, a.atName, s.aside, slotName(a.Slot), a.ID, true)
	case actRename:
		if err = move(a.from.d, a.fromName, a.at.d, a.atName, a.ID, true); err != nil {
			return changeFail(a.Op, a.From, err)
		}
	case actMkdir, actPlace:
		err = move(s.fresh, slotName(a.Slot), a.at.d, a.atName, a.ID, false)
	default:
		return fmt.Errorf("apply: unknown action %q", a.Op)
	}
	if err != nil {
		return changeFail(a.Op, a.Path, err)
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
// it did not; running it twice is running it once. The evidence is
// identity: an entry is moved back only when it is, by device, inode and
// birth time, the entry the action moved. Nothing is ever removed from
// the tree: a directory the apply made goes back into staging, which is
// discarded whole.
func (s *stage) undo(a *action) error {
	switch a.Op {
	case actAside:
		if s.aside == nil {
			return nil // aside/ discarded: nothing was left in it
		}
		e, err := s.aside.Lstat(slotName(a.Slot))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		if !a.ID.is(e) {
			return fmt.Errorf("staging slot %d is not the entry moved aside from %s", a.Slot, a.Path)
		}
		d, name, ok, err := s.locate(a.at, a.atName, a.Path)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("cannot restore %s: its parent is gone", a.Path)
		}
		return fsroot.Rename(s.aside, slotName(a.Slot), d, name, fsroot.NoReplace)
	case actMkdir, actPlace, actRename:
		if a.Op == actMkdir && a.mk != nil && a.mk.owned && a.mk.d != nil {
			a.mk.d.Close()
			a.mk.d = nil
		}
		d, name, ok, err := s.locate(a.at, a.atName, a.Path)
		if err != nil || !ok {
			return err
		}
		e, err := d.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) || err == nil && !a.ID.is(e) {
			return nil // never moved here, or already moved back
		} else if err != nil {
			return err
		}
		if a.Op != actRename {
			if s.fresh == nil {
				return fmt.Errorf("cannot move %s back: staging's new/ is gone", a.Path)
			}
			return fsroot.Rename(d, name, s.fresh, slotName(a.Slot), fsroot.NoReplace)
		}
		fd, fname, ok, err := s.locate(a.from, a.fromName, a.From)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("cannot move %s back: the parent of %s is gone", a.Path, a.From)
		}
		return fsroot.Rename(d, name, fd, fname, fsroot.NoReplace)
	}
	return fmt.Errorf("apply: unknown action %q", a.Op)
}

// redo completes a, journaled before a commit record that reached the
// disk, when evidence shows its effect is missing: the entry it moves is,
// by identity, still at its source and its destination is empty. An
// effect already present, or a source that no longer holds the entry (a
// half of staging already discarded, a tree changed since), is left as it
// is; running it twice is running it once. Changes are redone in program
// order, so a directory made by the apply exists again before anything
// is placed in it, and an entry is moved aside before its path is reused.
func (s *stage) redo(a *action) error {
	switch a.Op {
	case actAside:
		if s.aside == nil {
			return nil
		}
		if _, err := s.aside.Lstat(slotName(a.Slot)); err == nil {
			return nil // moved aside
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		d, name, ok, err := s.locate(nil, "", a.Path)
		if err != nil || !ok {
			return err
		}
		return redoMove(d, name, s.aside, slotName(a.Slot), a.ID)
	case actMkdir, actPlace:
		if s.fresh == nil {
			return nil
		}
		d, name, ok, err := s.locate(nil, "", a.Path)
		if err != nil || !ok {
			return err
		}
		return redoMove(s.fresh, slotName(a.Slot), d, name, a.ID)
	case actRename:
		fd, fname, ok, err := s.locate(nil, "", a.From)
		if err != nil || !ok {
			return err
		}
		d, name, ok, err := s.locate(nil, "", a.Path)
		if err != nil || !ok {
			return err
		}
		return redoMove(fd, fname, d, name, a.ID)
	}
	return fmt.Errorf("apply: unknown action %q", a.Op)
}

// redoMove moves fromName to toName when fromName is, by identity, id and
// toName is free; otherwise it does nothing (the move was made, or the
// tree no longer holds what it moved).
func redoMove(from *fsroot.Dir, fromName string, to *fsroot.Dir, toName string, id ident) error {
	e, err := from.Lstat(fromName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	if !id.is(e) {
		return nil
	}
	if _, err := to.Lstat(toName); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	err = move(from, fromName, to, toName, id, true)
	if errors.Is(err, ErrChanged) {
		return nil // swapped since the check: not the entry journaled
	}
	return err
}
