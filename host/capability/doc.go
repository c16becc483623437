// Package capability is the authority an extension is granted: its
// capability atoms (net.http, net.git) and its path grant (the root-relative
// prefixes its plans may touch), each as a proof type with one validating
// constructor, and the checks that hold a decoded plan to them.
//
// Guarantees:
//   - A declaration naming an atom the host does not define is refused
//     (capability.unknown), never trimmed to the known subset.
//   - The granted set is exactly the declared atoms, deduplicated: the
//     narrowest set satisfying the declaration. Absent declaration = none.
//   - Set.Check rejects the whole plan when any intent needs an atom that
//     was not granted (capability.missing, one violation per intent).
//   - The effective path grant is the narrowest overlap of the manifest's
//     declared prefixes and the user's configured ones; neither side can
//     widen it alone. An absent or empty declaration grants no path.
//   - PathGrant.Check rejects every touched path (write and delete paths,
//     both ends of a rename, fetch and clone dests) outside the grant
//     (grant.outside), comparing component-wise under a pathrule.Equality.
//
// Typical use, once per extension run:
//
//	caps, err := capability.Grant(manifestCaps)           // at load
//	decl, err := capability.DeclarePaths(manifestPaths)   // at load
//	grant := capability.GrantPaths(decl, cfg, name, eq)   // at run, eq = the root's relation
//	var set rejection.Set
//	collect(&set, caps.Check(p))
//	collect(&set, grant.Check(p))
//
// Non-guarantees: these checks know nothing about the tree under a root;
// path vocabulary, conflicts and symlinks are host/pathrule's and
// host/fsroot's rules, and a plan must pass those too.
package capability
