//go:build windows

package remote

import "os"

// checkPrivateMode is a no-op on Windows: access is governed by the file's
// ACL, which the per-user profile directory holding $LOLA_HOME restricts;
// the Unix permission bits Go reports there carry no meaning.
func checkPrivateMode(os.FileInfo) error { return nil }
