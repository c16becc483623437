package sigverify

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/secure-systems-lab/go-securesystemslib/encrypted"
)

// cosignKey encrypts k as `cosign generate-key-pair` writes cosign.key.
func cosignKey(t *testing.T, pemType string, der, password []byte) []byte {
	t.Helper()
	enc, err := encrypted.Encrypt(der, password)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: pemType, Bytes: enc})
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestKeysRoundTripThroughPEM(t *testing.T) {
	k := newKey(t)
	pub, err := PublicKeyPEM(k)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePublicKey(pub); err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePrivateKey(pub); err == nil {
		t.Fatal("a public key parsed as a private key")
	}
}

// An encrypted cosign key (either PEM type) decrypts with its password to
// the very key; a wrong password or none is refused, naming why.
func TestCosignEncryptedKeys(t *testing.T) {
	k := newKey(t)
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	pw := func(s string) func() ([]byte, error) { return func() ([]byte, error) { return []byte(s), nil } }
	for _, typ := range []string{cosignKeyType, cosignLegacyKeyType} {
		key := cosignKey(t, typ, der, []byte("hunter2"))
		got, err := ParsePrivateKeyWithPassword(key, pw("hunter2"))
		if err != nil || !got.Equal(k) {
			t.Fatalf("%s: %v", typ, err)
		}
		if _, err := ParsePrivateKeyWithPassword(key, pw("wrong")); err == nil || !strings.Contains(err.Error(), "wrong password") {
			t.Fatalf("%s with a wrong password: %v", typ, err)
		}
		if _, err := ParsePrivateKey(key); err == nil || !strings.Contains(err.Error(), "needs its password") {
			t.Fatalf("%s without a password func: %v", typ, err)
		}
	}
}

// A crafted key file cannot choose its own key-derivation cost: scrypt
// parameters other than the format's fixed strengths are refused before
// any derivation runs (N = 2^30 would want 1 TiB).
func TestCosignKeyWithCraftedScryptCostIsRefused(t *testing.T) {
	k := newKey(t)
	der, _ := x509.MarshalPKCS8PrivateKey(k)
	blk, _ := pem.Decode(cosignKey(t, cosignKeyType, der, []byte("pw")))
	var doc map[string]any
	if err := json.Unmarshal(blk.Bytes, &doc); err != nil {
		t.Fatal(err)
	}
	doc["kdf"].(map[string]any)["params"].(map[string]any)["N"] = 1 << 30
	blk.Bytes, _ = json.Marshal(doc)
	_, err := ParsePrivateKeyWithPassword(pem.EncodeToMemory(blk), func() ([]byte, error) { return []byte("pw"), nil })
	if err == nil || !strings.Contains(err.Error(), "does not decrypt") {
		t.Fatalf("a key with N=2^30: %v", err)
	}
}

// An encrypted key whose plaintext is not a PKCS #8 key decrypts, then is
// refused by the key parser, as an unencrypted one would be.
func TestCosignKeyOfAnotherAlgorithmIsRefused(t *testing.T) {
	_, err := ParsePrivateKeyWithPassword(cosignKey(t, cosignKeyType, []byte("not pkcs8"), []byte("pw")), func() ([]byte, error) { return []byte("pw"), nil })
	if err == nil || !strings.Contains(err.Error(), "does not hold a private key lola can read") {
		t.Fatalf("garbage inside a cosign key: %v, want the key parser to refuse it", err)
	}
	// A P-384 key, well encrypted: refused for its curve.
	k384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(k384)
	_, err = ParsePrivateKeyWithPassword(cosignKey(t, cosignKeyType, der, []byte("pw")), func() ([]byte, error) { return []byte("pw"), nil })
	if err == nil || !strings.Contains(err.Error(), "only ECDSA P-256") {
		t.Fatalf("a P-384 cosign key: %v", err)
	}
}
