package apply

import (
	"io/fs"
	"os"
)

func openNoFollow(name string) (*os.File, error) { return os.Open(name) }

// keyModeTooOpen: Windows has no mode bits; the key relies on the profile
// directory's ACL (non-guarantee).
func keyModeTooOpen(fs.FileInfo) bool { return false }
