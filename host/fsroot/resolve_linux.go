package fsroot

import (
	"errors"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/internal/durable"
)

// noOpenat2 is set once the kernel answered ENOSYS: from then on the
// component walk is used.
var noOpenat2 atomic.Bool

const resolveFlags = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_XDEV

// openDirPath opens the directory comps beneath d in one openat2 call.
func (d *Dir) openDirPath(comps []string) (*Dir, error) {
	if noOpenat2.Load() {
		return d.walkDirPath(comps)
	}
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: resolveFlags}
	fd, err := unix.Openat2(d.fd, strings.Join(comps, "/"), &how)
	if errors.Is(err, unix.ENOSYS) {
		noOpenat2.Store(true)
		return d.walkDirPath(comps)
	}
	rel := append(append([]string(nil), d.rel...), comps...)
	if err != nil {
		return nil, mapResolveErr(err, rel)
	}
	return &Dir{fd: fd, rel: rel, dev: d.dev}, nil
}

// checkNotRedirect refuses name in d when opening it would cross a mount
// (a bind-mounted file or directory as the final component).
func (d *Dir) checkNotRedirect(name string, comps []string, _ uint64) error {
	if noOpenat2.Load() {
		return d.walkCheckNotRedirect(name, comps)
	}
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC, Resolve: resolveFlags}
	fd, err := unix.Openat2(d.fd, name, &how)
	if errors.Is(err, unix.ENOSYS) {
		noOpenat2.Store(true)
		return d.walkCheckNotRedirect(name, comps)
	}
	if err != nil {
		return mapResolveErr(err, comps)
	}
	unix.Close(fd)
	return nil
}

func renameat(fromfd int, from string, tofd int, to string, flags RenameFlags) error {
	var f uint
	if flags&NoReplace != 0 {
		f |= unix.RENAME_NOREPLACE
	}
	if flags&Exchange != 0 {
		f |= unix.RENAME_EXCHANGE
	}
	err := unix.Renameat2(fromfd, from, tofd, to, f)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) && f != 0 {
		if flags&Exchange != 0 {
			return ErrUnsupported
		}
	}
	return err
}

// SyncFS flushes the whole filesystem holding the root (syncfs(2)), which
// covers every file staged on it.
func (r *Root) SyncFS() error { return errnoErr(durable.FS(r.dir.fd)) }

// HasSyncFS reports, without flushing anything, whether SyncFS is
// available here; where it is not, SyncFS returns ErrUnsupported.
func (r *Root) HasSyncFS() bool { return true }
