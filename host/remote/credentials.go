package remote

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/host/internal/strictyaml"
)

// maxCredentialsBytes bounds the credentials file.
const maxCredentialsBytes = 1 << 20

// Credentials is the host's credential store, read from the 0600 file
// $LOLA_HOME/credentials. Entries are keyed to a remote as named (scheme,
// host with port, and path prefix), never to an address the name resolved
// to; the longest matching prefix wins. The zero value and a nil
// *Credentials hold nothing.
//
// The file is YAML, a list of entries:
//
//	# $LOLA_HOME/credentials, mode 0600
//	- remote: https://git.example.org/team/
//	  username: alice
//	  password: s3cret
//	- remote: https://api.example.org/
//	  bearer: t0ken
//	- remote: ssh://git@git.example.org/
//	  identity: /home/alice/.ssh/id_ed25519
type Credentials struct {
	entries []credEntry
}

// credential is one secret. Its String form never carries the secret.
type credential struct {
	username, password string // HTTP Basic
	bearer             string // HTTP Bearer
	identity           string // ssh private key file
}

// Format redacts under every verb, so a credential formatted by mistake
// leaks nothing.
func (credential) Format(f fmt.State, _ rune) { io.WriteString(f, "credential(redacted)") }

// Format renders the store as its size only: fmt cannot reach the
// unexported fields' own redaction, so the store redacts as a whole.
func (c Credentials) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "remote.Credentials(%d entries, redacted)", len(c.entries))
}

type credEntry struct {
	key  remoteKey
	cred credential
}

type rawCredential struct {
	Remote   string `yaml:"remote"`
	Username string `yaml:"username"`
	Password string `yaml:"password"`
	Bearer   string `yaml:"bearer"`
	Identity string `yaml:"identity"`
}

// LoadCredentials reads the credential store at path. An absent file is an
// empty store. On Unix the file must be a regular file neither group- nor
// world-accessible (mode 0600 or stricter), checked on the opened descriptor;
// otherwise it is refused unread. Errors never carry the file's content.
func LoadCredentials(path string) (*Credentials, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return &Credentials{}, nil
	}
	if err != nil {
		return nil, errors.New("credentials: cannot open")
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, errors.New("credentials: cannot stat")
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("credentials: not a regular file")
	}
	if err := checkPrivateMode(fi); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxCredentialsBytes+1))
	if err != nil {
		return nil, errors.New("credentials: cannot read")
	}
	if len(b) > maxCredentialsBytes {
		return nil, fmt.Errorf("credentials: file exceeds %d bytes", maxCredentialsBytes)
	}
	return ParseCredentials(b)
}

// ParseCredentials parses the store's YAML form: exactly one document,
// unknown keys refused; diagnostics name entries by index and never quote a
// value.
func ParseCredentials(b []byte) (*Credentials, error) {
	var raw []rawCredential
	// b is already in memory (LoadCredentials bounded it), so its own
	// length is the bound.
	switch err := strictyaml.Decode(bytes.NewReader(b), int64(len(b)), &raw); {
	case err == nil, errors.Is(err, strictyaml.ErrEmpty):
	case errors.Is(err, strictyaml.ErrMultipleDocuments):
		return nil, errors.New("credentials: the file holds more than one YAML document")
	default:
		// yaml.v3 messages can quote the offending value: name no part of it.
		return nil, errors.New("credentials: not a list of entries with keys remote, username, password, bearer, identity")
	}
	c := &Credentials{}
	for i, r := range raw {
		k, err := parseRemoteKey(r.Remote)
		if err != nil {
			return nil, fmt.Errorf("credentials: entry %d: %w", i, err)
		}
		cr := credential{username: r.Username, password: r.Password, bearer: r.Bearer, identity: r.Identity}
		kinds := 0
		if cr.username != "" || cr.password != "" {
			kinds++
		}
		if cr.bearer != "" {
			kinds++
		}
		if cr.identity != "" {
			kinds++
		}
		if kinds != 1 {
			return nil, fmt.Errorf("credentials: entry %d: exactly one of username/password, bearer, identity is required", i)
		}
		switch k.scheme {
		case "https":
			if cr.identity != "" {
				return nil, fmt.Errorf("credentials: entry %d: identity is for ssh remotes", i)
			}
		case "ssh":
			if cr.identity == "" {
				return nil, fmt.Errorf("credentials: entry %d: ssh remotes take an identity file", i)
			}
			if !filepath.IsAbs(cr.identity) {
				return nil, fmt.Errorf("credentials: entry %d: identity must be an absolute path", i)
			}
		}
		c.entries = append(c.entries, credEntry{key: k, cred: cr})
	}
	return c, nil
}

// remoteKey is a remote as named: scheme, host (lower-cased, with a
// non-default port), escaped path prefix, and for ssh the user.
type remoteKey struct {
	scheme, host, path, user string
}

func parseRemoteKey(s string) (remoteKey, error) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return remoteKey{}, errors.New("remote must be an absolute https:// or ssh:// URL")
	}
	k := keyOf(u)
	if k.scheme != "https" && k.scheme != "ssh" {
		return remoteKey{}, errors.New("remote must be an absolute https:// or ssh:// URL")
	}
	if _, set := u.User.Password(); set {
		return remoteKey{}, errors.New("remote must not carry a password; use the password key")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return remoteKey{}, errors.New("remote must not carry a query or fragment")
	}
	return k, nil
}

func keyOf(u *url.URL) remoteKey {
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if p := u.Port(); p != "" && !(scheme == "https" && p == "443") && !(scheme == "ssh" && p == "22") {
		host = host + ":" + p
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	user := ""
	if u.User != nil {
		user = u.User.Username()
	}
	return remoteKey{scheme: scheme, host: host, path: path, user: user}
}

// pathHasPrefix reports whether p lies at or beneath prefix on a segment
// boundary: /team matches /team and /team/x, never /teammate.
func pathHasPrefix(p, prefix string) bool {
	prefix = strings.TrimSuffix(prefix, "/")
	return prefix == "" || p == prefix || strings.HasPrefix(p, prefix+"/")
}

// lookup returns the credential for u: same scheme and host, longest path
// prefix. For ssh, when both the URL and the entry name a user they must
// agree; an entry's user is otherwise the login name (see match).
func (c *Credentials) lookup(u *url.URL) (credential, bool) {
	e, ok := c.match(u)
	return e.cred, ok
}

// match returns the entry lookup(u) picks, whose key also carries the ssh
// login name the entry names (or "").
func (c *Credentials) match(u *url.URL) (credEntry, bool) {
	if c == nil {
		return credEntry{}, false
	}
	want := keyOf(u)
	var best credEntry
	bestLen := -1
	for _, e := range c.entries {
		if e.key.scheme != want.scheme || e.key.host != want.host {
			continue
		}
		if want.user != "" && e.key.user != "" && e.key.user != want.user {
			continue
		}
		if !pathHasPrefix(want.path, e.key.path) {
			continue
		}
		if n := len(e.key.path); n > bestLen {
			best, bestLen = e, n
		}
	}
	return best, bestLen >= 0
}

// applyHTTP sets the credential's Authorization header on h.
func (cr credential) applyHTTP(h http.Header) {
	switch {
	case cr.bearer != "":
		h.Set("Authorization", "Bearer "+cr.bearer)
	case cr.username != "" || cr.password != "":
		req := http.Request{Header: h}
		req.SetBasicAuth(cr.username, cr.password)
	}
}
