package sigverify

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/pem"
	"errors"

	"github.com/secure-systems-lab/go-securesystemslib/encrypted"
)

// MaxKeyBytes bounds a public or private key file.
const MaxKeyBytes = 64 << 10

// ParsePublicKey decodes a PEM "PUBLIC KEY" (PKIX), as cosign writes
// cosign.pub.
func ParsePublicKey(b []byte) (crypto.PublicKey, error) {
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PUBLIC KEY" {
		return nil, errors.New("not a PEM PUBLIC KEY")
	}
	return x509.ParsePKIXPublicKey(blk.Bytes)
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
