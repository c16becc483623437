//go:build unix

package fsroot

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/schema"
)

// OpenFileBeneath opens the existing entry name in d for reading, as the
// executor resolves a final component: a symbolic link is refused
// (path.symlink) and so is an entry on another mount or device, such as a
// bind-mounted file (path.cross-device). The refusal is decided on what
// was opened, so a swap between a caller's Lstat and this open cannot
// redirect the read. The open does not block on a FIFO; the caller still
// checks that what it got is a regular file.
func (d *Dir) OpenFileBeneath(name string) (*os.File, error) {
	fd, err := openBeneath(d, name)
	if err != nil {
		return nil, err
	}
	return newReadFile(fd, Rel(d.child(name)))
}

// openByWalk is the portable form: open without following, then judge the
// descriptor's device and mount against d's.
func openByWalk(d *Dir, name string) (int, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return -1, mapResolveErr(err, d.child(name))
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, errnoErr(err)
	}
	if uint64(st.Dev) != d.dev || !sameMount(d.fd, fd) {
		unix.Close(fd)
		return -1, reject(schema.RulePathCrossDevice, Rel(d.child(name)))
	}
	return fd, nil
}
