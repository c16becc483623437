package fsroot

import "golang.org/x/sys/unix"

// statAt observes name in dirfd (dirfd itself when name is "") without
// following it; macOS reports the birth time in the stat itself.
func statAt(dirfd int, name string) (Entry, error) {
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
	e := entryOf(&st)
	e.Btime = st.Btim.Sec*1e9 + st.Btim.Nsec
	return e, nil
}
