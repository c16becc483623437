package apply

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/lola-pm/lola/host/fsroot"
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

	hooks *hooks // tests only
}

// hooks let tests fail an apply at a chosen point and stop it there.
type hooks struct {
	// fail is consulted before each step's staging ("stage"), before each
	// change to the tree ("act"), and before content is renamed into place
	// ("place"); a non-nil error is injected as that step's failure.
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
	// syncs counts the flushes to stable storage (fsync, syncfs) this
	// session asked for, for the test that bounds them per plan.
	syncs int
	// findings caches the first probe: every staging directory is directly
	// beneath the root, on the one filesystem the probe describes.
	findings *fsroot.Findings
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

// Close releases the lock.
func (s *Session) Close() error {
	if s.unlock == nil {
		return nil
	}
	err := s.unlock()
	s.unlock = nil
	return err
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

// Probe reports how the root's filesystem compares names, observed in a
// short-lived staging directory (once per Session: Prepare's relation
// check reuses the findings). pathrule.ForFindings turns the result into
// the relation to validate under when the user asked for --fs auto.
// The directory is removed before Probe returns; the root directory's
// modification time is put back as it was, so that a dry run leaves no
// trace.
func (s *Session) Probe() (fsroot.Findings, error) {
	if s.findings != nil {
		return *s.findings, nil
	}
	rd := s.root.Dir()
	restore := rd.KeepTimes()
	name, d, j, err := s.newStaging("")
	if err != nil {
		return fsroot.Findings{}, err
	}
	f, err := fsroot.Probe(d)
	j.close()
	d.Close()
	if rerr := rd.RemoveAll(name); err == nil {
		err = rerr
	}
	if err == nil {
		restore()
		s.findings = &f
	}
	return f, err
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
