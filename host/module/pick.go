package module

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/schema"
)

// Pick names, from the content of a source's top file (Stage's topFile,
// e.g. an extension's manifest), the root-relative paths an intake takes:
// the intake holds the top file and those paths, nothing else. A named path
// the source does not hold is left out (a tier its author did not build).
// Pick is given at most the per-file bound of bytes and must not keep them.
type Pick func(top []byte) ([]string, error)

// ErrUnlisted: an archive holds an entry its top file's Pick does not
// name. errors.Is works on an *UnlistedError.
var ErrUnlisted = errors.New(UnlistedRule)

// UnlistedRule is how an unlisted archive entry is spelled in errors and
// help: the intake's own rule, beside the path rules and the bounds
// (module.files, ...).
const UnlistedRule = "module.unlisted"

// UnlistedError reports an archive entry (or a directory holding no named
// file) that the top file does not name. Path is source-relative.
type UnlistedError struct {
	Path, Top string
}

func (e *UnlistedError) Error() string {
	return UnlistedRule + ": entry " + strconv.QuoteToASCII(bounded(e.Path)) + " is not among the files " + e.Top + " names"
}

// Is reports whether target is ErrUnlisted.
func (e *UnlistedError) Is(target error) bool { return target == ErrUnlisted }

// copyPicked stages, from the directory src, the file top and what pick
// names from its content, read with copyFolder's descriptor discipline:
// the directories on the way to a named file are opened beneath their
// parent's descriptor (a symbolic link, a mount or a non-directory on the
// way is refused by its rule), the file itself must be a regular file,
// and nothing else in src is looked at, so a build tree (target/,
// node_modules/ with its links) beside the named files is never read.
// The top file is staged from the bytes pick saw, so what was picked is
// what its staged copy names.
func copyPicked(src, top string, pick Pick, s *stager) error {
	root, err := fsroot.Open(src)
	if err != nil {
		return err
	}
	defer root.Close()
	body, executable, err := readTop(root.Dir(), top, s.b)
	if err != nil {
		return err
	}
	paths, err := pickPaths(pick, body, top)
	if err != nil {
		return err
	}
	if err := s.file(top, int64(len(body)), execPerm(executable), bytes.NewReader(body)); err != nil {
		return err
	}
	for _, p := range paths {
		if err := copyPickedFile(root.Dir(), p, s); err != nil {
			return err
		}
	}
	return nil
}

// pickPaths runs pick and returns its paths sorted, without duplicates
// and without the top file itself.
func pickPaths(pick Pick, body []byte, top string) ([]string, error) {
	paths, err := pick(body)
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	return slices.DeleteFunc(paths, func(p string) bool { return p == top }), nil
}

// readTop reads the regular file name in d, bounded by the per-file
// bound, without following a link.
func readTop(d *fsroot.Dir, name string, b Bounds) (body []byte, executable bool, err error) {
	e, err := d.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, errors.New("no " + name)
	case err != nil:
		return nil, false, errorAt(name, err)
	case e.Kind == fsroot.KindSymlink:
		return nil, false, entryViolation(schema.RulePathSymlink, name, "symbolic link")
	case e.Kind != fsroot.KindFile:
		return nil, false, entryViolation(schema.RulePathInvalid, name, "not a regular file")
	case e.Size > b.fileBytes:
		return nil, false, &LimitError{Limit: LimitFileBytes, Max: b.fileBytes, Path: name}
	}
	f, err := d.OpenFileBeneath(name)
	if err != nil {
		return nil, false, entryRefusal(name, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, false, errorAt(name, err)
	}
	if !opened.Mode().IsRegular() || !sameEntry(e, opened) {
		return nil, false, entryViolation(schema.RulePathSymlink, name, "replaced while being read")
	}
	body, err = io.ReadAll(io.LimitReader(f, b.fileBytes+1))
	if err != nil {
		return nil, false, errorAt(name, err)
	}
	if int64(len(body)) > b.fileBytes {
		return nil, false, &LimitError{Limit: LimitFileBytes, Max: b.fileBytes, Path: name}
	}
	return body, opened.Mode()&0o111 != 0, nil
}

// copyPickedFile stages the file at the source-relative path p, walking
// to it one directory at a time beneath d. A path the source does not
// hold stages nothing.
func copyPickedFile(d *fsroot.Dir, p string, s *stager) error {
	pp, err := parseEntry(p, s.b)
	if err != nil {
		return err
	}
	comps := pp.Components()
	cur := d
	for i, c := range comps {
		at := strings.Join(comps[:i+1], "/")
		e, err := cur.Lstat(c)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return errorAt(at, err)
		}
		last := i == len(comps)-1
		switch {
		case e.Kind == fsroot.KindSymlink:
			return entryViolation(schema.RulePathSymlink, at, "symbolic link")
		case last && e.Kind == fsroot.KindFile:
			return copyFile(cur, c, p, e, s)
		case last:
			return entryViolation(schema.RulePathInvalid, at, "not a regular file")
		case e.Kind != fsroot.KindDir:
			return entryViolation(schema.RulePathNotDirectory, at, "not a directory, on the way to "+strconv.QuoteToASCII(bounded(p)))
		}
		sub, err := cur.OpenDir(c)
		if err != nil {
			return entryRefusal(at, err)
		}
		defer sub.Close()
		cur = sub
	}
	return nil
}

// checkPicked holds a staged archive tree (root) to its top file: the top
// file must be there, and every file in the tree must be it or a path pick
// names, every directory one holding such a file; the first other entry,
// in path order, is an *UnlistedError. The tree is the stager's own, so
// it holds only regular files and directories.
func checkPicked(root, top string, pick Pick) error {
	fi, err := os.Lstat(filepath.Join(root, top))
	if err != nil || !fi.Mode().IsRegular() {
		return errors.New("no " + top)
	}
	body, err := os.ReadFile(filepath.Join(root, top))
	if err != nil {
		return errpath.Strip(err)
	}
	paths, err := pickPaths(pick, body, top)
	if err != nil {
		return err
	}
	named := map[string]bool{top: true}
	dirs := map[string]bool{}
	for _, p := range paths {
		named[p] = true
		for d := filepath.ToSlash(filepath.Dir(p)); d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
			dirs[d] = true
		}
	}
	return filepath.WalkDir(root, func(hp string, e fs.DirEntry, err error) error {
		if err != nil {
			return errpath.Strip(err)
		}
		rel, rerr := filepath.Rel(root, hp)
		if rerr != nil || rel == "." {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if (e.IsDir() && dirs[rel]) || (!e.IsDir() && named[rel]) {
			return nil
		}
		return &UnlistedError{Path: rel, Top: top}
	})
}
