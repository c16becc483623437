package module

import (
	"archive/zip"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/schema"
)

// unpackZip stages every entry of the zip archive at path, except .git
// directories and what lies beneath them (inGitDir). Entries are
// refused, with the rule named, when their name is outside the path
// vocabulary, when they are special files, and when they collide; a
// symbolic link (Unix mode bits in the external attributes, its target as
// its content) is staged as what it resolves to inside the archive when s
// follows links (expandLinks), else refused (path.symlink). Sizes are
// bounded on the declared size and again on the bytes inflated.
func unpackZip(path string, s *stager) error {
	if err := checkArchiveSize(path, s.b); err != nil {
		return err
	}
	r, err := zip.OpenReader(path)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return errors.New("zip: " + errpath.Strip(err).Error())
	}
	defer r.Close()
	if len(r.File) > s.b.files {
		return &LimitError{Limit: LimitFiles, Max: int64(s.b.files)}
	}
	for _, f := range r.File {
		if err := unpackZipEntry(f, s); err != nil {
			return err
		}
	}
	return s.expandLinks()
}

func unpackZipEntry(f *zip.File, s *stager) error {
	name, isDir := archiveName(f.Name)
	mode := f.Mode()
	if inGitDir(name, isDir || mode.IsDir()) {
		return s.count(name) // version-control state, skipped as a folder's is; still counted
	}
	switch {
	case mode&fs.ModeSymlink != 0:
		return unpackZipLink(f, name, s)
	case isDir || mode.IsDir():
		if name == "" {
			return nil
		}
		return s.mkdir(name)
	case !mode.IsRegular():
		return entryViolation(schema.RulePathInvalid, name, "not a regular file or directory ("+mode.Type().String()+")")
	}
	if f.UncompressedSize64 > uint64(s.b.fileBytes) {
		return &LimitError{Limit: LimitFileBytes, Max: s.b.fileBytes, Path: name}
	}
	declared := int64(f.UncompressedSize64)
	rc, err := f.Open()
	if err != nil {
		return errorAt(name, err)
	}
	defer rc.Close()
	return s.file(name, declared, execPerm(mode&0o111 != 0), rc)
}

// unpackZipLink stages the symbolic link f, whose content is its target
// (read up to fsroot.MaxLinkTarget bytes and one more, to refuse a longer one).
func unpackZipLink(f *zip.File, name string, s *stager) error {
	if !s.follow {
		return entryViolation(schema.RulePathSymlink, name, "symbolic link")
	}
	rc, err := f.Open()
	if err != nil {
		return errorAt(name, err)
	}
	defer rc.Close()
	target, err := io.ReadAll(io.LimitReader(rc, fsroot.MaxLinkTarget+1))
	if err != nil {
		return errorAt(name, err)
	}
	return s.symlink(name, string(target))
}

// inGitDir reports whether the archive entry name is a directory named
// .git or lies beneath one: version-control state, which every source
// leaves out (a folder's walk skips .git directories the same way). A
// regular file named .git (a submodule's pointer) is kept, as a folder's
// would be.
func inGitDir(name string, isDir bool) bool {
	comps := strings.Split(name, "/")
	for i, c := range comps {
		if c == ".git" && (i < len(comps)-1 || isDir) {
			return true
		}
	}
	return false
}

// archiveName normalizes an archive entry name the way archivers write
// them: a leading "./" (tar -C dir .) is dropped, and a trailing "/" marks
// a directory. Nothing else is rewritten; the result still has to pass the
// path vocabulary.
func archiveName(n string) (name string, dir bool) {
	for strings.HasPrefix(n, "./") {
		n = n[2:]
	}
	if n == "." {
		return "", true
	}
	if strings.HasSuffix(n, "/") {
		return strings.TrimSuffix(n, "/"), true
	}
	return n, false
}

// checkArchiveSize refuses an archive file larger than any archive within
// the bounds can be (its content, plus per-entry headers, plus slack), so
// a huge central directory is never read into memory.
func checkArchiveSize(path string, b Bounds) error {
	fi, err := os.Stat(path)
	if err != nil {
		return errpath.Strip(err)
	}
	if fi.Size() > archiveMax(b) {
		return &LimitError{Limit: LimitTotalBytes, Max: b.totalBytes}
	}
	return nil
}

// archiveMax is the most bytes an archive (or a decompressed tar stream)
// within b can hold: every admitted byte plus a generous allowance per
// entry for headers, PAX records and block padding.
func archiveMax(b Bounds) int64 {
	return b.totalBytes + int64(b.files+1)*8192 + 1<<20
}
