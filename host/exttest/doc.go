// Package exttest runs an extension's golden tests through the real host:
// each testdata/<case>.request.json goes to every built tier of the
// extension (the manifest's capabilities and path grant, the same launch
// as `lola ext run`), and each plan that comes back is held to every host
// rule under every path-equality relation (a dry run of pipeline.Apply on an
// empty scratch root, nothing applied), then compared with
// testdata/<case>.plan.json.
//
// Guarantees: a plan the host would refuse under any relation fails its
// case, whatever its golden says; both tiers are held to the same golden;
// goldens are written only when asked (Update), and only for a case whose
// plan every check accepted, atomically and by descriptor beneath the
// extension directory: a golden, or testdata/, that is a symbolic link is
// refused (path.symlink) and what it points to is never written. Non-guarantees: the scratch root is empty, so
// rules that depend on what is on disk (ownership of existing files,
// symlinks under the root) are not exercised; a case's request may carry
// "current" to stand in for managed files.
package exttest
