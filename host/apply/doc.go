// Package apply commits a validated plan beneath an fsroot.Root atomically:
// everything is staged inside a staging directory on the root's own
// filesystem, the live tree is changed only by renames of whole entries,
// and any failure rolls every change back in reverse.
//
// Guarantees:
//   - One apply at a time per root: a Session holds an exclusive flock on
//     the root directory itself (fsroot.Dir.LockSelf) from Begin to Close.
//     No lock file is created: an apply leaves nothing of the host's
//     beneath the root but the plan's own effects.
//   - Prepare creates nothing: a dry run (Prepare, Changes, Discard) leaves
//     no trace beneath the root. The name-comparison probe (Probe) uses a
//     scratch directory it removes, and puts the root's modification time
//     back. Staging exists only while Commit runs, or after a crash until
//     recovery. It stays directly beneath the root, on the root's
//     filesystem, because an entry cannot be renamed across filesystems.
//   - Every Session first recovers whatever an interrupted apply of this
//     host left (Recover): the tree is restored to its pre-plan state, or
//     the commit is completed when its commit point had passed. Nothing in
//     the root is trusted: a staging directory's journal is executed only
//     when every record verifies under the host key (Options.Key, kept
//     0600 in $LOLA_HOME: LoadKey) bound to the identity of this root and
//     of that very directory (device, inode, birth time) and its name. A
//     journal that does not verify (shipped in a repository, copied from
//     another root, written by another host) is reported in
//     RecoveryReport.Untrusted and left exactly as found, as evidence.
//   - Every change is a rename of a whole entry whose identity (device,
//     inode and birth time: fsroot.Entry.Same) was recorded before the
//     tree changed: the entry validated, for deletes, replaced files and
//     rename sources; the entry staged, for content and for the
//     directories the host makes (made empty in staging, then moved into
//     place). Each move is checked after the rename; an entry swapped in
//     since validation is moved back untouched and the apply rolls back.
//     Undo moves an entry back only when it is, by identity, the one the
//     change moved, and never removes anything from the tree.
//   - Durability is batched: content is written without per-file flushes;
//     one syncfs makes staging and the journal's program durable before
//     the tree changes, one syncfs makes the renames durable, and one
//     fsync makes the commit record durable (elsewhere than Linux: an
//     fsync of each file and touched directory instead of syncfs).
//   - A write whose content and executable bit equal the file on disk is a
//     no-op: reported as ChangeNoop ("unchanged"), neither staged nor
//     moved, and still given to the Observer's Begin as an intent.
//   - Outcomes are a closed vocabulary: committed; rolled-back, naming the
//     intent that triggered it; rollback-failed, when the tree is in neither
//     state (the staging directory is then kept for 'lola recover').
//
// Non-guarantees: readers of the tree during an apply may observe
// intermediate states (the apply is atomic with respect to failure and
// crashes, not to concurrent readers); a write replacing a file is a move
// aside followed by a rename, with an instant where the path is absent.
// Where a filesystem reports no birth time, identity is device and inode
// only; birth times come from a coarse clock, so an inode number reused
// within one clock tick is not told apart. A crash between making a
// staging directory and its first journal record leaves a directory
// recovery cannot authenticate: it is reported, not removed. Journals of
// hosts before the key existed are not executed.
package apply
