package signature

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"

	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/sigstore-go/pkg/sign"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/lola-pm/lola/host/sigverify"
)

// sigstoreKeypair is sigstore-go's sign.Keypair over an ECDSA key, hinted
// by the sha256 of its PKIX encoding, as cosign names a key.
type sigstoreKeypair struct{ k *ecdsa.PrivateKey }

func (p sigstoreKeypair) GetHashAlgorithm() protocommon.HashAlgorithm {
	return protocommon.HashAlgorithm_SHA2_256
}
func (p sigstoreKeypair) GetSigningAlgorithm() protocommon.PublicKeyDetails {
	return protocommon.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256
}
func (p sigstoreKeypair) GetHint() []byte {
	der, _ := x509.MarshalPKIXPublicKey(&p.k.PublicKey)
	h := sha256.Sum256(der)
	return []byte(base64.StdEncoding.EncodeToString(h[:]))
}
func (p sigstoreKeypair) GetKeyAlgorithm() string        { return "ECDSA" }
func (p sigstoreKeypair) GetPublicKey() crypto.PublicKey { return &p.k.PublicKey }
func (p sigstoreKeypair) GetPublicKeyPem() (string, error) {
	b, err := sigverify.PublicKeyPEM(p.k)
	return string(b), err
}
func (p sigstoreKeypair) SignData(_ context.Context, data []byte) ([]byte, []byte, error) {
	d := sha256.Sum256(data)
	sig, err := ecdsa.SignASN1(rand.Reader, p.k, d[:])
	return sig, d[:], err
}

// sigverify.Sign, which lola links, writes the bundle sigstore-go's own
// signer writes for a key: every member equal but the signature, which
// ECDSA randomises (and both verify, TestSignThenVerifyNamesTheTrustedKey).
func TestSignWritesSigstoreGosKeyBundle(t *testing.T) {
	k := newKey(t)
	art := []byte("artifact bytes")
	ours, err := sigverify.Sign(k, art)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := sign.Bundle(&sign.PlainData{Data: art}, sigstoreKeypair{k}, sign.BundleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := protojson.Marshal(pb)
	if err != nil {
		t.Fatal(err)
	}
	shape := func(b []byte) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		ms := m["messageSignature"].(map[string]any)
		if s, _ := ms["signature"].(string); s == "" {
			t.Fatalf("no signature in %s", b)
		}
		delete(ms, "signature")
		return m
	}
	if a, b := shape(ours), shape(theirs); !reflect.DeepEqual(a, b) {
		t.Fatalf("sigverify.Sign wrote\n%v\nsigstore-go writes\n%v", a, b)
	}
}
