package signature

import (
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/signature/sigtest"
	"github.com/lola-pm/lola/host/sigverify"
)

const (
	testIssuer  = "https://issuer.example"
	testSubject = "author@example.com"
)

func newVirtual(t *testing.T) (*sigtest.Sigstore, []byte) {
	t.Helper()
	vs, err := sigtest.New()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := vs.TrustedRoot()
	if err != nil {
		t.Fatal(err)
	}
	return vs, tr
}

func TestKeylessBundleFromATrustedIdentityVerifies(t *testing.T) {
	vs, tr := newVirtual(t)
	art := []byte("native artifact bytes")
	b, err := vs.Sign(testSubject, testIssuer, art)
	if err != nil {
		t.Fatal(err)
	}
	for name, id := range map[string]Identity{
		"exact subject":  {Issuer: testIssuer, Subject: testSubject},
		"subject regexp": {Issuer: testIssuer, SubjectRegexp: `^[a-z]+@example\.com$`},
		"issuer regexp":  {IssuerRegexp: `^https://issuer\.example$`, Subject: testSubject},
	} {
		v, err := New(nil, []Identity{{Issuer: "https://other", Subject: "x@y"}, id}, tr)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		signer, err := v.Verify(sha256.Sum256(art), b)
		if want := "identity " + testSubject + " (" + testIssuer + ")"; err != nil || signer != want {
			t.Errorf("%s: %q %v, want %q", name, signer, err, want)
		}
	}
}

func TestKeylessVerifyRefusesHostileBundles(t *testing.T) {
	vs, tr := newVirtual(t)
	art := []byte("native artifact bytes")
	good, err := vs.Sign(testSubject, testIssuer, art)
	if err != nil {
		t.Fatal(err)
	}
	wrongSubject, _ := vs.Sign("mallory@example.com", testIssuer, art)
	wrongIssuer, _ := vs.Sign(testSubject, "https://evil.example", art)
	other, _ := vs.Sign(testSubject, testIssuer, []byte("another artifact"))
	expired, err := vs.SignExpired(testSubject, testIssuer, art)
	if err != nil {
		t.Fatal(err)
	}
	// A bundle from another Sigstore instance: a CA the root does not hold.
	foreign, _ := newVirtual(t)
	foreignBundle, _ := foreign.Sign(testSubject, testIssuer, art)
	untrusted, _ := sigverify.Sign(newKey(t), art)
	// An anchored regexp: a subject that merely contains the trusted one.
	suffixed, _ := vs.Sign(testSubject+".evil", testIssuer, art)

	v, err := New([]Key{{Name: "alice", Pub: &newKey(t).PublicKey}},
		[]Identity{{Issuer: testIssuer, Subject: testSubject}, {Issuer: testIssuer, SubjectRegexp: `^author@example\.com$`}}, tr)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		bundle []byte
		want   string
	}{
		"wrong subject":               {wrongSubject, "no trusted identity matches: subject mallory@example.com (issuer https://issuer.example)"},
		"subject with a suffix":       {suffixed, "no trusted identity matches: subject author@example.com.evil"},
		"wrong issuer":                {wrongIssuer, "no trusted identity matches: subject author@example.com (issuer https://evil.example)"},
		"expired certificate":         {expired, "integrated time outside certificate validity"},
		"bundle for another artifact": {other, "artifact does not match digest"},
		"another CA":                  {foreignBundle, "keyless bundle does not verify"},
		"truncated":                   {good[:len(good)/2], "not a Sigstore bundle"},
		"untrusted key":               {untrusted, "does not trust"},
	} {
		signer, err := v.Verify(sha256.Sum256(art), c.bundle)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q %v, want %q", name, signer, err, c.want)
		}
	}
	if _, err := v.Verify(sha256.Sum256(art), good); err != nil {
		t.Fatalf("the good bundle: %v", err)
	}
	// "^a|b$" passes config.yaml's anchor check; unwrapped it would match
	// any subject starting with the trusted one.
	alt, _ := New(nil, []Identity{{Issuer: testIssuer, SubjectRegexp: `^author@example\.com|^ci@example\.com$`}}, tr)
	if _, err := alt.Verify(sha256.Sum256(art), suffixed); err == nil || !strings.Contains(err.Error(), "no trusted identity matches") {
		t.Errorf("alternation regexp matched a suffixed subject: %v", err)
	}
	if _, err := alt.Verify(sha256.Sum256(art), good); err != nil {
		t.Errorf("alternation regexp: %v", err)
	}
	// Keys only: a keyless bundle is refused without a trusted identity.
	keysOnly, _ := New([]Key{{Name: "alice", Pub: &newKey(t).PublicKey}}, nil, nil)
	if _, err := keysOnly.Verify(sha256.Sum256(art), good); err == nil || !strings.Contains(err.Error(), "no trusted identity") {
		t.Errorf("keys-only policy: %v", err)
	}
}
