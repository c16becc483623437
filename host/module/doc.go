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
//     filesystem), path.symlink (hard links, and symbolic links outside
//     the rule below), path.cross-device (a mount inside a folder),
//     conflict.same-path (duplicates and case-fold collisions) and
//     conflict.nested (a file used as a directory).
//   - The source-link rule (links.go): a symbolic link in a module source
//     (a folder, the whole checkout of a git source, an archive) whose
//     target, through any chain of links, is a regular file or directory
//     inside the source's root (the folder given to mod add, the whole
//     repository, the archive's top) is staged as a copy of that target:
//     a regular file with the target's execute bit, or the directory
//     copied recursively. A link that is absolute (path.absolute), climbs
//     out of the root (path.traversal; for a folder the refusal suggests
//     adding the folder that holds both with --module-content), dangles,
//     loops, leads to a directory holding it (a cycle) or into .git
//     (path.symlink), crosses a mount (path.cross-device), uses a file as
//     a directory (path.not-directory) or reaches a special file
//     (path.invalid) is refused, naming the link and its target. Stage
//     and Unpack (extension bundles) refuse every link (path.symlink).
//   - Every intake is bounded (Limits): file count, bytes per file, total
//     bytes, path length; a bound exceeded is a *LimitError naming the
//     limit. Sizes are counted as bytes are written, never trusted from an
//     archive's header, and links' copies count like any other entry, so
//     links multiplying content (many links to one file, directories
//     linking to others) stop at the bound.
//   - Add unpacks into a staging directory beside the store and renames it
//     into place: a failed add leaves the store as it was, and a forced
//     replacement swaps the directories (atomically on Linux, with
//     renameat2 RENAME_EXCHANGE).
//   - The store holds no symbolic link: intake stages only regular files
//     and directories, and reading a stored module refuses a link.
//   - A folder source (and a clone's checkout, and an archive holding
//     links, unpacked first) is read with host/fsroot's descriptor
//     discipline: every directory is opened beneath its parent's
//     descriptor with openat2 RESOLVE_BENEATH|NO_SYMLINKS|NO_XDEV and
//     every entry examined and opened relative to it, so a directory
//     swapped for a symlink while the folder is read is refused, never
//     read through, and a bind mount or another filesystem inside the
//     folder is refused (path.cross-device), as a plan touching it would
//     be. A link is resolved the same way, one component at a time (Lstat,
//     Readlink, OpenDir beneath the directory reached, ".." taken from the
//     real path reached so far): the kernel never follows a link for
//     lola, so a component swapped while a link is resolved is refused or
//     leads elsewhere inside the root, never outside it.
//   - Stage with a Pick (an extension's intake) takes only a source's top
//     file and the paths it names: a folder or checkout is read for those
//     alone, by the same descriptor discipline; an archive is unpacked
//     under every rule above and any other entry refuses it
//     (*UnlistedError, module.unlisted).
//   - Every source leaves out .git directories and what lies beneath them
//     (version-control state, not module content); a file named .git is
//     kept.
//   - Errors carry module-relative paths, never host absolute paths (a
//     refused link's target is shown as the link spells it).
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
// Non-guarantees: a directory that another process renames into the
// source while it is read is read where it is (it is inside the root);
// the absolute form of a link to a file inside the root is refused,
// though it would resolve there. On Windows a link's target is read by
// name under its directory (fsroot's Windows non-guarantee), and an
// archive's links need the privilege to create symbolic links. The store
// is lola's own state; a process that rewrites
// $LOLA_HOME/modules behind lola's back between a check and a read is
// outside this package's protection (reads still refuse links and bounds).
// Concurrent adds of one name are decided by the rename: one wins, the
// other fails with ErrExists.
package module
