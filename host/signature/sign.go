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

	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/sigstore-go/pkg/sign"
	"google.golang.org/protobuf/encoding/protojson"
)

var timeZero time.Time

// ParsePrivateKey decodes an unencrypted PEM ECDSA P-256 private key
// ("PRIVATE KEY" PKCS #8 or "EC PRIVATE KEY" SEC 1).
func ParsePrivateKey(b []byte) (*ecdsa.PrivateKey, error) {
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
	default:
		return nil, errors.New("not an unencrypted PEM ECDSA private key (" + blk.Type + "); an encrypted cosign key needs cosign sign-blob")
	}
	if err != nil {
		return nil, err
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
