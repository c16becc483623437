package main

import "strings"

// splitFrontmatter splits a Markdown document into its YAML frontmatter
// lines (between a first line "---" and the next "---" line) and the rest.
// ok is false when the document has none.
func splitFrontmatter(doc string) (lines []string, body string, ok bool) {
	rest, found := strings.CutPrefix(doc, "---\n")
	if !found {
		return nil, doc, false
	}
	if strings.HasPrefix(rest, "---\n") {
		return nil, rest[4:], true
	}
	end := strings.Index(rest, "\n---\n")
	if end < 0 {
		if strings.HasSuffix(rest, "\n---") {
			return strings.Split(rest[:len(rest)-4], "\n"), "", true
		}
		return nil, doc, false
	}
	return strings.Split(rest[:end], "\n"), rest[end+5:], true
}

// description is the frontmatter's top-level description scalar, unquoted.
func description(doc string) string {
	lines, _, _ := splitFrontmatter(doc)
	for _, l := range lines {
		v, ok := strings.CutPrefix(l, "description:")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		return v
	}
	return ""
}

// asSubagent returns an agent document with OpenCode's "mode: subagent"
// in its frontmatter, as today's Lola installs agents for OpenCode: a
// top-level mode line is replaced, otherwise one is appended to the
// frontmatter (created when the document has none). The body is unchanged.
func asSubagent(doc string) string {
	lines, body, ok := splitFrontmatter(doc)
	if !ok {
		return "---\nmode: subagent\n---\n" + doc
	}
	out := make([]string, 0, len(lines)+1)
	replaced := false
	for _, l := range lines {
		if strings.HasPrefix(l, "mode:") {
			if !replaced {
				out = append(out, "mode: subagent")
				replaced = true
			}
			continue
		}
		out = append(out, l)
	}
	if !replaced {
		out = append(out, "mode: subagent")
	}
	return "---\n" + strings.Join(out, "\n") + "\n---\n" + body
}
