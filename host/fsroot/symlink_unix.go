//go:build unix

package fsroot

import "golang.org/x/sys/unix"

// Symlink creates the symbolic link name in d with the text target
// (symlinkat on d's descriptor). The link is made in d itself, whatever
// d's name now resolves to; the target text is stored as given, never
// resolved or checked (a caller restoring a user's own link puts back
// exactly what was there). An existing name is fs.ErrExist.
func (d *Dir) Symlink(target, name string) error {
	if err := checkComponents([]string{name}); err != nil {
		return err
	}
	return errnoErr(unix.Symlinkat(target, d.fd, name))
}
