package module

import (
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// SourceKind is what a `mod add` source is.
type SourceKind uint8

// Source kinds.
const (
	sourceUnknown    SourceKind = iota
	SourceFolder                // a local directory, copied
	SourceZip                   // a local .zip, unpacked by the host
	SourceTar                   // a local .tar, .tar.gz or .tgz, unpacked by the host
	SourceGit                   // an https or ssh git URL, cloned by host/remote
	SourceArchiveURL            // an https URL of a .zip/.tar/.tar.gz/.tgz, fetched by host/remote, unpacked by the host
	sourceEnd
)

var sourceNames = [...]string{sourceUnknown: "", SourceFolder: "folder", SourceZip: "zip", SourceTar: "tar", SourceGit: "git", SourceArchiveURL: "archive-url"}

// String is the kind's stable spelling: folder, zip, tar, git, archive-url.
func (k SourceKind) String() string {
	if k > sourceUnknown && k < sourceEnd {
		return sourceNames[k]
	}
	return "source(?)"
}

// Source is a classified `mod add` source. Only ParseSource constructs one.
type Source struct {
	kind SourceKind
	loc  string // local path, or the URL to clone or fetch (scp-like spellings rewritten to ssh://)
	raw  string // as the user wrote it, for the derived name
	// archive is SourceZip or SourceTar for a SourceArchiveURL: how the
	// fetched body is unpacked, from the URL path's suffix.
	archive SourceKind
}

// Kind is the source's kind.
func (s Source) Kind() SourceKind { return s.kind }

// IsRemote reports whether the source is fetched by host/remote (a git
// repository or an archive URL) rather than read from a local path.
func (s Source) IsRemote() bool { return s.kind == SourceGit || s.kind == SourceArchiveURL }

// Location is the local path or the clone URL.
func (s Source) Location() string { return s.loc }

// ParseSource classifies a source as today's Lola does, minus what the host
// cannot do safely: a URL with a scheme must be https:// or ssh://
// (http, git:// and file:// are refused with remote.scheme); an https URL
// whose path ends in .zip, .tar, .tar.gz or .tgz (case-insensitively; the
// query is not looked at) is an archive to fetch (SourceArchiveURL), any
// other https or ssh URL a git repository; user@host:path is an ssh
// repository; anything else is a local path, which must be a directory, a
// .zip, or a .tar/.tar.gz/.tgz file. The path's last component must not be
// a symbolic link (path.symlink). Classifying a URL contacts nothing:
// host/remote checks it again, with its destination policy, when it is
// fetched.
func ParseSource(s string) (Source, error) {
	if s == "" {
		return Source{}, errors.New("empty source")
	}
	if i := strings.Index(s, "://"); i > 0 {
		u, err := url.Parse(s)
		if err != nil {
			return Source{}, rejection.New(schema.RuleRemoteURL, "source URL does not parse")
		}
		switch u.Scheme {
		case "https", "ssh":
		default:
			return Source{}, rejection.New(schema.RuleRemoteScheme, "source URL scheme "+quoteName(u.Scheme)+": only https:// and ssh:// git repositories are fetched")
		}
		if isArchiveName(u.Path) {
			if u.Scheme != "https" {
				return Source{}, rejection.New(schema.RuleRemoteScheme, "archive URL scheme "+quoteName(u.Scheme)+": archives are fetched over https:// only")
			}
			arc := SourceTar
			if strings.HasSuffix(strings.ToLower(u.Path), ".zip") {
				arc = SourceZip
			}
			return Source{kind: SourceArchiveURL, loc: s, raw: s, archive: arc}, nil
		}
		return Source{kind: SourceGit, loc: s, raw: s}, nil
	}
	if u, ok := scpLike(s); ok {
		return Source{kind: SourceGit, loc: u, raw: s}, nil
	}
	fi, err := os.Lstat(s)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Source{}, errors.New("source not found: " + quoteName(s))
		}
		return Source{}, errpath.Strip(err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return Source{}, rejection.New(schema.RulePathSymlink, "the source is a symbolic link; name its target")
	case fi.IsDir():
		raw := s
		if abs, err := filepath.Abs(s); err == nil {
			raw = abs // "mod add ." is named after the folder
		}
		return Source{kind: SourceFolder, loc: s, raw: raw}, nil
	case !fi.Mode().IsRegular():
		return Source{}, rejection.New(schema.RulePathInvalid, "the source is not a regular file or directory")
	}
	low := strings.ToLower(s)
	switch {
	case strings.HasSuffix(low, ".zip"):
		return Source{kind: SourceZip, loc: s, raw: s}, nil
	case strings.HasSuffix(low, ".tar"), strings.HasSuffix(low, ".tar.gz"), strings.HasSuffix(low, ".tgz"):
		return Source{kind: SourceTar, loc: s, raw: s}, nil
	}
	return Source{}, errors.New("unsupported source: a folder, a .zip, a .tar/.tar.gz/.tgz, or an https:// or ssh:// git URL")
}

func isArchiveName(p string) bool {
	low := strings.ToLower(p)
	for _, suf := range []string{".zip", ".tar", ".tar.gz", ".tgz"} {
		if strings.HasSuffix(low, suf) {
			return true
		}
	}
	return false
}

// scpLike rewrites git's user@host:path spelling to ssh://user@host/path.
// It needs a user before an "@", then a host, then ":"; the user and host
// hold no "/" or "\\", which no local path of a sane user does (a local
// path that looks like one can be written ./user@host:path). An IPv6 host
// is bracketed, as git spells it: git@[::1]:r.git is ssh://git@[::1]/r.git.
func scpLike(s string) (string, bool) {
	at := strings.Index(s, "@")
	if at <= 0 {
		return "", false
	}
	user, rest := s[:at], s[at+1:]
	var host, p string
	if strings.HasPrefix(rest, "[") {
		end := strings.Index(rest, "]")
		if end < 2 || end+1 >= len(rest) || rest[end+1] != ':' {
			return "", false
		}
		host, p = rest[:end+1], rest[end+2:]
	} else {
		colon := strings.Index(rest, ":")
		if colon <= 0 {
			return "", false
		}
		host, p = rest[:colon], rest[colon+1:]
	}
	if strings.ContainsAny(user, ":/\\") || strings.ContainsAny(host, "/\\@") {
		return "", false
	}
	return "ssh://" + user + "@" + host + "/" + strings.TrimPrefix(p, "/"), true
}
