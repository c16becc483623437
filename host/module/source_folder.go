package module

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/schema"
)

// copyFolder stages every entry of the directory src, except .git
// directories (version-control state, not module content; today's Lola
// drops them too). Symbolic links are refused (path.symlink), never
// followed; so is anything that is neither a regular file nor a directory
// (path.invalid).
func copyFolder(src string, s *stager) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		rel, rerr := filepath.Rel(src, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			return errorAt(rel, err)
		}
		if rel == "." {
			if d.Type()&fs.ModeSymlink != 0 {
				return entryViolation(schema.RulePathSymlink, ".", "the source folder is a symbolic link")
			}
			return nil
		}
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			return entryViolation(schema.RulePathSymlink, rel, "symbolic link")
		case t.IsDir():
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return s.mkdir(rel)
		case t.IsRegular():
			return copyFile(p, rel, d, s)
		default:
			return entryViolation(schema.RulePathInvalid, rel, "not a regular file or directory ("+t.String()+")")
		}
	})
}

// copyFile stages one regular file, refusing it if what opens is not the
// entry the walk saw (replaced by a link between the walk and the open).
func copyFile(p, rel string, d fs.DirEntry, s *stager) error {
	seen, err := d.Info()
	if err != nil {
		return errorAt(rel, err)
	}
	f, err := os.Open(p)
	if err != nil {
		return errorAt(rel, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return errorAt(rel, err)
	}
	if !os.SameFile(seen, opened) || !opened.Mode().IsRegular() {
		return entryViolation(schema.RulePathSymlink, rel, "changed while being read")
	}
	return s.file(rel, opened.Size(), opened.Mode()&0o111 != 0, f)
}

func errorAt(rel string, err error) error {
	return &entryError{path: rel, err: stripPath(err)}
}

type entryError struct {
	path string
	err  error
}

func (e *entryError) Error() string { return "entry " + quoteName(e.path) + ": " + e.err.Error() }
func (e *entryError) Unwrap() error { return e.err }
