package apply

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
)

// LockName is the lock file beneath the root; StagingPrefix begins the
// name of every staging directory. Both are the host's: a plan naming them
// (under any spelling the filesystem might fold together) is refused. They
// are defined once, in host/pathrule, whose Validate refuses them too.
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
	// findings caches the first probe: every staging directory is directly
	// beneath the root, on the one filesystem the probe describes.
	findings *fsroot.Findings
}

// Begin locks root (waiting while another apply holds it), then recovers
// whatever an interrupted apply left beneath it. The report of that
// recovery is Recovered. A recovery that fails is an error: nothing more
// may be applied to a tree in neither state.
func Begin(root *fsroot.Root, opts Options) (*Session, error) {
	unlock, err := root.Dir().Lock(LockName)
	if err != nil {
		return nil, fmt.Errorf("apply: lock root: %w", err)
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

// newStaging creates a fresh staging directory beneath the root.
func (s *Session) newStaging() (string, *fsroot.Dir, error) {
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", nil, err
	}
	name := StagingPrefix + hex.EncodeToString(id[:])
	rd := s.root.Dir()
	if err := rd.Mkdir(name, 0o700); err != nil {
		return "", nil, fmt.Errorf("apply: create staging: %w", err)
	}
	d, err := rd.OpenDir(name)
	if err != nil {
		rd.Rmdir(name)
		return "", nil, fmt.Errorf("apply: open staging: %w", err)
	}
	return name, d, nil
}

// Probe reports how the root's filesystem compares names, observed in a
// short-lived staging directory (once per Session: Prepare's relation
// check reuses the findings). pathrule.ForFindings turns the result into
// the relation to validate under when the user asked for --fs auto.
func (s *Session) Probe() (fsroot.Findings, error) {
	if s.findings != nil {
		return *s.findings, nil
	}
	name, d, err := s.newStaging()
	if err != nil {
		return fsroot.Findings{}, err
	}
	defer func() {
		d.Close()
		s.root.Dir().RemoveAll(name)
	}()
	return s.probeIn(d)
}

// probeIn probes in scratch, a directory directly beneath the root, unless
// an earlier probe of this session already did.
func (s *Session) probeIn(scratch *fsroot.Dir) (fsroot.Findings, error) {
	if s.findings != nil {
		return *s.findings, nil
	}
	f, err := fsroot.Probe(scratch)
	if err != nil {
		return fsroot.Findings{}, err
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
