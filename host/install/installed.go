package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/internal/filelock"
	"github.com/lola-pm/lola/host/internal/strictyaml"
)

// InstalledFile is the install registry under $LOLA_HOME; this package is
// its only reader and writer (`lola mod rm` asks RemoveModule).
const InstalledFile = "installed.yml"

// installedMax bounds installed.yml on read.
const installedMax = 16 << 20

// registryVersion is the shape today's Lola writes.
const registryVersion = "1.0"

// Record is one installation in installed.yml, in today's Lola's shape:
//
//   - module: NAME
//     assistant: claude-code
//     scope: project
//     skills: [a, b]
//     commands: [c]
//     agents: []
//     mcps: []
//     has_instructions: false
//     project_path: /abs/project   # project scope only
//
// Keys this version does not know (written by a newer or older Lola) are
// kept in Extra and written back unchanged.
type Record struct {
	Module          string     `yaml:"module"`
	Assistant       string     `yaml:"assistant"`
	Scope           string     `yaml:"scope"`
	Skills          []string   `yaml:"skills"`
	Commands        []string   `yaml:"commands"`
	Agents          []string   `yaml:"agents"`
	MCPs            []string   `yaml:"mcps"`
	HasInstructions bool       `yaml:"has_instructions"`
	ProjectPath     string     `yaml:"project_path,omitempty"`
	Version         string     `yaml:"version,omitempty"`
	Ref             string     `yaml:"ref,omitempty"`
	AppendContext   stringList `yaml:"append_context,omitempty"`
	// Groups is nil when the install predates group selection (today's
	// "None"), and a possibly empty list otherwise.
	Groups *[]string `yaml:"groups,omitempty"`
	// CreatedDirs (lola's own addition) lists the root-relative
	// directories the install created, so uninstall can remove them once
	// empty. Today's Lola ignores the key.
	CreatedDirs []string `yaml:"created_dirs,omitempty"`
	// Files (lola's own addition) maps each root-relative file the install
	// wrote, managed files excepted, to the sha256 (hex) of the content it
	// wrote: what lola owns there (see ownership.go). Today's Lola ignores
	// the key and drops it when it rewrites the file; a record without it
	// owns nothing. An install that made no file lola's (every write left
	// a user's identical file as it was) records an empty map, written as
	// "files: {}", which is not the absent key of today's Lola's records.
	Files FileSums `yaml:"files,omitempty"`
	// ManagedCreated (lola's own addition) lists the root-relative managed
	// files (CLAUDE.md, .mcp.json, ...) that lola created under this root
	// and that still exist: only such a file may be deleted once lola's
	// part of it is gone. The list is kept on one record of the root and
	// handed on to another when that record goes (managedrecord.go).
	ManagedCreated []string `yaml:"managed_created,omitempty"`
	// MCPValues (lola's own addition) maps each managed JSON file this
	// install wrote servers into (root-relative) to the digest
	// (ServerDigest) of each recorded server's value there, as lola wrote
	// it. A server whose value no longer has that digest was changed by
	// the user and is theirs: update keeps it when the module drops it,
	// and uninstall keeps it (narrowmcp.go). Today's Lola ignores the
	// key; a record without it proves nothing, so update keeps such
	// servers too, and uninstall judges them by the value the target's
	// install would write now (legacyOwnership).
	MCPValues map[string]map[string]string `yaml:"mcp_values,omitempty"`
	// ReplacedSymlinks (lola's own addition) lists the symbolic links the
	// user let the install replace (--replace-symlinks), so uninstall can
	// put them back.
	ReplacedSymlinks []ReplacedLink `yaml:"replaced_symlinks,omitempty"`
	Extra            map[string]any `yaml:",inline"`
}

// ReplacedLink is one symbolic link an install replaced with consent.
type ReplacedLink struct {
	Path   string `yaml:"path"`   // root-relative, slash form
	Target string `yaml:"target"` // the link's text, as it was
	// Dir is true when the link was replaced by a real directory (it was a
	// parent of paths the plan wrote); false when it was only removed.
	Dir bool `yaml:"dir,omitempty"`
	// Copied is the sha256 of the copy that replaced a managed file's link
	// ("" when the link was only removed): uninstall restores the link
	// only while the file holds exactly that copy.
	Copied string `yaml:"copied,omitempty"`
}

// stringList reads today's append_context: a list, or the older single
// string.
type stringList []string

func (s *stringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var one string
		if err := n.Decode(&one); err != nil {
			return err
		}
		*s = stringList{one}
		return nil
	}
	var many []string
	if err := n.Decode(&many); err != nil {
		return err
	}
	*s = many
	return nil
}

// sameInstall is today's identity of an installation: module, assistant,
// scope and project path.
func (r Record) sameInstall(o Record) bool {
	return r.Module == o.Module && r.Assistant == o.Assistant && r.Scope == o.Scope && r.ProjectPath == o.ProjectPath
}

type registryDoc struct {
	Version       string         `yaml:"version"`
	Installations []Record       `yaml:"installations"`
	Extra         map[string]any `yaml:",inline"`
}

// lockName is the lock file beside installed.yml that serialises its
// read-modify-write cycles across lola processes.
const lockName = "." + InstalledFile + ".lock"

// UpdateRegistry reads home/installed.yml under an exclusive lock (a file
// lock on $LOLA_HOME/.installed.yml.lock, so concurrent lola processes
// serialise), calls fn, and saves the registry atomically when fn returns
// nil. Two installs running at once therefore never lose each other's
// record.
func UpdateRegistry(home string, fn func(*Registry) error) error {
	return withRegistryLocked(home, func(reg *Registry) error {
		if err := fn(reg); err != nil {
			return err
		}
		return reg.Save()
	})
}

// withRegistryLocked runs fn on installed.yml as read under its exclusive
// lock, so no install or uninstall changes it between the read and what fn
// does; fn decides whether anything is saved.
func withRegistryLocked(home string, fn func(*Registry) error) error {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("%s: %w", InstalledFile, errpath.Strip(err))
	}
	return filelock.WithExclusive(filepath.Join(home, lockName), func() error {
		reg, err := ReadRegistry(home)
		if err != nil {
			return err
		}
		return fn(reg)
	})
}

// Registry is installed.yml as read from one $LOLA_HOME.
type Registry struct {
	path string
	doc  registryDoc
}

// ReadRegistry reads home/installed.yml; a missing file is an empty
// registry. A file over 16 MiB, holding more than one YAML document, or
// not in today's shape is an error (never a silent reset: the file is the only record of what to
// uninstall).
func ReadRegistry(home string) (*Registry, error) {
	r := &Registry{path: filepath.Join(home, InstalledFile), doc: registryDoc{Version: registryVersion}}
	f, err := os.Open(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", InstalledFile, errpath.Strip(err))
	}
	defer f.Close()
	// Unknown keys are not refused: the inline Extra maps keep them.
	if err := strictyaml.Decode(f, installedMax, &r.doc); err != nil && !errors.Is(err, strictyaml.ErrEmpty) {
		return nil, fmt.Errorf("%s: %w", InstalledFile, err)
	}
	if r.doc.Version == "" {
		r.doc.Version = registryVersion
	}
	return r, nil
}

// All returns every record, in file order.
func (r *Registry) All() []Record { return append([]Record(nil), r.doc.Installations...) }

// Find returns the records of module; assistant, scope and project narrow
// the match when not empty.
func (r *Registry) Find(module, assistant, scope, project string) []Record {
	var out []Record
	for _, rec := range r.doc.Installations {
		if rec.Module == module && (assistant == "" || rec.Assistant == assistant) &&
			(scope == "" || rec.Scope == scope) && (project == "" || rec.ProjectPath == project) {
			out = append(out, rec)
		}
	}
	return out
}

// OfAssistant returns the records of installs made through the target
// extension named assistant, in file order: what depends on it.
func (r *Registry) OfAssistant(assistant string) []Record {
	var out []Record
	for _, rec := range r.doc.Installations {
		if rec.Assistant == assistant {
			out = append(out, rec)
		}
	}
	return out
}

// Dependents returns the installs home's installed.yml records as made
// through the target extension target: what removing or replacing that
// extension affects. None when a built-in has the name: the installs run
// the built-in whatever becomes of an added extension of that name.
func Dependents(home, target string) ([]Record, error) {
	if slices.Contains(extension.BuiltinNames(), target) {
		return nil, nil
	}
	reg, err := ReadRegistry(home)
	if err != nil {
		return nil, err
	}
	return reg.OfAssistant(target), nil
}

// Put replaces the record of the same installation (module, assistant,
// scope, project path) with rec, or appends it, as today's Lola does.
func (r *Registry) Put(rec Record) {
	kept := r.doc.Installations[:0:0]
	for _, old := range r.doc.Installations {
		if !old.sameInstall(rec) {
			kept = append(kept, old)
		}
	}
	r.doc.Installations = append(kept, rec)
}

// Remove drops the record of the same installation as rec and reports
// whether there was one.
func (r *Registry) Remove(rec Record) bool {
	kept := r.doc.Installations[:0:0]
	found := false
	for _, old := range r.doc.Installations {
		if old.sameInstall(rec) {
			found = true
			continue
		}
		kept = append(kept, old)
	}
	r.doc.Installations = kept
	return found
}

// Save writes the registry atomically: a 0600 temp file beside
// installed.yml, fsynced, renamed over it, and the directory fsynced. A
// reader sees the old file or the new one, never a mix.
func (r *Registry) Save() error {
	if r.doc.Installations == nil {
		r.doc.Installations = []Record{}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&r.doc); err != nil {
		return fmt.Errorf("%s: encode: %v", InstalledFile, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("%s: encode: %v", InstalledFile, err)
	}
	dir := filepath.Dir(r.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("%s: %w", InstalledFile, errpath.Strip(err))
	}
	tmp, err := os.CreateTemp(dir, "."+InstalledFile+".*.tmp")
	if err != nil {
		return fmt.Errorf("%s: %w", InstalledFile, errpath.Strip(err))
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(0o600); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("%s: %w", InstalledFile, errpath.Strip(err))
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("%s: %w", InstalledFile, errpath.Strip(err))
	}
	if err := durable.File(tmp); err != nil {
		return fmt.Errorf("%s: %w", InstalledFile, errpath.Strip(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", InstalledFile, errpath.Strip(err))
	}
	if err := os.Rename(name, r.path); err != nil {
		return fmt.Errorf("%s: %w", InstalledFile, errpath.Strip(err))
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		_ = durable.File(d)
		d.Close()
	}
	return nil
}

// FileSums is a record's "files" map: root-relative path -> sha256 (hex)
// of the content lola wrote there. Only a nil map is left out of
// installed.yml: an empty one ("files: {}", nothing is lola's) must not
// read back as a record without the key (today's Lola's, judged another
// way).
type FileSums map[string]string

// IsZero is what yaml's omitempty asks: only the absent map is empty.
func (f FileSums) IsZero() bool { return f == nil }
