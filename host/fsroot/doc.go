// Package fsroot resolves root-relative plan paths beneath one directory
// descriptor, and performs the filesystem operations of an apply through
// descriptors obtained that way.
//
// Guarantees:
//   - The root is opened once (Open). Every path is resolved relative to that
//     descriptor, never by joining strings onto the root's absolute name.
//   - No symbolic link is followed, whether its target is inside the root or
//     outside it; no mount point (Linux bind mount, another device) and no
//     Windows reparse point of any kind (symlink, junction, mount point) is
//     traversed. On Linux resolution is openat2 with RESOLVE_BENEATH |
//     RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV; where openat2 is missing
//     (ENOSYS) and on other Unix systems it is a component walk with
//     O_NOFOLLOW | O_DIRECTORY and an fstat of every component, refusing a
//     device change.
//   - A *Dir is an open directory descriptor. Operations take a *Dir and a
//     single component name (mkdirat, openat, renameat2, unlinkat), so what
//     was validated is what is written: a component swapped for a symlink
//     after resolution does not redirect an operation on a descriptor
//     already held.
//   - Nothing after resolution acts by name in a way that follows a link:
//     Mkdir (MkdirOpen) sets the new directory's mode through a descriptor
//     opened O_NOFOLLOW|O_DIRECTORY (a by-name fchmodat would follow a
//     symlink swapped in after mkdirat); files are created O_EXCL|O_NOFOLLOW
//     and chmod'ed by descriptor; renames and unlinks act on the final
//     component itself; times are restored through the descriptor
//     (KeepTimes). LockSelf flocks the directory itself and creates nothing.
//   - Readlink reads a link's own target through its directory's
//     descriptor (readlinkat), bounded by MaxLinkTarget; it follows
//     nothing. A caller that gives links a meaning (host/module's
//     source-link rule) resolves them itself, one component at a time,
//     with Lstat, Readlink, OpenDir and OpenDirPath, under the rules
//     above.
//   - Entry carries device, inode and, where reported (statx STATX_BTIME
//     on Linux, macOS), the birth time; Entry.Same compares all three,
//     because ext4 reuses a freed inode number for the next file made.
//   - Inspect reads, without writing, how the filesystem under a directory
//     compares names: statfs's f_type against a closed table of Linux
//     filesystems, the directory's casefold attribute, XFS's geometry. An
//     unknown type, a filesystem whose comparison is decided elsewhere
//     (FUSE, NFS, SMB, ZFS datasets, ...), a casefolded directory and
//     every other OS are inconclusive; Probe then observes the comparison
//     by creating names in a scratch directory.
//   - Refusals are *rejection.Violation values carrying path.symlink,
//     path.cross-device, path.not-directory, path.reparse-point, or (for a
//     caller that skipped the lexical checks) path.traversal, path.absolute
//     or path.invalid; their details name root-relative paths only.
//
// Non-guarantees: on Windows the operations after resolution are performed
// by name under the resolved directory (the Win32 API offers no portable
// *at family). The open handle of every directory on the path keeps it from
// being renamed or removed while held, but the final name is not re-checked
// before each operation (OpenFile excepted), which narrows but does not
// close the race there. Atomic exchange is Linux (renameat2
// RENAME_EXCHANGE) and macOS (renameatx_np RENAME_SWAP) only; callers fall
// back when Exchange reports ErrUnsupported.
package fsroot
