package fsroot

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// mountOf returns the mount id of the open descriptor fd, from statx
// (STATX_MNT_ID, Linux 5.8) or else /proc/self/fdinfo (Linux 3.15). A bind
// mount of a directory on the same filesystem keeps st_dev, so the walk
// compares mount ids as well as devices.
func mountOf(fd int) (uint64, bool) {
	var sx unix.Statx_t
	if err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_MNT_ID, &sx); err == nil && sx.Mask&unix.STATX_MNT_ID != 0 {
		return sx.Mnt_id, true
	}
	b, err := os.ReadFile("/proc/self/fdinfo/" + strconv.Itoa(fd))
	if err != nil {
		return 0, false
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("mnt_id:")); ok {
			n, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// sameMountAt reports whether name in dirfd (not followed) is on dirfd's mount.
func sameMountAt(dirfd int, name string) (bool, error) {
	fd, err := unix.Openat(dirfd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, err
	}
	defer unix.Close(fd)
	return sameMount(dirfd, fd), nil
}

func sameMount(a, b int) bool {
	ma, oka := mountOf(a)
	mb, okb := mountOf(b)
	return !oka || !okb || ma == mb
}

// ProcPath is a name for the open directory d that path-based APIs can use
// (/proc/self/fd/N, valid while d is open), for a library that insists on a
// path, such as a git checkout into staging. It is host-internal: it must
// never be shown to an extension or logged.
func (d *Dir) ProcPath() (string, bool) {
	return "/proc/self/fd/" + strconv.Itoa(d.fd), true
}
