// Package module is lola's module store: the modules a user has added, kept
// under $LOLA_HOME/modules/<name>/, and the one function that turns a stored
// module into the schema.Module an extension receives.
//
// Layout, compatible with today's Lola: a module's content directory is
// the content_dirname its .lola/source.yml records (SourceInfoFile: "/"
// the root), else its module/ subdirectory when one exists, else the
// module's root. In it,
// skills are skills/<name>/ directories holding SKILL.md (or, when there
// are none, a single SKILL.md at the content root, named by its frontmatter
// "name" or else by the module), commands are commands/*.md, agents are
// agents/*.md, instructions are a non-empty AGENTS.md, MCP servers are the
// keys of mcps.json's "mcpServers", and install hooks are declared in
// lola.yaml or lola.yml (host/hook). A directory holding none of these is
// not a module (ErrNotModule).
//
// Guarantees:
//   - Every path that enters the store — a folder's files, an archive's
//     entries, a clone's checkout — passes pathrule.Parse, and no two of
//     them name one entry under Windows' case folding or APFS's (full
//     folding: "ß" and "SS" are one name), so a module valid on one OS is
//     valid on all. Refusals are typed (*rejection.Violation):
//     path.absolute, path.traversal, path.invalid (also device files,
//     FIFOs and other special entries, and names too long for some
//     filesystem), path.symlink (symbolic and hard links),
//     path.cross-device (a mount inside a folder), conflict.same-path
//     (duplicates and case-fold collisions) and conflict.nested (a file
//     used as a directory).
//   - Every intake is bounded (Limits): file count, bytes per file, total
//     bytes, path length; a bound exceeded is a *LimitError naming the
//     limit. Sizes are counted as bytes are written, never trusted from an
//     archive's header.
//   - Add unpacks into a staging directory beside the store and renames it
//     into place: a failed add leaves the store as it was, and a forced
//     replacement swaps the directories (atomically on Linux, with
//     renameat2 RENAME_EXCHANGE).
//   - Symbolic links are never followed: the store refuses them at intake
//     and again when it reads a stored module.
//   - A folder source (and a clone's checkout) is read with host/fsroot's
//     descriptor discipline: every directory is opened beneath its
//     parent's descriptor with openat2 RESOLVE_BENEATH|NO_SYMLINKS|NO_XDEV
//     and every entry examined and opened relative to it, so a directory
//     swapped for a symlink while the folder is read is refused
//     (path.symlink), never read through, and a bind mount or another
//     filesystem inside the folder is refused (path.cross-device), as a
//     plan touching it would be.
//   - Every source leaves out .git directories and what lies beneath them
//     (version-control state, not module content); a file named .git is
//     kept.
//   - Errors carry module-relative paths, never host absolute paths.
//   - A stored module's .lola/source.yml is lola's record of its add, in
//     today's Lola's keys (SourceInfo), which its hooks read: Add writes
//     it, replacing any the source shipped, which never takes part in
//     finding the content. Get reads its content_dirname only as a
//     root-relative portable path inside the module (pathrule.Parse: no
//     "..", not absolute) whose every component is a directory reached
//     without following a link (path.traversal, path.absolute,
//     path.symlink otherwise): a record, whoever wrote it, can only pick
//     one of the module's own directories. With AddOptions.Content the
//     whole source is stored, as today's Lola stores it.
//
// Non-guarantees: the store is lola's own state; a process that rewrites
// $LOLA_HOME/modules behind lola's back between a check and a read is
// outside this package's protection (reads still refuse links and bounds).
// Concurrent adds of one name are decided by the rename: one wins, the
// other fails with ErrExists.
package module
