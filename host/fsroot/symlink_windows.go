package fsroot

import "os"

// Symlink creates the symbolic link name in d with the text target.
// Windows has no symlinkat: the link is made by its name under d (see the
// package's non-guarantees).
func (d *Dir) Symlink(target, name string) error {
	if err := checkComponents([]string{name}); err != nil {
		return err
	}
	return relErr(Rel(d.child(name)), os.Symlink(target, d.join(name)))
}
