// Package remote performs the plan's remote intents, fetch and clone, on the
// host's behalf and under the host's remote access policy. The extension
// names a remote; this package decides whether and how to reach it, and the
// extension never sees the response.
//
// Guarantees, per operation and per redirect hop:
//   - Destination: the name is resolved by the host (an injectable Resolver)
//     and every address it answers is classified against the IANA
//     special-purpose registries (Classify). A name is refused when any of its
//     addresses is not globally routable, unless the operator's configuration
//     re-admits that address and port (config.Admission). Nothing an
//     extension supplies changes the outcome. Refusals are remote.destination.
//   - Pinning: the connection is dialled to a Destination, the proof that the
//     address was checked; the name is never re-resolved between check and
//     dial, and no environment proxy is consulted.
//   - Transport authentication: TLS verifies the chain and the hostname from
//     the URL, never the dialled IP; ssh verifies the host key against
//     known_hosts before any credential is offered. Verification is never
//     disabled. Failures are remote.transport-auth.
//   - Redirects: followed to config's max_redirects (remote.redirect beyond
//     it), https only (remote.scheme); credentials are looked up per hop for
//     the hop's own URL and never carried from one hop to the next; there is
//     no cookie jar.
//   - Bounds: every fetch and clone has a byte bound and a deadline
//     (Limits); exceeding either abandons the operation with remote.bound.
//   - Secrecy: no error, report or hop notification carries a credential or a
//     content body.
//
// Non-guarantees: this package does not validate dest paths (host/pathrule
// and host/apply do) and does not roll anything back: on error the caller
// discards what was staged.
package remote
