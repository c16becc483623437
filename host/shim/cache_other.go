//go:build !unix

package shim

import "io/fs"

// ownedByMe has no portable owner check here; Windows ACLs under the user's
// profile are what protect $LOLA_HOME.
func ownedByMe(fs.FileInfo) error { return nil }
