//go:build !unix

package fsroottest

import (
	"fmt"
	"os"
)

// stamp is p's mode, size and modification time. Windows keeps a change
// time, but os.FileInfo does not expose it, so an entry created and
// removed beneath a directory whose modification time was then restored
// does not show.
func stamp(_ string, info os.FileInfo) (string, error) {
	return fmt.Sprintf("mode=%v size=%d mtime=%d", info.Mode(), info.Size(), info.ModTime().UnixNano()), nil
}
