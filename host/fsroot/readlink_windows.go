package fsroot

import "os"

// Readlink returns the target of the symbolic link name in d. Windows has
// no readlinkat: the link is read by its name under d (see the package's
// non-guarantees), never followed. A target longer than MaxLinkTarget is
// ErrLinkTargetTooLong.
func (d *Dir) Readlink(name string) (string, error) {
	t, err := os.Readlink(d.join(name))
	if err != nil {
		return "", relErr(Rel(d.child(name)), err)
	}
	if len(t) > MaxLinkTarget {
		return "", ErrLinkTargetTooLong
	}
	return t, nil
}
