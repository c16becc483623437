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
//     (Limits; the deadlines are configurable in config.yaml as
//     remote.fetch_timeout and remote.clone_timeout); exceeding either
//     abandons the operation with remote.bound.
//   - Secrecy: no error, report or hop notification carries a credential or a
//     content body.
//
// Clone specifics: go-git runs over this package's transports (see Clone).
// A checkout that would create a symbolic link is refused (path.symlink), on
// the rule that no plan path is ever one, unless the request keeps links
// (CloneRequest.KeepLinks, module intake only, which resolves them under
// host/module's source-link rule before anything leaves the clone
// directory). Submodules are not fetched.
//
// Process-wide effect: go-git has no per-clone transport, so the first Clone
// replaces go-git's registered https and ssh transports with this package's
// (which refuse any request not made by Client.Clone) and unregisters its
// http, git and file transports. Code in the same process that uses go-git
// for network or file:// access of its own will see those refused.
//
// Non-guarantees: this package does not validate dest paths (host/pathrule
// and host/apply do) and does not roll anything back beyond leaving a failed
// clone's directory as it found it: on error the caller discards what was
// staged (a fetch's partial body included).
//
// Usage, from the executor:
//
//	home, _ := config.Home()
//	cfg, _ := config.Load(home)
//	opts, _ := remote.OptionsFromHome(home, cfg, remote.DefaultLimits())
//	c, _ := remote.New(opts)
//	rep, err := c.Fetch(ctx, remote.FetchRequest{Extension: id, Intent: ref, Fetch: *in.Fetch}, stagedFile, auditHops)
//	rep, err := c.Clone(ctx, remote.CloneRequest{Extension: id, Intent: ref, Clone: *in.Clone}, stagedDir, auditHops)
package remote
