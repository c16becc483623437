package extension

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/lola-pm/lola/host/internal/durable"
)

// LockFile is the lock file's name under $LOLA_HOME: what `lola ext add`
// and `lola ext link` pinned, one entry per extension name.
const LockFile = "extensions.lock"

// LockVersion is the lock file format this host reads and writes.
const LockVersion = 1

// MaxLockBytes bounds the lock file; a larger one is refused unread.
const MaxLockBytes = 4 << 20

// Verdict is what signature verification said about one artifact. Closed.
type Verdict string

// Verdicts.
const (
	// VerdictVerified: a Sigstore bundle beside the artifact verified
	// against the trust policy; Signer names the key or identity.
	VerdictVerified Verdict = "verified"
	// VerdictOptedIn: unsigned or unverifiable, run only because the user
	// opted in for exactly these bytes (ext add --allow-unsigned).
	VerdictOptedIn Verdict = "unsigned-opted-in"
	// VerdictUnsigned: no bundle, and none required (a tier-1 module
	// under the default policy: it runs confined).
	VerdictUnsigned Verdict = "unsigned"
)

// Verdicts lists every verdict.
func Verdicts() []Verdict { return []Verdict{VerdictVerified, VerdictOptedIn, VerdictUnsigned} }

// Lock is the decoded lock file. The zero value is an empty lock.
type Lock struct {
	Version    int                   `json:"version"`
	Extensions map[string]*LockEntry `json:"extensions"`
}

// LockEntry pins one extension.
type LockEntry struct {
	// Source is where the extension came from, as `ext add` resolved it
	// (an absolute path, or a URL), for `ext update` and for ls/info.
	Source string `json:"source"`
	// Dev marks a linked development directory (`ext link`): Dir is that
	// directory; it is re-read on every run and its artifacts are not
	// pinned (Artifacts holds only the native opt-ins, by hash).
	Dev bool   `json:"dev,omitempty"`
	Dir string `json:"dir,omitempty"`
	// Version is the manifest's version when pinned.
	Version string `json:"version"`
	// Manifest is the hex sha256 of lola-extension.yaml's bytes.
	Manifest string `json:"manifest_sha256,omitempty"`
	// Artifacts pins each built artifact by tier.
	Artifacts map[Tier]*LockArtifact `json:"artifacts"`
	// Added is when the entry was written (UTC, RFC 3339).
	Added time.Time `json:"added"`
}

// LockArtifact pins one artifact: its path in the extension directory, the
// sha256 of its bytes and the signature verdict on exactly those bytes.
type LockArtifact struct {
	Path    string  `json:"path"`
	SHA256  string  `json:"sha256"`
	Verdict Verdict `json:"verdict"`
	// Signer names the trusted key or identity that signed (verified only).
	Signer string `json:"signer,omitempty"`
}

// Sum decodes the pinned digest.
func (a *LockArtifact) Sum() ([sha256.Size]byte, error) {
	var s [sha256.Size]byte
	b, err := hex.DecodeString(a.SHA256)
	if err != nil || len(b) != sha256.Size {
		return s, errors.New("not a sha256")
	}
	copy(s[:], b)
	return s, nil
}

// ReadLock reads home's lock file strictly: unknown fields, trailing data,
// an unknown version, an invalid name, digest or verdict refuse the whole
// file (nothing pinned can be trusted from a file lola did not write). An
// absent file is an empty lock.
func ReadLock(home string) (*Lock, error) {
	f, err := os.Open(filepath.Join(home, LockFile))
	if errors.Is(err, fs.ErrNotExist) {
		return &Lock{Version: LockVersion, Extensions: map[string]*LockEntry{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read $LOLA_HOME/%s", LockFile)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxLockBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read $LOLA_HOME/%s", LockFile)
	}
	if len(b) > MaxLockBytes {
		return nil, fmt.Errorf("$LOLA_HOME/%s is larger than %d bytes", LockFile, MaxLockBytes)
	}
	return parseLock(b)
}

func parseLock(b []byte) (*Lock, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var l Lock
	bad := func(why string) error { return fmt.Errorf("$LOLA_HOME/%s: %s", LockFile, why) }
	if err := dec.Decode(&l); err != nil {
		return nil, bad("not a lock file (" + err.Error() + ")")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad("trailing data")
	}
	if l.Version != LockVersion {
		return nil, bad(fmt.Sprintf("version %d is not %d", l.Version, LockVersion))
	}
	if l.Extensions == nil {
		l.Extensions = map[string]*LockEntry{}
	}
	for name, e := range l.Extensions {
		if !ValidName(name) || e == nil {
			return nil, bad("entry " + quote(name) + " is not an extension name")
		}
		if e.Dev != (e.Dir != "") || (e.Dev && !filepath.IsAbs(e.Dir)) {
			return nil, bad("entry " + quote(name) + ": dev and dir disagree")
		}
		if !e.Dev && !isHexSum(e.Manifest) {
			return nil, bad("entry " + quote(name) + ": manifest_sha256 is not a sha256")
		}
		for t, a := range e.Artifacts {
			if _, err := ParseTier(string(t)); err != nil || a == nil {
				return nil, bad("entry " + quote(name) + ": artifacts: " + quote(string(t)) + " is not a tier")
			}
			if !isHexSum(a.SHA256) {
				return nil, bad("entry " + quote(name) + ": artifacts." + string(t) + ".sha256 is not a sha256")
			}
			if !validVerdict(a.Verdict) {
				return nil, bad("entry " + quote(name) + ": artifacts." + string(t) + ".verdict " + quote(string(a.Verdict)) + " is not a verdict")
			}
		}
	}
	return &l, nil
}

func validVerdict(v Verdict) bool {
	for _, w := range Verdicts() {
		if v == w {
			return true
		}
	}
	return false
}

func isHexSum(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == sha256.Size && hex.EncodeToString(b) == s
}

// Names lists the pinned names, sorted.
func (l *Lock) Names() []string {
	out := make([]string, 0, len(l.Extensions))
	for n := range l.Extensions {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// WriteLock writes l as home's lock file atomically: a temporary file
// beside it, synced, renamed over it, and the directory synced, so a crash
// leaves the old lock or the new one, never a mix.
func WriteLock(home string, l *Lock) error {
	l.Version = LockVersion
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("cannot create $LOLA_HOME")
	}
	if err := writeWhole(filepath.Join(home, LockFile), b, 0o600); err != nil {
		return fmt.Errorf("cannot write $LOLA_HOME/%s", LockFile)
	}
	return nil
}

// writeWhole writes b to path through a temporary file beside it, synced,
// renamed over path, and the directory synced: path holds its old content
// or b, never a mix. A symbolic link at path is replaced, never written
// through.
func writeWhole(path string, b []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, werr := tmp.Write(b)
	if werr == nil {
		werr = durable.File(tmp)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(name, perm)
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
		return werr
	}
	if d, err := os.Open(dir); err == nil {
		_ = durable.File(d) // not supported on every platform; the rename is what matters
		d.Close()
	}
	return nil
}

// hashFile is the hex sha256 of the regular file at p, read through a
// descriptor opened without following a final symlink where the platform
// allows (see openNoFollow).
func hashFile(p string) (string, error) {
	f, err := openNoFollow(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// openNoFollow opens p for reading and refuses anything but a regular file.
// The final component is Lstat-checked first: a symlink is refused.
func openNoFollow(p string) (*os.File, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	return os.Open(p)
}
