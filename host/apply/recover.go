package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/rejection"
)

// RecoveryReport says what recovery found and did.
type RecoveryReport struct {
	Kind Recovery
	// Staging is the name (beneath the root) of the staging directory
	// recovered, or "".
	Staging string
	// Tag is the Tagger's tag of the interrupted apply, when it had one.
	Tag string
	// Undone is the number of journaled changes examined for undo.
	Undone int
	// Untrusted names the staging directories found beneath the root
	// whose journal does not verify under this host's key (planted in the
	// tree, copied from elsewhere, or left by a host with another key).
	// They are left exactly as found, as evidence, and nothing in them is
	// executed; the caller must tell the user.
	Untrusted []string
}

// Recover locks root and recovers whatever an interrupted apply left: the
// pre-plan tree is restored when the journal's commit point was not
// reached, and the commit is completed when it was: each journaled change
// whose effect is missing from the tree (a change the commit record
// reached the disk without, when one syncfs flushed both) is redone from
// staging, then staging is discarded.
// Begin calls it for every apply; 'lola recover' calls it alone. key is
// the host's journal key (LoadKey): only journals that verify under it
// are executed.
func Recover(root *fsroot.Root, key []byte) (RecoveryReport, error) {
	s, err := Begin(root, Options{Key: key})
	if err != nil {
		var re *RecoveryError
		if errors.As(err, &re) {
			return re.Report, err
		}
		return RecoveryReport{Kind: RecoveryFailed}, err
	}
	defer s.Close()
	return s.Recovered(), nil
}

// recover runs with the lock held.
func (s *Session) recover() (RecoveryReport, error) {
	names, err := s.root.Dir().ReadNames()
	if err != nil {
		return RecoveryReport{Kind: RecoveryFailed}, err
	}
	rep := RecoveryReport{Kind: RecoveryNone}
	var untrusted []string
	for _, name := range names {
		if !isStagingName(name) {
			continue
		}
		r, err := s.recoverOne(name)
		if errors.Is(err, ErrJournalUnverified) {
			untrusted = append(untrusted, name)
			continue
		}
		if err != nil {
			r.Untrusted = untrusted
			return r, fmt.Errorf("apply: recover %s: %w", name, err)
		}
		if r.Kind > rep.Kind || rep.Kind == RecoveryNone {
			rep = r
		}
	}
	rep.Untrusted = untrusted
	return rep, nil
}

func (s *Session) recoverOne(name string) (RecoveryReport, error) {
	rep := RecoveryReport{Staging: name}
	dir, err := s.root.Dir().OpenDir(name)
	if len(rejection.All(err)) > 0 {
		// A symlink, a file, a mount point by a staging name: not a
		// directory this host made. Left alone, reported.
		return rep, fmt.Errorf("%w (%v)", ErrJournalUnverified, err)
	}
	if err != nil {
		rep.Kind = RecoveryFailed
		return rep, err
	}
	st := &stage{root: s.root, name: name, dir: dir}
	if names, err := dir.ReadNames(); err == nil && len(names) == 0 {
		// Empty: what a crash leaves between the last step of a discard
		// (the journal removed) and the directory's removal, or between
		// making a staging directory and its journal. It holds no change
		// and no evidence; it is removed.
		rep.Kind = RecoveryDiscarded
		if err := st.discard(); err != nil {
			rep.Kind = RecoveryFailed
			return rep, err
		}
		return rep, nil
	}
	// Nothing found in the root is trusted: the journal is executed only
	// when it verifies under the host key for this root and this very
	// directory. Anything else is left exactly as found.
	binding, err := s.binding(name, dir)
	if err != nil {
		st.closeDirs()
		rep.Kind = RecoveryFailed
		return rep, err
	}
	recs, err := readJournal(dir, s.opts.Key, binding)
	if err != nil {
		st.closeDirs()
		rep.Kind = RecoveryFailed
		return rep, err
	}
	var program []action
	committed, hasProgram := false, false
	for _, r := range recs {
		switch r.Phase {
		case phaseProgram:
			program, hasProgram = r.Actions, true
		case phaseCommit:
			committed = true
		case phaseBegin, phaseTag:
			if r.Tag != "" {
				rep.Tag = r.Tag
			}
		}
	}
	switch {
	case committed && hasProgram:
		// Staging's halves are gone when the crash came during the
		// discard, after the last flush: then nothing is missing.
		st.fresh, _ = openIfPresent(dir, freshName)
		st.aside, _ = openIfPresent(dir, asideName)
		var errs []error
		for i := range program {
			a := program[i]
			if err := st.redo(&a); err != nil {
				errs = append(errs, changeFail("redo "+a.Op, a.Path, err))
			}
		}
		if len(errs) > 0 {
			st.closeDirs()
			rep.Kind = RecoveryFailed
			return rep, errors.Join(errs...)
		}
		rep.Kind = RecoveryCompleted
	case committed:
		rep.Kind = RecoveryCompleted
	case !hasProgram:
		rep.Kind = RecoveryDiscarded // the tree was never touched
	default:
		// A half is gone only when a rollback's discard removed it, once
		// every change was undone; undo then finds nothing to move back.
		if st.fresh, err = openIfPresent(dir, freshName); err == nil {
			st.aside, err = openIfPresent(dir, asideName)
		}
		if err != nil {
			st.closeDirs()
			rep.Kind = RecoveryFailed
			return rep, err
		}
		var errs []error
		for i := len(program) - 1; i >= 0; i-- {
			a := program[i]
			rep.Undone++
			if err := st.undo(&a); err != nil {
				errs = append(errs, changeFail("undo "+a.Op, a.Path, err))
			}
		}
		if len(errs) > 0 {
			st.closeDirs()
			rep.Kind = RecoveryFailed
			return rep, errors.Join(errs...)
		}
		rep.Kind = RecoveryRolledBack
	}
	if err := st.discard(); err != nil {
		rep.Kind = RecoveryFailed
		return rep, err
	}
	return rep, nil
}

// openIfPresent opens the directory name in d, or returns nil when there
// is none.
func openIfPresent(d *fsroot.Dir, name string) (*fsroot.Dir, error) {
	sub, err := d.OpenDir(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return sub, err
}

// isStagingName reports whether name is exactly what newStaging creates
// (the prefix and 16 lower-case hex digits), so that recovery never
// removes an entry the host did not make.
func isStagingName(name string) bool {
	id, ok := strings.CutPrefix(name, StagingPrefix)
	if !ok || len(id) != 16 {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
