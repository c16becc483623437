package fsroot

import "golang.org/x/sys/unix"

func renameat(fromfd int, from string, tofd int, to string, flags RenameFlags) error {
	var f uint32
	if flags&NoReplace != 0 {
		f |= unix.RENAME_EXCL
	}
	if flags&Exchange != 0 {
		f |= unix.RENAME_SWAP
	}
	if f == 0 {
		return unix.Renameat(fromfd, from, tofd, to)
	}
	return unix.RenameatxNp(fromfd, from, tofd, to, f)
}
