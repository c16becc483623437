package module

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/lola-pm/lola/schema"
)

// ReadFiles returns every file under the content directory content, as an
// extension receives them: paths relative to content, "/"-separated and
// passing pathrule.Parse and the namespace rules, in lexical order; content
// valid as UTF-8 spelled as is (encoding utf8), anything else base64.
//
// Left out: lola.yaml and lola.yml at the content root (the host's, not the
// extension's) and every directory whose name starts with a dot (.git,
// .lola, editors' state). A symbolic link anywhere is refused
// (path.symlink), never followed; any other non-regular entry is refused
// (path.invalid). The file count, each file's size, the total size and
// each path's length are bounded by b; exceeding one is a *LimitError
// naming it.
func ReadFiles(content string, b Bounds) ([]schema.File, error) {
	if !b.valid() {
		return nil, errors.New("module: bounds must be built with NewBounds or DefaultBounds")
	}
	ns := newNamespace()
	var out []schema.File
	var total int64
	err := filepath.WalkDir(content, func(p string, d fs.DirEntry, err error) error {
		rel, rerr := filepath.Rel(content, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			return errorAt(rel, err)
		}
		t := d.Type()
		if t&fs.ModeSymlink != 0 {
			return entryViolation(schema.RulePathSymlink, rel, "symbolic link")
		}
		if rel == "." {
			return nil
		}
		if t.IsDir() {
			if strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			pp, err := parseEntry(rel, b)
			if err != nil {
				return err
			}
			return ns.add(pp, true)
		}
		if !t.IsRegular() {
			return entryViolation(schema.RulePathInvalid, rel, "not a regular file or directory ("+t.String()+")")
		}
		if rel == "lola.yaml" || rel == "lola.yml" {
			return nil
		}
		if len(out) >= b.files {
			return &LimitError{Limit: LimitFiles, Max: int64(b.files), Path: rel}
		}
		pp, err := parseEntry(rel, b)
		if err != nil {
			return err
		}
		if err := ns.add(pp, false); err != nil {
			return err
		}
		data, err := readBoundedFile(p, rel, d, b, total)
		if err != nil {
			return err
		}
		total += int64(len(data))
		f := schema.File{Path: rel, Encoding: schema.EncodingUTF8}
		f.Executable, f.Mode = fileMode(d)
		if utf8.Valid(data) {
			f.Content = string(data)
		} else {
			f.Encoding, f.Content = schema.EncodingBase64, base64.StdEncoding.EncodeToString(data)
		}
		out = append(out, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []schema.File{}
	}
	return out, nil
}

// readBoundedFile reads one regular file the walk found, refusing it if
// what opens is not what the walk saw, and bounding what is read by the
// per-file bound and what is left of the total.
func readBoundedFile(p, rel string, d fs.DirEntry, b Bounds, total int64) ([]byte, error) {
	seen, err := d.Info()
	if err != nil {
		return nil, errorAt(rel, err)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, errorAt(rel, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, errorAt(rel, err)
	}
	if !os.SameFile(seen, opened) || !opened.Mode().IsRegular() {
		return nil, entryViolation(schema.RulePathSymlink, rel, "changed while being read")
	}
	room := min(b.fileBytes, b.totalBytes-total)
	data, err := io.ReadAll(io.LimitReader(f, room+1))
	if err != nil {
		return nil, errorAt(rel, err)
	}
	if int64(len(data)) > room {
		if int64(len(data)) > b.fileBytes {
			return nil, &LimitError{Limit: LimitFileBytes, Max: b.fileBytes, Path: rel}
		}
		return nil, &LimitError{Limit: LimitTotalBytes, Max: b.totalBytes, Path: rel}
	}
	return data, nil
}

// fileMode is a stored file's execute bit and, when its permission bits
// are not the default 0644 (0755 executable), those bits as File.Mode
// spells them. 0600 and 0700 are taken for the default: they are what a
// lola before modes were kept stored every file with (a source file of
// exactly that mode installs as 0644 or 0755, as it did then).
func fileMode(d fs.DirEntry) (bool, string) {
	fi, err := d.Info()
	if err != nil {
		return false, ""
	}
	p := fi.Mode().Perm()
	exec := p&0o111 != 0
	switch p {
	case 0o644, 0o755, 0o600, 0o700:
		return exec, ""
	}
	return exec, fmt.Sprintf("%04o", uint32(p))
}
