//go:build unix

package fsroot

import "golang.org/x/sys/unix"

// Readlink returns the target of the symbolic link name in d, read
// through d's descriptor (readlinkat): the link itself is examined, never
// followed, and nothing is resolved by path. A name that is not a link is
// an error (EINVAL); a target longer than MaxLinkTarget is
// ErrLinkTargetTooLong.
func (d *Dir) Readlink(name string) (string, error) {
	buf := make([]byte, 256)
	for {
		n, err := unix.Readlinkat(d.fd, name, buf)
		if err != nil {
			return "", errnoErr(err)
		}
		switch {
		case n > MaxLinkTarget:
			return "", ErrLinkTargetTooLong
		case n < len(buf):
			return string(buf[:n]), nil
		}
		buf = make([]byte, 2*len(buf)) // at most MaxLinkTarget*2: n > MaxLinkTarget stops it
	}
}
