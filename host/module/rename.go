package module

import (
	"io/fs"
	"os"
)

func renameNoReplacePortable(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: fs.ErrExist}
	}
	return os.Rename(from, to)
}

// exchangePortable swaps two directories with three renames through a
// side name, restoring the original on failure.
func exchangePortable(from, to string) error {
	side := from + ".old"
	if err := os.Rename(to, side); err != nil {
		return err
	}
	if err := os.Rename(from, to); err != nil {
		os.Rename(side, to)
		return err
	}
	return os.Rename(side, from)
}
