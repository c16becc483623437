package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lola-pm/lola/host/internal/strictyaml"
	"github.com/lola-pm/lola/host/pathrule"
)

// DefaultMaxRedirects is remote.max_redirects when the key is absent.
const DefaultMaxRedirects = 5

// The remote time bounds config.yaml may set (remote.fetch_timeout,
// remote.clone_timeout): a Go duration ("90s", "10m") between
// MinRemoteTimeout and MaxRemoteTimeout. Absent, host/remote's defaults
// apply (5 minutes per fetch, 15 per clone).
const (
	MinRemoteTimeout = time.Second
	MaxRemoteTimeout = 24 * time.Hour
)

// MaxConfigBytes bounds config.yaml; a larger file is refused unread.
const MaxConfigBytes = 1 << 20

// Config is a validated $LOLA_HOME/config.yaml. Only Parse and Load
// construct one; Default is the configuration of an absent file.
type Config struct {
	remote     Remote
	extensions map[string]Extension
	trust      Trust
}

// Remote is the operator's remote access policy.
type Remote struct {
	allow        []Admission
	maxRedirects int
	fetchTimeout time.Duration // 0: not set
	cloneTimeout time.Duration // 0: not set
}

// Extension is the user's narrowing of one extension's authority.
type Extension struct {
	paths []pathrule.Path
}

// Default is the configuration of an absent or empty config.yaml: no
// destination re-admitted, DefaultMaxRedirects, no extension narrowed.
func Default() *Config {
	return &Config{remote: Remote{maxRedirects: DefaultMaxRedirects}, extensions: map[string]Extension{}}
}

// Remote returns the remote policy section.
func (c *Config) Remote() Remote { return c.remote }

// Extension returns the narrowing configured for name, and whether any is.
func (c *Config) Extension(name string) (Extension, bool) {
	e, ok := c.extensions[name]
	return e, ok
}

// ExtensionNames lists the extensions the file configures, sorted.
func (c *Config) ExtensionNames() []string {
	out := make([]string, 0, len(c.extensions))
	for n := range c.extensions {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// NewRemote builds a remote policy section in code (tests, embedders) with
// the same validation the file gets: maxRedirects must be positive.
func NewRemote(allow []Admission, maxRedirects int) (Remote, error) {
	if maxRedirects <= 0 {
		return Remote{}, fmt.Errorf("remote.max_redirects must be positive, got %d", maxRedirects)
	}
	for _, a := range allow {
		if !a.prefix.IsValid() {
			return Remote{}, errors.New("remote.allow: an admission not built by ParseAdmission")
		}
	}
	return Remote{allow: append([]Admission(nil), allow...), maxRedirects: maxRedirects}, nil
}

// Allow returns a copy of the re-admitted destinations, in file order.
func (r Remote) Allow() []Admission { return append([]Admission(nil), r.allow...) }

// MaxRedirects is the number of redirects a fetch or clone may follow.
func (r Remote) MaxRedirects() int { return r.maxRedirects }

// FetchTimeout is remote.fetch_timeout, one fetch's whole deadline, and
// whether the file sets it (otherwise the caller's default applies).
func (r Remote) FetchTimeout() (time.Duration, bool) { return r.fetchTimeout, r.fetchTimeout > 0 }

// CloneTimeout is remote.clone_timeout, one clone's whole deadline, and
// whether the file sets it.
func (r Remote) CloneTimeout() (time.Duration, bool) { return r.cloneTimeout, r.cloneTimeout > 0 }

// Paths returns a copy of the root-relative prefixes the extension is
// narrowed to.
func (e Extension) Paths() []pathrule.Path { return append([]pathrule.Path(nil), e.paths...) }

// The file's wire shape. Pointers distinguish an absent key from a zero.
type rawConfig struct {
	Remote     *rawRemote              `yaml:"remote"`
	Extensions map[string]rawExtension `yaml:"extensions"`
	Trust      *rawTrust               `yaml:"trust"`
}

type rawRemote struct {
	Allow        []string `yaml:"allow"`
	MaxRedirects *int     `yaml:"max_redirects"`
	FetchTimeout *string  `yaml:"fetch_timeout"`
	CloneTimeout *string  `yaml:"clone_timeout"`
}

type rawExtension struct {
	Paths []string `yaml:"paths"`
}

// Load reads the configuration under home (see Home). An absent file is
// Default; any other read error, and every invalid file, is an error. The
// error never carries home's absolute path.
func Load(home string) (*Config, error) {
	f, err := os.Open(filepath.Join(home, ConfigFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot open", ConfigFile)
	}
	defer f.Close()
	c, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ConfigFile, err)
	}
	return c, nil
}

// Parse decodes and validates one configuration document from r, reading at
// most MaxConfigBytes.
func Parse(r io.Reader) (*Config, error) {
	var raw rawConfig
	switch err := strictyaml.Decode(r, MaxConfigBytes, &raw); {
	case errors.Is(err, strictyaml.ErrEmpty):
		return Default(), nil
	case errors.Is(err, strictyaml.ErrMultipleDocuments):
		return nil, errors.New("configuration holds more than one YAML document")
	case errors.As(err, new(*strictyaml.TooLargeError)):
		return nil, fmt.Errorf("configuration %w", err)
	case errors.Is(err, strictyaml.ErrRead):
		return nil, errors.New("cannot read configuration")
	case err != nil:
		return nil, err
	}
	return validate(raw)
}

func validate(raw rawConfig) (*Config, error) {
	c := Default()
	if raw.Remote != nil {
		var allow []Admission
		for _, s := range raw.Remote.Allow {
			a, err := ParseAdmission(s)
			if err != nil {
				return nil, fmt.Errorf("remote.allow: %w", err)
			}
			allow = append(allow, a)
		}
		n := DefaultMaxRedirects
		if raw.Remote.MaxRedirects != nil {
			n = *raw.Remote.MaxRedirects
		}
		r, err := NewRemote(allow, n)
		if err != nil {
			return nil, err
		}
		if r.fetchTimeout, err = parseTimeout("remote.fetch_timeout", raw.Remote.FetchTimeout); err != nil {
			return nil, err
		}
		if r.cloneTimeout, err = parseTimeout("remote.clone_timeout", raw.Remote.CloneTimeout); err != nil {
			return nil, err
		}
		c.remote = r
	}
	t, err := validateTrust(raw.Trust)
	if err != nil {
		return nil, err
	}
	c.trust = t
	for name, re := range raw.Extensions {
		if err := checkExtensionName(name); err != nil {
			return nil, err
		}
		if len(re.Paths) == 0 {
			return nil, fmt.Errorf("extensions.%s.paths: must list at least one prefix (an empty grant is spelled by removing the extension)", name)
		}
		var e Extension
		for _, s := range re.Paths {
			p, err := parsePrefix(s)
			if err != nil {
				return nil, fmt.Errorf("extensions.%s.paths: %q: %w", name, s, err)
			}
			e.paths = append(e.paths, p)
		}
		c.extensions[name] = e
	}
	return c, nil
}

// parseTimeout reads an optional duration key; absent is 0 (not set).
// Only Go duration spellings with a unit are accepted ("300s", "5m"), so a
// bare number cannot be misread as seconds or nanoseconds.
func parseTimeout(key string, s *string) (time.Duration, error) {
	if s == nil {
		return 0, nil
	}
	d, err := time.ParseDuration(*s)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a duration such as \"300s\" or \"10m\"", key, *s)
	}
	if d < MinRemoteTimeout || d > MaxRemoteTimeout {
		return 0, fmt.Errorf("%s: %s is outside %s..%s", key, d, MinRemoteTimeout, MaxRemoteTimeout)
	}
	return d, nil
}

// checkExtensionName refuses names that could not be an extension's
// directory name: empty, or holding a separator, whitespace or control byte.
func checkExtensionName(name string) error {
	if name == "" || name == "." || name == ".." {
		return fmt.Errorf("extensions: %q is not an extension name", name)
	}
	for _, r := range name {
		if r == '/' || r == '\\' || r <= ' ' || r == 0x7f {
			return fmt.Errorf("extensions: %q is not an extension name", name)
		}
	}
	return nil
}

// parsePrefix accepts a root-relative path, optionally ending in "/" to say
// "this directory" (".claude/").
func parsePrefix(s string) (pathrule.Path, error) {
	return pathrule.Parse(strings.TrimSuffix(s, "/"))
}
