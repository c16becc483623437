// Package sync is `lola sync`: it makes a project hold the modules its
// requirements file (.lola-req, today's Lola's format) lists, installing
// what is missing (or at a version the line does not admit) through
// host/install, one plan per module and assistant, under one audit
// correlation id.
//
// The file: one requirement a line; blank lines and lines starting with
// '#' are ignored. A requirement is a module reference — a store name,
// @MARKET/NAME, or a git URL — optionally followed by a version specifier
// (host/version: ">=1.0,<2", "~1.2", "^0.3") and a fragment
// "#subdirectory=DIR&assistant=a,b". A URL may be spelled pip-style
// ("git+https://", "git+ssh://") and end in "@REF", a git ref to check out
// (after ".git@", or after a last '@' that no '/' follows), as today's
// Lola reads them.
//
// Guarantees:
//
//   - The file is read bounded (MaxFileBytes, MaxLines) and a line that
//     does not parse refuses the whole file before anything is fetched or
//     installed.
//
//   - Refuse by default: the first failure stops the run; the installs
//     finished before it stay (each atomic), and the requirement steps not
//     run are reported as Remaining.
//
//   - A dry run fetches nothing and changes nothing.
//
//   - A catalog's version is checked against the line before anything is
//     fetched, and recorded in installed.yml ("version", as today's Lola
//     records it), so a later sync skips an install its line still admits
//     and reinstalls one it does not.
//
// Non-guarantees: a version can only be checked when it is known: from a
// marketplace catalog entry, or recorded in installed.yml. A module from
// the store or a URL has no version; a specifier on it is reported as
// unchecked (Step.Unchecked), not enforced. A module already in the store
// is not fetched again: 'lola mod update' refreshes it.
package sync

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/lola-pm/lola/host/version"
)

// Bounds on a requirements file.
const (
	MaxFileBytes = 256 << 10
	MaxLines     = 2000
)

// DefaultFile is the requirements file's name in the project.
const DefaultFile = ".lola-req"

// ErrNoFile: the requirements file does not exist.
var ErrNoFile = errors.New("config file not found")

// ErrParse: a requirement line does not parse.
var ErrParse = errors.New("requirements file refused")

// Requirement is one line.
type Requirement struct {
	Line         int
	Raw          string
	Ref          string // store name, @MARKET/NAME, or URL (without a "git+" prefix or an "@REF")
	GitRef       string // a URL's "@REF": the git ref to check out
	Spec         version.Spec
	Subdirectory string
	Assistants   []string
}

// ReadFile reads and parses a requirements file.
func ReadFile(path string) ([]Requirement, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNoFile, path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrParse, MaxFileBytes)
	}
	return Parse(b)
}

// Parse parses requirements.
func Parse(b []byte) ([]Requirement, error) {
	var out []Requirement
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), MaxFileBytes)
	n := 0
	for sc.Scan() {
		n++
		if n > MaxLines {
			return nil, fmt.Errorf("%w: more than %d lines", ErrParse, MaxLines)
		}
		r, err := ParseLine(sc.Text(), n)
		if err != nil {
			return nil, err
		}
		if r != nil {
			out = append(out, *r)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrParse, err)
	}
	return out, nil
}

// ParseLine parses one line (nil for a blank line or a comment).
func ParseLine(line string, n int) (*Requirement, error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return nil, nil
	}
	if strings.ContainsFunc(line, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, fmt.Errorf("%w: line %d: control characters", ErrParse, n)
	}
	r := &Requirement{Line: n, Raw: line}
	body := line
	if i := strings.LastIndex(body, "#"); i >= 0 {
		frag := body[i+1:]
		body = strings.TrimSpace(body[:i])
		q, err := url.ParseQuery(frag)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: fragment: %v", ErrParse, n, err)
		}
		for k := range q {
			if k != "subdirectory" && k != "assistant" {
				return nil, fmt.Errorf("%w: line %d: unknown fragment key %q (subdirectory, assistant)", ErrParse, n, k)
			}
		}
		r.Subdirectory = q.Get("subdirectory")
		for _, a := range strings.Split(q.Get("assistant"), ",") {
			if a = strings.TrimSpace(a); a != "" {
				r.Assistants = append(r.Assistants, a)
			}
		}
	}
	ref, spec := splitSpec(body)
	if ref == "" {
		return nil, fmt.Errorf("%w: line %d: no module", ErrParse, n)
	}
	if strings.ContainsAny(ref, " \t") {
		return nil, fmt.Errorf("%w: line %d: %q is not one module reference", ErrParse, n, ref)
	}
	s, err := version.ParseSpec(spec)
	if err != nil {
		return nil, fmt.Errorf("%w: line %d: %v", ErrParse, n, err)
	}
	if isURL(ref) {
		ref = strings.TrimPrefix(ref, "git+")
		var split bool
		if ref, r.GitRef, split = splitGitRef(ref); split && (r.GitRef == "" || strings.HasPrefix(r.GitRef, "-")) {
			return nil, fmt.Errorf("%w: line %d: git ref %q after '@' is empty or starts with '-'", ErrParse, n, r.GitRef)
		}
	}
	r.Ref, r.Spec = ref, s
	return r, nil
}

func isURL(ref string) bool {
	return strings.Contains(ref, "://") || strings.HasPrefix(ref, "git@")
}

// splitGitRef splits a git URL's trailing "@REF" as today's Lola does: at
// the last '@' when the URL holds ".git@", or when it holds more than one
// '@' and no '/' follows the last (one '@' alone is a user name:
// ssh://git@host/path).
func splitGitRef(u string) (url, ref string, split bool) {
	i := strings.LastIndex(u, "@")
	if i < 0 {
		return u, "", false
	}
	if strings.Contains(u, ".git@") || (strings.Count(u, "@") > 1 && !strings.Contains(u[i+1:], "/")) {
		return u[:i], u[i+1:], true
	}
	return u, "", false
}

// operatorChars are the characters a version specifier starts with.
const operatorChars = "=<>!~^"

// splitSpec splits a line's body into the module reference and its
// version specifier. A module name holds no operator character, so for a
// name the specifier starts at the first one (and a bad specifier is an
// error). A URL may hold them ("?ref=main", "/~user/"): there the
// specifier starts at the first operator character from which the rest
// parses as a whole specifier, and a URL with none is all reference.
// Upstream splits at the first "~" or "^" even inside a URL, and reads
// "?ref=main" as the URL it is; we read both as URLs.
func splitSpec(body string) (ref, spec string) {
	if !strings.Contains(body, "://") && !strings.HasPrefix(body, "git@") {
		if i := strings.IndexAny(body, operatorChars); i >= 0 {
			return strings.TrimSpace(body[:i]), body[i:]
		}
		return body, ""
	}
	for i := strings.Index(body, "://") + 3; i < len(body); i++ {
		if !strings.ContainsRune(operatorChars, rune(body[i])) {
			continue
		}
		if _, err := version.ParseSpec(body[i:]); err == nil {
			return strings.TrimSpace(body[:i]), body[i:]
		}
	}
	return body, ""
}
