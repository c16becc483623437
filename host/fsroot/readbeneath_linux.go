package fsroot

import (
	"errors"

	"golang.org/x/sys/unix"
)

// openBeneath is one openat2 beneath d with the resolution flags every
// plan path gets (no symlinks, no mount crossing), or the walk's form
// where the kernel lacks openat2.
func openBeneath(d *Dir, name string) (int, error) {
	if noOpenat2.Load() {
		return openByWalk(d, name)
	}
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK, Resolve: resolveFlags}
	fd, err := unix.Openat2(d.fd, name, &how)
	if errors.Is(err, unix.ENOSYS) {
		noOpenat2.Store(true)
		return openByWalk(d, name)
	}
	if err != nil {
		return -1, mapResolveErr(err, d.child(name))
	}
	return fd, nil
}
