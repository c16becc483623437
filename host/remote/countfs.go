package remote

import (
	"os"

	"github.com/go-git/go-billy/v5"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// countingFS is the billy filesystem a clone writes through: every byte
// written (objects, index, checkout) is charged to the session's budget,
// since a small packfile can expand into a huge checkout, and creating a
// symbolic link is refused, since no plan path may be one, unless the
// session keeps links (CloneRequest.KeepLinks): then each link is created
// and charged linkCost bytes and its target's length.
type countingFS struct {
	billy.Filesystem
	s *cloneSession
}

func (fs *countingFS) Create(name string) (billy.File, error) {
	f, err := fs.Filesystem.Create(name)
	return fs.wrap(f, err)
}

func (fs *countingFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	f, err := fs.Filesystem.OpenFile(name, flag, perm)
	return fs.wrap(f, err)
}

func (fs *countingFS) TempFile(dir, prefix string) (billy.File, error) {
	f, err := fs.Filesystem.TempFile(dir, prefix)
	return fs.wrap(f, err)
}

// linkCost is what one kept link is charged beyond its target's bytes:
// an entry costs a checkout something however short its content, and a
// repository of nothing but links is still bounded.
const linkCost = 256

func (fs *countingFS) Symlink(target, link string) error {
	if !fs.s.links {
		return fs.s.fail(rejection.New(schema.RulePathSymlink, "the repository's checkout would create a symbolic link"))
	}
	if err := fs.s.budget.spend(linkCost + len(target)); err != nil {
		return fs.s.failErr(err)
	}
	return fs.Filesystem.Symlink(target, link)
}

func (fs *countingFS) Chroot(path string) (billy.Filesystem, error) {
	sub, err := fs.Filesystem.Chroot(path)
	if err != nil {
		return nil, err
	}
	return &countingFS{Filesystem: sub, s: fs.s}, nil
}

// Capabilities passes the underlying filesystem's through (embedding an
// interface would otherwise hide them).
func (fs *countingFS) Capabilities() billy.Capability { return billy.Capabilities(fs.Filesystem) }

func (fs *countingFS) wrap(f billy.File, err error) (billy.File, error) {
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, s: fs.s}, nil
}

type countingFile struct {
	billy.File
	s *cloneSession
}

func (f *countingFile) Write(p []byte) (int, error) {
	if err := f.s.budget.spend(len(p)); err != nil {
		return 0, f.s.failErr(err)
	}
	return f.File.Write(p)
}

// Truncate charges the whole size it sets (not only the growth: the file's
// current size is not consulted, so this over-counts rather than under), since
// a sparse file is still bytes on the checkout.
func (f *countingFile) Truncate(size int64) error {
	if size > 0 {
		if err := f.s.budget.spend(int(min(size, 1<<40))); err != nil {
			return f.s.failErr(err)
		}
	}
	return f.File.Truncate(size)
}
