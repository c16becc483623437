//go:build !windows

package remote

import (
	"errors"
	"os"
)

// checkPrivateMode refuses a credentials file any other user could read or
// write: the group and other permission bits must all be clear.
func checkPrivateMode(fi os.FileInfo) error {
	if fi.Mode().Perm()&0o077 != 0 {
		return errors.New("credentials: file is accessible to group or others; chmod 600 it")
	}
	return nil
}
