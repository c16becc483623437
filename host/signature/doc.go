// Package signature verifies Sigstore bundles for extension artifacts,
// with github.com/sigstore/sigstore-go, offline. It is the verifier behind
// host/sigverify: linked into lola-sigstore (Main serves one request),
// never into lola, whose start it would slow by its dependencies'
// initialisation. A binary that links it verifies in-process
// (sigverify.SetInProcess, from init).
//
// Guarantees:
//   - Verify accepts a bundle only when it verifies, with sigstore-go, for
//     exactly the given sha256 digest, against the trust policy: a
//     key-based bundle (as `cosign sign-blob --key` or sigverify.Sign
//     makes) must be signed by one of the trusted public keys; a keyless
//     bundle must carry a certificate chaining to a CA in the operator's
//     trusted root, a transparency-log entry and an observer timestamp
//     that root vouches for, and an identity (OIDC issuer and subject)
//     matching one trusted identity exactly or by an anchored regular
//     expression. Anything else — malformed or truncated JSON, a bundle
//     for other bytes, an unknown key, an identity not trusted, an expired
//     certificate — is an error.
//   - Nothing is fetched: the trusted root is a file the operator supplies
//     ($LOLA_HOME/trusted_root.json); no TUF update, no Rekor lookup.
//   - The signer Verify returns names the trusted key by its configured
//     name ("key alice") or the identity ("identity SUBJECT (ISSUER)").
//   - Main reads one bounded request (sigverify.DecodeRequest) and writes
//     one response; a request that does not decode is exit 2 and no
//     response.
//
// Non-guarantee: a key-based bundle carries no trusted time, so a key
// stays trusted for every signature it ever made until it is removed from
// config.yaml.
package signature
