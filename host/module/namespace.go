package module

import (
	"strconv"
	"strings"

	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// foldings are the path-equality relations a module's paths must be
// distinct under: Windows (NTFS upper-casing) and Darwin (case folding plus
// Unicode normalization). Bytes equality is implied by either. A module
// whose paths are distinct under both installs the same on every platform.
var foldings = []pathrule.Equality{pathrule.Windows, pathrule.Darwin}

// namespace records the paths one module holds, files and directories
// (implicit parents included), under every folding, and refuses an entry
// that would share a name with another or put a file where a directory
// must be.
type namespace struct {
	seen []map[string]nsEntry // one per folding: key -> entry
}

type nsEntry struct {
	spelling string
	dir      bool
}

func newNamespace() *namespace {
	ns := &namespace{}
	for range foldings {
		ns.seen = append(ns.seen, map[string]nsEntry{})
	}
	return ns
}

// add records p as a file (dir false) or directory. An explicit directory
// entry for a directory already implied by a file beneath it is not a
// duplicate; every other second spelling of one name is.
func (ns *namespace) add(p pathrule.Path, dir bool) error {
	comps := p.Components()
	for fi, eq := range foldings {
		seen := ns.seen[fi]
		var key strings.Builder
		for i, c := range comps {
			if i > 0 {
				key.WriteByte('/')
			}
			key.WriteString(eq.Key(c))
			spelling := strings.Join(comps[:i+1], "/")
			last := i == len(comps)-1
			isDir := dir || !last
			prev, ok := seen[key.String()]
			if !ok {
				seen[key.String()] = nsEntry{spelling: spelling, dir: isDir}
				continue
			}
			switch {
			case prev.spelling != spelling:
				return entryViolation(schema.RuleConflictSamePath, p.String(),
					"names the same entry as "+strconv.QuoteToASCII(bounded(prev.spelling))+" on "+eq.Name()+" filesystems")
			case !prev.dir && !last:
				return entryViolation(schema.RuleConflictNested, p.String(), "lies beneath the file "+strconv.QuoteToASCII(bounded(prev.spelling)))
			case prev.dir && !isDir:
				return entryViolation(schema.RuleConflictNested, p.String(), "a file where a directory holds other entries")
			case last && !prev.dir:
				return entryViolation(schema.RuleConflictSamePath, p.String(), "duplicate entry")
			}
		}
	}
	return nil
}

// entryViolation names the offending module-relative path in a violation.
func entryViolation(rule schema.Rule, p, detail string) *rejection.Violation {
	return rejection.New(rule, "entry "+strconv.QuoteToASCII(bounded(p))+": "+detail)
}

// parseEntry validates a module-relative path against the path vocabulary
// and the path bound.
func parseEntry(p string, b Bounds) (pathrule.Path, error) {
	if len(p) > b.pathBytes {
		return pathrule.Path{}, &LimitError{Limit: LimitPathBytes, Max: int64(b.pathBytes), Path: p}
	}
	pp, err := pathrule.Parse(p)
	if err != nil {
		if v, ok := err.(*rejection.Violation); ok {
			return pathrule.Path{}, entryViolation(v.Rule, p, v.Detail)
		}
		return pathrule.Path{}, err
	}
	return pp, nil
}
