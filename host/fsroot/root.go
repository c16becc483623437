package fsroot

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// ErrUnsupported is returned by an operation this platform cannot perform
// (for example an atomic exchange); callers fall back to a two-step form.
var ErrUnsupported = errors.New("fsroot: operation not supported on this platform")

// Kind is what a directory entry is, as seen without following it.
type Kind uint8

// Entry kinds. KindNone means the entry does not exist.
const (
	KindNone Kind = iota
	KindFile
	KindDir
	KindSymlink
	KindOther
)

var kindNames = [...]string{KindNone: "none", KindFile: "file", KindDir: "dir", KindSymlink: "symlink", KindOther: "other"}

// String returns the kind's spelling ("none", "file", "dir", "symlink", "other").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(?)"
}

// Entry is the state of one name in a directory, observed without following it.
type Entry struct {
	Kind Kind
	Ino  uint64 // inode (file index on Windows); unique among live files of one filesystem
	Dev  uint64 // device (volume serial on Windows)
	Mode fs.FileMode
	Size int64
	// Btime is the birth time (Unix nanoseconds) where the platform and
	// filesystem report one (Linux statx STATX_BTIME, macOS), else 0.
	Btime int64
}

// Same reports whether e and o are observations of one file: same device,
// same inode and, when both carry one, the same birth time. An inode
// number alone is not an identity: ext4 hands a freed number to the next
// file made (unlink then mkdir yields the same st_ino), so a swapped-in
// entry can carry the validated entry's number. Non-guarantee: where no
// birth time is reported (some filesystems, Windows), Same is device and
// inode only.
func (e Entry) Same(o Entry) bool {
	return e.Kind != KindNone && e.Dev == o.Dev && e.Ino == o.Ino &&
		(e.Btime == 0 || o.Btime == 0 || e.Btime == o.Btime)
}

// Exists reports whether the entry names something.
func (e Entry) Exists() bool { return e.Kind != KindNone }

// RenameFlags select the atomic form of Rename.
type RenameFlags uint8

const (
	// NoReplace fails with fs.ErrExist when the target exists.
	NoReplace RenameFlags = 1 << iota
	// Exchange atomically swaps source and target; both must exist.
	Exchange
)

// Resolved is the proof that a plan path was resolved beneath the root: the
// descriptor of the deepest directory that exists for it, the components
// beneath that directory the host must create as directories, and the final
// name with its observed state. Only Resolver.Resolve constructs one.
type Resolved struct {
	comps  []string
	base   *Dir
	create []string
	name   string
	entry  Entry
	after  bool
}

// Rel is the root-relative path this resolution is for.
func (r *Resolved) Rel() string { return Rel(r.comps) }

// Components is the resolved path's components.
func (r *Resolved) Components() []string { return append([]string(nil), r.comps...) }

// Base is the deepest existing directory on the path (borrowed: the
// Resolver owns it and closes it).
func (r *Resolved) Base() *Dir { return r.base }

// Create lists the components beneath Base that do not exist (or will not
// after a staged delete) and that the host creates as directories, in order.
func (r *Resolved) Create() []string { return append([]string(nil), r.create...) }

// Name is the final component.
func (r *Resolved) Name() string { return r.name }

// Entry is the final component's pre-plan state. It is KindNone when a
// component to create precedes it or when a staged delete removes it first.
func (r *Resolved) Entry() Entry { return r.entry }

// AfterDelete reports whether the path (or a prefix) is removed by a staged
// delete before anything else happens to it (an excused path).
func (r *Resolved) AfterDelete() bool { return r.after }

// Rel is the root-relative spelling of the components comps, for
// diagnostics and journals. It never carries the root's absolute name.
func Rel(comps []string) string {
	if len(comps) == 0 {
		return "."
	}
	return strings.Join(comps, "/")
}

func violation(rule schema.Rule, detail string) error {
	return rejection.New(rule, detail)
}

// reject wraps a refusal for the root-relative prefix rel.
func reject(rule schema.Rule, rel string) error {
	switch rule {
	case schema.RulePathSymlink:
		return violation(rule, rel+" is a symbolic link")
	case schema.RulePathCrossDevice:
		return violation(rule, rel+" is on another device or a mount point")
	case schema.RulePathNotDirectory:
		return violation(rule, rel+" is not a directory")
	case schema.RulePathReparsePoint:
		return violation(rule, rel+" is a reparse point")
	case schema.RulePathTraversal:
		return violation(rule, rel+" escapes the root")
	}
	return violation(rule, rel)
}

// Path is what Resolve needs of a plan path: its components, already
// checked by the lexical vocabulary (pathrule.Path satisfies it).
type Path interface{ Components() []string }

// Resolver resolves plan paths beneath one Root, caching the directory
// descriptors it opens so that paths sharing a parent share its descriptor.
// Close releases them all. A Resolver is not safe for concurrent use.
type Resolver struct {
	root  *Root
	dirs  map[string]*Dir // root-relative prefix -> open descriptor
	known map[string]bool // prefixes known not to exist
}

// NewResolver returns a resolver beneath r.
func (r *Root) NewResolver() *Resolver {
	return &Resolver{root: r, dirs: map[string]*Dir{}, known: map[string]bool{}}
}

// Close closes every descriptor the resolver opened. Resolved values it
// produced must not be used afterwards.
func (rs *Resolver) Close() error {
	var first error
	for k, d := range rs.dirs {
		if err := d.Close(); err != nil && first == nil {
			first = err
		}
		delete(rs.dirs, k)
	}
	return first
}

// dirAt returns the descriptor of the existing directory comps, or
// (nil, n, nil) when only the first n components exist.
func (rs *Resolver) dirAt(comps []string) (*Dir, int, error) {
	if len(comps) == 0 {
		return rs.root.dir, 0, nil
	}
	key := Rel(comps)
	if d, ok := rs.dirs[key]; ok {
		return d, len(comps), nil
	}
	if !rs.known[key] {
		// Fast path: the whole prefix in one resolution from the root.
		d, err := rs.root.dir.openDirPath(comps)
		if err == nil {
			rs.dirs[key] = d
			return d, len(comps), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, 0, rs.root.dir.narrowRefusal(comps, err)
		}
		rs.known[key] = true
	}
	// Something is missing: find the deepest existing prefix.
	return rs.dirAt(comps[:len(comps)-1])
}

// Resolve resolves p beneath the root. excused is the length of the path of
// the delete intent that excuses p (0 when none): the first excused
// components are resolved against the pre-plan tree like any other path,
// and the components beneath are not resolved at all — they are reported by
// Create (the deleted path itself included) for the host to make as
// directories after the delete is staged, relative to the descriptor of the
// deleted path's parent.
//
// A missing component is not an error: it and everything beneath it are
// reported by Create. A symlink, a mount point, a reparse point or a
// non-directory used as a directory anywhere in the resolved part is a
// *rejection.Violation.
func (rs *Resolver) Resolve(p Path, excused int) (*Resolved, error) {
	comps := p.Components()
	n := len(comps)
	if err := checkComponents(comps); err != nil {
		return nil, err
	}
	if excused < 0 || excused > n {
		return nil, errors.New("fsroot: excused prefix length out of range")
	}
	// The pre-plan part: everything for an ordinary path, the deleted path
	// (parent and final component) for an excused one.
	check := n
	if excused > 0 {
		check = excused
	}
	parentComps := comps[:check-1]
	base, have, err := rs.dirAt(parentComps)
	if err != nil {
		return nil, err
	}
	res := &Resolved{comps: comps, base: base, name: comps[n-1]}
	if have < len(parentComps) {
		// A prefix is missing: nothing beneath it exists either.
		res.create = append(res.create, comps[have:n-1]...)
		res.after = excused > 0
		return res, nil
	}
	// The last checked component must exist as it is claimed to, and must
	// not redirect resolution.
	e, err := rs.root.checkFinal(base, comps[:check])
	if err != nil {
		return nil, err
	}
	if excused > 0 {
		// Beneath a staged delete nothing remains: the deleted path and
		// every component under it are created by the host.
		res.create = append(res.create, comps[check-1:n-1]...)
		res.after = true
		return res, nil
	}
	res.entry = e
	return res, nil
}

// checkComponents refuses what no root-relative path may hold. Defence in
// depth: pathrule refuses these lexically; a caller that skipped it must
// still not reach outside the root.
func checkComponents(comps []string) error {
	if len(comps) == 0 {
		return violation(schema.RulePathInvalid, "empty path")
	}
	for i, c := range comps {
		switch {
		case c == "" && i == 0:
			return violation(schema.RulePathAbsolute, "absolute path")
		case c == "..":
			return violation(schema.RulePathTraversal, "'..' component")
		case c == "" || c == "." || strings.ContainsAny(c, "/\x00"):
			return violation(schema.RulePathInvalid, "empty, '.' or separator-bearing component")
		}
	}
	return nil
}

// checkFinal observes the last component of comps (in directory base)
// without following it, refusing a symlink, a reparse point or a mount
// point there.
func (r *Root) checkFinal(base *Dir, comps []string) (Entry, error) {
	name := comps[len(comps)-1]
	e, err := base.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Entry{}, nil
		}
		return Entry{}, err
	}
	if e.Kind == KindSymlink {
		return Entry{}, reject(schema.RulePathSymlink, Rel(comps))
	}
	if err := base.checkNotRedirect(name, comps, r.dev); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// Parent resolves the directory holding p's final component against the
// current tree (no component created, none excused) and returns it with the
// final name. ok is false when a component of the parent does not exist.
// The final component itself is not examined. Recovery uses it to find the
// places a journal names.
func (rs *Resolver) Parent(p Path) (dir *Dir, name string, ok bool, err error) {
	comps := p.Components()
	if err := checkComponents(comps); err != nil {
		return nil, "", false, err
	}
	d, n, err := rs.dirAt(comps[:len(comps)-1])
	if err != nil {
		return nil, "", false, err
	}
	if n < len(comps)-1 {
		return nil, "", false, nil
	}
	return d, comps[len(comps)-1], true, nil
}

// CheckEntry refuses name in d when it is a symlink, or a mount point, or
// lies on another device (the checks resolution applies to a final
// component). A missing name is not an error.
func (d *Dir) CheckEntry(name string) error {
	e, err := d.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	rel := d.child(name)
	if e.Kind == KindSymlink {
		return reject(schema.RulePathSymlink, Rel(rel))
	}
	return d.checkNotRedirect(name, rel, d.dev)
}
