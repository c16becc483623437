package apply

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/schema"
)

// Commit applies p: it logs the resolved plan to the observer, stages all
// content, journals the program, flushes, makes every change through the
// descriptors Prepare opened, writes the commit point, flushes, and
// discards staging. Any failure before the commit point rolls back every
// change in reverse; the Result names the intent that triggered it. A
// Prepared is committed at most once.
//
// Where the root has syncfs (Linux) an apply of any size flushes twice:
// one syncfs after staging makes the staged content, the journal's
// program and whatever the observer's Begin wrote on the root's
// filesystem (FlushDevice) durable before the first change, and one
// syncfs after the commit record makes the changes and the commit record
// durable together. A commit record may therefore reach the disk before
// some of the changes it follows; recovery completes those from the
// journal (see Recover).
func (s *Session) Commit(p *Prepared) Result {
	res := s.commit(p)
	s.observer().Outcome(res)
	return res
}

func (s *Session) commit(p *Prepared) Result {
	if p == nil || p.used || p.s != s {
		return Result{Outcome: OutcomeRolledBack, Trigger: -1, Cause: errors.New("apply: plan is not prepared in this session")}
	}
	p.used = true
	defer p.rs.Close()
	defer p.closeOwned()
	if s.opts.DryRun {
		return Result{Outcome: OutcomeRolledBack, Trigger: -1, Cause: errors.New("apply: a dry-run session commits nothing")}
	}
	obs := s.observer()
	if err := obs.Begin(p.Intents()); err != nil {
		return Result{Outcome: OutcomeRolledBack, Trigger: -1, Cause: fmt.Errorf("apply: the plan could not be logged, so nothing was applied: %w", err)}
	}
	for _, c := range p.changes {
		if c.Kind == ChangeNoop {
			obs.Event(Event{Intent: c.Intent, Kind: EventNoop, Path: c.Path})
		}
	}
	if len(p.program) == 0 {
		// Nothing to change (every intent a no-op): no staging, no flush.
		if err := s.dropPending(); err != nil {
			return Result{Outcome: OutcomeRolledBack, Trigger: -1, Cause: err}
		}
		return Result{Outcome: OutcomeCommitted, Trigger: -1}
	}
	tag := ""
	if t, ok := obs.(Tagger); ok {
		tag = t.Tag()
	}
	name, dir, j, err := s.takeStaging(tag)
	if err != nil {
		return Result{Outcome: OutcomeRolledBack, Trigger: -1, Cause: err}
	}
	p.name, p.dir = name, dir
	defer j.close()
	for _, sub := range []struct {
		name string
		d    **fsroot.Dir
	}{{freshName, &p.fresh}, {asideName, &p.aside}} {
		if *sub.d, err = dir.MkdirOpen(sub.name, 0o700); err != nil {
			return s.rollback(p, nil, -1, "", err)
		}
	}
	s.point("begin")

	// Directories the plan needs are made in staging first (the writes
	// nested in them are staged inside) and moved into place like
	// content, so each one's identity is journaled before the tree
	// changes and undo never removes a directory it cannot prove is its
	// own.
	for _, a := range p.mkdirs {
		d, err := p.fresh.MkdirOpen(slotName(a.Slot), 0o755)
		if err != nil {
			return s.rollback(p, nil, a.Intent, opOf(p, a.Intent), err)
		}
		a.mk.d, a.mk.owned = d, true
		e, err := d.Stat()
		if err != nil {
			return s.rollback(p, nil, a.Intent, opOf(p, a.Intent), err)
		}
		a.ID = identOf(e)
	}
	// Stage: nothing in the tree changes yet. Content is not flushed file
	// by file: one syncfs below covers all of it, the journal and the
	// staging directories' entries.
	syncfs := s.root.HasSyncFS()
	for _, c := range p.contents {
		if err := s.inject("stage", c.step.Index()); err != nil {
			return s.rollback(p, nil, c.step.Index(), c.step.Op(), err)
		}
		if err := p.stageContent(s, c, !syncfs); err != nil {
			return s.rollback(p, nil, c.step.Index(), c.step.Op(), err)
		}
		obs.Event(Event{Intent: c.step.Index(), Kind: EventStaged, Path: c.path})
		s.point("staged")
	}
	for _, c := range p.contents {
		if c.step.Op() == schema.OpWrite {
			continue // identified as it was written (stageContent)
		}
		e, err := p.fresh.Lstat(slotName(c.slot))
		if err != nil {
			return s.rollback(p, nil, c.step.Index(), c.step.Op(), err)
		}
		c.place.ID = identOf(e)
	}
	if err := j.write(record{Phase: phaseProgram, Actions: p.actions()}); err != nil {
		return s.rollback(p, nil, -1, "", err)
	}
	if err := p.flushStaging(syncfs, j); err != nil {
		return s.rollback(p, nil, -1, "", err)
	}
	s.point("program")

	// Change the tree, one journaled action at a time.
	for i, a := range p.program {
		phase := "act"
		if a.Op == actPlace {
			phase = "place"
		}
		if err := s.inject(phase, a.Intent); err != nil {
			return s.rollback(p, p.program[:i], a.Intent, opOf(p, a.Intent), err)
		}
		s.point("before " + a.Op)
		if err := p.do(a); err != nil {
			return s.rollback(p, p.program[:i+1], a.Intent, opOf(p, a.Intent), err)
		}
		obs.Event(Event{Intent: a.Intent, Kind: eventOf(a), Path: a.Path})
		if a.Op == actMkdir {
			for _, w := range a.mk.nested {
				obs.Event(Event{Intent: w.intent, Kind: EventPlaced, Path: w.path})
			}
		}
		s.point("after " + a.Op)
	}
	if err := p.commitPoint(syncfs, j); err != nil {
		var tb *takeBackErr
		if errors.As(err, &tb) {
			return Result{Outcome: OutcomeRollbackFailed, Trigger: -1, Cause: tb.cause, RollbackErr: errors.New("the commit record could not be taken back")}
		}
		return s.rollback(p, p.program, -1, "", err)
	}
	// Past the commit point: discard staging. A crash here is completed
	// by the next recovery; nothing here needs to be flushed.
	p.fresh.Close()
	p.fresh = nil
	p.dir.RemoveAll(freshName)
	s.point("discard new")
	p.aside.Close()
	p.aside = nil
	p.dir.RemoveAll(asideName)
	s.point("discard aside")
	j.close()
	p.discardWith(s.point)
	s.point("discarded")
	return Result{Outcome: OutcomeCommitted, Trigger: -1}
}

// flushStaging makes staged content, the journal's program and the
// staging directory's entries durable before the tree is touched: one
// syncfs where there is one (which also covers whatever the observer's
// Begin wrote on the root's filesystem), else an fsync of the journal and
// of each directory (content was fsynced as it was written).
func (p *Prepared) flushStaging(syncfs bool, j *journal) error {
	if syncfs {
		return p.root.SyncFS()
	}
	if err := j.sync(); err != nil {
		return err
	}
	for _, a := range p.mkdirs {
		if len(a.mk.nested) > 0 {
			if err := a.mk.d.Sync(); err != nil {
				return err
			}
		}
	}
	for _, d := range []*fsroot.Dir{p.fresh, p.aside, p.dir, p.root.Dir()} {
		if err := d.Sync(); err != nil {
			return err
		}
	}
	return nil
}

// commitPoint makes every change and the journal's commit record durable.
// With syncfs: the commit record is written, then one syncfs flushes it
// with the changes (a crash in between may leave the record on disk
// without some of the changes: recovery redoes them from the journal).
// Without: each touched directory is fsynced, then the commit record is
// appended and fsynced. A commit record that may be on disk when this
// fails is taken back (truncated and flushed) before the caller undoes
// the changes, or a crash during the undo would be "completed"; when that
// fails too the error is a *takeBackErr.
func (p *Prepared) commitPoint(syncfs bool, j *journal) error {
	s := p.s
	if !syncfs {
		if err := p.flushTree(); err != nil {
			return err
		}
		s.point("flushed")
	}
	size, err := j.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if err = j.write(record{Phase: phaseCommit}); err == nil {
		s.point("commit")
		if err = s.inject("commit", -1); err == nil {
			if syncfs {
				err = p.root.SyncFS()
			} else {
				err = j.sync()
			}
		}
	}
	if err != nil {
		if terr := j.f.Truncate(size); terr != nil || j.sync() != nil {
			return &takeBackErr{cause: err}
		}
		return err
	}
	if syncfs {
		s.point("flushed")
	}
	return nil
}

// takeBackErr: the commit record could not be taken back after the
// commit point failed; the tree is in neither state.
type takeBackErr struct{ cause error }

func (e *takeBackErr) Error() string { return e.cause.Error() }

func opOf(p *Prepared, intent int) schema.Op {
	for _, r := range p.resolved {
		if r.Index == intent {
			return r.Op
		}
	}
	return ""
}

func eventOf(a *action) EventKind {
	switch a.Op {
	case actAside:
		if a.replace {
			return EventReplaced
		}
		return EventDeleted
	case actMkdir:
		return EventMkdir
	case actRename:
		return EventRenamed
	}
	return EventPlaced
}

func (p *Prepared) actions() []action {
	out := make([]action, len(p.program))
	for i, a := range p.program {
		out[i] = *a
	}
	return out
}

// stageContent writes one step's content into staging/new/<slot>, or,
// nested, under its own name into the staged directory that will carry
// it; a placed write's content is identified for the journal as it is
// written.
func (p *Prepared) stageContent(s *Session, c content, fsync bool) error {
	name := slotName(c.slot)
	switch c.step.Op() {
	case schema.OpWrite:
		body, err := p.bodies.Body(c.step.Index())
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if w := c.step.Intent().Write; w != nil {
			mode = w.FileMode() // exactly, not through the umask (fsroot.WriteNewFile)
		}
		if c.in != nil {
			_, err := c.in.d.WriteNewFile(c.name, mode, body, fsync)
			return err
		}
		// The identity journaled for the place action is the file
		// written, observed on its own descriptor.
		e, err := p.fresh.WriteNewFile(name, mode, body, fsync)
		if err != nil {
			return err
		}
		c.place.ID = identOf(e)
		return nil
	case schema.OpFetch:
		if s.opts.Remote == nil {
			return ErrNoRemote
		}
		f, err := p.fresh.CreateFile(name, 0o644)
		if err != nil {
			return err
		}
		err = s.opts.Remote.Fetch(c.step, f)
		if err == nil && fsync {
			err = durable.File(f)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	case schema.OpClone:
		if s.opts.Remote == nil {
			return ErrNoRemote
		}
		d, err := p.fresh.MkdirOpen(name, 0o755)
		if err != nil {
			return err
		}
		defer d.Close()
		path, _ := d.ProcPath()
		return s.opts.Remote.Clone(c.step, d, path)
	}
	return fmt.Errorf("apply: %s has no content", c.step.Op())
}

// flushTree makes every rename durable before the commit point, where
// there is no syncfs: an fsync of each directory the changes touched.
func (p *Prepared) flushTree() error {
	seen := map[*fsroot.Dir]bool{}
	for _, a := range p.program {
		for _, n := range []*node{a.at, a.from, a.mk} {
			if n != nil && n.d != nil && !seen[n.d] {
				seen[n.d] = true
				if err := n.d.Sync(); err != nil {
					return err
				}
			}
		}
	}
	return p.aside.Sync()
}

// rollback undoes done in reverse and reports the outcome.
func (s *Session) rollback(p *Prepared, done []*action, intent int, op schema.Op, cause error) Result {
	res := Result{Outcome: OutcomeRolledBack, Trigger: intent, TriggerOp: op, Cause: cause}
	var errs []error
	for i := len(done) - 1; i >= 0; i-- {
		a := done[i]
		if err := p.undo(a); err != nil {
			errs = append(errs, changeFail("undo "+a.Op, a.Path, err))
			continue
		}
		s.observer().Event(Event{Intent: a.Intent, Kind: EventUndone, Path: a.Path})
	}
	if len(errs) > 0 {
		res.Outcome = OutcomeRollbackFailed
		res.RollbackErr = errors.Join(errs...)
		p.closeDirs() // keep staging on disk for 'lola recover'
		return res
	}
	if err := p.discard(); err != nil {
		// The tree is pre-plan; only host scratch remains, which the next
		// recovery removes.
		res.Cause = errors.Join(cause, fmt.Errorf("staging not removed: %w", err))
	}
	return res
}
