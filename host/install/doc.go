// Package install is one `lola install` or `lola uninstall`: the
// orchestration of a module, an assistant's target extension and the
// module's install hooks into one audited change of a project (or of the
// user's home).
//
// An install, in order:
//
//  1. resolves the module in the store ($LOLA_HOME/modules) and the target
//     extension named as the assistant (built-in or $LOLA_HOME/extensions);
//  2. picks the root: the project directory for scope project, the user's
//     home for scope user;
//  3. builds the request {protocol 1, operation install, assistant, scope,
//     modules: [the module's files], current: the target's managed files};
//     with Options.AppendContext (--append-context) the module's
//     instructions in it are one reference line per path instead
//     (appendcontext.go), so no target needs to know the flag;
//  4. runs the pre-install hook (tier 2; a failure aborts with nothing
//     applied), runs the target extension, takes its plan through
//     pipeline.Apply with the extension's capabilities and effective path
//     grant, then runs the post-install hook (a failure warns; the install
//     stays);
//  5. records the install in $LOLA_HOME/installed.yml, in today's Lola's
//     shape, by temp file and rename (0600): what the plan really wrote
//     (record.go), and, as lola's own keys, each file made lola's with
//     the sha256 of its content ("files") and the directories created.
//     Ownership is proven, never inferred: a file is lola's when the plan
//     created it, or replaced different content (lola's, or taken over
//     with --force, audited); a write that left a user's identical file
//     as it was does not make it lola's (writtenFiles).
//
// Ownership (ownership.go): a plan that would replace, rename or remove an
// existing file that no record of the same root lists with the content it
// has now is refused whole, conflict.unowned, before anything is applied,
// and audited as a rejection; the target's managed files are excepted, and
// writing back identical content is not a change. Options.Force waives the
// rule for the files named, in one audited override record, and they are
// lola's from then on. No plan may touch $LOLA_HOME (the module store),
// and a project inside it is refused. Uninstall narrows the target's plan
// (narrow.go) to the files that still hold what lola wrote; the others
// are kept and reported (Report.Kept). An MCP server is lola's when the
// plan added it or changed its value (parsed JSON members, never a
// substring); uninstall removes only a server still holding the value
// lola recorded, and keeps and names the others (narrowmcp.go).
// Symbolic links on written paths
// are replaced only with consent and restored by uninstall (symlinks.go).
// Reinstalling unchanged content is reported as unchanged.
//
// Every audit record of one install — each hook run (a KindRun record
// naming "hook:<module>:<point>", tier native/hook), the plan record, its
// events and outcome — carries one correlation id.
//
// Uninstall is operation uninstall through the same target with the same
// module files, so the target deletes exactly what its install wrote; the
// installed.yml entry is then removed. Uninstall runs no hooks (today's
// Lola runs none either). When no extension of the assistant's name
// exists any more (lola ext rm --force), Uninstall goes by the record
// instead (byrecord.go): lola's own audited plan deletes the recorded
// files that still hold what lola wrote; what the target wrote into
// shared files stays and is named in a warning.
//
// Request builds the request of step 3 through the same preparation and
// returns it without running anything (`lola ext request`), so a target's
// golden tests feed it what an install really sends.
//
// A dry run (Options.DryRun) resolves everything, runs the target only when
// it is tier 1 (confined: it cannot act before the host sees its plan),
// refuses a tier-2 target without running it (ErrNativeDryRun), checks the
// plan against every rule, reports the hooks it would run without running
// them, and writes nothing: no tree change, no audit record, no
// installed.yml change.
//
// Non-guarantees: hooks are trusted, not confined (see host/hook). The
// plan's apply is atomic; the installed.yml update after it is a separate
// atomic step, so a crash between the two leaves the tree installed and the
// record missing (a repeated install repairs it).
package install
