package main

import (
	"fmt"
	"strings"
)

// The managed block: each module's instructions sit in CLAUDE.md between
// a begin and an end marker naming the module, so lola can replace or
// remove exactly its own text and leave the user's around it.
//
// Known gap: an extension can read nothing, and the request (schema.Request)
// carries no current content of the files a target manages. So the splice
// below always starts from an empty document: install writes a CLAUDE.md
// holding only the blocks of the modules in the request (text the user wrote
// there is replaced), and uninstall leaves CLAUDE.md alone (it cannot remove
// one block without the rest). The fix is on the host side: carry the
// current content of the target's managed files in the request, and this
// code splices into it unchanged.

func beginMarker(module string) string { return "<!-- lola:begin " + module + " -->" }
func endMarker(module string) string   { return "<!-- lola:end " + module + " -->" }

// spliceBlock returns doc with module's block set to body: replaced in
// place when doc has one, appended (after a blank line) when it does not.
// A doc with an unterminated or repeated block for module is an error, not
// a guess.
func spliceBlock(doc, module, body string) (string, error) {
	if strings.ContainsAny(module, "\n") || strings.Contains(module, "-->") {
		return "", fmt.Errorf("claude-code: module name %q cannot be a marker", module)
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	blk := beginMarker(module) + "\n" + body + endMarker(module) + "\n"
	start, end, err := findBlock(doc, module)
	if err != nil {
		return "", err
	}
	if start < 0 {
		if doc != "" && !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		if doc != "" {
			doc += "\n"
		}
		return doc + blk, nil
	}
	return doc[:start] + blk + doc[end:], nil
}

// findBlock locates module's block: [start, end) spans the begin marker to
// just past the end marker's line. start is -1 when there is none.
func findBlock(doc, module string) (int, int, error) {
	begin, endm := beginMarker(module), endMarker(module)
	start := strings.Index(doc, begin)
	if start < 0 {
		if strings.Contains(doc, endm) {
			return 0, 0, fmt.Errorf("claude-code: CLAUDE.md has an end marker for %s without a begin", module)
		}
		return -1, -1, nil
	}
	if strings.Count(doc, begin) > 1 {
		return 0, 0, fmt.Errorf("claude-code: CLAUDE.md has more than one block for %s", module)
	}
	rel := strings.Index(doc[start:], endm)
	if rel < 0 {
		return 0, 0, fmt.Errorf("claude-code: CLAUDE.md has an unterminated block for %s", module)
	}
	end := start + rel + len(endm)
	if end < len(doc) && doc[end] == '\n' {
		end++
	}
	return start, end, nil
}
