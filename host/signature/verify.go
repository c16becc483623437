package signature

import (
	"crypto"
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
	sigsig "github.com/sigstore/sigstore/pkg/signature"

	"github.com/lola-pm/lola/host/config"
)

// Key is one trusted public key.
type Key struct {
	Name string
	Pub  crypto.PublicKey
}

// Identity is one trusted keyless signer.
type Identity = config.TrustedIdentity

// Verifier verifies bundles against one trust policy. Build it with New;
// it is safe for concurrent use.
type Verifier struct {
	keys       []Key
	identities []verify.CertificateIdentity
	names      []string
	trustRoot  *root.TrustedRoot // nil: keyless bundles are refused
}

// New builds a verifier: keys for key-based bundles, identities checked
// against trustedRoot (JSON; nil when none is configured) for keyless ones.
func New(keys []Key, ids []Identity, trustedRoot []byte) (*Verifier, error) {
	v := &Verifier{keys: keys}
	for _, id := range ids {
		ci, err := verify.NewShortCertificateIdentity(id.Issuer, anchor(id.IssuerRegexp), id.Subject, anchor(id.SubjectRegexp))
		if err != nil {
			return nil, fmt.Errorf("trust.identities: %w", err)
		}
		v.identities = append(v.identities, ci)
		v.names = append(v.names, id.String())
	}
	if len(ids) > 0 {
		if trustedRoot == nil {
			return nil, fmt.Errorf("trust.identities needs $LOLA_HOME/%s (the operator's Sigstore trusted root)", config.TrustedRootFile)
		}
		tr, err := root.NewTrustedRootFromJSON(trustedRoot)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", config.TrustedRootFile, err)
		}
		v.trustRoot = tr
	}
	return v, nil
}

// anchor makes re match whole values only: config.yaml asks for ^...$,
// but "^a|b$" passes that check and, unwrapped, matches any value starting
// with a or ending with b. "" (no regexp) stays "".
func anchor(re string) string {
	if re == "" {
		return ""
	}
	return "^(?:" + re + ")$"
}

var timeZero time.Time

// Verify checks bundleJSON for the artifact whose sha256 is digest and
// names the trusted signer. See the package guarantees.
func (v *Verifier) Verify(digest [sha256.Size]byte, bundleJSON []byte) (string, error) {
	var b bundle.Bundle
	if err := b.UnmarshalJSON(bundleJSON); err != nil {
		return "", fmt.Errorf("not a Sigstore bundle: %w", err)
	}
	vc, err := b.VerificationContent()
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	art := verify.WithArtifactDigest("sha256", digest[:])
	if vc.PublicKey() != nil {
		var last error = errors.New("no trusted key (config.yaml trust.keys)")
		for _, k := range v.keys {
			sv, err := sigsig.LoadVerifier(k.Pub, crypto.SHA256)
			if err != nil {
				return "", fmt.Errorf("trust.keys %s: %w", k.Name, err)
			}
			ek := root.NewExpiringKey(sv, timeZero, timeZero)
			tm := root.NewTrustedPublicKeyMaterial(func(string) (root.TimeConstrainedVerifier, error) { return ek, nil })
			ver, err := verify.NewVerifier(tm, verify.WithNoObserverTimestamps())
			if err != nil {
				return "", err
			}
			if _, err := ver.Verify(&b, verify.NewPolicy(art, verify.WithKey())); err == nil {
				return "key " + k.Name, nil
			} else {
				last = err
			}
		}
		return "", fmt.Errorf("signed by a key lola does not trust, or not for these bytes: %w", last)
	}
	if v.trustRoot == nil || len(v.identities) == 0 {
		return "", errors.New("a keyless bundle, and no trusted identity (config.yaml trust.identities)")
	}
	ver, err := verify.NewVerifier(v.trustRoot, verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1))
	if err != nil {
		return "", err
	}
	// The signature, chain, log entry and observed time are verified first
	// and the identity matched after, so a refusal says which: a bundle
	// that verifies but names a stranger is refused by the name it carries.
	res, err := ver.Verify(&b, verify.NewPolicy(art, verify.WithoutIdentitiesUnsafe()))
	if err != nil {
		return "", fmt.Errorf("keyless bundle does not verify: %w", err)
	}
	if res.Signature == nil || res.Signature.Certificate == nil {
		return "", errors.New("keyless bundle does not verify: no certificate")
	}
	c := res.Signature.Certificate
	if _, err := verify.CertificateIdentities(v.identities).Verify(*c); err != nil {
		return "", fmt.Errorf("no trusted identity matches: subject %s (issuer %s) signed it; config.yaml trust.identities trusts %s",
			oneLine(c.SubjectAlternativeName), oneLine(c.Issuer), strings.Join(v.names, ", "))
	}
	return "identity " + oneLine(c.SubjectAlternativeName) + " (" + oneLine(c.Issuer) + ")", nil
}

// oneLine bounds a certificate value for messages and the audit log: a
// certificate is attacker-chosen until its identity matched, so control
// characters are escaped and the length bounded.
func oneLine(s string) string {
	const max = 200
	q := strconv.QuoteToASCII(s)
	q = q[1 : len(q)-1]
	if len(q) > max {
		q = q[:max] + "..."
	}
	return q
}
