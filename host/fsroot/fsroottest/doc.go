// Package fsroottest holds test helpers shared by the packages that work
// beneath a root (fsroot, apply, pipeline, module, cmd/lola):
//
//   - Stamps, for tests that assert a command left no trace under a
//     directory: it renders a tree with what no tool can put back (inode
//     numbers and, on Unix, change times), so that an entry created and
//     removed again, or a modification time restored afterwards, still
//     shows.
//   - InPrivateMounts, for tests that mount (a bind mount, a FUSE or
//     hugetlbfs filesystem) on a thread with a private mount namespace of
//     its own, skipping where the machine does not permit it.
package fsroottest
