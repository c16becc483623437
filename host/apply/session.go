package apply

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/host/pathrule"
)

// LockName is the lock file earlier hosts created beneath the root (this
// one locks the root directory itself and creates no file for it);
// StagingPrefix begins the name of every staging directory. Both stay the
// host's: a plan naming them (under any spelling the filesystem might fold
// together) is refused, so a plan cannot make a file an older host would
// lock on. They are defined once, in host/pathrule, whose Validate
// refuses them too.
const (
	LockName      = pathrule.LockName
	StagingPrefix = pathrule.StagingPrefix
)

// Bodies supplies the decoded content of write intents by plan index;
// *plan.Plan implements it.
type Bodies interface {
	Body(i int) ([]byte, error)
}

// Options configure a Session. The zero value is usable: no observer, no
// remote executor (fetch and clone fail and roll back).
type Options struct {
	Observer Observer
	Remote   Remote
	// Key authenticates the journal (LoadKey). A journal recovery finds
	// is executed only when it verifies under this key; with no key a
	// fresh one is drawn for this Session alone, so an apply interrupted
	// in it is never executed by another process, only reported.
	Key []byte
	// DryRun makes the Session read-only beneath the root once Begin's
	// recovery is done: Probe never writes (on a filesystem Inspect cannot
	// identify it returns ErrUnidentified) and Commit refuses.
	DryRun bool

	hooks *hooks // tests only
}

// hooks let tests fail an apply at a chosen point and stop it there.
type hooks struct {
	// fail is consulted before each step's staging ("stage"), before each
	// change to the tree ("act"), before content is renamed into place
	// ("place"), and before the flush that follows the commit record
	// ("commit", intent -1); a non-nil error is injected as that step's
	// failure.
	fail func(phase string, intent int) error
	// point is called at every crash point, in order, with a running count.
	point func(n int, what string)
}

// Session is exclusive use of one root, from Begin to Close.
type Session struct {
	root      *fsroot.Root
	opts      Options
	unlock    func() error
	recovered RecoveryReport
	points    int
	// inspection and findings cache the first Inspect and Probe: every
	// staging directory is directly beneath the root, on the one
	// filesystem they describe.
	inspection *fsroot.Inspection
	findings   *fsroot.Findings
	// pending is the staging directory Probe observed the filesystem in,
	// kept for Commit to stage through; Close removes it when no Commit
	// took it.
	pending *pendingStage
}

// pendingStage is a staging directory made before Commit, with its
// journal's begin record written and no tag yet.
type pendingStage struct {
	name    string
	dir     *fsroot.Dir
	j       *journal
	restore func() // puts the root's times back, when nothing else changed
}

// Begin locks root (waiting while another apply holds it), then recovers
// whatever an interrupted apply left beneath it. The report of that
// recovery is Recovered. A recovery that fails is an error: nothing more
// may be applied to a tree in neither state.
func Begin(root *fsroot.Root, opts Options) (*Session, error) {
	unlock, err := root.Dir().LockSelf()
	if err != nil {
		return nil, fmt.Errorf("apply: lock root: %w", err)
	}
	if len(opts.Key) == 0 {
		opts.Key = make([]byte, keySize)
		if _, err := rand.Read(opts.Key); err != nil {
			unlock()
			return nil, err
		}
	}
	s := &Session{root: root, opts: opts, unlock: unlock}
	rep, err := s.recover()
	s.recovered = rep
	if err != nil {
		unlock()
		return nil, &RecoveryError{Report: rep, Err: err}
	}
	return s, nil
}

// Recovered reports what Begin's recovery did.
func (s *Session) Recovered() RecoveryReport { return s.recovered }

// Close removes the staging directory Probe made if no Commit used it, and
// releases the lock.
func (s *Session) Close() error {
	if s.unlock == nil {
		return nil
	}
	rerr := s.dropPending()
	err := s.unlock()
	s.unlock = nil
	return errors.Join(rerr, err)
}

// dropPending removes the staging directory Probe made and no Commit
// took, and puts the root's times back as they were before it.
func (s *Session) dropPending() error {
	ps := s.pending
	if ps == nil {
		return nil
	}
	s.pending = nil
	ps.j.close()
	ps.dir.Close()
	if err := s.root.Dir().RemoveAll(ps.name); err != nil {
		return fmt.Errorf("apply: remove staging: %w", err)
	}
	ps.restore()
	return nil
}

func (s *Session) observer() Observer {
	if s.opts.Observer == nil {
		return nopObserver{}
	}
	return s.opts.Observer
}

func (s *Session) point(what string) {
	s.points++
	if s.opts.hooks != nil && s.opts.hooks.point != nil {
		s.opts.hooks.point(s.points, what)
	}
}

func (s *Session) inject(phase string, intent int) error {
	if s.opts.hooks != nil && s.opts.hooks.fail != nil {
		return s.opts.hooks.fail(phase, intent)
	}
	return nil
}

// newStaging creates a fresh staging directory beneath the root and its
// journal, whose first record (begin, carrying tag) binds it to this root
// and this directory under the session's key, so that recovery can tell
// it from one planted in the tree. The record is not flushed: a staging
// directory lost with it held nothing of the tree's.
func (s *Session) newStaging(tag string) (string, *fsroot.Dir, *journal, error) {
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", nil, nil, err
	}
	name := StagingPrefix + hex.EncodeToString(id[:])
	rd := s.root.Dir()
	d, err := rd.MkdirOpen(name, 0o700)
	if err != nil {
		return "", nil, nil, fmt.Errorf("apply: create staging: %w", err)
	}
	j, err := s.startJournal(name, d, tag)
	if err != nil {
		d.Close()
		rd.RemoveAll(name)
		return "", nil, nil, fmt.Errorf("apply: start journal: %w", err)
	}
	return name, d, j, nil
}

// takeStaging is Commit's staging directory: the one Probe made, whose
// journal now records tag (a tag record, unflushed like the begin
// record), or a fresh one.
func (s *Session) takeStaging(tag string) (string, *fsroot.Dir, *journal, error) {
	ps := s.pending
	if ps == nil {
		return s.newStaging(tag)
	}
	s.pending = nil
	if tag != "" {
		if err := ps.j.write(record{Phase: phaseTag, Tag: tag}); err != nil {
			ps.j.close()
			ps.dir.Close()
			s.root.Dir().RemoveAll(ps.name)
			return "", nil, nil, fmt.Errorf("apply: journal: %w", err)
		}
	}
	return ps.name, ps.dir, ps.j, nil
}

func (s *Session) startJournal(name string, d *fsroot.Dir, tag string) (*journal, error) {
	binding, err := s.binding(name, d)
	if err != nil {
		return nil, err
	}
	j, err := createJournal(d, s.opts.Key, binding)
	if err != nil {
		return nil, err
	}
	if err := j.write(record{Phase: phaseBegin, Tag: tag}); err != nil {
		j.close()
		return nil, err
	}
	return j, nil
}

// binding is what the journal of staging directory d (named name) is
// valid for: this root and that directory, by identity.
func (s *Session) binding(name string, d *fsroot.Dir) ([]byte, error) {
	re, err := s.root.Dir().Stat()
	if err != nil {
		return nil, err
	}
	de, err := d.Stat()
	if err != nil {
		return nil, err
	}
	return journalBinding(re, de, name), nil
}

// FlushDevice is the filesystem Commit flushes whole (syncfs), after the
// Observer's Begin returns and before the first change to the tree: the
// root's, where the platform has syncfs (Linux). A record Begin writes to
// a file on it is durable before the tree changes without a flush of its
// own. The zero Device, elsewhere, covers no file.
func (s *Session) FlushDevice() durable.Device {
	if !s.root.HasSyncFS() {
		return durable.Device{}
	}
	return s.root.Device()
}

// Inspect is fsroot.Inspect of the root (once per Session): what the
// root's filesystem type says about how it compares names, read without
// writing anything.
func (s *Session) Inspect() fsroot.Inspection {
	if s.inspection == nil {
		in := fsroot.Inspect(s.root.Dir())
		s.inspection = &in
	}
	return *s.inspection
}

// ErrUnidentified is Probe's answer in a dry run (Options.DryRun) on a
// filesystem Inspect cannot identify: how it compares names could be
// learned only by writing beneath the root. The error names the
// filesystem and why; callers choose a relation that folds at least as
// much as any filesystem might (pathrule.ForFindings of every finding).
var ErrUnidentified = errors.New("apply: the root's filesystem cannot be identified without writing")

// Probe reports how the root's filesystem compares names (once per
// Session: Prepare's relation check reuses the findings).
// pathrule.ForFindings turns the result into the relation to validate
// under when the user asked for --fs auto.
//
// Where Inspect is conclusive (Linux, a filesystem in its table) that is
// the answer, and nothing is written. Otherwise the comparison is observed
// (fsroot.Probe) in a staging directory made now and kept for Commit to
// stage through, so that an apply makes one staging directory either way;
// Close removes it when no Commit took it, and puts the root's times back
// (its change time cannot be). In a dry run (Options.DryRun) nothing is
// written: the error is ErrUnidentified.
func (s *Session) Probe() (fsroot.Findings, error) {
	if s.findings != nil {
		return *s.findings, nil
	}
	if in := s.Inspect(); in.Conclusive {
		f := in.Findings
		s.findings = &f
		return f, nil
	} else if s.opts.DryRun {
		return fsroot.Findings{}, fmt.Errorf("%w: %s", ErrUnidentified, in.Why)
	}
	if s.unlock == nil {
		return fsroot.Findings{}, errUnlocked
	}
	rd := s.root.Dir()
	restore := rd.KeepTimes()
	name, d, j, err := s.newStaging("")
	if err != nil {
		return fsroot.Findings{}, err
	}
	s.pending = &pendingStage{name: name, dir: d, j: j, restore: restore}
	f, err := fsroot.Probe(d)
	if err != nil {
		s.dropPending()
		return f, err
	}
	s.findings = &f
	return f, nil
}

// Apply is Begin, Prepare, Commit and Close in one call. The error is
// non-nil when the plan was refused (a *rejection.Set or *rejection.Violation)
// or the root could not be locked or recovered; once Commit runs, the
// Result says how it ended.
func Apply(root *fsroot.Root, v *pathrule.Validated, bodies Bodies, opts Options) (Result, error) {
	s, err := Begin(root, opts)
	if err != nil {
		return Result{Trigger: -1}, err
	}
	defer s.Close()
	p, err := s.Prepare(v, bodies)
	if err != nil {
		return Result{Trigger: -1}, err
	}
	return s.Commit(p), nil
}

// reservedComponent reports whether c names the host's lock or staging
// under eq or under ASCII case folding: the one definition Validate uses.
func reservedComponent(eq pathrule.Equality, c string) bool { return pathrule.Reserved(eq, c) }

// RecoveryError is Begin's (and Recover's) failure to recover an
// interrupted apply: the tree is in neither state, and Report says which
// staging directory and journal tag were involved.
type RecoveryError struct {
	Report RecoveryReport
	Err    error
}

func (e *RecoveryError) Error() string { return e.Err.Error() }
func (e *RecoveryError) Unwrap() error { return e.Err }

var errUnlocked = errors.New("apply: session is closed")
