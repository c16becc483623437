package module

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/pathrule"
)

// stager builds one module tree in a fresh staging directory from a stream
// of entries (a folder walk, an archive, a checkout). Every entry passes
// the path vocabulary, the namespace (duplicates, case-fold collisions,
// files used as directories) and the bounds before anything is written;
// file bytes are counted as they are written. The stager only ever creates
// regular files and directories, so nothing it writes can redirect a later
// write.
type stager struct {
	dir     string // the staging tree; host path, never in an error
	b       Bounds
	ns      *namespace
	entries int
	total   int64
	// pick, when set, narrows a folder (or a clone's checkout) to its top
	// file and what pick names from it (copyPicked); an archive is
	// unpacked whole and then held to it (checkPicked).
	pick Pick
	top  string
}

// folder stages the directory src: every entry (copyFolder), or only
// what s.pick names (copyPicked).
func (s *stager) folder(src string) error {
	if s.pick != nil {
		return copyPicked(src, s.top, s.pick, s)
	}
	return copyFolder(src, s)
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

// mkdir records and creates directory p.
func (s *stager) mkdir(p string) error {
	if err := s.count(p); err != nil {
		return err
	}
	pp, err := parseEntry(p, s.b)
	if err != nil {
		return err
	}
	if err := s.ns.add(pp, true); err != nil {
		return err
	}
	return errpath.Strip(os.MkdirAll(s.host(pp), 0o700))
}

// file records p and writes it from r. declared is the size the source
// claims, or -1; a claim over a bound is refused before reading, and the
// bytes actually read are bounded whatever the claim.
func (s *stager) file(p string, declared int64, executable bool, r io.Reader) error {
	if err := s.count(p); err != nil {
		return err
	}
	pp, err := parseEntry(p, s.b)
	if err != nil {
		return err
	}
	if err := s.ns.add(pp, false); err != nil {
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
	perm := fs.FileMode(0o600)
	if executable {
		perm = 0o700
	}
	f, err := os.OpenFile(host, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
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

func (s *stager) host(p pathrule.Path) string {
	return filepath.Join(s.dir, filepath.FromSlash(p.String()))
}
