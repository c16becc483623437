package extension

import (
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/internal/strictyaml"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema/lexical"
)

// ManifestFile is the manifest's name, at the top of an extension directory.
const ManifestFile = "lola-extension.yaml"

// MaxManifestBytes bounds a manifest; a larger one is refused unread.
const MaxManifestBytes = 64 << 10

// MaxVersionBytes bounds the version string.
const MaxVersionBytes = 64

// namePattern is the extension name's vocabulary: it is a directory name
// under $LOLA_HOME/extensions and a key in config.yaml, on every platform.
var namePattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,62}$`)

// ValidName reports whether s is a valid extension name.
func ValidName(s string) bool { return namePattern.MatchString(s) }

// Manifest is a decoded, validated lola-extension.yaml. Only ParseManifest
// constructs one; it is immutable.
type Manifest struct {
	name      string
	version   string
	kind      Kind
	artifacts map[Tier]pathrule.Path // at least one
	caps      capability.Set
	paths     capability.PathDeclaration
	managed   []pathrule.Path // root-relative files handed over as Request.Current
}

// Name is the extension's name (ValidName holds).
func (m *Manifest) Name() string { return m.name }

// Version is the extension's own version, as written.
func (m *Manifest) Version() string { return m.version }

// Kind is what the extension does.
func (m *Manifest) Kind() Kind { return m.kind }

// Artifact returns the declared artifact path of tier t, relative to the
// extension directory, and whether one is declared.
func (m *Manifest) Artifact(t Tier) (pathrule.Path, bool) {
	p, ok := m.artifacts[t]
	return p, ok
}

// Tiers lists the tiers with a declared artifact, tier 1 first.
func (m *Manifest) Tiers() []Tier {
	var out []Tier
	for _, t := range Tiers() {
		if _, ok := m.artifacts[t]; ok {
			out = append(out, t)
		}
	}
	return out
}

// Capabilities is the granted set: exactly the declared atoms.
func (m *Manifest) Capabilities() capability.Set { return m.caps }

// Paths is the declared path grant; absent or empty declares no path.
func (m *Manifest) Paths() capability.PathDeclaration { return m.paths }

// Managed lists the root-relative files whose current content the host
// hands the extension as Request.Current (see CurrentFiles), in manifest
// order. Each is covered by Paths; absent or empty names none.
func (m *Manifest) Managed() []pathrule.Path { return append([]pathrule.Path(nil), m.managed...) }

// MaxManagedFiles bounds the managed list: a target maintains a block in a
// handful of shared files, never a tree.
const MaxManagedFiles = 16

// The wire shape. Pointers tell an absent key from an empty one.
type rawManifest struct {
	Name         *string       `yaml:"name"`
	Version      *string       `yaml:"version"`
	Kind         *string       `yaml:"kind"`
	Artifacts    *rawArtifacts `yaml:"artifacts"`
	Capabilities []string      `yaml:"capabilities"`
	Paths        []string      `yaml:"paths"`
	Managed      []string      `yaml:"managed"`
}

type rawArtifacts struct {
	Tier1 *string `yaml:"tier1"`
	Tier2 *string `yaml:"tier2"`
}

// ParseManifest decodes and validates one manifest from r, reading at most
// MaxManifestBytes. The format is templates/README.md's:
//
//	name: hello             # required; ^[a-z][a-z0-9-]{0,62}$
//	version: 0.1.0          # required
//	kind: target            # required; target | source | hook
//	artifacts:              # required; at least one tier
//	  tier1: dist/hello.wasm
//	  tier2: dist/hello
//	capabilities: []        # optional; net.http, net.git; absent = none
//	paths: [hello/]         # optional; absent or empty = no path granted
//	managed: [HELLO.md]     # optional; files handed over as Request.Current
//
// Every refusal is an error naming the key; an unknown capability is a
// capability.unknown rejection and an invalid path (artifact or grant) a
// path rule (errors.Is with rejection.Rule works through the wrapping). The
// error never carries a host path: it names only what the manifest says.
func ParseManifest(r io.Reader) (*Manifest, error) {
	var raw rawManifest
	switch err := strictyaml.Decode(r, MaxManifestBytes, &raw); {
	case errors.Is(err, strictyaml.ErrEmpty):
		return nil, errors.New("manifest is empty")
	case errors.Is(err, strictyaml.ErrMultipleDocuments):
		return nil, errors.New("manifest holds more than one YAML document")
	case errors.As(err, new(*strictyaml.TooLargeError)):
		return nil, fmt.Errorf("manifest %w", err)
	case errors.Is(err, strictyaml.ErrRead):
		return nil, errors.New("cannot read the manifest")
	case err != nil:
		return nil, err
	}
	return validate(raw)
}

func validate(raw rawManifest) (*Manifest, error) {
	m := &Manifest{artifacts: map[Tier]pathrule.Path{}}
	switch {
	case raw.Name == nil || *raw.Name == "":
		return nil, errors.New("name: required")
	case !ValidName(*raw.Name):
		return nil, fmt.Errorf("name: %s is not ^[a-z][a-z0-9-]{0,62}$", quote(*raw.Name))
	}
	m.name = *raw.Name
	if raw.Version == nil || *raw.Version == "" {
		return nil, errors.New("version: required")
	}
	if err := checkVersion(*raw.Version); err != nil {
		return nil, err
	}
	m.version = *raw.Version
	if raw.Kind == nil {
		return nil, errors.New("kind: required (target, source or hook)")
	}
	k, err := ParseKind(*raw.Kind)
	if err != nil {
		return nil, fmt.Errorf("kind: %w", err)
	}
	m.kind = k
	if raw.Artifacts != nil {
		for _, a := range []struct {
			tier Tier
			s    *string
		}{{Tier1, raw.Artifacts.Tier1}, {Tier2, raw.Artifacts.Tier2}} {
			if a.s == nil {
				continue
			}
			p, err := pathrule.Parse(*a.s)
			if err != nil {
				v := err.(*rejection.Violation)
				return nil, fmt.Errorf("artifacts.%s: %s must be a path relative to the extension directory: %w",
					a.tier, quote(*a.s), rejection.New(v.Rule, v.Detail))
			}
			m.artifacts[a.tier] = p
		}
	}
	if len(m.artifacts) == 0 {
		return nil, errors.New("artifacts: at least one tier is required (tier1, tier2)")
	}
	if _, ok := m.artifacts[Tier1]; ok && k == KindHook {
		return nil, errors.New("artifacts.tier1: a hook runs as tier 2 only (it writes no plan); declare tier2")
	}
	caps, err := capability.Grant(raw.Capabilities)
	if err != nil {
		return nil, fmt.Errorf("capabilities: %w", err)
	}
	m.caps = caps
	paths, err := capability.DeclarePaths(raw.Paths)
	if err != nil {
		return nil, err // already names "paths:"
	}
	m.paths = paths
	managed, err := checkManaged(raw.Managed, paths, k)
	if err != nil {
		return nil, err
	}
	m.managed = managed
	return m, nil
}

// checkManaged validates the managed list: each entry is a root-relative
// file path in the plan path vocabulary, named once, and covered by the
// declared path grant byte for byte (pathrule.Bytes, the strictest
// relation, so it is covered under every other one too). A managed file the
// extension may not write would hand it content it can do nothing with, and
// the grant is what the user reviews: the list never widens it. A hook gets
// no request, so it manages nothing.
func checkManaged(raw []string, paths capability.PathDeclaration, k Kind) ([]pathrule.Path, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	if k == KindHook {
		return nil, errors.New("managed: a hook receives no request; it cannot manage files")
	}
	if len(raw) > MaxManagedFiles {
		return nil, fmt.Errorf("managed: more than %d files", MaxManagedFiles)
	}
	grant := paths.Grant(pathrule.Bytes)
	seen := map[string]bool{}
	out := make([]pathrule.Path, 0, len(raw))
	for _, s := range raw {
		p, err := pathrule.Parse(s)
		if err != nil {
			v := err.(*rejection.Violation)
			return nil, fmt.Errorf("managed: %s must be a root-relative file path: %w", quote(s), rejection.New(v.Rule, v.Detail))
		}
		if seen[p.String()] {
			return nil, fmt.Errorf("managed: %s is named twice", quote(s))
		}
		seen[p.String()] = true
		if !grant.Covers(p) {
			return nil, fmt.Errorf("managed: %s is not covered by paths: (a managed file must lie in the declared path grant)", quote(s))
		}
		out = append(out, p)
	}
	return out, nil
}

// checkVersion accepts 1 to MaxVersionBytes of printable ASCII without
// spaces, slashes or backslashes: the version is recorded in the audit log,
// whose identity rules (audit.NewExtension) are these, and printed, so it
// must stay one token and never look like a path.
func checkVersion(v string) error {
	if len(v) > MaxVersionBytes {
		return fmt.Errorf("version: longer than %d bytes", MaxVersionBytes)
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c >= 0x7f || c == '/' || c == '\\' {
			return fmt.Errorf("version: %s must be printable ASCII without spaces or slashes", quote(v))
		}
	}
	return nil
}

// quote renders untrusted text for a diagnostic: escaped and bounded.
func quote(s string) string { return lexical.Quote(s, lexical.PathEcho) }
