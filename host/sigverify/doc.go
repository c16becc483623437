// Package sigverify is lola's side of extension signatures: the trust
// policy config.yaml sets, the keys, the key-based bundles `lola ext sign`
// makes, and the verification of a bundle, which runs in a separate
// process (lola-sigstore, beside lola) that links sigstore-go.
//
// Why a separate process: sigstore-go's verifier links Rekor's and
// OpenAPI's models, protobuf descriptors and gRPC, whose package
// initialisation made every lola command about 16 ms slower on the
// reference machine (`lola --version`: 37 ms with it, 21 ms without),
// although only adding or running an extension that carries a bundle
// verifies one. It also keeps the parsing
// of an attacker's bundle out of the process that writes the user's files.
//
// Guarantees:
//   - Policy.Verify returns a signer only when lola-sigstore (or, in a
//     binary that links host/signature, that package in-process) verified
//     the bundle, for exactly the given sha256 digest, against exactly the
//     keys, identities and trusted root of the policy. See host/signature
//     for what verifying means.
//   - Fail closed: no helper beside lola, a helper that fails, times out,
//     or answers more than MaxResponseBytes or anything but one response,
//     is an error, never a signer.
//   - The helper runs as lola's other children do (host/child): an empty
//     environment, the request on stdin and nothing else, stdout and
//     stderr bounded, killed with its descendants at its deadline.
//   - Sign makes the key-based Sigstore bundle (v0.3, message signature)
//     that `cosign sign-blob --key --new-bundle-format` makes: an ECDSA
//     P-256 signature of the artifact's sha256, the key named by the
//     sha256 of its PKIX encoding. host/signature's tests verify it with
//     sigstore-go.
//
// Non-guarantees: the helper is not confined beyond that (it reads no
// files and opens no sockets by design, which is not enforced); a policy
// whose identities or trusted root sigstore-go refuses is reported when a
// bundle is first verified under it, not when the policy is read.
package sigverify
