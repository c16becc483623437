package module

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/internal/strictyaml"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// SourceInfoFile is where today's Lola keeps, inside each stored module,
// the record of where the module came from and which of its directories
// is its content: $LOLA_HOME/modules/NAME/.lola/source.yml. Its install
// hooks read it too (LOLA_MODULE_PATH/.lola/source.yml's content_dirname),
// so lola writes one into every module it stores.
const SourceInfoFile = ".lola/source.yml"

// maxSourceInfo bounds the file read (today's Lola's is four short lines).
const maxSourceInfo = 16 << 10

// SourceInfo is a module's .lola/source.yml in today's Lola's keys, which
// it writes sorted (so do we): content_dirname, ref, source, type. Keys a
// later Lola may add are ignored when read: only these are used.
type SourceInfo struct {
	// ContentDirname is the module's content directory relative to the
	// module's root ("/" the root itself, a module/ folder there
	// notwithstanding); nil when the content is discovered (module/, else
	// the root).
	ContentDirname *string `yaml:"content_dirname,omitempty"`
	Ref            string  `yaml:"ref,omitempty"` // git: the ref asked for
	Source         string  `yaml:"source"`        // absolute local path, or the URL
	Type           string  `yaml:"type"`          // git, folder, zip, tar, zipurl, tarurl
}

// Today's Lola's spellings of a source's type.
const (
	typeGit    = "git"
	typeFolder = "folder"
	typeZip    = "zip"
	typeTar    = "tar"
	typeZipURL = "zipurl"
	typeTarURL = "tarurl"
)

// SourceKindOfType maps today's Lola's type to the kind ParseSource
// gives its source; ok is false for a type it never writes.
func SourceKindOfType(t string) (k SourceKind, ok bool) {
	switch t {
	case typeGit:
		return SourceGit, true
	case typeFolder:
		return SourceFolder, true
	case typeZip:
		return SourceZip, true
	case typeTar:
		return SourceTar, true
	case typeZipURL, typeTarURL:
		return SourceArchiveURL, true
	}
	return sourceUnknown, false
}

// typeOf is today's Lola's type for src.
func typeOf(src Source) string {
	switch src.kind {
	case SourceArchiveURL:
		if src.archive == SourceZip {
			return typeZipURL
		}
		return typeTarURL
	case SourceGit:
		return typeGit
	case SourceZip:
		return typeZip
	case SourceTar:
		return typeTar
	}
	return typeFolder
}

// sourceInfoOf is what Add records for src: local paths absolute (today's
// Lola resolves them too), the ref when one was asked for, and the
// content directory when one was given (normalised: "/" for the root).
func sourceInfoOf(src Source, ref, content string) SourceInfo {
	si := SourceInfo{Source: src.loc, Type: typeOf(src), Ref: ref}
	if !src.IsRemote() {
		if abs, err := filepath.Abs(src.loc); err == nil {
			si.Source = abs
		}
	}
	if content != "" {
		c := strings.TrimSuffix(content, "/")
		if isRootContent(content) {
			c = "/"
		}
		si.ContentDirname = &c
	}
	return si
}

// isRootContent reports whether a content directory names the module's
// root: "/", "." and "./" (AddOptions.Content), and "" (today's Lola reads
// an empty content_dirname as the root too).
func isRootContent(c string) bool {
	return c == "" || c == "/" || c == "." || c == "./"
}

// writeSourceInfo writes si as dir's .lola/source.yml, replacing whatever
// the source's own content put there: the file is lola's record, never
// the module's (an archive shipping its own .lola/source.yml cannot pick
// its content directory or its source). dir is a staging directory lola
// created; .lola there must be a directory if it exists at all.
func writeSourceInfo(dir string, si SourceInfo) error {
	b, err := yaml.Marshal(si)
	if err != nil {
		return err
	}
	meta := filepath.Join(dir, ".lola")
	if fi, err := os.Lstat(meta); err == nil && !fi.IsDir() {
		return entryViolation(schema.RulePathInvalid, ".lola", "not a directory: lola keeps the module's source record in "+SourceInfoFile)
	}
	if err := os.MkdirAll(meta, 0o700); err != nil {
		return errpath.Strip(err)
	}
	p := filepath.Join(dir, filepath.FromSlash(SourceInfoFile))
	if err := os.RemoveAll(p); err != nil {
		return errpath.Strip(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return errpath.Strip(err)
	}
	_, werr := f.Write(b)
	if err := f.Close(); werr == nil {
		werr = err
	}
	return errpath.Strip(werr)
}

// ErrSourceInfo is wrapped by every refusal to read a module's
// .lola/source.yml.
var ErrSourceInfo = errors.New("invalid " + SourceInfoFile)

// ReadSourceInfo reads the .lola/source.yml of the module directory dir;
// ok is false when there is none. Neither .lola nor the file may be a
// symbolic link (path.symlink); the file is bounded (16 KiB) and must be
// one YAML mapping whose known keys are strings (ErrSourceInfo otherwise).
// Nothing in it is checked beyond its form here: what a caller uses it
// for decides the rules (contentOf for content_dirname; modsource
// re-parses the source before fetching anything).
func ReadSourceInfo(dir string) (si SourceInfo, ok bool, err error) {
	meta, err := lstatIn(dir, ".lola")
	if meta == nil || err != nil || !meta.IsDir() {
		return SourceInfo{}, false, err // no record directory: no record
	}
	seen, err := lstatIn(dir, SourceInfoFile)
	if seen == nil || err != nil {
		return SourceInfo{}, false, err
	}
	if !seen.Mode().IsRegular() {
		return SourceInfo{}, false, fmt.Errorf("%w: not a regular file", ErrSourceInfo)
	}
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(SourceInfoFile)))
	if err != nil {
		return SourceInfo{}, false, errorAt(SourceInfoFile, err)
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil || !os.SameFile(seen, opened) {
		return SourceInfo{}, false, entryViolation(schema.RulePathSymlink, SourceInfoFile, "replaced while being read")
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSourceInfo+1))
	if err != nil {
		return SourceInfo{}, false, errorAt(SourceInfoFile, err)
	}
	if len(b) > maxSourceInfo {
		return SourceInfo{}, false, fmt.Errorf("%w: larger than %d bytes", ErrSourceInfo, maxSourceInfo)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return SourceInfo{}, true, nil // an empty record says nothing: discover
	}
	if err := yaml.Unmarshal(b, &si); err != nil {
		return SourceInfo{}, false, fmt.Errorf("%w: %v", ErrSourceInfo, strictyaml.Error(err))
	}
	return si, true, nil
}

// lstatIn is dir/rel's info without following a link: nil when absent, a
// symbolic link path.symlink.
func lstatIn(dir, rel string) (fs.FileInfo, error) {
	fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, errorAt(rel, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, entryViolation(schema.RulePathSymlink, rel, "symbolic link")
	}
	return fi, nil
}

// contentOf resolves a recorded content_dirname inside the module rooted
// at dir. root is true for the module's root ("", "/", ".", "./"). Any
// other value must be a root-relative portable path (pathrule.Parse: not
// absolute, no "..", no empty or "." component, no name some platform
// cannot hold; a trailing "/" is allowed) whose every component, walked
// from dir without following links, is a directory: a symbolic link on
// the way is path.symlink, a missing or non-directory component
// ErrNotModule (the record names no content here). rel is the cleaned
// path, "/"-separated.
func contentOf(dir, content string) (rel string, root bool, err error) {
	if isRootContent(content) {
		return "", true, nil
	}
	p := strings.TrimSuffix(content, "/")
	pp, err := pathrule.Parse(p)
	if err != nil {
		var v *rejection.Violation
		if errors.As(err, &v) {
			what := quoteName(content)
			if v.Rule == schema.RulePathAbsolute {
				what = "(an absolute path)" // a host path: not echoed
			}
			return "", false, rejection.New(v.Rule, "content directory "+what+": "+v.Detail)
		}
		return "", false, err
	}
	cur := dir
	for i, c := range pp.Components() {
		cur = filepath.Join(cur, c)
		fi, err := os.Lstat(cur)
		at := strings.Join(pp.Components()[:i+1], "/")
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", false, &contentError{content}
		case err != nil:
			return "", false, errorAt(at, err)
		case fi.Mode()&fs.ModeSymlink != 0:
			return "", false, entryViolation(schema.RulePathSymlink, at, "symbolic link on the way to the content directory "+quoteName(content))
		case !fi.IsDir():
			return "", false, &contentError{content}
		}
	}
	return p, false, nil
}
