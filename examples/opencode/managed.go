package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

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
// is lola's and is rebuilt from its blocks. The file's current content
// reaches the extension in the request's `current` list (the manifest names
// the file under managed:), since an extension reads nothing itself.
const (
	sectionStart = "<!-- lola:instructions:start -->"
	sectionEnd   = "<!-- lola:instructions:end -->"
)

func moduleStart(name string) string { return "<!-- lola:module:" + name + ":start -->" }
func moduleEnd(name string) string   { return "<!-- lola:module:" + name + ":end -->" }

// markerName is what a module name must be to stand in a marker and in a
// file name: no ':', whitespace, '-->' or path separator can break out.
var markerName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// checkModuleName refuses a module name that could forge or break a marker.
func checkModuleName(name string) error {
	if !markerName.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("module name %q is not [A-Za-z0-9][A-Za-z0-9._-]* (it is written into markers and file names)", name)
	}
	return nil
}

// setBlock returns doc with module's instructions set to body, or removed
// when body is empty after trimming. file names the document in errors.
//
// Guarantees: the bytes before the section's start marker and after its end
// marker are unchanged, except that a section added to a document not
// ending in a newline is preceded by one, and a section removed because its
// last block went is taken out together with the blank line that was put
// before it, so install then uninstall gives back the original document
// (for a document that ends in a newline, or is empty). A document with an
// unterminated, repeated or misordered marker is an error, never a guess.
func setBlock(doc, file, module, body string) (string, error) {
	if err := checkModuleName(module); err != nil {
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
		section := sectionStart + "\n" + renderBlock(module, body) + "\n" + sectionEnd + "\n"
		switch {
		case doc == "":
			return section, nil
		case strings.HasSuffix(doc, "\n"):
			return doc + "\n" + section, nil
		default:
			return doc + "\n\n" + section, nil
		}
	}
	blocks, err := parseBlocks(doc[start+len(sectionStart):end], file)
	if err != nil {
		return "", err
	}
	if body == "" {
		delete(blocks, module)
	} else {
		blocks[module] = renderBlock(module, body)
	}
	after := end + len(sectionEnd)
	if len(blocks) == 0 {
		// The section was lola's alone: take it out whole, with the
		// newline after it and the blank line setBlock put before it.
		if after < len(doc) && doc[after] == '\n' {
			after++
		}
		before := doc[:start]
		if strings.HasSuffix(before, "\n\n") {
			before = before[:len(before)-1]
		}
		return before + doc[after:], nil
	}
	names := make([]string, 0, len(blocks))
	for n := range blocks {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = blocks[n]
	}
	return doc[:start] + sectionStart + "\n" + strings.Join(parts, "\n\n") + "\n" + sectionEnd + doc[after:], nil
}

func renderBlock(module, body string) string {
	return moduleStart(module) + "\n" + body + "\n" + moduleEnd(module)
}

// findSection locates the section: start is the index of its start marker
// and end that of its end marker; both are -1 when there is none.
func findSection(doc, file string) (int, int, error) {
	ns, ne := strings.Count(doc, sectionStart), strings.Count(doc, sectionEnd)
	switch {
	case ns == 0 && ne == 0:
		return -1, -1, nil
	case ns != 1 || ne != 1:
		return 0, 0, fmt.Errorf("%s: the lola instructions section markers are unpaired or repeated; fix the file by hand", file)
	}
	start, end := strings.Index(doc, sectionStart), strings.Index(doc, sectionEnd)
	if end < start {
		return 0, 0, fmt.Errorf("%s: the lola instructions end marker comes before its start marker", file)
	}
	return start, end, nil
}

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
		endm := moduleEnd(name)
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
