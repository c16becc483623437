package fsroot

import "golang.org/x/sys/unix"

// statAt observes name in dirfd (dirfd itself when name is "") without
// following it, through statx so the birth time is part of the identity.
func statAt(dirfd int, name string) (Entry, error) {
	flags := unix.AT_SYMLINK_NOFOLLOW | unix.AT_STATX_SYNC_AS_STAT
	if name == "" {
		flags |= unix.AT_EMPTY_PATH
	}
	var sx unix.Statx_t
	if err := unix.Statx(dirfd, name, flags, unix.STATX_BASIC_STATS|unix.STATX_BTIME, &sx); err != nil {
		if err == unix.ENOSYS {
			return statAtPortable(dirfd, name)
		}
		return Entry{}, err
	}
	st := unix.Stat_t{
		Dev:  unix.Mkdev(sx.Dev_major, sx.Dev_minor),
		Ino:  sx.Ino,
		Mode: uint32(sx.Mode),
		Size: int64(sx.Size),
	}
	e := entryOf(&st)
	if sx.Mask&unix.STATX_BTIME != 0 {
		e.Btime = sx.Btime.Sec*1e9 + int64(sx.Btime.Nsec)
	}
	return e, nil
}
