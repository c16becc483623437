package extension

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// MaxCurrentFileBytes bounds one managed file handed to an extension. A
// shared instructions file (CLAUDE.md, AGENTS.md) is kilobytes; a larger
// one is refused rather than truncated, since an extension splicing into a
// truncated copy would write the truncation back.
const MaxCurrentFileBytes = 4 << 20

// CurrentFiles reads, beneath root, the files the manifest names as managed
// and returns them for schema.Request.Current, in manifest order, each at
// its root-relative path.
//
// Guarantees:
//   - Every path is resolved through host/fsroot from one descriptor of
//     root: no symbolic link is followed, whether the managed file itself is
//     one or a directory above it is (path.symlink), and no mount point is
//     crossed (path.cross-device); the refusal is a *rejection.Violation
//     naming the root-relative path.
//   - A managed file that does not exist (or under a directory that does
//     not) is omitted: the extension sees it as absent and creates it.
//   - A managed path that is a directory, a device, a FIFO or anything but
//     a regular file is refused as path.invalid, and so is a file larger
//     than MaxCurrentFileBytes (checked before reading and bounded while
//     reading, so a file growing underneath cannot exceed it): the tree,
//     not the host, is at fault, and the user can fix it.
//   - Content that is valid UTF-8 is passed as is (encoding utf8, left
//     empty on the wire); any other bytes are passed base64-encoded, so
//     the extension can reproduce them byte for byte.
//   - Errors name root-relative paths only, never root.
//
// With an empty managed list it returns nil without opening root.
func (e *Extension) CurrentFiles(root string) ([]schema.File, error) {
	return e.CurrentFilesExcept(root, nil)
}

// CurrentFilesExcept is CurrentFiles leaving out the managed paths skip
// reports (nil: none). A caller that found a symbolic link on a managed
// path (CLAUDE.md -> AGENTS.md) leaves it out, so the request is built
// without reading through the link, and the target sees that file as
// absent; the caller then decides from the plan whether the link is
// written at all. A skipped path is never opened.
func (e *Extension) CurrentFilesExcept(root string, skip func(rel string) bool) ([]schema.File, error) {
	var managed []pathrule.Path
	for _, p := range e.manifest.managed {
		if skip == nil || !skip(p.String()) {
			managed = append(managed, p)
		}
	}
	if len(managed) == 0 {
		return nil, nil
	}
	r, err := fsroot.Open(root)
	if err != nil {
		return nil, errors.New("managed files: cannot open the root directory")
	}
	defer r.Close()
	rs := r.NewResolver()
	defer rs.Close()
	var out []schema.File
	for _, p := range managed {
		f, ok, err := readCurrent(rs, p)
		if err != nil {
			return nil, fmt.Errorf("managed file %s: %w", p.String(), err)
		}
		if ok {
			out = append(out, f)
		}
	}
	return out, nil
}

// readCurrent reads one managed file; ok is false when it does not exist.
func readCurrent(rs *fsroot.Resolver, p pathrule.Path) (schema.File, bool, error) {
	res, err := rs.Resolve(p, 0)
	if err != nil {
		return schema.File{}, false, err
	}
	if len(res.Create()) > 0 || !res.Entry().Exists() {
		return schema.File{}, false, nil
	}
	if k := res.Entry().Kind; k != fsroot.KindFile {
		return schema.File{}, false, notRegular(p, kindName(k))
	}
	if res.Entry().Size > MaxCurrentFileBytes {
		return schema.File{}, false, tooLarge(p)
	}
	fh, err := res.Base().OpenFile(res.Name())
	if err != nil {
		var v *rejection.Violation
		if errors.As(err, &v) {
			return schema.File{}, false, err
		}
		return schema.File{}, false, errors.New("cannot be opened")
	}
	defer fh.Close()
	// The entry observed at resolution may have been swapped since: hold
	// what was opened (without following anything) to the same rules.
	st, err := fh.Stat()
	if err != nil {
		return schema.File{}, false, errors.New("cannot be examined")
	}
	if !st.Mode().IsRegular() {
		return schema.File{}, false, notRegular(p, "special file")
	}
	// Sized from the open file, so one read usually fills it; still bounded
	// by the limit if the file grows underneath.
	var buf bytes.Buffer
	buf.Grow(int(min(st.Size(), MaxCurrentFileBytes)) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(fh, MaxCurrentFileBytes+1)); err != nil {
		return schema.File{}, false, errors.New("cannot be read")
	}
	b := buf.Bytes()
	if len(b) > MaxCurrentFileBytes {
		return schema.File{}, false, tooLarge(p)
	}
	f := schema.File{Path: p.String()}
	if utf8.Valid(b) {
		f.Content = string(b)
	} else {
		f.Content = base64.StdEncoding.EncodeToString(b)
		f.Encoding = schema.EncodingBase64
	}
	return f, true, nil
}

// notRegular refuses a managed path that is not a regular file.
func notRegular(p pathrule.Path, what string) error {
	return rejection.New(schema.RulePathInvalid, "managed file "+quote(p.String())+" is a "+what+", not a regular file")
}

// tooLarge refuses a managed file over MaxCurrentFileBytes.
func tooLarge(p pathrule.Path) error {
	return rejection.New(schema.RulePathInvalid, fmt.Sprintf("managed file %s exceeds %d bytes, the most an extension is handed", quote(p.String()), MaxCurrentFileBytes))
}

func kindName(k fsroot.Kind) string {
	switch k {
	case fsroot.KindDir:
		return "directory"
	case fsroot.KindSymlink:
		return "symbolic link"
	}
	return "special file (device, FIFO or socket)"
}
