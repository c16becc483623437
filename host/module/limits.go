package module

import (
	"fmt"
	"strconv"
)

// Limit names one bound of the store's intake. Its string form is stable:
// it is what errors, the CLI and tests spell.
type Limit uint8

// The store's bounds.
const (
	limitUnknown    Limit = iota
	LimitFiles            // entries of one module: files and directories at intake (archive entries of every kind), files when read for an extension
	LimitFileBytes        // bytes of one file
	LimitTotalBytes       // bytes of all files of one module together
	LimitPathBytes        // bytes of one module-relative path
	limitEnd
)

var limitNames = [...]string{
	limitUnknown:    "",
	LimitFiles:      "module.files",
	LimitFileBytes:  "module.file-bytes",
	LimitTotalBytes: "module.total-bytes",
	LimitPathBytes:  "module.path-bytes",
}

// AllLimits lists every bound, in declaration order.
func AllLimits() []Limit { return []Limit{LimitFiles, LimitFileBytes, LimitTotalBytes, LimitPathBytes} }

// String returns the limit's stable spelling, e.g. "module.total-bytes".
func (l Limit) String() string {
	if l > limitUnknown && l < limitEnd {
		return limitNames[l]
	}
	return "limit(" + strconv.Itoa(int(l)) + ")"
}

// ParseLimit returns the limit spelled s, or false.
func ParseLimit(s string) (Limit, bool) {
	for l := limitUnknown + 1; l < limitEnd; l++ {
		if limitNames[l] == s {
			return l, true
		}
	}
	return limitUnknown, false
}

// LimitError reports a bound exceeded. Path, when set, is module-relative
// (the file or entry that crossed the bound). It implements error, and
// errors.Is(err, l) holds for a LimitError of limit l.
type LimitError struct {
	Limit Limit
	Max   int64
	Path  string
}

func (e *LimitError) Error() string {
	s := e.Limit.String() + ": more than " + strconv.FormatInt(e.Max, 10)
	if e.Limit == LimitFiles {
		s += " files"
	} else {
		s += " bytes"
	}
	if e.Path != "" {
		s += " (at " + strconv.QuoteToASCII(bounded(e.Path)) + ")"
	}
	return s
}

// Error makes a Limit usable as an errors.Is target.
func (l Limit) Error() string { return l.String() }

// Is reports whether target is e's Limit.
func (e *LimitError) Is(target error) bool {
	t, ok := target.(Limit)
	return ok && t == e.Limit
}

// Bounds is the set of bounds one intake runs under. The zero value is not
// valid; build with NewBounds or DefaultBounds.
type Bounds struct {
	files      int
	fileBytes  int64
	totalBytes int64
	pathBytes  int
}

// NewBounds validates and returns bounds: every one must be positive.
func NewBounds(files int, fileBytes, totalBytes int64, pathBytes int) (Bounds, error) {
	if files <= 0 || fileBytes <= 0 || totalBytes <= 0 || pathBytes <= 0 {
		return Bounds{}, fmt.Errorf("module bounds must be positive (files %d, file bytes %d, total bytes %d, path bytes %d)",
			files, fileBytes, totalBytes, pathBytes)
	}
	return Bounds{files: files, fileBytes: fileBytes, totalBytes: totalBytes, pathBytes: pathBytes}, nil
}

// DefaultBounds: at most 2000 files, 8 MiB per file, 64 MiB in all, and
// 1024 bytes per path. A module is text an assistant reads; these leave
// room for images and small tools and none for a bomb.
func DefaultBounds() Bounds {
	return Bounds{files: 2000, fileBytes: 8 << 20, totalBytes: 64 << 20, pathBytes: 1024}
}

// Files is the bound on the file (or archive entry) count.
func (b Bounds) Files() int { return b.files }

// FileBytes is the bound on one file's size.
func (b Bounds) FileBytes() int64 { return b.fileBytes }

// TotalBytes is the bound on all files' sizes together.
func (b Bounds) TotalBytes() int64 { return b.totalBytes }

// PathBytes is the bound on one module-relative path's length.
func (b Bounds) PathBytes() int { return b.pathBytes }

func (b Bounds) valid() bool {
	return b.files > 0 && b.fileBytes > 0 && b.totalBytes > 0 && b.pathBytes > 0
}

// bounded shortens untrusted text for a diagnostic.
func bounded(s string) string {
	const max = 96
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
