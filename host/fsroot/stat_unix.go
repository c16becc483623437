//go:build unix

package fsroot

import "golang.org/x/sys/unix"

// statAtPortable is fstatat (fstat for name ""), without a birth time.
func statAtPortable(dirfd int, name string) (Entry, error) {
	var st unix.Stat_t
	var err error
	if name == "" {
		err = unix.Fstat(dirfd, &st)
	} else {
		err = unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil {
		return Entry{}, err
	}
	return entryOf(&st), nil
}
