package signature

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/sigverify"
)

// A binary that links this package verifies in-process: lola-sigstore
// itself, and tests. lola does not link it (host/sigverify).
func init() { sigverify.SetInProcess(VerifyRequest) }

// VerifyRequest answers one sigverify request: the policy it carries is
// built with New, and the bundle verified for its digest. Every refusal,
// a malformed policy included, is an error response.
func VerifyRequest(req sigverify.Request) sigverify.Response {
	signer, err := verifyRequest(req)
	if err != nil {
		return sigverify.Response{Error: err.Error()}
	}
	return sigverify.Response{Signer: signer}
}

func verifyRequest(req sigverify.Request) (string, error) {
	var keys []Key
	for _, k := range req.Keys {
		pub, err := sigverify.ParsePublicKey(k.PEM)
		if err != nil {
			return "", fmt.Errorf("trust.keys %s: %w", oneLine(k.Name), err)
		}
		keys = append(keys, Key{Name: k.Name, Pub: pub})
	}
	var ids []Identity
	for _, id := range req.Identities {
		ids = append(ids, config.TrustedIdentity{Issuer: id.Issuer, IssuerRegexp: id.IssuerRegexp, Subject: id.Subject, SubjectRegexp: id.SubjectRegexp})
	}
	var root []byte
	if len(req.TrustedRoot) > 0 {
		root = req.TrustedRoot
	}
	v, err := New(keys, ids, root)
	if err != nil {
		return "", err
	}
	var d [sha256.Size]byte
	if len(req.Digest) != 2*sha256.Size {
		return "", fmt.Errorf("the digest %q is not a hex sha256", oneLine(req.Digest))
	}
	if _, err := hex.Decode(d[:], []byte(req.Digest)); err != nil {
		return "", fmt.Errorf("the digest %q is not a hex sha256", oneLine(req.Digest))
	}
	return v.Verify(d, req.Bundle)
}

// Main is lola-sigstore: one request on stdin (sigverify.DecodeRequest),
// one response on stdout, exit 0. A request that does not decode is exit
// 2, with the reason on stderr and nothing on stdout.
func Main(stdin io.Reader, stdout, stderr io.Writer) int {
	req, err := sigverify.DecodeRequest(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", sigverify.HelperExecutable, err)
		return 2
	}
	if err := json.NewEncoder(stdout).Encode(VerifyRequest(req)); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", sigverify.HelperExecutable, err)
		return 1
	}
	return 0
}
