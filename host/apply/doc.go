// Package apply commits a validated plan beneath an fsroot.Root atomically:
// everything is staged inside a staging directory on the root's own
// filesystem, the live tree is changed only by renames of whole entries,
// and any failure rolls every change back in reverse.
//
// Guarantees:
//   - One apply at a time per root: a Session holds an exclusive lock on
//     the root's lock file (LockName) from Begin to Close.
//   - Every Session first recovers whatever an interrupted apply left
//     (Recover): the tree is restored to its pre-plan state, or the commit
//     is completed when its commit point had passed, and the report says
//     which.
//   - Content is written into files created exclusively by descriptor in
//     staging and flushed to stable storage (syncfs on Linux, fsync of each
//     file elsewhere) before the live tree is touched.
//   - Deletes are staged, not performed: the target is renamed into
//     staging, and only commit discards it. A write over an existing file
//     first moves the old file aside the same way. New entries are renamed
//     into place with RENAME_NOREPLACE, so nothing that appeared since
//     validation is overwritten.
//   - Every operation uses the directory descriptors obtained when the plan
//     was resolved (Prepare); no plan path is resolved again by name before
//     its write. Directories the host creates (for missing parents and
//     beneath a staged delete) are made by mkdirat in a held descriptor and
//     opened without following anything.
//   - A journal in staging, flushed at each phase boundary (the program
//     before the first change, the commit point after the last), lets a
//     process killed at any instant be recovered: every journaled change is
//     undone only where evidence (the inode recorded for it) shows it took
//     effect, so undo is idempotent.
//   - Outcomes are a closed vocabulary: committed; rolled-back, naming the
//     intent that triggered it; rollback-failed, when the tree is in neither
//     state (the staging directory is then kept for 'lola recover').
//
// Non-guarantees: readers of the tree during an apply may observe
// intermediate states (the apply is atomic with respect to failure and
// crashes, not to concurrent readers); a write replacing a file is a move
// aside followed by a rename, with an instant where the path is absent.
package apply
