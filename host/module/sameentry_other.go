//go:build !unix

package module

import (
	"io/fs"

	"github.com/lola-pm/lola/host/fsroot"
)

// sameEntry: where the descriptor carries no inode through fs.FileInfo,
// the reparse-point refusal at open is the check.
func sameEntry(seen fsroot.Entry, opened fs.FileInfo) bool { return true }
