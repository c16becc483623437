// Package managed splices one module's instructions into a file that Lola
// shares with its user, such as CLAUDE.md or AGENTS.md, keeping every byte
// of the user's text. It is pure string work (standard library only), so it
// links into tier-1 and tier-2 guests alike.
//
// The managed section, in today's Lola shape: every module's instructions
// sit between a per-module pair of markers, and all module blocks sit in
// one section:
//
//	<!-- lola:instructions:start -->
//	<!-- lola:module:NAME:start -->
//	...the module's instructions, trimmed...
//	<!-- lola:module:NAME:end -->
//
//	<!-- lola:module:OTHER:start -->
//	...
//	<!-- lola:module:OTHER:end -->
//	<!-- lola:instructions:end -->
//
// Blocks are kept sorted by module name. Everything outside the section
// markers is the user's and is kept byte for byte; inside them the section
// is lola's and is rebuilt from its blocks. An extension reads nothing
// itself: the file's current content reaches it in the request's current
// list (the manifest names the file under managed:).
//
// A handler typically folds every module of the request into the document
// and then writes it, or deletes it when nothing but lola's section was
// there:
//
//	doc, existed := current(req, "CLAUDE.md") // from req.Current
//	before := doc
//	for _, m := range req.Modules {
//		var err error
//		if doc, err = managed.SetBlock(doc, "CLAUDE.md", m.Name, instructions(m)); err != nil {
//			return err
//		}
//	}
//	switch {
//	case doc == before:
//		return nil
//	case doc == "" && existed:
//		return p.Delete("CLAUDE.md")
//	default:
//		return p.Write("CLAUDE.md", doc)
//	}
package managed

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// The markers that open and close lola's section of a shared file.
const (
	SectionStart = "<!-- lola:instructions:start -->"
	SectionEnd   = "<!-- lola:instructions:end -->"
)

// ModuleStart is the marker that opens module name's block.
func ModuleStart(name string) string { return "<!-- lola:module:" + name + ":start -->" }

// ModuleEnd is the marker that closes module name's block.
func ModuleEnd(name string) string { return "<!-- lola:module:" + name + ":end -->" }

// markerName is what a module name must be to stand in a marker and in a
// file name: no ':', whitespace, '-->' or path separator can break out.
var markerName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// CheckModuleName refuses a module name that could forge or break a
// marker, or escape a directory when used as a file name: it accepts
// exactly [A-Za-z0-9][A-Za-z0-9._-]{0,127} without "..".
func CheckModuleName(name string) error {
	if !markerName.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("module name %q is not [A-Za-z0-9][A-Za-z0-9._-]* (it is written into markers and file names)", name)
	}
	return nil
}

// SetBlock returns doc with module's instructions set to body, or removed
// when body is empty after trimming. file names the document in errors
// (give the root-relative path, never a host path).
//
// Guarantees: the bytes before the section's start marker and after its end
// marker are unchanged, except that a section added to a document not
// ending in a newline is preceded by one, and a section removed because its
// last block went is taken out together with the blank line that was put
// before it, so install then uninstall gives back the original document
// (for a document that ends in a newline, or is empty). A document with an
// unterminated, repeated or misordered marker, and a module name that
// CheckModuleName refuses, is an error, never a guess.
func SetBlock(doc, file, module, body string) (string, error) {
	if err := CheckModuleName(module); err != nil {
		return "", err
	}
	body = strings.TrimSpace(body)
	start, end, err := findSection(doc, file)
	if err != nil {
		return "", err
	}
	if start < 0 {
		if body == "" {
			return doc, nil
		}
		section := SectionStart + "\n" + renderBlock(module, body) + "\n" + SectionEnd + "\n"
		switch {
		case doc == "":
			return section, nil
		case strings.HasSuffix(doc, "\n"):
			return doc + "\n" + section, nil
		default:
			return doc + "\n\n" + section, nil
		}
	}
	blocks, err := parseBlocks(doc[start+len(SectionStart):end], file)
	if err != nil {
		return "", err
	}
	if body == "" {
		if _, ok := blocks[module]; !ok {
			return doc, nil
		}
		delete(blocks, module)
		if len(blocks) > 0 {
			// Today's Lola cuts the block out where it stands and folds
			// the blank lines left behind, rather than laying the section
			// out again; do the same so the file is byte for byte its.
			inside := doc[start+len(SectionStart) : end]
			i := strings.Index(inside, ModuleStart(module))
			j := i + strings.Index(inside[i:], ModuleEnd(module)) + len(ModuleEnd(module))
			inside = blankRun.ReplaceAllString(inside[:i]+inside[j:], "\n\n")
			return doc[:start] + SectionStart + inside + SectionEnd + doc[end+len(SectionEnd):], nil
		}
	} else {
		blocks[module] = renderBlock(module, body)
	}
	after := end + len(SectionEnd)
	if len(blocks) == 0 {
		// The section was lola's alone: take it out whole, with the
		// newline after it and the blank line SetBlock put before it.
		if after < len(doc) && doc[after] == '\n' {
			after++
		}
		before := doc[:start]
		if strings.HasSuffix(before, "\n\n") {
			before = before[:len(before)-1]
		}
		return before + doc[after:], nil
	}
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(blocks)) {
		parts = append(parts, blocks[n])
	}
	return doc[:start] + SectionStart + "\n" + strings.Join(parts, "\n\n") + "\n" + SectionEnd + doc[after:], nil
}

// UserText is doc without lola's section, markers included: the user's
// text, which SetBlock never changes. A document without a well-ordered
// section is returned whole.
func UserText(doc string) string {
	s, e := strings.Index(doc, SectionStart), strings.Index(doc, SectionEnd)
	if s < 0 || e < s {
		return doc
	}
	return doc[:s] + doc[e+len(SectionEnd):]
}

func renderBlock(module, body string) string {
	return ModuleStart(module) + "\n" + body + "\n" + ModuleEnd(module)
}

// findSection locates the section: start is the index of its start marker
// and end that of its end marker; both are -1 when there is none.
func findSection(doc, file string) (int, int, error) {
	ns, ne := strings.Count(doc, SectionStart), strings.Count(doc, SectionEnd)
	switch {
	case ns == 0 && ne == 0:
		return -1, -1, nil
	case ns != 1 || ne != 1:
		return 0, 0, fmt.Errorf("%s: the lola instructions section markers are unpaired or repeated; fix the file by hand", file)
	}
	start, end := strings.Index(doc, SectionStart), strings.Index(doc, SectionEnd)
	if end < start {
		return 0, 0, fmt.Errorf("%s: the lola instructions end marker comes before its start marker", file)
	}
	return start, end, nil
}

// blankRun is three or more newlines, which a removal folds to two.
var blankRun = regexp.MustCompile(`\n{3,}`)

var blockStart = regexp.MustCompile(`<!-- lola:module:([^:\s]+):start -->`)

// parseBlocks reads the module blocks of a section's inside, each rendered
// whole (markers included, trimmed). Text between blocks is lola's
// formatting and is dropped, as today's Lola does.
func parseBlocks(inside, file string) (map[string]string, error) {
	blocks := map[string]string{}
	for {
		loc := blockStart.FindStringSubmatchIndex(inside)
		if loc == nil {
			break
		}
		if strings.Contains(inside[:loc[0]], "<!-- lola:module:") {
			return nil, fmt.Errorf("%s: a module end marker has no start", file)
		}
		name := inside[loc[2]:loc[3]]
		endm := ModuleEnd(name)
		rel := strings.Index(inside[loc[1]:], endm)
		if rel < 0 {
			return nil, fmt.Errorf("%s: the block of module %q is unterminated", file, name)
		}
		stop := loc[1] + rel + len(endm)
		if _, dup := blocks[name]; dup {
			return nil, fmt.Errorf("%s: module %q has two blocks", file, name)
		}
		body := strings.TrimSpace(inside[loc[1] : loc[1]+rel])
		blocks[name] = renderBlock(name, body)
		inside = inside[stop:]
	}
	if strings.Contains(inside, "<!-- lola:module:") {
		return nil, fmt.Errorf("%s: a module end marker has no start", file)
	}
	return blocks, nil
}
