package module

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/schema"
)

// stager builds one module tree in a fresh staging directory from a stream
// of entries (a folder walk, an archive, a checkout). Every entry passes
// the path vocabulary, the namespace (duplicates, case-fold collisions,
// files used as directories) and the bounds before anything is written;
// file bytes are counted as they are written. The stager creates regular
// files and directories, and (an archive's, for a following stager only)
// symbolic links that no later entry can lie beneath or share a name with
// (the namespace refuses it), so nothing it writes can redirect a later
// write; expandLinks then replaces the links by what they resolve to.
type stager struct {
	dir     string // the staging tree; host path, never in an error
	b       Bounds
	ns      *namespace
	entries int
	total   int64
	// follow: a symbolic link in the source is resolved under the
	// source-link rule (links.go) and staged as what it resolves to;
	// otherwise every link is refused (path.symlink). Store.Add follows;
	// Stage and Unpack (extension bundles) do not.
	follow bool
	// links counts the symbolic links an archive staged (symlink).
	links int
	// pick, when set, narrows a folder (or a clone's checkout) to its top
	// file and what pick names from it (copyPicked); an archive is
	// unpacked whole and then held to it (checkPicked).
	pick Pick
	top  string
}

// folder stages the directory src: only what s.pick names (copyPicked),
// or every entry under the source-link rule of sc (copyTree).
func (s *stager) folder(src string, sc scope) error {
	if s.pick != nil {
		return copyPicked(src, s.top, s.pick, s)
	}
	return copyTree(src, s, sc)
}

func newStager(dir string, b Bounds) (*stager, error) {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, errpath.Strip(err)
	}
	return &stager{dir: dir, b: b, ns: newNamespace()}, nil
}

// count admits one more entry against the entry bound.
func (s *stager) count(p string) error {
	s.entries++
	if s.entries > s.b.files {
		return &LimitError{Limit: LimitFiles, Max: int64(s.b.files), Path: p}
	}
	return nil
}

// admit counts p, checks it against the path vocabulary and its bound, and
// records it in the namespace as a directory or not.
func (s *stager) admit(p string, dir bool) (pathrule.Path, error) {
	if err := s.count(p); err != nil {
		return pathrule.Path{}, err
	}
	pp, err := parseEntry(p, s.b)
	if err != nil {
		return pathrule.Path{}, err
	}
	return pp, s.ns.add(pp, dir)
}

// mkdir records and creates directory p.
func (s *stager) mkdir(p string) error {
	pp, err := s.admit(p, true)
	if err != nil {
		return err
	}
	return errpath.Strip(os.MkdirAll(s.host(pp), 0o700))
}

// file records p and writes it from r. declared is the size the source
// claims, or -1; a claim over a bound is refused before reading, and the
// bytes actually read are bounded whatever the claim.
//
// perm is the permission bits the source gives the file (see sourcePerm,
// tarPerm); the staged file gets them, with owner read and write added so
// lola can read and replace it, and nothing beyond 0777.
func (s *stager) file(p string, declared int64, perm fs.FileMode, r io.Reader) error {
	pp, err := s.admit(p, false)
	if err != nil {
		return err
	}
	if declared > s.b.fileBytes {
		return &LimitError{Limit: LimitFileBytes, Max: s.b.fileBytes, Path: p}
	}
	if declared >= 0 && s.total+declared > s.b.totalBytes {
		return &LimitError{Limit: LimitTotalBytes, Max: s.b.totalBytes, Path: p}
	}
	host := s.host(pp)
	if err := os.MkdirAll(filepath.Dir(host), 0o700); err != nil {
		return errpath.Strip(err)
	}
	perm = perm.Perm() | 0o600
	f, err := os.OpenFile(host, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return errpath.Strip(err)
	}
	if err := f.Chmod(perm); err != nil { // not through the umask: the source's bits, exactly
		f.Close()
		return errpath.Strip(err)
	}
	room := min(s.b.fileBytes, s.b.totalBytes-s.total)
	n, err := io.Copy(f, io.LimitReader(r, room+1))
	s.total += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errors.New("entry " + strconv.QuoteToASCII(bounded(p)) + ": " + errpath.Strip(err).Error())
	}
	if n > room {
		if n > s.b.fileBytes {
			return &LimitError{Limit: LimitFileBytes, Max: s.b.fileBytes, Path: p}
		}
		return &LimitError{Limit: LimitTotalBytes, Max: s.b.totalBytes, Path: p}
	}
	return nil
}

// symlink records p as a symbolic link to target and creates it as such
// in the staging tree, for expandLinks to resolve once the whole archive
// is staged (a link may name an entry that comes after it). p is a
// non-directory in the namespace, so no later entry is staged beneath it
// (conflict.nested) or under another spelling of it (conflict.same-path):
// no write passes through the link. A stager that does not follow links
// refuses it (path.symlink).
func (s *stager) symlink(p, target string) error {
	if !s.follow {
		return entryViolation(schema.RulePathSymlink, p, "symbolic link")
	}
	pp, err := s.admit(p, false)
	if err != nil {
		return err
	}
	if target == "" || strings.ContainsRune(target, 0) || len(target) > fsroot.MaxLinkTarget {
		return entryViolation(schema.RulePathSymlink, p, "symbolic link with an empty, NUL-holding or over-long target")
	}
	host := s.host(pp)
	if err := os.MkdirAll(filepath.Dir(host), 0o700); err != nil {
		return errpath.Strip(err)
	}
	if err := os.Symlink(target, host); err != nil {
		return errorAt(p, err)
	}
	s.links++
	return nil
}

// expandLinks, once an archive is staged, replaces the symbolic links it
// staged by what they resolve to: the tree, links and all, is moved aside
// and copied back into a fresh staging tree by copyTree under the
// source-link rule, the archive's top being the root. What is staged in
// the end holds only regular files and directories, and the bounds apply
// to the expanded result. Without links it does nothing.
func (s *stager) expandLinks() error {
	if s.links == 0 {
		return nil
	}
	raw := s.dir + ".links"
	if err := os.Rename(s.dir, raw); err != nil {
		return errpath.Strip(err)
	}
	defer os.RemoveAll(raw)
	fresh, err := newStager(s.dir, s.b)
	if err != nil {
		return err
	}
	fresh.follow = true
	*s = *fresh
	return copyTree(raw, s, archiveScope)
}

func (s *stager) host(p pathrule.Path) string {
	return filepath.Join(s.dir, filepath.FromSlash(p.String()))
}

// execPerm is 0755 for an executable file, else 0644: the mode of a file
// whose source keeps only its execute bit (a zip, which today's Lola
// extracts without modes; a git checkout).
func execPerm(executable bool) fs.FileMode {
	if executable {
		return 0o755
	}
	return 0o644
}

// tarPerm is a tar entry's mode as today's Lola extracts it (Python's
// "data" filter): permission bits only, no group or other write, owner
// read and write, and no group or other execute without owner execute.
func tarPerm(mode int64) fs.FileMode {
	p := fs.FileMode(mode).Perm()&^0o022 | 0o600
	if p&0o100 == 0 {
		p &^= 0o011
	}
	return p
}
