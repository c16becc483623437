package signature

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"time"

	"github.com/secure-systems-lab/go-securesystemslib/encrypted"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/sigstore-go/pkg/sign"
	"google.golang.org/protobuf/encoding/protojson"
)

var timeZero time.Time

// ParsePrivateKey decodes an unencrypted PEM ECDSA P-256 private key
// ("PRIVATE KEY" PKCS #8 or "EC PRIVATE KEY" SEC 1). An encrypted cosign
// key is refused; ParsePrivateKeyWithPassword reads one.
func ParsePrivateKey(b []byte) (*ecdsa.PrivateKey, error) {
	return ParsePrivateKeyWithPassword(b, nil)
}

// The PEM types cosign writes for the keys `cosign generate-key-pair`
// makes: scrypt-derived secretbox encryption of a PKCS #8 key, in the
// format of go-securesystemslib's encrypted package.
const (
	cosignKeyType       = "ENCRYPTED SIGSTORE PRIVATE KEY"
	cosignLegacyKeyType = "ENCRYPTED COSIGN PRIVATE KEY"
)

// ParsePrivateKeyWithPassword is ParsePrivateKey that also reads an
// encrypted cosign key, asking password for its password only then (a nil
// password refuses such a key). The key derivation's parameters must be
// one of the fixed strengths the format defines, so a crafted key file
// cannot make the derivation take unbounded memory or time. A wrong
// password and a corrupted key are one error: the format cannot tell them
// apart. Only ECDSA P-256 keys are accepted, encrypted or not.
func ParsePrivateKeyWithPassword(b []byte, password func() ([]byte, error)) (*ecdsa.PrivateKey, error) {
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, errors.New("not a PEM private key")
	}
	var k any
	var err error
	switch blk.Type {
	case "PRIVATE KEY":
		k, err = x509.ParsePKCS8PrivateKey(blk.Bytes)
	case "EC PRIVATE KEY":
		k, err = x509.ParseECPrivateKey(blk.Bytes)
	case cosignKeyType, cosignLegacyKeyType:
		if password == nil {
			return nil, errors.New("an encrypted cosign key needs its password")
		}
		pw, perr := password()
		if perr != nil {
			return nil, perr
		}
		der, derr := encrypted.Decrypt(blk.Bytes, pw)
		if derr != nil {
			return nil, errors.New("the cosign key does not decrypt: wrong password, or not a cosign key")
		}
		k, err = x509.ParsePKCS8PrivateKey(der)
	default:
		return nil, errors.New("not a PEM ECDSA private key (" + blk.Type + ")")
	}
	if err != nil {
		return nil, errors.New("the " + blk.Type + " block does not hold a private key lola can read (PKCS #8 or SEC 1)")
	}
	ek, ok := k.(*ecdsa.PrivateKey)
	if !ok || ek.Curve != elliptic.P256() {
		return nil, errors.New("only ECDSA P-256 keys are supported")
	}
	return ek, nil
}

// PublicKeyPEM renders k's public key as PEM "PUBLIC KEY", for
// config.yaml's trust.keys.
func PublicKeyPEM(k *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// Sign makes a key-based Sigstore bundle (v0.3, a message signature over
// the artifact's sha256, the public key named by its hint), as `cosign
// sign-blob --key --tlog-upload=false --new-bundle-format` does. No
// transparency log or timestamp authority is contacted.
func Sign(k *ecdsa.PrivateKey, artifact []byte) ([]byte, error) {
	kp, err := newKeypair(k)
	if err != nil {
		return nil, err
	}
	pb, err := sign.Bundle(&sign.PlainData{Data: artifact}, kp, sign.BundleOptions{})
	if err != nil {
		return nil, err
	}
	return protojson.Marshal(pb)
}

// keypair adapts a loaded key to sign.Keypair.
type keypair struct {
	k    *ecdsa.PrivateKey
	hint []byte
}

func newKeypair(k *ecdsa.PrivateKey) (*keypair, error) {
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		return nil, err
	}
	h := sha256.Sum256(der)
	return &keypair{k: k, hint: []byte(base64.StdEncoding.EncodeToString(h[:]))}, nil
}

func (p *keypair) GetHashAlgorithm() protocommon.HashAlgorithm {
	return protocommon.HashAlgorithm_SHA2_256
}
func (p *keypair) GetSigningAlgorithm() protocommon.PublicKeyDetails {
	return protocommon.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256
}
func (p *keypair) GetHint() []byte                { return p.hint }
func (p *keypair) GetKeyAlgorithm() string        { return "ECDSA" }
func (p *keypair) GetPublicKey() crypto.PublicKey { return &p.k.PublicKey }
func (p *keypair) GetPublicKeyPem() (string, error) {
	b, err := PublicKeyPEM(p.k)
	return string(b), err
}

// SignData signs sha256(data) and returns the signature and the digest.
func (p *keypair) SignData(_ context.Context, data []byte) ([]byte, []byte, error) {
	d := sha256.Sum256(data)
	sig, err := ecdsa.SignASN1(rand.Reader, p.k, d[:])
	return sig, d[:], err
}
