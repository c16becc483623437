package sigverify

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
)

// bundleMediaType is the Sigstore bundle format Sign writes.
const bundleMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json"

// keyBundle is the JSON form (protobuf-specs' JSON mapping) of a
// key-based Sigstore bundle: a message signature over the artifact's
// digest, the public key named by a hint. Field names are the mapping's.
type keyBundle struct {
	MediaType            string `json:"mediaType"`
	VerificationMaterial struct {
		PublicKey struct {
			Hint string `json:"hint"`
		} `json:"publicKey"`
	} `json:"verificationMaterial"`
	MessageSignature struct {
		MessageDigest struct {
			Algorithm string `json:"algorithm"`
			Digest    []byte `json:"digest"`
		} `json:"messageDigest"`
		Signature []byte `json:"signature"`
	} `json:"messageSignature"`
}

// Sign makes a key-based Sigstore bundle (v0.3, a message signature over
// the artifact's sha256, the public key named by the base64 sha256 of its
// PKIX encoding), as `cosign sign-blob --key --tlog-upload=false
// --new-bundle-format` does. No transparency log or timestamp authority
// is contacted.
func Sign(k *ecdsa.PrivateKey, artifact []byte) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		return nil, err
	}
	hint := sha256.Sum256(der)
	digest := sha256.Sum256(artifact)
	sig, err := ecdsa.SignASN1(rand.Reader, k, digest[:])
	if err != nil {
		return nil, err
	}
	var b keyBundle
	b.MediaType = bundleMediaType
	b.VerificationMaterial.PublicKey.Hint = base64.StdEncoding.EncodeToString(hint[:])
	b.MessageSignature.MessageDigest.Algorithm = "SHA2_256"
	b.MessageSignature.MessageDigest.Digest = digest[:]
	b.MessageSignature.Signature = sig
	return json.Marshal(b)
}

// BundleDigest is the sha256 a message-signature bundle (key-based or
// keyless, as Sign and `cosign sign-blob` write) says it signs, read
// without verifying anything; ok is false for any other shape (a DSSE
// envelope, another algorithm, not a bundle, larger than
// MaxBundleBytes). It answers "was this bundle made for these bytes?",
// never "do I trust it?".
func BundleDigest(bundle []byte) (digest [sha256.Size]byte, ok bool) {
	if len(bundle) > MaxBundleBytes {
		return digest, false
	}
	var b keyBundle
	if json.Unmarshal(bundle, &b) != nil {
		return digest, false
	}
	md := b.MessageSignature.MessageDigest
	if md.Algorithm != "SHA2_256" || len(md.Digest) != sha256.Size {
		return digest, false
	}
	copy(digest[:], md.Digest)
	return digest, true
}
