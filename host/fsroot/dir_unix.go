//go:build unix

package fsroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/schema"
)

// Root is an open directory beneath which every plan path is resolved. It
// holds the directory's descriptor for its whole life; nothing resolves
// against the root's name after Open.
type Root struct {
	dir *Dir
	dev uint64
}

// Dir is an open directory descriptor at a root-relative location.
type Dir struct {
	fd  int
	rel []string
	dev uint64
}

// Open opens dir as a root. dir itself may be reached through symlinks (it
// is the host's choice, not the plan's); everything beneath it may not.
func Open(dir string) (*Root, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("fsroot: open root: %w", errnoErr(err))
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("fsroot: stat root: %w", err)
	}
	dev := uint64(st.Dev)
	return &Root{dir: &Dir{fd: fd, dev: dev}, dev: dev}, nil
}

// Close closes the root descriptor.
func (r *Root) Close() error { return r.dir.Close() }

// Dir is the root directory itself (owned by the Root).
func (r *Root) Dir() *Dir { return r.dir }

// Device is the filesystem the root lies on, for durable.Device.Same.
func (r *Root) Device() durable.Device { return durable.DeviceOfFd(r.dir.fd) }

// Rel is the directory's root-relative path ("." for the root).
func (d *Dir) Rel() string { return Rel(d.rel) }

// Close closes the descriptor.
func (d *Dir) Close() error {
	if d.fd < 0 {
		return nil
	}
	err := unix.Close(d.fd)
	d.fd = -1
	return err
}

// Fd exposes the descriptor for platform code in other host packages (for
// example a remote executor checking out into a staged directory).
func (d *Dir) Fd() uintptr { return uintptr(d.fd) }

func (d *Dir) child(name string) []string {
	out := make([]string, len(d.rel)+1)
	copy(out, d.rel)
	out[len(d.rel)] = name
	return out
}

// errnoErr maps ENOENT/EEXIST to the fs sentinels and keeps the errno.
func errnoErr(err error) error {
	if err == nil {
		return nil
	}
	return &os.SyscallError{Syscall: "fsroot", Err: err}
}

func entryOf(st *unix.Stat_t) Entry {
	e := Entry{Ino: uint64(st.Ino), Dev: uint64(st.Dev), Size: st.Size, Mode: fs.FileMode(st.Mode & 0o777)}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		e.Kind = KindFile
	case unix.S_IFDIR:
		e.Kind = KindDir
		e.Mode |= fs.ModeDir
	case unix.S_IFLNK:
		e.Kind = KindSymlink
		e.Mode |= fs.ModeSymlink
	default:
		e.Kind = KindOther
	}
	return e
}

// Lstat observes name in d without following it, with its birth time
// where the platform reports one (see Entry.Same).
func (d *Dir) Lstat(name string) (Entry, error) {
	e, err := statAt(d.fd, name)
	return e, errnoErr(err)
}

// Stat observes the directory itself.
func (d *Dir) Stat() (Entry, error) {
	e, err := statAt(d.fd, "")
	return e, errnoErr(err)
}

// mapResolveErr turns a resolution errno into the rule vocabulary.
func mapResolveErr(err error, rel []string) error {
	switch {
	case errors.Is(err, unix.ELOOP):
		return reject(schema.RulePathSymlink, Rel(rel))
	case errors.Is(err, unix.EXDEV):
		return reject(schema.RulePathCrossDevice, Rel(rel))
	case errors.Is(err, unix.ENOTDIR):
		return reject(schema.RulePathNotDirectory, Rel(rel))
	}
	return errnoErr(err)
}

// OpenDir opens the existing directory name beneath d, refusing a symlink,
// a mount point and a non-directory.
func (d *Dir) OpenDir(name string) (*Dir, error) {
	return d.openDirPath([]string{name})
}

// Mkdir creates directory name in d with mode perm exactly (the umask does
// not make two hosts differ). See MkdirOpen.
func (d *Dir) Mkdir(name string, perm fs.FileMode) error {
	nd, err := d.MkdirOpen(name, perm)
	if err != nil {
		return err
	}
	return nd.Close()
}

// MkdirOpen creates directory name in d and returns it open. The mode is
// set through the descriptor (fchmod), never by name: a name can be
// swapped for a symlink between mkdirat and a by-name chmod, which would
// then change a file outside the root. The descriptor is opened without
// following anything and must be a directory on d's device and mount, so
// a swapped-in symlink or mount point is refused; a directory swapped in
// from elsewhere in the same root is not distinguished (non-guarantee).
func (d *Dir) MkdirOpen(name string, perm fs.FileMode) (*Dir, error) {
	if err := unix.Mkdirat(d.fd, name, uint32(perm.Perm())); err != nil {
		return nil, errnoErr(err)
	}
	rel := d.child(name)
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, mapResolveErr(err, rel)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, errnoErr(err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR || uint64(st.Dev) != d.dev || !sameMount(d.fd, fd) {
		unix.Close(fd)
		return nil, reject(schema.RulePathCrossDevice, Rel(rel))
	}
	if err := unix.Fchmod(fd, uint32(perm.Perm())); err != nil {
		unix.Close(fd)
		return nil, errnoErr(err)
	}
	return &Dir{fd: fd, rel: rel, dev: d.dev}, nil
}

// CreateFile creates the regular file name in d, exclusively and without
// following anything, with mode perm exactly.
func (d *Dir) CreateFile(name string, perm fs.FileMode) (*os.File, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, errnoErr(err)
	}
	if err := unix.Fchmod(fd, uint32(perm.Perm())); err != nil {
		unix.Close(fd)
		return nil, errnoErr(err)
	}
	return os.NewFile(uintptr(fd), Rel(d.child(name))), nil
}

// OpenFile opens the existing file name in d for reading, without
// following a symlink; a FIFO or terminal swapped in neither blocks the
// open nor becomes the controlling terminal. Callers check the opened
// descriptor's kind and identity (fstat), not the name's.
func (d *Dir) OpenFile(name string) (*os.File, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, mapResolveErr(err, d.child(name))
	}
	return newReadFile(fd, Rel(d.child(name)))
}

// newReadFile wraps a descriptor opened O_NONBLOCK (so that a FIFO swapped
// in cannot block the open). A regular file is switched back to blocking
// before os.NewFile sees it: os.NewFile registers a non-blocking
// descriptor with the runtime's epoll, and on a FUSE filesystem that
// epoll_ctl is a POLL request to the filesystem's server — one that never
// returns when the server is this process (a test filesystem) or a hung
// one. A regular file gains nothing from the poller. Anything else keeps
// O_NONBLOCK; callers refuse it by its fstat kind.
func newReadFile(fd int, name string) (*os.File, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, errnoErr(err)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFREG {
		if err := unix.SetNonblock(fd, false); err != nil {
			unix.Close(fd)
			return nil, errnoErr(err)
		}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// Unlink removes the non-directory name from d.
func (d *Dir) Unlink(name string) error { return errnoErr(unix.Unlinkat(d.fd, name, 0)) }

// Rmdir removes the empty directory name from d.
func (d *Dir) Rmdir(name string) error {
	return errnoErr(unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR))
}

// ReadNames lists the names in d.
func (d *Dir) ReadNames() ([]string, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, errnoErr(err)
	}
	f := os.NewFile(uintptr(fd), "dir")
	defer f.Close()
	return f.Readdirnames(-1)
}

// RemoveAll removes name from d and, when it is a directory, everything
// beneath it, by descriptor, without following any symlink and without
// descending into another mount or device (it fails there rather than
// remove what a mount shows). A missing name is not an error.
func (d *Dir) RemoveAll(name string) error {
	e, err := d.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if e.Kind != KindDir {
		return d.Unlink(name)
	}
	sub, err := d.OpenDir(name)
	if err != nil {
		return err
	}
	names, err := sub.ReadNames()
	if err == nil {
		for _, n := range names {
			if err = sub.RemoveAll(n); err != nil {
				break
			}
		}
	}
	sub.Close()
	if err != nil {
		return err
	}
	return d.Rmdir(name)
}

// Sync flushes the directory (its entries) to stable storage.
func (d *Dir) Sync() error { return errnoErr(durable.Fd(d.fd)) }

// Rename moves fromName in from to toName in to, atomically. With
// NoReplace it fails with fs.ErrExist when the target exists; with
// Exchange it swaps the two (ErrUnsupported where the kernel cannot).
func Rename(from *Dir, fromName string, to *Dir, toName string, flags RenameFlags) error {
	return errnoErr(renameat(from.fd, fromName, to.fd, toName, flags))
}

// LockSelf takes an exclusive advisory lock (flock) on the directory d
// itself, through a descriptor of its own, and returns its release. It
// creates nothing. It blocks while another process, or another descriptor
// in this one, holds it. Advisory: only cooperating processes (other
// lola hosts) are excluded.
func (d *Dir) LockSelf() (func() error, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, errnoErr(err)
	}
	for {
		err = unix.Flock(fd, unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		unix.Close(fd)
		return nil, errnoErr(err)
	}
	return func() error {
		unix.Flock(fd, unix.LOCK_UN)
		return unix.Close(fd)
	}, nil
}

// walkDirPath is the portable component walk: each component is opened
// with O_NOFOLLOW|O_DIRECTORY relative to the previous descriptor and
// fstat'ed, and a symlink, a non-directory or a device change refuses it.
func (d *Dir) walkDirPath(comps []string) (*Dir, error) {
	cur := d.fd
	rel := append([]string(nil), d.rel...)
	release := func(fd int) {
		if fd != d.fd {
			unix.Close(fd)
		}
	}
	for _, c := range comps {
		rel = append(rel, c)
		next, err := d.walkStep(cur, c, rel)
		release(cur)
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return &Dir{fd: cur, rel: rel, dev: d.dev}, nil
}

// walkStep opens the directory c in cur for the walk, refusing a symlink,
// a non-directory and a change of device or mount.
func (d *Dir) walkStep(cur int, c string, rel []string) (int, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(cur, c, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return -1, mapResolveErr(err, rel)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
	case unix.S_IFLNK:
		return -1, reject(schema.RulePathSymlink, Rel(rel))
	default:
		return -1, reject(schema.RulePathNotDirectory, Rel(rel))
	}
	fd, err := unix.Openat(cur, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, mapResolveErr(err, rel)
	}
	// Judge what was opened, not what was stat'ed by name: the open
	// descriptor is what later operations use.
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, errnoErr(err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		unix.Close(fd)
		return -1, reject(schema.RulePathNotDirectory, Rel(rel))
	}
	if uint64(st.Dev) != d.dev || !sameMount(cur, fd) {
		unix.Close(fd)
		return -1, reject(schema.RulePathCrossDevice, Rel(rel))
	}
	return fd, nil
}

// walkCheckNotRedirect refuses name when it lies on another device.
func (d *Dir) walkCheckNotRedirect(name string, comps []string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return mapResolveErr(err, comps)
	}
	if uint64(st.Dev) != d.dev {
		return reject(schema.RulePathCrossDevice, Rel(comps))
	}
	same, err := sameMountAt(d.fd, name)
	if err != nil {
		return mapResolveErr(err, comps)
	}
	if !same {
		return reject(schema.RulePathCrossDevice, Rel(comps))
	}
	return nil
}

// KeepTimes records the directory's modification time and returns a func
// that puts it back (through the descriptor, never by name). The host uses
// it around its own short-lived scratch entries so that a dry run leaves
// no trace; the change time cannot be restored (non-guarantee).
func (d *Dir) KeepTimes() (restore func()) {
	var st unix.Stat_t
	if unix.Fstat(d.fd, &st) != nil {
		return func() {}
	}
	atime, mtime := statTimes(&st)
	return func() {
		unix.UtimesNanoAt(d.fd, ".", []unix.Timespec{atime, mtime}, 0)
	}
}
