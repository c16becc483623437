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
//   - Prepare creates nothing: a dry run (Options.DryRun; Prepare, Changes,
//     Discard) writes nothing beneath the root once Begin's recovery is
//     done (which removes only what an interrupted apply left). How the
//     root compares names (Probe) is read from its filesystem's type
//     (fsroot.Inspect) wherever that is conclusive (Linux, a filesystem
//     in its table). Elsewhere a real apply observes it in the staging
//     directory it then stages through (made by Probe, removed by Close
//     when no Commit took it, with the root's modification time put back),
//     and a dry run learns nothing (ErrUnidentified): the caller assumes
//     the relation that folds the most. Staging exists only while an apply
//     runs (from that probe, or from Commit, to its end), or after a crash
//     until recovery. It stays directly beneath the root, on the root's
//     filesystem, because an entry cannot be renamed across filesystems.
//   - Every Session first recovers whatever an interrupted apply of this
//     host left (Recover): the tree is restored to its pre-plan state, or
//     the commit is completed (missing changes redone) when its commit
//     point had passed. Nothing in
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
//     directories the host makes (made in staging, then moved into
//     place). Each move is checked after the rename; an entry swapped in
//     since validation is moved back untouched and the apply rolls back.
//     A write into a directory the plan makes where nothing was before
//     (not again after a delete) is nested: staged inside that directory
//     and carried into place by its one checked move, with no rename or
//     journal entry of its own (a module's many files in new directories
//     cost no rename and no check each). Its directory's identity is
//     what is checked; a file swapped inside the 0700 staging directory
//     is not told apart, as a staged file rewritten in place never was:
//     only the root's owner or the superuser can reach inside, and either
//     could write into the tree directly.
//     Undo moves an entry back only when it is, by identity, the one the
//     change moved, and never removes anything from the tree.
//   - Durability is batched: content is written without per-file flushes,
//     and an apply of any size flushes twice on Linux. One syncfs of the
//     root's filesystem makes staging, the journal's program and whatever
//     the Observer's Begin wrote on that filesystem (FlushDevice: the
//     audit log's pre-apply record, when $LOLA_HOME shares it) durable
//     before the tree changes; after the changes the commit record is
//     written unflushed and one more syncfs makes the changes and it
//     durable together. A power loss during that syncfs can leave the
//     commit record on disk without some of the renames before it: the
//     journal is then still committed, and recovery redoes each
//     journaled change whose effect is missing (identity-checked, as undo
//     is). Elsewhere than Linux: an fsync of each file and touched
//     directory, then of the commit record. Every flush goes through
//     host/internal/durable, which counts them.
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
// recovery cannot authenticate: an empty one is removed (so is the empty
// directory a crash at the very end of a discard leaves), one holding a
// journal without a whole first record is reported, not removed. Journals of
// hosts before the key existed are not executed.
package apply
