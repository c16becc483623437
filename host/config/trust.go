package config

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// TrustedRootFile is the Sigstore trusted root (trusted_root.json) under
// $LOLA_HOME that keyless bundles are checked against. The operator
// supplies it; verification never fetches one.
const TrustedRootFile = "trusted_root.json"

// Trust is the signature trust policy (config.yaml's trust: section): the
// public keys and the keyless identities whose signatures lola accepts on
// an extension's artifact, and whether tier-1 modules must be signed too.
// The zero value trusts nothing and requires no tier-1 signature.
type Trust struct {
	keys         []TrustedKey
	identities   []TrustedIdentity
	requireTier1 bool
}

// TrustedKey is one trusted public key: a name for messages and the audit
// log, and the PEM file (absolute, or relative to $LOLA_HOME).
type TrustedKey struct {
	Name string
	File string
}

// TrustedIdentity is one trusted keyless signer: the OIDC issuer and the
// certificate subject (SAN), each exact or a regular expression (exactly
// one of each pair is set).
type TrustedIdentity struct {
	Issuer, IssuerRegexp, Subject, SubjectRegexp string
}

// String names the identity for messages and the audit log.
func (i TrustedIdentity) String() string {
	iss, sub := i.Issuer, i.Subject
	if iss == "" {
		iss = "~" + i.IssuerRegexp
	}
	if sub == "" {
		sub = "~" + i.SubjectRegexp
	}
	return sub + " (" + iss + ")"
}

// Trust returns the trust policy section.
func (c *Config) Trust() Trust { return c.trust }

// Keys lists the trusted keys, in file order.
func (t Trust) Keys() []TrustedKey { return append([]TrustedKey(nil), t.keys...) }

// Identities lists the trusted keyless identities, in file order.
func (t Trust) Identities() []TrustedIdentity {
	return append([]TrustedIdentity(nil), t.identities...)
}

// RequireTier1 reports whether tier-1 modules must be signed too.
func (t Trust) RequireTier1() bool { return t.requireTier1 }

type rawTrust struct {
	Keys         []rawKey      `yaml:"keys"`
	Identities   []rawIdentity `yaml:"identities"`
	RequireTier1 bool          `yaml:"require_tier1"`
}

type rawKey struct {
	Name string `yaml:"name"`
	File string `yaml:"file"`
}

type rawIdentity struct {
	Issuer        string `yaml:"issuer"`
	IssuerRegexp  string `yaml:"issuer_regexp"`
	Subject       string `yaml:"subject"`
	SubjectRegexp string `yaml:"subject_regexp"`
}

var keyName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$`)

func validateTrust(raw *rawTrust) (Trust, error) {
	var t Trust
	if raw == nil {
		return t, nil
	}
	t.requireTier1 = raw.RequireTier1
	seen := map[string]bool{}
	for i, k := range raw.Keys {
		switch {
		case !keyName.MatchString(k.Name):
			return Trust{}, fmt.Errorf("trust.keys[%d].name: %q must match %s", i, k.Name, keyName)
		case seen[k.Name]:
			return Trust{}, fmt.Errorf("trust.keys[%d].name: %q is named twice", i, k.Name)
		case k.File == "" || strings.ContainsRune(k.File, 0):
			return Trust{}, fmt.Errorf("trust.keys[%d].file: required", i)
		}
		seen[k.Name] = true
		t.keys = append(t.keys, TrustedKey{Name: k.Name, File: k.File})
	}
	for i, id := range raw.Identities {
		if (id.Issuer == "") == (id.IssuerRegexp == "") {
			return Trust{}, fmt.Errorf("trust.identities[%d]: exactly one of issuer, issuer_regexp", i)
		}
		if (id.Subject == "") == (id.SubjectRegexp == "") {
			return Trust{}, fmt.Errorf("trust.identities[%d]: exactly one of subject, subject_regexp", i)
		}
		for _, re := range []string{id.IssuerRegexp, id.SubjectRegexp} {
			if re == "" {
				continue
			}
			if _, err := regexp.Compile(re); err != nil {
				return Trust{}, fmt.Errorf("trust.identities[%d]: %q is not a regular expression", i, re)
			}
			if !strings.HasPrefix(re, "^") || !strings.HasSuffix(re, "$") {
				return Trust{}, errors.New("trust.identities: a regular expression must be anchored (^...$): an unanchored one matches more than it says")
			}
		}
		t.identities = append(t.identities, TrustedIdentity(id))
	}
	return t, nil
}
