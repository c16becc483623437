package fsroot

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/schema"
)

// OpenDirRel is OpenDirPath of the slash-separated path rel (refusing
// what splitRel refuses: an absolute path, "..", an empty component). The
// caller closes the result.
func (d *Dir) OpenDirRel(rel string) (*Dir, error) {
	comps, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	return d.OpenDirPath(comps)
}

// ReplaceFile writes body as the regular file name in d, atomically: a
// fresh temporary file beside it (created exclusively, without following
// anything, with mode perm exactly), written and flushed, then renamed
// over name. A reader sees the old content or the new, never a mix.
//
// Guarantees: an existing name that is a symbolic link is refused
// (path.symlink) and so is anything else that is not a regular file; the
// rename replaces the directory entry name itself, so a link swapped in
// after that check is replaced, never written through: what it points to
// is never touched. On an error the temporary file is removed and name is
// as it was.
func (d *Dir) ReplaceFile(name string, perm fs.FileMode, body []byte) error {
	if err := checkComponents([]string{name}); err != nil {
		return err
	}
	e, err := d.Lstat(name)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	case e.Kind == KindSymlink:
		return reject(schema.RulePathSymlink, Rel(d.child(name)))
	case e.Kind != KindNone && e.Kind != KindFile:
		return fmt.Errorf("%s exists and is not a regular file", Rel(d.child(name)))
	}
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	tmp := "." + name + ".lola-" + hex.EncodeToString(rnd[:]) + ".tmp"
	f, err := d.CreateFile(tmp, perm)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			d.Unlink(tmp)
		}
	}()
	_, werr := f.Write(body)
	if werr == nil {
		werr = durable.File(f)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return werr
	}
	if err := Rename(d, tmp, d, name, 0); err != nil {
		return err
	}
	ok = true
	_ = d.Sync()
	return nil
}

// WriteFileBeneath writes body to the slash-separated path rel beneath the
// directory root (a host path, opened as Open does) with ReplaceFile: no
// symbolic link is followed on the way to rel's directory, which must
// exist, nor at rel itself (path.symlink).
func WriteFileBeneath(root, rel string, perm fs.FileMode, body []byte) error {
	comps, err := splitRel(rel)
	if err != nil {
		return err
	}
	if len(comps) == 0 {
		return errors.New("fsroot: no file name")
	}
	r, err := Open(root)
	if err != nil {
		return err
	}
	defer r.Close()
	dir := r.Dir()
	if len(comps) > 1 {
		sub, err := dir.openDirPath(comps[:len(comps)-1])
		if err != nil {
			return err
		}
		defer sub.Close()
		dir = sub
	}
	return dir.ReplaceFile(comps[len(comps)-1], perm, body)
}

// splitRel splits a root-relative slash path into components, refusing
// an absolute path and "..".
func splitRel(rel string) ([]string, error) {
	if strings.HasPrefix(rel, "/") {
		return nil, reject(schema.RulePathAbsolute, rel)
	}
	var comps []string
	for _, c := range strings.Split(rel, "/") {
		if c == "" || c == "." {
			continue
		}
		comps = append(comps, c)
	}
	if len(comps) > 0 {
		if err := checkComponents(comps); err != nil {
			return nil, err
		}
	}
	return comps, nil
}
