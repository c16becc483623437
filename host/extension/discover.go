package extension

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ExtensionsDir is the directory under $LOLA_HOME holding installed
// extensions, one directory per extension, named as the extension.
const ExtensionsDir = "extensions"

// Catalog is every extension discovery found, and every one it could not
// load. Only Discover constructs one.
type Catalog struct {
	exts     []*Extension // sorted by name
	problems []Problem    // sorted by Where
}

// ErrShadowedByBuiltin is the Problem of an installed extension named as a
// built-in (placed by hand, or by a lola that did not refuse the name):
// it loads, but the built-in is the one that runs. Callers may report it
// as a warning rather than a failure: nothing is broken, one directory is
// unused.
var ErrShadowedByBuiltin = errors.New("clashes with the built-in extension of the same name, which runs instead; refused")

// Problem is an extension discovery could not load: Where names it without
// a host path ("builtin claude-code", "home extensions/foo"), Err says why.
type Problem struct {
	Name   string // the directory or registered name
	Source Source
	Err    error
}

// Where renders the problem's location: "<source> <name>".
func (p Problem) Where() string {
	if p.Source == SourceHome {
		return "home " + ExtensionsDir + "/" + p.Name
	}
	return string(p.Source) + " " + p.Name
}

func (p Problem) Error() string { return p.Where() + ": " + p.Err.Error() }

// Extensions returns every loaded extension, sorted by name.
func (c *Catalog) Extensions() []*Extension { return append([]*Extension(nil), c.exts...) }

// Problems returns every extension that could not be loaded. A caller must
// report them: discovery never drops one silently.
func (c *Catalog) Problems() []Problem { return append([]Problem(nil), c.problems...) }

// Lookup returns the extension named name. When none loaded, the error says
// whether a problem kept one of that name from loading.
func (c *Catalog) Lookup(name string) (*Extension, error) {
	for _, e := range c.exts {
		if e.Name() == name {
			return e, nil
		}
	}
	for _, p := range c.problems {
		if p.Name == name {
			return nil, p
		}
	}
	return nil, fmt.Errorf("no extension named %s (see lola ext ls)", quote(name))
}

// Discover loads the built-in extensions (RegisterBuiltin) and each
// directory under home/extensions. Rules:
//   - a built-in's manifest name must equal its registered name;
//   - an installed extension is a directory (not a symlink) named as its
//     manifest's name, holding lola-extension.yaml; entries whose name
//     begins with "." are ignored, every other entry is loaded or reported;
//   - a name clash is refused: an installed extension named as a built-in
//     is a Problem and the built-in stays (a user directory cannot shadow
//     what the binary provides).
//
// An absent home/extensions is no installed extension. The error is for a
// directory that exists and cannot be read; per-extension failures are
// Problems.
func Discover(home string) (*Catalog, error) {
	c := &Catalog{}
	names := map[string]bool{}
	for _, name := range BuiltinNames() {
		e, err := loadBuiltin(name)
		if err == nil && e.Name() != name {
			err = fmt.Errorf("%s: name %s differs from the registered name", ManifestFile, quote(e.Name()))
		}
		if err != nil {
			c.problems = append(c.problems, Problem{Name: name, Source: SourceBuiltin, Err: err})
			continue
		}
		names[name] = true
		c.exts = append(c.exts, e)
	}
	lock, err := ReadLock(home)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(home, ExtensionsDir)
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read $LOLA_HOME/%s", ExtensionsDir)
	}
	for _, ent := range entries {
		name := ent.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		prob := func(err error) {
			c.problems = append(c.problems, Problem{Name: name, Source: SourceHome, Err: err})
		}
		switch {
		case ent.Type()&fs.ModeSymlink != 0:
			prob(errors.New("is a symbolic link; an installed extension must be a directory"))
			continue
		case !ent.IsDir():
			prob(errors.New("is not a directory"))
			continue
		case !ValidName(name):
			prob(fmt.Errorf("directory name is not an extension name (^[a-z][a-z0-9-]{0,62}$)"))
			continue
		}
		e, err := loadDir(filepath.Join(dir, name), SourceHome)
		switch {
		case err != nil:
			prob(err)
		case e.Name() != name:
			prob(fmt.Errorf("%s: name %s differs from the directory name", ManifestFile, quote(e.Name())))
		case names[name] && lock.Extensions[name] != nil:
			prob(fmt.Errorf("%w; lola ext rm %s removes it", ErrShadowedByBuiltin, name))
		case names[name]:
			prob(fmt.Errorf("%w; nothing pins it: delete $LOLA_HOME/%s/%s", ErrShadowedByBuiltin, ExtensionsDir, name))
		case lock.Extensions[name] != nil && lock.Extensions[name].Dev:
			prob(errors.New("is both installed and linked in the lock file; refused"))
		default:
			e.pin = lock.Extensions[name]
			names[name] = true
			c.exts = append(c.exts, e)
		}
	}
	c.discoverDev(lock, names)
	sort.Slice(c.exts, func(i, j int) bool { return c.exts[i].Name() < c.exts[j].Name() })
	sort.SliceStable(c.problems, func(i, j int) bool { return c.problems[i].Where() < c.problems[j].Where() })
	return c, nil
}

// discoverDev loads each linked development directory the lock names,
// afresh (a rebuild needs no copy). It never shadows a built-in or an
// installed extension.
func (c *Catalog) discoverDev(lock *Lock, names map[string]bool) {
	for _, name := range lock.Names() {
		ent := lock.Extensions[name]
		if !ent.Dev {
			continue
		}
		prob := func(err error) {
			c.problems = append(c.problems, Problem{Name: name, Source: SourceDev, Err: err})
		}
		e, err := loadDev(ent.Dir)
		switch {
		case err != nil:
			prob(err)
		case e.Name() != name:
			prob(fmt.Errorf("%s: name %s differs from the linked name", ManifestFile, quote(e.Name())))
		case names[name]:
			prob(errors.New("clashes with a built-in or installed extension of the same name; refused"))
		default:
			e.pin = ent
			names[name] = true
			c.exts = append(c.exts, e)
		}
	}
}
