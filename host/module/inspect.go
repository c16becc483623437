package module

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotDir: a path given as a module folder is not a directory.
var ErrNotDir = errors.New("not a directory")

// InspectDir reads, in place, the layout of the module folder at path (an
// author's working copy: `lola mod info .`), as Discover does for a stored
// module; nothing is copied or added to the store. The name is the
// folder's base name, as written (it need not be a valid store name, since
// nothing is stored under it). A missing path is an os.ErrNotExist error,
// a file ErrNotDir, a folder holding no module ErrNotModule.
func InspectDir(path string) (string, Layout, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", Layout{}, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", Layout{}, err
	}
	name := filepath.Base(abs)
	if !fi.IsDir() {
		return name, Layout{}, fmt.Errorf("%s: %w", path, ErrNotDir)
	}
	l, err := Discover(abs, name)
	return name, l, err
}
