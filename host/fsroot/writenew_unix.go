//go:build unix

package fsroot

import (
	"io/fs"

	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/internal/durable"
)

// WriteNewFile creates the regular file name in d exclusively and without
// following anything, writes body to it, fsyncs it when sync is set, and
// returns the identity of the file it wrote (observed on its descriptor,
// so it is that file's, whatever is at name afterwards).
//
// Guarantee: the file's mode is perm exactly, as with CreateFile. The
// mode is read back from the descriptor and set with fchmod only when the
// creation mode differs (a umask or a default ACL took bits away), which
// saves a system call per file in the common case.
//
// It is CreateFile, Write, Close and Lstat in fewer system calls and no
// *os.File: the per-file cost of staging a plan of many small files.
// On an error the file may exist, partly written; the caller discards it.
func (d *Dir) WriteNewFile(name string, perm fs.FileMode, body []byte, sync bool) (Entry, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return Entry{}, errnoErr(err)
	}
	e, err := d.writeNew(fd, perm, body, sync)
	if cerr := unix.Close(fd); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return Entry{}, errnoErr(err)
	}
	return e, nil
}

func (d *Dir) writeNew(fd int, perm fs.FileMode, body []byte, sync bool) (Entry, error) {
	e, err := statAt(fd, "")
	if err != nil {
		return Entry{}, err
	}
	if e.Mode.Perm() != perm.Perm() {
		if err := unix.Fchmod(fd, uint32(perm.Perm())); err != nil {
			return Entry{}, err
		}
		e.Mode = e.Mode&^fs.ModePerm | perm.Perm()
	}
	for len(body) > 0 {
		n, err := unix.Write(fd, body)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return Entry{}, err
		}
		if n == 0 {
			return Entry{}, unix.EIO
		}
		body = body[n:]
	}
	if sync {
		if err := durable.Fd(fd); err != nil {
			return Entry{}, err
		}
	}
	return e, nil
}
