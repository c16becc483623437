package signature

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/sigverify"
)

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSignThenVerifyNamesTheTrustedKey(t *testing.T) {
	k := newKey(t)
	art := []byte("native artifact bytes")
	b, err := sigverify.Sign(k, art)
	if err != nil {
		t.Fatal(err)
	}
	v, err := New([]Key{{Name: "other", Pub: &newKey(t).PublicKey}, {Name: "alice", Pub: &k.PublicKey}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := v.Verify(sha256.Sum256(art), b)
	if err != nil || signer != "key alice" {
		t.Fatalf("%q %v", signer, err)
	}
}

func TestVerifyRefusesHostileBundles(t *testing.T) {
	k := newKey(t)
	art := []byte("native artifact bytes")
	good, err := sigverify.Sign(k, art)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := sigverify.Sign(k, []byte("another artifact"))
	untrusted, _ := sigverify.Sign(newKey(t), art)
	v, _ := New([]Key{{Name: "alice", Pub: &k.PublicKey}}, nil, nil)
	for name, c := range map[string]struct {
		bundle []byte
		want   string
	}{
		"bundle for another artifact": {other, "not for these bytes"},
		"untrusted key":               {untrusted, "does not trust"},
		"truncated":                   {good[:len(good)/2], "not a Sigstore bundle"},
		"empty":                       {nil, "not a Sigstore bundle"},
		"signature flipped":           {[]byte(strings.Replace(string(good), `"signature":"M`, `"signature":"N`, 1)), "does not trust"},
	} {
		if _, err := v.Verify(sha256.Sum256(art), c.bundle); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	none, _ := New(nil, nil, nil)
	if _, err := none.Verify(sha256.Sum256(art), good); err == nil {
		t.Error("an empty policy trusted a key")
	}
}

func TestIdentitiesNeedATrustedRoot(t *testing.T) {
	if _, err := New(nil, []Identity{{Issuer: "https://issuer", Subject: "a@b"}}, nil); err == nil {
		t.Fatal("identities without a trusted root")
	}
}

func BenchmarkVerifyKeyBundle(b *testing.B) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	art := make([]byte, 4<<20)
	bundle, _ := sigverify.Sign(k, art)
	v, _ := New([]Key{{Name: "alice", Pub: &k.PublicKey}}, nil, nil)
	d := sha256.Sum256(art)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := v.Verify(d, bundle); err != nil {
			b.Fatal(err)
		}
	}
}
