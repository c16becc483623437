// Package sync is `lola sync`: it makes a project hold the modules its
// requirements file (.lola-req, today's Lola's format) lists, installing
// what is missing (or at a version the line does not admit) through
// host/install, one plan per module and assistant, under one audit
// correlation id.
//
// The file: one requirement a line; blank lines and lines starting with
// '#' are ignored, and so is the rest of a line from a '#' that follows
// whitespace (an inline comment, as in pip's requirements files) unless
// a fragment key follows it. A requirement is a module reference — a
// store name, @MARKET/NAME, or a git URL — optionally followed by
//   - a version specifier (host/version: ">=1.0,<2", "~1.2", "^0.3",
//     "==1.*"), directly or after spaces;
//   - a fragment "#subdirectory=DIR&assistant=a,b", which may also follow
//     after spaces;
//   - the option --module-content=DIR (or --module-content DIR, or
//     --content-path), lola mod add's own spelling of #subdirectory=, as
//     quay/ai-helpers' README writes its lines.
//
// A URL may be spelled pip-style ("git+https://", "git+ssh://") and end in
// "@REF", a git ref to check out (after ".git@", or after a last '@' that
// no '/' follows), as today's Lola reads them.
//
// Guarantees:
//
//   - Each line is parsed on its own: a line that does not parse is
//     reported with its number and reason (LineError) and skipped; the
//     lines that parse are all processed. Only the file as a whole can
//     be refused before anything runs: larger than MaxFileBytes or longer
//     than MaxLines.
//
//   - One failing step never stops the others: a line whose module cannot
//     be resolved, or an install that fails, is reported in Result.Failed
//     and the run goes on; Run then returns ErrFailed, so the command
//     exits non-zero after every line had its turn. The installs that
//     succeeded stay (each atomic).
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
	"maps"
	"net/url"
	"os"
	"slices"
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

// ErrParse is wrapped by the reason a line does not parse, and by the
// refusal of a file over its bounds.
var ErrParse = errors.New("requirements file refused")

// Requirement is one line.
type Requirement struct {
	Line         int
	Raw          string
	Ref          string // store name, @MARKET/NAME, or URL (without a "git+" prefix or an "@REF")
	GitRef       string // a URL's "@REF": the git ref to check out
	Spec         version.Spec
	Subdirectory string // #subdirectory= or --module-content=: the module's content directory in the source
	Assistants   []string
}

// LineError is a line that does not parse. Err wraps ErrParse and names
// the line.
type LineError struct {
	Line int
	Raw  string // the line, trimmed
	Err  error
}

func (e *LineError) Error() string { return e.Err.Error() }
func (e *LineError) Unwrap() error { return e.Err }

// ReadFile reads and parses a requirements file (see Parse).
func ReadFile(path string) ([]Requirement, []*LineError, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: %s", ErrNoFile, path)
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, nil, err
	}
	if len(b) > MaxFileBytes {
		return nil, nil, fmt.Errorf("%w: larger than %d bytes", ErrParse, MaxFileBytes)
	}
	return Parse(b)
}

// Parse parses requirements, each line on its own: reqs are the lines
// that parse, in order; bad the ones that do not, in order, which take
// nothing else with them. err refuses the input as a whole (more than
// MaxLines lines, or a line longer than MaxFileBytes).
func Parse(b []byte) (reqs []Requirement, bad []*LineError, err error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), MaxFileBytes)
	n := 0
	for sc.Scan() {
		n++
		if n > MaxLines {
			return nil, nil, fmt.Errorf("%w: more than %d lines", ErrParse, MaxLines)
		}
		r, err := ParseLine(sc.Text(), n)
		if err != nil {
			bad = append(bad, &LineError{Line: n, Raw: strings.TrimSpace(sc.Text()), Err: err})
			continue
		}
		if r != nil {
			reqs = append(reqs, *r)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrParse, err)
	}
	return reqs, bad, nil
}

// ParseLine parses one line (nil for a blank line or a comment). Its
// error wraps ErrParse and names line n.
func ParseLine(line string, n int) (*Requirement, error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return nil, nil
	}
	fail := func(format string, a ...any) (*Requirement, error) {
		return nil, fmt.Errorf("%w: line %d: %s", ErrParse, n, fmt.Sprintf(format, a...))
	}
	if strings.ContainsFunc(line, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fail("control characters")
	}
	r := &Requirement{Line: n, Raw: line}
	body, content, err := cutOptions(cutComment(line))
	if err != nil {
		return fail("%v", err)
	}
	if i := strings.LastIndex(body, "#"); i >= 0 {
		frag := body[i+1:]
		body = strings.TrimSpace(body[:i])
		q, err := url.ParseQuery(strings.TrimSpace(frag))
		if err != nil {
			return fail("fragment %q: %v", frag, err)
		}
		for _, k := range slices.Sorted(maps.Keys(q)) { // sorted: one line, one message
			if k != "subdirectory" && k != "assistant" {
				return fail("unknown fragment key %q (subdirectory, assistant)", k)
			}
		}
		r.Subdirectory = q.Get("subdirectory")
		for _, a := range strings.Split(q.Get("assistant"), ",") {
			if a = strings.TrimSpace(a); a != "" {
				r.Assistants = append(r.Assistants, a)
			}
		}
	}
	if content != "" {
		if r.Subdirectory != "" && r.Subdirectory != content {
			return fail("#subdirectory=%s and --module-content=%s name two content directories", r.Subdirectory, content)
		}
		r.Subdirectory = content
	}
	ref, spec := splitSpec(body)
	if ref == "" {
		return fail("no module")
	}
	if strings.ContainsAny(ref, " \t") {
		return fail("%q is not one module reference", ref)
	}
	s, err := version.ParseSpec(spec)
	if err != nil {
		return fail("%v", err)
	}
	if isURL(ref) {
		ref = strings.TrimPrefix(ref, "git+")
		var split bool
		if ref, r.GitRef, split = splitGitRef(ref); split && (r.GitRef == "" || strings.HasPrefix(r.GitRef, "-")) {
			return fail("git ref %q after '@' is empty or starts with '-'", r.GitRef)
		}
	}
	r.Ref, r.Spec = ref, s
	return r, nil
}

// fragmentKeys are what may follow a '#' that follows whitespace for the
// '#' to begin a fragment rather than a comment.
var fragmentKeys = []string{"subdirectory=", "assistant="}

// cutComment drops an inline comment: the rest of the line from a '#'
// that follows a space or tab, unless a fragment key follows it.
func cutComment(line string) string {
	for i := 1; i < len(line); i++ {
		if line[i] != '#' || (line[i-1] != ' ' && line[i-1] != '\t') {
			continue
		}
		rest := line[i+1:]
		if !slices.ContainsFunc(fragmentKeys, func(k string) bool { return strings.HasPrefix(rest, k) }) {
			return strings.TrimSpace(line[:i])
		}
	}
	return line
}

// contentOptions are lola mod add's spellings of the content directory.
var contentOptions = []string{"--module-content", "--content-path"}

// cutOptions takes the options out of a line's body: "--module-content=DIR"
// or "--module-content DIR" (or --content-path). A word starting with
// "--" is an option wherever it stands; any other is refused, as is one
// given twice or without a value. body is the rest, its words joined by
// single spaces.
func cutOptions(line string) (body, content string, err error) {
	words := strings.Fields(line)
	rest := words[:0:0]
	seen := false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "--") {
			rest = append(rest, w)
			continue
		}
		name, val, hasVal := strings.Cut(w, "=")
		if !slices.Contains(contentOptions, name) {
			return "", "", fmt.Errorf("unknown option %q (a line takes --module-content=DIR)", name)
		}
		if !hasVal {
			if i+1 >= len(words) || strings.HasPrefix(words[i+1], "--") {
				return "", "", fmt.Errorf("%s needs a directory", name)
			}
			i++
			val = words[i]
		}
		if val == "" {
			return "", "", fmt.Errorf("%s needs a directory", name)
		}
		if seen {
			return "", "", fmt.Errorf("the content directory is given twice")
		}
		seen, content = true, val
	}
	return strings.Join(rest, " "), content, nil
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
