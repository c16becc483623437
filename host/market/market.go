// Package market is lola's marketplaces: named catalogs of modules that
// `lola market add NAME URL` registers, `lola search` searches and
// `lola install @NAME/MODULE` installs from. The files are today's Lola's:
// $LOLA_HOME/market/NAME.yml (name, url, enabled) and the fetched catalog
// in $LOLA_HOME/market/cache/NAME.yml.
//
// Guarantees:
//   - A catalog URL is https (fetched by host/remote's client under the
//     remote access policy: resolved-address checks, pinned dials, TLS
//     verification, redirect rules, the byte bound MaxCatalogBytes and the
//     client's deadline; its HTTP cache is keyed by the marketplace), a
//     git repository (git+https://, git+ssh://, user@host:path, or an
//     https:// URL ending in .git, optionally #path/to/catalog.yml),
//     cloned by host/remote's client under the same policy and bounded by
//     MaxCatalogRepoBytes, the catalog read from the checkout beneath it by
//     descriptor (no symbolic link, a regular file, MaxCatalogBytes), or a
//     local file (read bounded). Any other scheme is remote.scheme. No
//     other code path reaches the network.
//   - A catalog is parsed strictly (ParseCatalog: one YAML document,
//     unknown keys refused, bounded counts and field sizes, module names
//     as the store's, repositories https or ssh with no credentials and no
//     IP literal the policy refuses). A refused catalog changes nothing:
//     add registers nothing, update keeps the previous cache.
//   - Files are replaced atomically (temporary file and rename).
//
// Non-guarantees: a catalog's descriptions are untrusted text; callers
// escape them for the terminal. Whether a repository's host name resolves
// to an allowed address is decided when it is cloned, not here.
package market

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/lola-pm/lola/host/internal/strictyaml"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema"
)

// Dir and CacheDir are the registry's directories under $LOLA_HOME.
const (
	Dir      = "market"
	CacheDir = "market/cache"
)

// Errors a caller maps to exit codes.
var (
	ErrCatalog  = errors.New("catalog refused")
	ErrExists   = errors.New("marketplace already exists")
	ErrNotFound = errors.New("marketplace not found")
	ErrNoModule = errors.New("module not found in the marketplace")
)

// Registry is the marketplaces under one $LOLA_HOME.
type Registry struct {
	home   string
	client *remote.Client
	cloner module.Cloner // clones git-hosted catalogs; the client unless a test replaces it
	policy *remote.Policy
}

// Open returns the registry under home. client fetches https catalogs (nil
// refuses them); policy checks repository IP literals (nil skips that).
func Open(home string, client *remote.Client, policy *remote.Policy) *Registry {
	r := &Registry{home: home, client: client, policy: policy}
	if client != nil {
		r.cloner = client
	}
	return r
}

// Ref is a registered marketplace, as market/NAME.yml holds it.
type Ref struct {
	Name    string `yaml:"name"`
	URL     string `yaml:"url"`
	Enabled bool   `yaml:"enabled"`
}

// ParseName checks a marketplace name (the module-name rule: it becomes a
// file name).
func ParseName(s string) (string, error) {
	n, err := module.ParseName(s)
	if err != nil {
		return "", fmt.Errorf("marketplace name: %w", err)
	}
	return n.String(), nil
}

func (r *Registry) refPath(name string) string   { return filepath.Join(r.home, Dir, name+".yml") }
func (r *Registry) cachePath(name string) string { return filepath.Join(r.home, CacheDir, name+".yml") }

// Add fetches and checks the catalog at url, then registers it as name.
func (r *Registry) Add(ctx context.Context, name, url string) (*Catalog, error) {
	name, err := ParseName(name)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(r.refPath(name)); err == nil {
		return nil, fmt.Errorf("%s: %w", name, ErrExists)
	}
	url, err = normalizeURL(url)
	if err != nil {
		return nil, err
	}
	c, err := r.fetch(ctx, name, url)
	if err != nil {
		return nil, err
	}
	if err := r.writeCache(name, c); err != nil {
		return nil, err
	}
	return c, writeYAML(r.refPath(name), Ref{Name: name, URL: url, Enabled: true})
}

// Update fetches name's catalog again; a refused catalog keeps the old.
func (r *Registry) Update(ctx context.Context, name string) (*Catalog, error) {
	ref, err := r.Ref(name)
	if err != nil {
		return nil, err
	}
	c, err := r.fetch(ctx, ref.Name, ref.URL)
	if err != nil {
		return nil, err
	}
	return c, r.writeCache(ref.Name, c)
}

// Remove forgets name and its cached catalog.
func (r *Registry) Remove(name string) error {
	ref, err := r.Ref(name)
	if err != nil {
		return err
	}
	if err := os.Remove(r.refPath(ref.Name)); err != nil {
		return err
	}
	if err := os.Remove(r.cachePath(ref.Name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// SetEnabled enables or disables name (a disabled marketplace is not
// searched and not installed from without naming it).
func (r *Registry) SetEnabled(name string, on bool) error {
	ref, err := r.Ref(name)
	if err != nil {
		return err
	}
	ref.Enabled = on
	return writeYAML(r.refPath(ref.Name), ref)
}

// Ref reads name's registration.
func (r *Registry) Ref(name string) (Ref, error) {
	n, err := ParseName(name)
	if err != nil {
		return Ref{}, err
	}
	f, err := os.Open(r.refPath(n))
	if errors.Is(err, fs.ErrNotExist) {
		return Ref{}, fmt.Errorf("%s: %w", n, ErrNotFound)
	}
	if err != nil {
		return Ref{}, err
	}
	defer f.Close()
	var ref Ref
	if err := strictyaml.Decode(f, 64<<10, &ref); err != nil {
		return Ref{}, fmt.Errorf("%s: %w", r.refPath(n), err)
	}
	ref.Name = n
	return ref, nil
}

// Listed is one marketplace in List.
type Listed struct {
	Ref
	Catalog *Catalog // nil when Err is set (no usable cache)
	Err     error
}

// List returns every registered marketplace in name order.
func (r *Registry) List() ([]Listed, error) {
	es, err := os.ReadDir(filepath.Join(r.home, Dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Listed
	for _, e := range es {
		n, ok := strings.CutSuffix(e.Name(), ".yml")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if _, err := ParseName(n); err != nil {
			continue
		}
		ref, err := r.Ref(n)
		if err != nil {
			out = append(out, Listed{Ref: Ref{Name: n}, Err: err})
			continue
		}
		c, err := r.Cached(n)
		out = append(out, Listed{Ref: ref, Catalog: c, Err: err})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Cached reads name's cached catalog, checked again as on fetch.
func (r *Registry) Cached(name string) (*Catalog, error) {
	b, err := readBounded(r.cachePath(name))
	if err != nil {
		return nil, err
	}
	return ParseCatalog(b, r.policy)
}

// Hit is one module found in one marketplace.
type Hit struct {
	Market string
	Entry  Entry
}

// Search returns the modules of enabled marketplaces whose name,
// description or tags contain query (case-insensitively), by marketplace
// then module name. An empty query matches everything.
func (r *Registry) Search(query string) ([]Hit, error) {
	ls, err := r.List()
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(query)
	var hits []Hit
	for _, l := range ls {
		if !l.Enabled || l.Catalog == nil {
			continue
		}
		for _, e := range l.Catalog.Modules {
			text := strings.ToLower(e.Name + "\n" + e.Description + "\n" + strings.Join(e.Tags, "\n"))
			if strings.Contains(text, q) {
				hits = append(hits, Hit{Market: l.Name, Entry: e})
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Market != hits[j].Market {
			return hits[i].Market < hits[j].Market
		}
		return hits[i].Entry.Name < hits[j].Entry.Name
	})
	return hits, nil
}

// Lookup finds module in marketplace market (enabled or not: the user
// named it).
func (r *Registry) Lookup(market, mod string) (Hit, error) {
	ref, err := r.Ref(market)
	if err != nil {
		return Hit{}, err
	}
	c, err := r.Cached(ref.Name)
	if err != nil {
		return Hit{}, err
	}
	for _, e := range c.Modules {
		if e.Name == mod {
			return Hit{Market: ref.Name, Entry: e}, nil
		}
	}
	return Hit{}, fmt.Errorf("%s in %s: %w", mod, ref.Name, ErrNoModule)
}

// normalizeURL admits https URLs and local files (made absolute).
func normalizeURL(raw string) (string, error) {
	if _, ok, err := parseGitCatalogURL(raw); ok || err != nil {
		return raw, err // stored as given, so update clones it again
	}
	if i := strings.Index(raw, "://"); i > 0 {
		scheme := strings.ToLower(raw[:i])
		if scheme != "https" {
			return "", rejection.New(schema.RuleRemoteScheme, fmt.Sprintf("catalog URL scheme %q: catalogs are fetched over https only (or read from a local file)", scheme))
		}
		return raw, nil
	}
	abs, err := filepath.Abs(raw)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("catalog %s: not an https URL and not a file", raw)
	}
	return abs, nil
}

func (r *Registry) fetch(ctx context.Context, name, url string) (*Catalog, error) {
	var b []byte
	g, isGit, err := parseGitCatalogURL(url)
	switch {
	case err != nil:
		return nil, err
	case isGit:
		b, err = r.fetchGit(ctx, name, g)
	case strings.HasPrefix(strings.ToLower(url), "https://"):
		b, err = r.fetchRemote(ctx, name, url)
	default:
		b, err = readBounded(url)
	}
	if err != nil {
		return nil, err
	}
	c, err := ParseCatalog(b, r.policy)
	if err != nil {
		return nil, err
	}
	if c.Name == "" {
		c.Name = name
	}
	return c, nil
}

// fetchRemote fetches through the remote client into a temporary file
// beside the cache (never shown to anything else) and reads it back bounded.
func (r *Registry) fetchRemote(ctx context.Context, name, url string) ([]byte, error) {
	if r.client == nil {
		return nil, errors.New("market: no remote client to fetch " + remote.RedactURL(url))
	}
	dir := filepath.Join(r.home, CacheDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, ".fetch-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := r.client.Fetch(ctx, remote.FetchRequest{Extension: "market:" + name, Fetch: schema.Fetch{URL: url}}, f, nil); err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return readAllBounded(f)
}

func readBounded(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAllBounded(f)
}

func readAllBounded(rd io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(rd, MaxCatalogBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxCatalogBytes {
		return nil, rejection.New(schema.RuleRemoteBound, fmt.Sprintf("catalog larger than %d bytes", MaxCatalogBytes))
	}
	return b, nil
}

func (r *Registry) writeCache(name string, c *Catalog) error {
	return writeYAML(r.cachePath(name), c)
}

func writeYAML(p string, v any) error {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, werr := f.Write(buf.Bytes())
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		return werr
	}
	return os.Rename(f.Name(), p)
}
