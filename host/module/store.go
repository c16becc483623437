package module

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lola-pm/lola/host/hook"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema"
)

// ModulesDir is the store's directory under $LOLA_HOME.
const ModulesDir = "modules"

// Errors of the store's operations; test with errors.Is.
var (
	ErrExists   = errors.New("module already exists (use --force to replace it)")
	ErrNotFound = errors.New("no such module")
	// ErrHook: lola.yaml declares a hook whose script is not a regular
	// file inside the module. Refused at add, since no install could run it.
	ErrHook = errors.New("install hook does not name a regular file in the module")
)

// Store is the module store under one $LOLA_HOME.
type Store struct {
	home string
	dir  string
}

// OpenStore opens (creating, 0700) the store under home, the $LOLA_HOME
// directory (config.Home()).
func OpenStore(home string) (*Store, error) {
	dir := filepath.Join(home, ModulesDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("module store: %w", errpath.Strip(err))
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("module store: %w", errpath.Strip(err))
	}
	if !fi.IsDir() {
		return nil, rejection.New(schema.RulePathSymlink, "$LOLA_HOME/"+ModulesDir+" is not a directory (a symbolic link?)")
	}
	return &Store{home: home, dir: dir}, nil
}

// Module is one stored module. Its directories are host paths: hand them
// to host code (hooks), never to an extension.
type Module struct {
	name   Name
	dir    string
	layout Layout
}

// Name is the module's name.
func (m *Module) Name() Name { return m.name }

// Dir is the module's root directory (a host path).
func (m *Module) Dir() string { return m.dir }

// ContentDir is the module's content directory: Dir()/module or Dir().
func (m *Module) ContentDir() string {
	if m.layout.ContentDir == "" {
		return m.dir
	}
	return filepath.Join(m.dir, filepath.FromSlash(m.layout.ContentDir))
}

// Layout is what the module holds.
func (m *Module) Layout() Layout { return m.layout }

// Schema returns the module as an extension receives it: its name, an
// empty version (the store records none yet), ReadFiles of its content
// directory under b, and its Inventory over those files.
func (m *Module) Schema(b Bounds) (schema.Module, error) {
	files, err := ReadFiles(m.ContentDir(), b)
	if err != nil {
		return schema.Module{}, fmt.Errorf("module %s: %w", m.name, err)
	}
	return schema.Module{Name: m.name.String(), Files: files, Inventory: m.layout.Inventory(files)}, nil
}

// Get loads the stored module called name.
func (s *Store) Get(name Name) (*Module, error) {
	if name.IsZero() {
		return nil, ErrName
	}
	dir := filepath.Join(s.dir, name.String())
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, name)
	}
	if err != nil {
		return nil, errpath.Strip(err)
	}
	if !fi.IsDir() {
		return nil, rejection.New(schema.RulePathSymlink, "module "+name.String()+" is not a directory in the store (a symbolic link?)")
	}
	l, err := discoverStored(dir, name.String())
	if err != nil {
		return nil, fmt.Errorf("module %s: %w", name, err)
	}
	return &Module{name: name, dir: dir, layout: l}, nil
}

// discoverStored reads the layout of the stored module rooted at dir: its
// content is the directory its .lola/source.yml records as
// content_dirname, under contentOf's rules (a module lola or today's Lola
// added with --module-content), else what Discover finds.
func discoverStored(dir, name string) (Layout, error) {
	si, ok, err := ReadSourceInfo(dir)
	if err != nil {
		return Layout{}, err
	}
	if !ok || si.ContentDirname == nil {
		return Discover(dir, name)
	}
	rel, _, err := contentOf(dir, *si.ContentDirname)
	if err != nil {
		return Layout{}, err
	}
	l, err := discoverContent(filepath.Join(dir, filepath.FromSlash(rel)), name)
	l.ContentDir = rel
	return l, err
}

// Listed is one entry of List: a module, or the reason a directory in the
// store could not be read as one.
type Listed struct {
	Name   string
	Module *Module // nil when Err is set
	Err    error
}

// List returns the stored modules in name order. Staging directories (dot
// names) are skipped; a directory that is not a valid module is listed
// with its error rather than hidden.
func (s *Store) List() ([]Listed, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, errpath.Strip(err)
	}
	var out []Listed
	for _, e := range entries { // os.ReadDir sorts by name
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		n, err := ParseName(e.Name())
		if err != nil {
			out = append(out, Listed{Name: e.Name(), Err: err})
			continue
		}
		m, err := s.Get(n)
		out = append(out, Listed{Name: e.Name(), Module: m, Err: err})
	}
	return out, nil
}

// Cloner clones a repository into an absent or empty directory;
// *remote.Client is one.
type Cloner interface {
	Clone(ctx context.Context, req remote.CloneRequest, dir string, obs remote.HopObserver) (remote.CloneReport, error)
}

// AddOptions configures Add.
type AddOptions struct {
	Name     Name    // zero: DeriveName of the source, or "module" for a folder or archive whose content is in module/ (contentName)
	Force    bool    // replace an existing module of that name
	Bounds   Bounds  // zero: DefaultBounds
	Ref      string  // git only: branch, tag, full ref or commit; "" the default branch
	Cloner   Cloner  // required for git sources
	Fetcher  Fetcher // required for archive URLs
	Observer remote.HopObserver
	// Content is the module's content directory inside the source: a
	// relative slash path (a monorepo's packages/skills), or "/" (also
	// "." or "./") for the source's root; that directory is the content as
	// it is, a module/ folder in it being content like any other, as
	// today's Lola's --module-content has it. "" discovers it: module/
	// when present, else the root (for an archive, also its one top-level
	// folder). With an explicit content directory the whole source is
	// stored, as today's Lola stores it (a hook may use files beside the
	// content), and the directory is recorded as the module's
	// .lola/source.yml content_dirname, which Get reads back.
	Content string
}

// Added reports a completed Add.
type Added struct {
	Module   *Module
	Replaced bool                // an existing module of that name was replaced
	Clone    *remote.CloneReport // git sources only
	Fetch    *remote.FetchReport // archive URLs only
}

// Add brings src into the store. The source is staged in full in a
// directory beside the store — every entry checked against the path
// vocabulary, the namespace rules and the bounds — and must be a module
// (ErrNotModule otherwise); only then is it renamed into place. On any
// error the store is as it was. An existing module of the same name is
// refused (ErrExists) unless o.Force, in which case the two directories
// are exchanged and the old one removed.
//
// An archive that is not itself a module but whose entries all lie under
// one top-level directory is unwrapped (the module is that directory, as
// GitHub's archive downloads need); an archive holding only skills/ or
// module/ is a module as it is.
//
// The stored module's .lola/source.yml is lola's record of the add, in
// today's Lola's keys (SourceInfo): whatever the source's own content had
// there is replaced before the module is placed, and it played no part in
// finding the content.
func (s *Store) Add(ctx context.Context, src Source, o AddOptions) (*Added, error) {
	if src.kind == sourceUnknown {
		return nil, errors.New("module: a Source must be built with ParseSource")
	}
	b := o.Bounds
	if !b.valid() {
		b = DefaultBounds()
	}
	name := o.Name
	// Without --name a folder or archive is named, as today's Lola names
	// it, after the directory its content is found in (contentName), known
	// only once staged; a git source after its repository.
	byContent := name.IsZero() && src.kind != SourceGit && o.Content == ""
	if name.IsZero() {
		n, err := DeriveName(src.raw)
		if err != nil && !byContent {
			return nil, fmt.Errorf("%w (name it with --name)", err)
		}
		name = n
	}
	if !byContent {
		if _, err := os.Lstat(filepath.Join(s.dir, name.String())); err == nil && !o.Force {
			return nil, fmt.Errorf("%s: %w", name, ErrExists)
		}
	}
	if src.kind == SourceFolder && overlaps(src.loc, s.dir) {
		return nil, errors.New("folder source: the folder holds, or lies inside, the module store")
	}
	s.sweep(time.Now())
	staging, err := os.MkdirTemp(s.dir, ".staging-")
	if err != nil {
		return nil, fmt.Errorf("module store: %w", errpath.Strip(err))
	}
	defer os.RemoveAll(staging)

	tree := filepath.Join(staging, "tree")
	st, err := newStager(tree, b)
	if err != nil {
		return nil, err
	}
	st.follow = true // a module source's links are copied under the source-link rule
	fetched, err := stageSource(ctx, src, staging, st, Remote{Requester: "lola mod add", Fetcher: o.Fetcher, Cloner: o.Cloner, Ref: o.Ref, Observer: o.Observer})
	added := &Added{Clone: fetched.Clone, Fetch: fetched.Fetch}
	if err != nil {
		return nil, fmt.Errorf("%s source: %w", src.kind, err)
	}
	content, rel, explicit, err := contentRoot(tree, o.Content)
	if err != nil {
		return nil, err
	}
	root := tree // the directory stored
	var l Layout
	if explicit {
		l, err = discoverContent(content, name.String())
		l.ContentDir = rel
	} else {
		l, err = Discover(root, name.String())
		if errors.Is(err, ErrNotModule) && src.archived() {
			if sub := singleDir(tree); sub != "" {
				root = sub
				l, err = Discover(root, name.String())
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if byContent {
		if n, ok := contentName(l); ok && n != name {
			name = n
			if l, err = Discover(root, name.String()); err != nil { // a single skill takes the module's name
				return nil, err
			}
		}
		if name.IsZero() {
			_, err := DeriveName(src.raw)
			return nil, fmt.Errorf("%w (name it with --name)", err)
		}
	}
	target := filepath.Join(s.dir, name.String())
	if err := checkHooks(root, l); err != nil {
		return nil, err
	}
	if err := writeSourceInfo(root, sourceInfoOf(src, o.Ref, o.Content)); err != nil {
		return nil, err
	}
	replaced, err := place(root, target, o.Force)
	if err != nil {
		return nil, err
	}
	added.Replaced = replaced
	added.Module = &Module{name: name, dir: target, layout: l}
	return added, nil
}

// contentName is the name today's Lola gives a folder or archive added
// without --name when it finds the content in a module/ folder as
// skills/<name>/SKILL.md or commands/*.md (the two things it looks for):
// the folder's name, "module". ok is false otherwise, and the source's own
// name (DeriveName) stays. Not followed: today's Lola also names an
// archive after its one top-level folder ("repo-1.2"), which would make
// each release of a module a new module; the archive's own name is kept.
func contentName(l Layout) (Name, bool) {
	if l.ContentDir != contentSubdir || l.SingleSkill || len(l.Skills)+len(l.Commands) == 0 {
		return Name{}, false
	}
	n, err := ParseName(contentSubdir)
	return n, err == nil
}

// overlaps reports whether a and b are the same directory or one lies
// inside the other, comparing resolved paths.
func overlaps(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return false
	}
	ra, _ = filepath.Abs(ra)
	rb, _ = filepath.Abs(rb)
	inside := func(p, dir string) bool {
		rel, err := filepath.Rel(dir, p)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	return inside(ra, rb) || inside(rb, ra)
}

// staleAfter is how old a staging or removal directory must be before an
// Add deletes it as the leftover of a killed lola: far longer than any add
// or remove takes, so a concurrent one's directory is never touched.
const staleAfter = 24 * time.Hour

// sweep removes staging and removal directories older than staleAfter.
func (s *Store) sweep(now time.Time) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || !(strings.HasPrefix(n, ".staging-") || strings.HasPrefix(n, ".removing-")) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > staleAfter {
			os.RemoveAll(filepath.Join(s.dir, n))
		}
	}
}

// checkHooks resolves every hook the layout declares inside the staged
// module, so a module whose hooks no install could run is never stored.
func checkHooks(root string, l Layout) error {
	content := root
	if l.ContentDir != "" {
		content = filepath.Join(root, filepath.FromSlash(l.ContentDir))
	}
	for _, h := range []struct {
		p      hook.Point
		script string
	}{{hook.PreInstall, l.Hooks.PreInstall}, {hook.PostInstall, l.Hooks.PostInstall}} {
		if h.script == "" {
			continue
		}
		if _, err := hook.Resolve(h.p, root, content, h.script); err != nil {
			var v *rejection.Violation
			if errors.As(err, &v) {
				return entryViolation(v.Rule, h.script, "declared as the "+h.p.String()+" hook: "+v.Detail)
			}
			return fmt.Errorf("%s hook %s: %w", h.p, quoteName(h.script), ErrHook)
		}
	}
	return nil
}

// commitRef reports whether r may name a commit (7 to 40 lower-case hex
// digits): such a ref is cloned in full, since a commit may not be
// reachable at depth 1.
func commitRef(r string) bool {
	if len(r) < 7 || len(r) > 40 {
		return false
	}
	for _, c := range r {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// singleDir returns tree's only entry when that is a directory, else "".
func singleDir(tree string) string {
	entries, err := os.ReadDir(tree)
	if err != nil || len(entries) != 1 || !entries[0].IsDir() {
		return ""
	}
	return filepath.Join(tree, entries[0].Name())
}

// place renames the staged module dir to target. Without force it never
// replaces an existing target (atomically on Linux). With force an
// existing target is exchanged with the staged directory, which then holds
// the old module and is removed.
func place(dir, target string, force bool) (replaced bool, err error) {
	err = renameNoReplace(dir, target)
	if err == nil {
		return false, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return false, fmt.Errorf("module store: %w", errpath.Strip(err))
	}
	if !force {
		return false, fmt.Errorf("%s: %w", filepath.Base(target), ErrExists)
	}
	if err := exchange(dir, target); err != nil {
		return false, fmt.Errorf("module store: replacing %s: %w", filepath.Base(target), errpath.Strip(err))
	}
	os.RemoveAll(dir) // now the old module
	return true, nil
}

// Remove deletes the stored module called name. The directory is first
// renamed out of the store, so the module disappears at once, then
// deleted. Whether the module is still installed somewhere is not this
// package's to know: host/install.RemoveModule refuses that first.
func (s *Store) Remove(name Name) error {
	if name.IsZero() {
		return ErrName
	}
	// Only existence is checked: a directory that no longer reads as a
	// module can still be removed, so its layout is not discovered.
	if _, err := os.Lstat(filepath.Join(s.dir, name.String())); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNotFound, name)
	}
	trash, err := os.MkdirTemp(s.dir, ".removing-")
	if err != nil {
		return errpath.Strip(err)
	}
	defer os.RemoveAll(trash)
	if err := os.Rename(filepath.Join(s.dir, name.String()), filepath.Join(trash, "m")); err != nil {
		return fmt.Errorf("module store: %w", errpath.Strip(err))
	}
	return nil
}
