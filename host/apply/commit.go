package apply

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/schema"
)

// Commit applies p: it logs the resolved plan to the observer, stages all
// content, journals the program, makes every change through the
// descriptors Prepare opened, flushes, writes the commit point, and
// discards staging. Any failure before the commit point rolls back every
// change in reverse; the Result names the intent that triggered it. A
// Prepared is committed at most once.
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
	obs := s.observer()
	if err := obs.Begin(p.Intents()); err != nil {
		p.discard()
		return Result{Outcome: OutcomeRolledBack, Trigger: -1, Cause: fmt.Errorf("apply: the plan could not be logged, so nothing was applied: %w", err)}
	}
	j, err := createJournal(p.dir)
	if err != nil {
		p.discard()
		return Result{Outcome: OutcomeRolledBack, Trigger: -1, Cause: err}
	}
	defer j.close()
	tag := ""
	if t, ok := obs.(Tagger); ok {
		tag = t.Tag()
	}
	if err := j.append(record{Phase: phaseBegin, Tag: tag}); err != nil {
		p.discard()
		return Result{Outcome: OutcomeRolledBack, Trigger: -1, Cause: err}
	}
	// The journal's name and the staging directory's must survive a crash
	// as well as its content.
	if err := p.dir.Sync(); err != nil {
		return s.rollback(p, nil, -1, "", err)
	}
	if err := s.root.Dir().Sync(); err != nil {
		return s.rollback(p, nil, -1, "", err)
	}
	for _, c := range p.changes {
		if c.Kind == ChangeNoop {
			obs.Event(Event{Intent: c.Intent, Kind: EventNoop, Path: c.Path})
		}
	}
	s.point("begin")

	// Stage: nothing in the tree changes yet.
	// Asked, not tried: a trial syncfs here would flush the whole
	// filesystem once more for nothing.
	syncfs := s.root.HasSyncFS()
	for _, c := range p.contents {
		if err := s.inject("stage", c.step.Index()); err != nil {
			return s.rollback(p, nil, c.step.Index(), c.step.Op(), err)
		}
		if err := p.stageContent(s, c, !syncfs); err != nil {
			return s.rollback(p, nil, c.step.Index(), c.step.Op(), err)
		}
		obs.Event(Event{Intent: c.step.Index(), Kind: EventStaged, Path: c.place.Path})
		s.point("staged")
	}
	if syncfs {
		if err := s.root.SyncFS(); err != nil {
			return s.rollback(p, nil, -1, "", err)
		}
	}
	for _, c := range p.contents {
		e, err := p.fresh.Lstat(slotName(c.slot))
		if err != nil {
			return s.rollback(p, nil, c.step.Index(), c.step.Op(), err)
		}
		c.place.Ino = e.Ino
	}
	if err := j.append(record{Phase: phaseProgram, Actions: p.actions()}); err != nil {
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
		s.point("after " + a.Op)
	}
	if err := p.flushTree(syncfs); err != nil {
		return s.rollback(p, p.program, -1, "", err)
	}
	s.point("flushed")
	size, _ := j.f.Seek(0, io.SeekCurrent)
	if err := j.append(record{Phase: phaseCommit}); err != nil {
		// The commit record may or may not be on disk: take it back
		// before undoing, or a crash during the undo would be "completed".
		if terr := j.f.Truncate(size); terr != nil || j.f.Sync() != nil {
			return Result{Outcome: OutcomeRollbackFailed, Trigger: -1, Cause: err, RollbackErr: errors.New("the commit record could not be taken back")}
		}
		return s.rollback(p, p.program, -1, "", err)
	}
	s.point("commit")
	// Past the commit point: discard staging. A crash here is completed
	// by the next recovery.
	p.fresh.Close()
	p.fresh = nil
	p.dir.RemoveAll(freshName)
	s.point("discard new")
	p.aside.Close()
	p.aside = nil
	p.dir.RemoveAll(asideName)
	s.point("discard aside")
	j.close()
	p.discard()
	s.point("discarded")
	return Result{Outcome: OutcomeCommitted, Trigger: -1}
}

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

// stageContent writes one step's content into staging/new/<slot>.
func (p *Prepared) stageContent(s *Session, c content, fsync bool) error {
	name := slotName(c.slot)
	switch c.step.Op() {
	case schema.OpWrite:
		body, err := p.bodies.Body(c.step.Index())
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if w := c.step.Intent().Write; w != nil && w.Executable {
			mode = 0o755
		}
		f, err := p.fresh.CreateFile(name, mode)
		if err != nil {
			return err
		}
		_, err = f.Write(body)
		if err == nil && fsync {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
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
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	case schema.OpClone:
		if s.opts.Remote == nil {
			return ErrNoRemote
		}
		if err := p.fresh.Mkdir(name, 0o755); err != nil {
			return err
		}
		d, err := p.fresh.OpenDir(name)
		if err != nil {
			return err
		}
		defer d.Close()
		path, _ := d.ProcPath()
		return s.opts.Remote.Clone(c.step, d, path)
	}
	return fmt.Errorf("apply: %s has no content", c.step.Op())
}

// flushTree makes every rename durable before the commit point.
func (p *Prepared) flushTree(syncfs bool) error {
	if syncfs {
		return p.root.SyncFS()
	}
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
