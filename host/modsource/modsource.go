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
// Non-guarantees: a module added before records existed (or by today's
// Lola) has none: Update says so (ErrNoRecord) and the user adds it again.
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

// Read returns the record of name (ErrNoRecord when there is none).
func Read(home string, name module.Name) (Record, error) {
	f, err := os.Open(path(home, name))
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, fmt.Errorf("%s: %w", name, ErrNoRecord)
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
		return nil, fmt.Errorf("%s: source %s: %w", name, r.Source, err)
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
