// Package modsource remembers where each module in the store came from, so
// that `lola mod update` can fetch it again and `lola install NAME@REF` can
// re-fetch a git module at another ref. One small YAML file per module,
// $LOLA_HOME/sources/NAME.yml, outside the module's own content (a module
// cannot forge or carry its own source record).
//
// Guarantees:
//   - Write replaces the record atomically (a temporary file renamed over
//     it); a reader sees the old record or the new one.
//   - Read decodes strictly (unknown keys refused, at most 16 KiB) and
//     re-checks the source through module.ParseSource's rules when it is
//     used (Update), so a hand-edited record cannot widen what is fetched.
//   - Update re-adds through Store.Add with Force: the new content is
//     staged and checked in full and replaces the old in one exchange; a
//     refused update leaves the module as it was.
//
// Which record is trusted for what. This package's own record, outside
// the module, is the one read whenever it exists. A module today's Lola
// added has none; its source record is the module's .lola/source.yml
// (module.SourceInfoFile), which today's Lola writes at every add and
// update, as lola now does too (module.Store.Add replaces whatever a
// source ships there, so a module's content never supplies it). Read
// adopts that file only when there is no record of ours (Record.Upstream
// says so): its type must be one lola fetches, and Update parses its
// source again with module.ParseSource and refuses a source whose kind is
// not the recorded type, so the file can name nothing a user could not
// have passed to 'lola mod add'. After an update the record is ours.
//
// Non-guarantees: a module with neither record (added by an early lola,
// or copied into the store by hand) cannot be updated: Update says so
// (ErrNoRecord) and the user adds it again. A .lola/source.yml in a module
// an early lola stored from a source that shipped one is read as today's
// Lola's when no record of ours exists; its source still passes the
// checks above, and its content directory module.Store.Get's rules.
package modsource

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/lola-pm/lola/host/internal/strictyaml"
	"github.com/lola-pm/lola/host/module"
)

// Dir is the records' directory under $LOLA_HOME.
const Dir = "sources"

const maxRecord = 16 << 10

// ErrNoRecord: the module has no source record.
var ErrNoRecord = errors.New("no source recorded (add it again with lola mod add)")

// Record is where a module came from.
type Record struct {
	Source string `yaml:"source" json:"source"`                     // absolute local path, or the git or archive URL
	Kind   string `yaml:"kind" json:"kind"`                         // folder, zip, tar, git, archive-url
	Ref    string `yaml:"ref,omitempty" json:"ref,omitempty"`       // git: the ref asked for ("" the default branch)
	Commit string `yaml:"commit,omitempty" json:"commit,omitempty"` // git: the commit last fetched
	// Content is the module's directory inside the source
	// (module.AddOptions.Content); "" the root.
	Content string `yaml:"content,omitempty" json:"content,omitempty"`
	// Upstream is set when the record is the module's .lola/source.yml,
	// as today's Lola wrote it, for want of one of ours (never stored).
	Upstream bool `yaml:"-" json:"upstream,omitempty"`
}

func path(home string, name module.Name) string {
	return filepath.Join(home, Dir, name.String()+".yml")
}

// Of builds the record of a source as added: local paths are made
// absolute so that an update run elsewhere finds them.
func Of(src module.Source, ref, content string, added *module.Added) Record {
	r := Record{Source: src.Location(), Kind: src.Kind().String(), Ref: ref, Content: content}
	if !src.IsRemote() {
		if abs, err := filepath.Abs(r.Source); err == nil {
			r.Source = abs
		}
	}
	if added != nil && added.Clone != nil {
		r.Commit = added.Clone.Commit
	}
	return r
}

// Write stores the record of name, replacing any.
func Write(home string, name module.Name, r Record) error {
	dir := filepath.Join(home, Dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := yaml.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, werr := f.Write(b)
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		return werr
	}
	return os.Rename(tmp, path(home, name))
}

// Read returns the record of name: ours when there is one, else the
// module's .lola/source.yml as today's Lola wrote it (Upstream set), else
// ErrNoRecord.
func Read(home string, name module.Name) (Record, error) {
	f, err := os.Open(path(home, name))
	if errors.Is(err, fs.ErrNotExist) {
		return readUpstream(home, name)
	}
	if err != nil {
		return Record{}, err
	}
	defer f.Close()
	var r Record
	if err := strictyaml.Decode(f, maxRecord, &r); err != nil {
		return Record{}, fmt.Errorf("%s: %w", path(home, name), err)
	}
	return r, nil
}

// readUpstream adopts the .lola/source.yml of the stored module name.
func readUpstream(home string, name module.Name) (Record, error) {
	si, ok, err := module.ReadSourceInfo(filepath.Join(home, module.ModulesDir, name.String()))
	if err != nil {
		return Record{}, fmt.Errorf("%s: %w", name, err)
	}
	if !ok || si.Source == "" {
		return Record{}, fmt.Errorf("%s: %w", name, ErrNoRecord)
	}
	kind, known := module.SourceKindOfType(si.Type)
	if !known {
		return Record{}, fmt.Errorf("%s: %s: %w", name, module.SourceInfoFile, &typeError{si.Type})
	}
	r := Record{Source: si.Source, Kind: kind.String(), Ref: si.Ref, Upstream: true}
	if si.ContentDirname != nil {
		r.Content = *si.ContentDirname
		if r.Content == "" {
			r.Content = "/" // today's Lola reads an empty one as the root
		}
	}
	return r, nil
}

// ErrSourceType: a record's type is not one lola fetches, or is not the
// kind of the source it names.
var ErrSourceType = errors.New("source type")

type typeError struct{ t string }

func (e *typeError) Error() string {
	return fmt.Sprintf("source type %.40q is not git, folder, zip, tar, zipurl or tarurl", e.t)
}
func (e *typeError) Unwrap() error { return ErrSourceType }

// Remove forgets the record of name (absent is fine).
func Remove(home string, name module.Name) error {
	err := os.Remove(path(home, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// UpdateOptions configures Update.
type UpdateOptions struct {
	Ref     string         // "" keeps the recorded ref; a ref needs a git source
	Cloner  module.Cloner  // required for git sources
	Fetcher module.Fetcher // required for archive URLs
}

// ErrNotGit: a ref was asked for a module whose source is not git.
var ErrNotGit = errors.New("is not a git module: a ref applies to git sources only")

// Update fetches name again from its recorded source (at o.Ref when set)
// and replaces it in the store, then records the source as fetched.
func Update(ctx context.Context, store *module.Store, home string, name module.Name, o UpdateOptions) (*module.Added, error) {
	if _, err := store.Get(name); err != nil {
		return nil, err
	}
	r, err := Read(home, name)
	if err != nil {
		return nil, err
	}
	src, err := module.ParseSource(r.Source)
	if err != nil {
		return nil, fmt.Errorf("%s: source %q: %w", name, r.Source, err)
	}
	if src.Kind().String() != r.Kind {
		return nil, fmt.Errorf("%s: source %q is a %s source, recorded as %q: %w", name, r.Source, src.Kind(), r.Kind, ErrSourceType)
	}
	ref := r.Ref
	if o.Ref != "" {
		if src.Kind() != module.SourceGit {
			return nil, fmt.Errorf("%s %w", name, ErrNotGit)
		}
		ref = o.Ref
	}
	added, err := store.Add(ctx, src, module.AddOptions{Name: name, Force: true, Ref: ref, Cloner: o.Cloner, Fetcher: o.Fetcher, Content: r.Content})
	if err != nil {
		return nil, err
	}
	if err := Write(home, name, Of(src, ref, r.Content, added)); err != nil {
		return added, fmt.Errorf("%s was updated, but its source record was not: %w", name, err)
	}
	return added, nil
}
