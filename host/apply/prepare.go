package apply

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// stage is the staging area of one apply: the staging directory and its
// two halves, fresh content (new/) and entries moved aside (aside/).
type stage struct {
	root      *fsroot.Root
	name      string
	dir       *fsroot.Dir
	fresh     *fsroot.Dir
	aside     *fsroot.Dir
	resolvers []*fsroot.Resolver
}

const (
	freshName = "new"
	asideName = "aside"
)

func (st *stage) closeDirs() {
	for _, d := range []*fsroot.Dir{st.fresh, st.aside, st.dir} {
		if d != nil {
			d.Close()
		}
	}
	for _, rs := range st.resolvers {
		rs.Close()
	}
	st.resolvers = nil
}

// discard removes the staging directory and everything in it (nothing,
// when none was made: a dry run creates none).
func (st *stage) discard() error { return st.discardWith(func(string) {}) }

// discardWith is discard, calling point between removing the journal and
// removing the directory. The journal goes last but one: a crash during
// the discard leaves a journal that still verifies (recovery tolerates
// the halves new/ and aside/ being gone, since each is removed only once
// nothing in it is needed), or an empty directory, which recovery
// removes.
func (st *stage) discardWith(point func(string)) error {
	st.closeDirs()
	if st.name == "" {
		return nil
	}
	name := st.name
	st.name = ""
	rd := st.root.Dir()
	d, err := rd.OpenDir(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, n := range []string{freshName, asideName, journalName} {
		if err = d.RemoveAll(n); err != nil {
			break
		}
	}
	d.Close()
	if err != nil {
		return err
	}
	point("discard journal")
	return rd.RemoveAll(name)
}

// ChangeKind says what a dry run would do to one path.
type ChangeKind string

// Change kinds, spelled as the dry-run diff prints them.
const (
	ChangeAdded    ChangeKind = "added"
	ChangeRemoved  ChangeKind = "removed"
	ChangeReplaced ChangeKind = "replaced"
	ChangeRenamed  ChangeKind = "renamed"
	ChangeNoop     ChangeKind = "unchanged"
)

// Change is one line of the tree diff of a prepared plan.
type Change struct {
	Kind    ChangeKind `json:"kind"`
	Intent  int        `json:"intent"`
	Op      schema.Op  `json:"op"`
	Path    string     `json:"path"`
	From    string     `json:"from,omitempty"`
	Dir     bool       `json:"dir,omitempty"`
	Size    int64      `json:"size"`               // bytes added (-1: not known until fetched)
	OldSize int64      `json:"old_size,omitempty"` // bytes removed or replaced
	Files   int        `json:"files,omitempty"`    // files in a removed subtree
}

// content is one step whose content is staged before the tree changes:
// in staging/new/<slot>, moved into place by its own action (place), or,
// nested, under its own name in a directory the apply makes (in), which
// carries it into place.
type content struct {
	step  pathrule.Step
	path  string
	slot  int
	place *action
	in    *node
	name  string
}

// Prepared is the proof that every path of a validated plan resolved
// beneath the root, holding the descriptors validation opened; Commit
// performs its changes through exactly those descriptors. Only
// Session.Prepare constructs one.
type Prepared struct {
	stage
	s        *Session
	eq       pathrule.Equality
	rs       *fsroot.Resolver
	bodies   Bodies
	program  []*action
	contents []content
	changes  []Change
	resolved []ResolvedIntent
	nodes    map[string]*node
	mkdirs   []*action // directories made in staging, then moved into place
	slots    int
	used     bool
}

// Changes is the tree diff the plan would make, in apply order.
func (p *Prepared) Changes() []Change { return append([]Change(nil), p.changes...) }

// Intents is what the observer's Begin receives: every intent with its
// resolved root-relative paths and content hash.
func (p *Prepared) Intents() []ResolvedIntent { return append([]ResolvedIntent(nil), p.resolved...) }

// Discard releases a Prepared without applying it (a dry run). Prepare
// made nothing on disk, so there is nothing to remove.
func (p *Prepared) Discard() error {
	if p.used {
		return nil
	}
	p.used = true
	p.rs.Close()
	p.closeOwned()
	return p.discard()
}

func (p *Prepared) closeOwned() {
	for _, n := range p.nodes {
		if n.owned && n.d != nil {
			n.d.Close()
			n.d = nil
		}
	}
}

// Prepare resolves every path of v beneath the root, refusing the plan
// whole when any path redirects (symlink, mount, reparse point), uses a
// file as a directory, names the host's own files, or contradicts the tree
// (a rename from nothing or onto something, a write over a directory).
// It also checks that v's relation does not distinguish names the root's
// filesystem treats as one (Probe), except in a dry run on a filesystem
// that cannot be identified without writing.
func (s *Session) Prepare(v *pathrule.Validated, bodies Bodies) (*Prepared, error) {
	if s.unlock == nil {
		return nil, errUnlocked
	}
	if v == nil {
		return nil, errors.New("apply: nil plan")
	}
	// Nothing is created here: staging is made by Commit, so a dry run
	// (Prepare, Changes, Discard) leaves no trace beneath the root.
	p := &Prepared{
		stage:  stage{root: s.root},
		s:      s,
		eq:     v.Equality(),
		rs:     s.root.NewResolver(),
		bodies: bodies,
		nodes:  map[string]*node{},
	}
	fail := func(err error) (*Prepared, error) {
		p.rs.Close()
		return nil, err
	}
	if err := p.checkRelation(); err != nil {
		return fail(err)
	}
	var set rejection.Set
	for _, step := range v.Steps() {
		err := p.plan(step)
		var vio *rejection.Violation
		switch {
		case err == nil:
		case errors.As(err, &vio):
			set.Add(vio)
		default:
			return fail(err)
		}
	}
	if err := set.Err(); err != nil {
		return fail(err)
	}
	return p, nil
}

// checkRelation refuses a relation that tells apart names the probe found
// to be one entry on this filesystem. In a dry run on a filesystem that
// cannot be identified without writing (ErrUnidentified) there are no
// findings and the check is skipped: nothing will be applied, and the
// apply checks it.
func (p *Prepared) checkRelation() error {
	f, err := p.s.Probe()
	if errors.Is(err, ErrUnidentified) {
		return nil
	}
	if err != nil {
		return err
	}
	eq := p.eq
	bad := f.CaseInsensitive && eq.Key("a") != eq.Key("A") ||
		f.NormalizationInsensitive && eq.Key("\u00e9") != eq.Key("e\u0301") ||
		f.IgnoresIgnorable && eq.Key("ab") != eq.Key("a\u200cb")
	if bad {
		return fmt.Errorf("%w: the plan was validated under %q, which distinguishes names this filesystem treats as one (probe: %+v); validate under --fs auto", ErrRelationMismatch, eq.Name(), f)
	}
	return nil
}

// ErrRelationMismatch: the plan's equality relation distinguishes names
// the root's filesystem treats as one, so its conflict checks are void there.
var ErrRelationMismatch = errors.New("apply: equality relation does not match the filesystem")

func ref(step pathrule.Step) rejection.IntentRef {
	return rejection.IntentRef{Index: step.Index(), Op: step.Op()}
}

// refuse turns an fsroot refusal (or a state contradiction) into a
// violation naming the step's intent.
// refuse names step in a rule's violation; an error that is not a rule's
// (an I/O failure) stays an error, which fails the prepare as the host's
// own fault rather than passing for a plan the rules refused.
func refuse(step pathrule.Step, err error) error {
	var v *rejection.Violation
	if errors.As(err, &v) {
		return rejection.New(v.Rule, v.Detail, ref(step))
	}
	return fmt.Errorf("intent #%d (%s): %w", step.Index(), step.Op(), err)
}

func (p *Prepared) nextSlot() int { p.slots++; return p.slots }

// baseNode is the node of a resolution's existing directory.
func (p *Prepared) baseNode(res *fsroot.Resolved) *node {
	comps := res.Components()
	rel := comps[:len(comps)-1-len(res.Create())]
	key := "B\x00" + p.pathKey(rel)
	if n, ok := p.nodes[key]; ok {
		return n
	}
	n := &node{d: res.Base(), rel: rel}
	p.nodes[key] = n
	return n
}

// pathKey is comps under the plan's relation.
func (p *Prepared) pathKey(comps []string) string {
	keys := make([]string, len(comps))
	for i, c := range comps {
		keys[i] = p.eq.Key(c)
	}
	return strings.Join(keys, "\x00")
}

// dirFor returns the node the final component of res lives in, emitting
// a mkdir action for each directory the host must create on the way.
func (p *Prepared) dirFor(step pathrule.Step, res *fsroot.Resolved) *node {
	n := p.baseNode(res)
	key := "B\x00" + p.pathKey(n.rel)
	for _, c := range res.Create() {
		key += "\x00" + p.eq.Key(c)
		if child, ok := p.nodes[key]; ok {
			n = child
			continue
		}
		child := &node{parent: n, name: c, rel: append(append([]string(nil), n.rel...), c), fresh: !res.AfterDelete()}
		p.nodes[key] = child
		a := &action{Op: actMkdir, Intent: step.Index(), Path: fsroot.Rel(child.rel), Slot: p.nextSlot(), at: n, atName: c, mk: child}
		p.program = append(p.program, a)
		p.mkdirs = append(p.mkdirs, a)
		n = child
	}
	return n
}

// plan resolves one step and appends its actions.
func (p *Prepared) plan(step pathrule.Step) error {
	paths := step.Paths()
	res := make([]*fsroot.Resolved, len(paths))
	for i, path := range paths {
		if reservedComponent(p.eq, path.Component(0)) {
			return rejection.New(schema.RulePathInvalid, path.Component(0)+" is reserved for the host", ref(step))
		}
		r, err := p.rs.Resolve(path, step.ExcusedPrefix(i))
		if err != nil {
			return refuse(step, err)
		}
		res[i] = r
	}
	ri := ResolvedIntent{Index: step.Index(), Op: step.Op()}
	for _, r := range res {
		ri.Paths = append(ri.Paths, r.Rel())
	}
	switch step.Op() {
	case schema.OpDelete:
		r := res[0]
		e := r.Entry()
		if r.AfterDelete() || len(r.Create()) > 0 || !e.Exists() {
			p.changes = append(p.changes, Change{Kind: ChangeNoop, Intent: step.Index(), Op: step.Op(), Path: r.Rel()})
			break
		}
		at := p.baseNode(r)
		a := &action{Op: actAside, Intent: step.Index(), Path: r.Rel(), Slot: p.nextSlot(), ID: identOf(e), at: at, atName: r.Name()}
		p.program = append(p.program, a)
		c := Change{Kind: ChangeRemoved, Intent: step.Index(), Op: step.Op(), Path: r.Rel(), Dir: e.Kind == fsroot.KindDir, OldSize: e.Size, Files: 1}
		if c.Dir {
			// The subtree is moved aside whole and later removed: a mount
			// inside it would make commit remove what the mount shows.
			var err error
			if c.OldSize, c.Files, err = scanSubtree(at.d, r.Name()); err != nil {
				return refuse(step, err)
			}
		}
		p.changes = append(p.changes, c)
	case schema.OpRename:
		from, to := res[0], res[1]
		fe := from.Entry()
		if len(from.Create()) > 0 || !fe.Exists() {
			return rejection.New(schema.RulePathInvalid, "rename source "+from.Rel()+" does not exist", ref(step))
		}
		if to.Entry().Exists() {
			return rejection.New(schema.RulePathInvalid, "rename target "+to.Rel()+" exists", ref(step))
		}
		fromNode := p.baseNode(from)
		toNode := p.dirFor(step, to)
		p.program = append(p.program, &action{Op: actRename, Intent: step.Index(), Path: to.Rel(), From: from.Rel(), ID: identOf(fe),
			at: toNode, atName: to.Name(), from: fromNode, fromName: from.Name()})
		p.changes = append(p.changes, Change{Kind: ChangeRenamed, Intent: step.Index(), Op: step.Op(), Path: to.Rel(), From: from.Rel(), Dir: fe.Kind == fsroot.KindDir, Size: fe.Size})
	case schema.OpWrite, schema.OpFetch, schema.OpClone:
		r := res[0]
		e := r.Entry()
		c := Change{Kind: ChangeAdded, Intent: step.Index(), Op: step.Op(), Path: r.Rel(), Size: -1, Dir: step.Op() == schema.OpClone}
		if step.Op() == schema.OpWrite {
			body, err := p.bodies.Body(step.Index())
			if err != nil {
				return rejection.New(schema.RulePlanEncoding, "content does not decode", ref(step))
			}
			sum := sha256.Sum256(body)
			ri.SHA256 = hex.EncodeToString(sum[:])
			c.Size = int64(len(body))
			if err := p.checkIfContent(step, r); err != nil {
				return refuse(step, err)
			}
			same, err := p.unchanged(step, r, body)
			if err != nil {
				return refuse(step, err)
			}
			if same {
				// A no-op: nothing is staged or moved; the intent is
				// still reported to the observer (Begin) as resolved.
				c.Kind, c.OldSize = ChangeNoop, e.Size
				p.changes = append(p.changes, c)
				break
			}
		}
		at := p.dirFor(step, r)
		if step.Op() == schema.OpWrite && at.fresh && !r.AfterDelete() && !e.Exists() {
			// Nested: written inside the new directory while it is still
			// in staging, and placed with it by its one checked move. A
			// module's many files in new directories cost no rename and
			// no journal entry each.
			at.nested = append(at.nested, placedWith{intent: step.Index(), path: r.Rel()})
			p.contents = append(p.contents, content{step: step, path: r.Rel(), in: at, name: r.Name()})
			p.changes = append(p.changes, c)
			break
		}
		if e.Exists() {
			if e.Kind != fsroot.KindFile || step.Op() == schema.OpClone {
				return rejection.New(schema.RulePathInvalid, r.Rel()+" exists and is not a file this intent may replace", ref(step))
			}
			p.program = append(p.program, &action{Op: actAside, Intent: step.Index(), Path: r.Rel(), Slot: p.nextSlot(), ID: identOf(e), at: at, atName: r.Name(), replace: true})
			c.Kind, c.OldSize = ChangeReplaced, e.Size
		}
		place := &action{Op: actPlace, Intent: step.Index(), Path: r.Rel(), Slot: p.nextSlot(), at: at, atName: r.Name()}
		p.program = append(p.program, place)
		p.contents = append(p.contents, content{step: step, path: r.Rel(), slot: place.Slot, place: place})
		p.changes = append(p.changes, c)
	default:
		return rejection.New(schema.RulePlanUnknownOp, "unknown op", ref(step))
	}
	p.resolved = append(p.resolved, ri)
	return nil
}

// scanSubtree totals the bytes and files beneath name in d, for the diff,
// refusing a subtree that holds a mount point or another device (symlinks
// inside are entries like any other: removed, never followed).
func scanSubtree(d *fsroot.Dir, name string) (int64, int, error) {
	sub, err := d.OpenDir(name)
	if err != nil {
		return 0, 0, err
	}
	defer sub.Close()
	names, err := sub.ReadNames()
	if err != nil {
		return 0, 0, err
	}
	var size int64
	files := 0
	for _, n := range names {
		e, err := sub.Lstat(n)
		if err != nil {
			return 0, 0, err
		}
		if e.Kind == fsroot.KindDir {
			s, f, err := scanSubtree(sub, n)
			if err != nil {
				return 0, 0, err
			}
			size, files = size+s, files+f
			continue
		}
		if e.Kind != fsroot.KindSymlink {
			if err := sub.CheckEntry(n); err != nil {
				return 0, 0, err
			}
		}
		size, files = size+e.Size, files+1
	}
	return size, files, nil
}

// unchanged reports whether the write step would leave r exactly as it is:
// a regular file (not a symlink, not another kind) whose executable bit
// matches the intent's (all its permission bits, when the intent names a
// mode) and whose content is body. The file is read
// through a descriptor opened without following anything, and that
// descriptor must be the entry resolution observed.
func (p *Prepared) unchanged(step pathrule.Step, r *fsroot.Resolved, body []byte) (bool, error) {
	e := r.Entry()
	if r.AfterDelete() || len(r.Create()) > 0 || e.Kind != fsroot.KindFile || e.Size != int64(len(body)) {
		return false, nil
	}
	exec := false
	if w := step.Intent().Write; w != nil {
		exec = w.Executable
		if w.Mode != "" && e.Mode.Perm() != w.FileMode() {
			return false, nil
		}
	}
	if (e.Mode&0o111 != 0) != exec {
		return false, nil
	}
	f, err := r.Base().OpenFile(r.Name())
	if err != nil {
		return false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(body)) {
		return false, err
	}
	if !sameFile(fi, e) {
		return false, nil
	}
	got := make([]byte, len(body)+1)
	n, err := io.ReadFull(f, got)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, err
	}
	return n == len(body) && bytes.Equal(got[:n], body), nil
}

// checkIfContent is a write's compare-and-swap (schema.Write.IfContent):
// it refuses the write, conflict.changed, unless the file at r is still
// what the write was computed from: no file for "absent", else a regular
// file whose bytes hash to the sha256 given, read through a descriptor
// opened without following anything that must be the entry resolution
// observed. A violation refuses the whole plan (Prepare), so nothing is
// applied. A write carrying no if_content passes.
//
// Non-guarantee: the check is made while preparing; an edit of the file
// in place (same inode) after it and before the commit moves the file
// aside is not noticed. Replacing the file is (the commit checks each
// entry's identity before moving it).
func (p *Prepared) checkIfContent(step pathrule.Step, r *fsroot.Resolved) error {
	w := step.Intent().Write
	if w == nil || w.IfContent == "" {
		return nil
	}
	if r.AfterDelete() {
		return rejection.New(schema.RulePlanMalformed, r.Rel()+": a write with if_content cannot lie at or beneath a path the same plan deletes (the file it was computed from would be gone first)", ref(step))
	}
	e := r.Entry()
	absent := len(r.Create()) > 0 || !e.Exists()
	changed := func(now string) error {
		return rejection.New(schema.RuleConflictChanged, r.Rel()+" "+now+" since the plan was computed from it: nothing was applied; run again to plan from it as it is now", ref(step))
	}
	if w.IfContent == schema.IfContentAbsent {
		if !absent {
			return changed("was created")
		}
		return nil
	}
	if absent {
		return changed("was removed")
	}
	if e.Kind != fsroot.KindFile {
		return changed("is no longer a regular file")
	}
	f, err := r.Base().OpenFile(r.Name())
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || !sameFile(fi, e) {
		return changed("was replaced")
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if "sha256:"+hex.EncodeToString(h.Sum(nil)) != w.IfContent {
		return changed("was changed")
	}
	return nil
}
