package sigtest

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/pem"

	"github.com/secure-systems-lab/go-securesystemslib/encrypted"
)

// CosignKey encrypts k under password as the cosign.key `cosign
// generate-key-pair` writes (PEM "ENCRYPTED SIGSTORE PRIVATE KEY").
func CosignKey(k *ecdsa.PrivateKey, password []byte) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, err
	}
	enc, err := encrypted.Encrypt(der, password)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED SIGSTORE PRIVATE KEY", Bytes: enc}), nil
}
