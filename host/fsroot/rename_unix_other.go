//go:build unix && !linux && !darwin

package fsroot

import "golang.org/x/sys/unix"

// renameat without kernel support for NOREPLACE checks first; the window
// between the check and the rename is a documented non-guarantee here.
func renameat(fromfd int, from string, tofd int, to string, flags RenameFlags) error {
	if flags&Exchange != 0 {
		return ErrUnsupported
	}
	if flags&NoReplace != 0 {
		var st unix.Stat_t
		if err := unix.Fstatat(tofd, to, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
			return unix.EEXIST
		}
	}
	return unix.Renameat(fromfd, from, tofd, to)
}
