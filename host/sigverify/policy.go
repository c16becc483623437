package sigverify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/config"
)

// Policy is one trust policy (config.yaml's trust: section): the keys
// trusted for key-based bundles, and the identities and trusted root for
// keyless ones. Build it with FromConfig; it is safe for concurrent use.
type Policy struct {
	keys        []Key
	identities  []Identity
	trustedRoot []byte
}

// FromConfig reads config.yaml's trust: section: key files relative to
// home (each bounded and parsed now, so a bad key is named at once), and
// $LOLA_HOME/trusted_root.json when identities are trusted.
func FromConfig(home string, t config.Trust) (*Policy, error) {
	p := &Policy{}
	for _, k := range t.Keys() {
		f := k.File
		if !filepath.IsAbs(f) {
			f = filepath.Join(home, f)
		}
		b, err := readBounded(f, MaxKeyBytes)
		if err != nil {
			return nil, fmt.Errorf("trust.keys %s: %w", k.Name, err)
		}
		if _, err := ParsePublicKey(b); err != nil {
			return nil, fmt.Errorf("trust.keys %s: %w", k.Name, err)
		}
		p.keys = append(p.keys, Key{Name: k.Name, PEM: b})
	}
	if len(p.keys) > MaxKeys {
		return nil, fmt.Errorf("trust.keys: more than %d keys", MaxKeys)
	}
	for _, id := range t.Identities() {
		p.identities = append(p.identities, Identity{Issuer: id.Issuer, IssuerRegexp: id.IssuerRegexp, Subject: id.Subject, SubjectRegexp: id.SubjectRegexp})
	}
	if len(p.identities) > 0 {
		b, err := readBounded(filepath.Join(home, config.TrustedRootFile), MaxTrustedRootBytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", config.TrustedRootFile, err)
		}
		p.trustedRoot = b
	}
	return p, nil
}

func readBounded(p string, max int64) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, errors.New("cannot be read")
	}
	if !fi.Mode().IsRegular() || fi.Size() > max {
		return nil, fmt.Errorf("not a regular file of at most %d bytes", max)
	}
	return os.ReadFile(p)
}

// Verify checks bundle for the artifact whose sha256 is digest and names
// the trusted signer ("key NAME", or "identity SUBJECT (ISSUER)"). See the
// package guarantees.
func (p *Policy) Verify(digest [sha256.Size]byte, bundle []byte) (string, error) {
	if len(bundle) > MaxBundleBytes {
		return "", fmt.Errorf("the bundle is larger than %d bytes", MaxBundleBytes)
	}
	resp, err := verify(context.Background(), Request{
		Keys: p.keys, Identities: p.identities, TrustedRoot: p.trustedRoot,
		Digest: hex.EncodeToString(digest[:]), Bundle: bundle,
	})
	if err != nil {
		return "", err
	}
	if resp.Error != "" {
		return "", errors.New(resp.Error)
	}
	return resp.Signer, nil
}
