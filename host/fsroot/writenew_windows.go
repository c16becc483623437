package fsroot

import (
	"io/fs"

	"github.com/lola-pm/lola/host/internal/durable"
)

// WriteNewFile creates the regular file name in d exclusively, writes
// body to it, flushes it when sync is set, and returns the identity of the
// file at name (see the Unix version). Here it is CreateFile, Write, Close
// and Lstat, as before WriteNewFile existed: the write handle lacks the
// right to read the attributes, and Windows has no mode bits to set.
func (d *Dir) WriteNewFile(name string, perm fs.FileMode, body []byte, sync bool) (Entry, error) {
	f, err := d.CreateFile(name, perm)
	if err != nil {
		return Entry{}, err
	}
	_, err = f.Write(body)
	if err == nil && sync {
		err = durable.File(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Entry{}, err
	}
	return d.Lstat(name)
}
