package extension

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/pathrule"
)

// Extension is one loaded extension: its manifest, where it was found, its
// artifacts, the tier it runs in, its granted capability set and its
// declared path grant. Only Load, Discover and Catalog.Lookup construct
// one; it is immutable.
type Extension struct {
	manifest  *Manifest
	source    Source
	dir       string // host directory; "" for a built-in
	fsys      fs.FS  // a built-in's files; nil for a directory
	tier      Tier
	artifacts []Artifact // one per declared tier, tier 1 first
	// pin is the lock entry of a home or dev extension (Discover); nil
	// when none was recorded.
	pin *LockEntry
}

// Artifact is one declared artifact as found on disk (or in a built-in's
// files) when the extension was loaded.
type Artifact struct {
	tier     Tier
	path     pathrule.Path
	present  bool
	size     int64
	mode     fs.FileMode
	hostPath string
}

// Tier is the artifact's tier.
func (a Artifact) Tier() Tier { return a.tier }

// Path is the artifact's path relative to the extension directory.
func (a Artifact) Path() pathrule.Path { return a.path }

// Present reports whether the artifact existed (as a regular file) at load.
// An absent artifact is declared but not built.
func (a Artifact) Present() bool { return a.present }

// Size is the artifact's size in bytes at load; 0 when absent.
func (a Artifact) Size() int64 { return a.size }

// Mode is the artifact's file mode at load (after in-directory symlinks).
func (a Artifact) Mode() fs.FileMode { return a.mode }

// HostPath is the artifact's location on the host, for `lola
// __extension-host --module` or for exec; "" for a built-in, whose bytes
// come from OpenArtifact (one registered by RegisterBuiltinDir has a host
// path). It is never shown to an extension or logged.
func (a Artifact) HostPath() string { return a.hostPath }

// Manifest is the decoded manifest.
func (e *Extension) Manifest() *Manifest { return e.manifest }

// Name is the manifest's name.
func (e *Extension) Name() string { return e.manifest.name }

// Version is the manifest's version.
func (e *Extension) Version() string { return e.manifest.version }

// Kind is the manifest's kind.
func (e *Extension) Kind() Kind { return e.manifest.kind }

// Source says where the extension was found.
func (e *Extension) Source() Source { return e.source }

// Dir is the extension's host directory; "" for a built-in registered from
// an fs.FS (RegisterBuiltin), set for one registered by RegisterBuiltinDir.
// Diagnostics
// shown to anyone but the local user must not carry it.
func (e *Extension) Dir() string { return e.dir }

// Tier is the tier the extension runs in: tier 1 when its artifact is
// present, otherwise tier 2.
func (e *Extension) Tier() Tier { return e.tier }

// AuditTier is how the audit log names a run in Tier (see AuditTier).
func (e *Extension) AuditTier() audit.Tier { return AuditTier(e.tier, e.manifest.kind) }

// Capabilities is the granted capability set: exactly the declared atoms.
// Its String is the --caps form.
func (e *Extension) Capabilities() capability.Set { return e.manifest.caps }

// Paths is the declared path grant. The effective grant also depends on the
// user's configuration and the root's filesystem: capability.GrantPaths.
func (e *Extension) Paths() capability.PathDeclaration { return e.manifest.paths }

// Artifacts returns every declared artifact, tier 1 first.
func (e *Extension) Artifacts() []Artifact { return append([]Artifact(nil), e.artifacts...) }

// Artifact returns the artifact of tier t, and whether one is declared.
func (e *Extension) Artifact(t Tier) (Artifact, bool) {
	for _, a := range e.artifacts {
		if a.tier == t {
			return a, true
		}
	}
	return Artifact{}, false
}

// OpenArtifact opens the artifact of tier t, resolved beneath the
// extension directory again (a symlink leaving it is refused), or from the
// built-in's files. The caller closes it and bounds what it reads.
func (e *Extension) OpenArtifact(t Tier) (fs.File, error) {
	a, ok := e.Artifact(t)
	if !ok {
		return nil, fmt.Errorf("extension %s declares no %s artifact", e.Name(), t)
	}
	if e.fsys != nil {
		return e.fsys.Open(a.path.String())
	}
	root, err := os.OpenRoot(e.dir)
	if err != nil {
		return nil, fmt.Errorf("extension %s: cannot open its directory", e.Name())
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(a.path.String()))
	if err != nil {
		return nil, fmt.Errorf("extension %s: artifacts.%s %s: cannot be opened inside the extension directory", e.Name(), t, quote(a.path.String()))
	}
	return f, nil
}

// Load loads the extension in dir: its manifest and its artifacts, each
// resolved beneath dir. The source is SourceDir. Errors name the manifest
// key at fault, never dir.
func Load(dir string) (*Extension, error) {
	return loadDir(dir, SourceDir)
}

func loadDir(dir string, src Source) (*Extension, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, errors.New("cannot resolve the extension directory")
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("no such extension directory")
		}
		return nil, errors.New("not an extension directory (cannot open it as a directory)")
	}
	defer root.Close()
	return loadFS(root.FS(), src, abs)
}

// loadFS loads from fsys; dir is the host directory fsys is rooted at, or
// "" for a built-in (then fsys is kept for OpenArtifact).
func loadFS(fsys fs.FS, src Source, dir string) (*Extension, error) {
	m, err := manifestIn(fsys)
	if err != nil {
		return nil, err
	}
	e := &Extension{manifest: m, source: src, dir: dir}
	if dir == "" {
		e.fsys = fsys
	}
	for _, t := range m.Tiers() {
		a, err := resolveArtifact(fsys, dir, t, m.artifacts[t])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ManifestFile, err)
		}
		e.artifacts = append(e.artifacts, a)
	}
	for _, a := range e.artifacts { // tier 1 first: preferred when both exist
		if a.present {
			e.tier = a.tier
			break
		}
	}
	if e.tier == "" {
		return nil, fmt.Errorf("%s: no declared artifact is built (%s); run lola ext build", ManifestFile, e.declaredList())
	}
	return e, nil
}

// manifestIn reads and validates fsys's manifest.
func manifestIn(fsys fs.FS) (*Manifest, error) {
	f, err := fsys.Open(ManifestFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no %s", ManifestFile)
		}
		return nil, fmt.Errorf("%s: cannot be opened inside the extension directory", ManifestFile)
	}
	defer f.Close()
	m, err := ParseManifest(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestFile, err)
	}
	return m, nil
}

func (e *Extension) declaredList() string {
	s := ""
	for i, a := range e.artifacts {
		if i > 0 {
			s += ", "
		}
		s += string(a.tier) + " " + a.path.String()
	}
	return s
}

// resolveArtifact stats p beneath fsys. With an os.Root's FS, a symlink
// leaving the directory (absolute, or through "..") is refused by the root
// itself; anything but a missing file or a regular file refuses the
// extension.
func resolveArtifact(fsys fs.FS, dir string, t Tier, p pathrule.Path) (Artifact, error) {
	a := Artifact{tier: t, path: p}
	st, err := fs.Stat(fsys, p.String())
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist) && !escapes(err):
		return a, nil
	default:
		return a, fmt.Errorf("artifacts.%s: %s does not resolve inside the extension directory (a symlink leaving it, or unreadable)", t, quote(p.String()))
	}
	if !st.Mode().IsRegular() {
		return a, fmt.Errorf("artifacts.%s: %s is not a regular file", t, quote(p.String()))
	}
	a.present, a.size, a.mode = true, st.Size(), st.Mode()
	if dir != "" {
		a.hostPath = filepath.Join(dir, filepath.FromSlash(p.String()))
	}
	return a, nil
}

// escapes reports whether err is os.Root's refusal of a path leaving the
// root. The standard library exports no sentinel for it; its text is fixed.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// AuditIdentity is the identity the audit log records for a run of this
// extension: its name and version. Add the artifact's digest with
// audit.Extension.WithArtifact once its bytes are read.
func (e *Extension) AuditIdentity() (audit.Extension, error) {
	return audit.NewExtension(e.Name(), e.Version())
}
