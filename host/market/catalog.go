package market

import (
	"bytes"
	"fmt"
	"net/netip"
	"net/url"
	"strings"

	"github.com/lola-pm/lola/host/internal/strictyaml"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema"
)

// Bounds on one catalog.
const (
	MaxCatalogBytes = 1 << 20 // 1 MiB
	MaxModules      = 5000
	maxField        = 4096 // one description, URL, path or ref
	maxTags         = 32
)

// Catalog is a marketplace's list of modules, as its YAML spells it
// (today's Lola's shape). Unknown keys are refused.
type Catalog struct {
	Name        string  `yaml:"name"`
	Description string  `yaml:"description,omitempty"`
	Version     string  `yaml:"version,omitempty"`
	URL         string  `yaml:"url,omitempty"`
	Enabled     *bool   `yaml:"enabled,omitempty"`
	Modules     []Entry `yaml:"modules"`
}

// Entry is one module a catalog offers.
type Entry struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Version     string   `yaml:"version"`
	Repository  string   `yaml:"repository"`
	Path        string   `yaml:"path,omitempty"`
	Ref         string   `yaml:"ref,omitempty"`
	Tags        []string `yaml:"tags,omitempty"`
	Hooks       *Hooks   `yaml:"hooks,omitempty"`
}

// Hooks is a catalog entry's install hooks (scripts in the module).
type Hooks struct {
	PreInstall  string `yaml:"pre-install,omitempty"`
	PostInstall string `yaml:"post-install,omitempty"`
}

// ParseCatalog decodes b strictly (one document, unknown keys refused, at
// most MaxCatalogBytes) and checks every entry (check). p, when not nil,
// refuses a repository whose host is an IP literal the remote policy
// refuses (remote.destination); names are checked again, resolved, when
// the module is cloned.
func ParseCatalog(b []byte, p *remote.Policy) (*Catalog, error) {
	var c Catalog
	if err := strictyaml.Decode(bytes.NewReader(b), MaxCatalogBytes, &c); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCatalog, err)
	}
	if len(c.Modules) > MaxModules {
		return nil, fmt.Errorf("%w: %d modules, more than %d", ErrCatalog, len(c.Modules), MaxModules)
	}
	seen := map[string]bool{}
	for i, e := range c.Modules {
		if err := e.check(p); err != nil {
			return nil, fmt.Errorf("%w: module %d: %w", ErrCatalog, i, err)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("%w: module %q is listed twice", ErrCatalog, e.Name)
		}
		seen[e.Name] = true
	}
	return &c, nil
}

func (e Entry) check(p *remote.Policy) error {
	if _, err := module.ParseName(e.Name); err != nil {
		return err
	}
	for what, v := range map[string]string{"description": e.Description, "version": e.Version, "repository": e.Repository, "path": e.Path, "ref": e.Ref} {
		if len(v) > maxField {
			return fmt.Errorf("%s: longer than %d bytes", what, maxField)
		}
		if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return fmt.Errorf("%s: holds control characters", what)
		}
	}
	if e.Version == "" || e.Repository == "" {
		return fmt.Errorf("%s: version and repository are required", e.Name)
	}
	if len(e.Tags) > maxTags {
		return fmt.Errorf("%s: more than %d tags", e.Name, maxTags)
	}
	if e.Ref != "" && strings.HasPrefix(e.Ref, "-") {
		return fmt.Errorf("%s: ref %q starts with '-'", e.Name, e.Ref)
	}
	if e.Path != "" {
		if _, err := CleanContentPath(e.Path); err != nil {
			return fmt.Errorf("%s: path: %w", e.Name, err)
		}
	}
	return CheckRepository(e.Repository, p)
}

// CheckRepository refuses a module repository that lola would not clone:
// a scheme other than https or ssh (remote.scheme), userinfo on https
// (remote.url: credentials belong in $LOLA_HOME/credentials), and a host
// that is an IP literal the policy refuses (remote.destination).
func CheckRepository(raw string, p *remote.Policy) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		if _, err := module.ParseSource(raw); err == nil && strings.Contains(raw, "@") && strings.Contains(raw, ":") {
			return nil // user@host:path, an ssh repository
		}
		return rejection.New(schema.RuleRemoteURL, "repository "+remote.RedactURL(raw)+" is not an https:// or ssh:// URL")
	}
	switch u.Scheme {
	case "https":
		if u.User != nil {
			return rejection.New(schema.RuleRemoteURL, "repository URL carries credentials")
		}
	case "ssh":
	default:
		return rejection.New(schema.RuleRemoteScheme, fmt.Sprintf("repository scheme %q: only https:// and ssh:// are cloned", u.Scheme))
	}
	if p == nil {
		return nil
	}
	if a, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil {
		port := uint16(443)
		if u.Scheme == "ssh" {
			port = 22
		}
		if ps := u.Port(); ps != "" {
			var n int
			if _, err := fmt.Sscanf(ps, "%d", &n); err != nil || n < 1 || n > 65535 {
				return rejection.New(schema.RuleRemoteURL, "repository port does not parse")
			}
			port = uint16(n)
		}
		if _, err := p.Check(u.Hostname(), netip.AddrPortFrom(a.Unmap(), port)); err != nil {
			return err
		}
	}
	return nil
}

// CleanContentPath checks a module's content directory inside its
// repository: a relative slash path without "." or ".." elements, or "/"
// (the root). It returns the path without a trailing slash ("" for root).
func CleanContentPath(p string) (string, error) {
	if p == "/" || p == "" {
		return "", nil
	}
	p = strings.TrimSuffix(p, "/")
	if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return "", rejection.New(schema.RulePathInvalid, "content path must be relative, with '/' separators")
	}
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." || el == ".." {
			return "", rejection.New(schema.RulePathInvalid, "content path must not hold empty, '.' or '..' elements")
		}
	}
	return p, nil
}
