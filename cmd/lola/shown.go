package main

import (
	"strings"

	"github.com/lola-pm/lola/schema/lexical"
)

// Untrusted text reaches people through these two, and only these: a
// module, assistant, extension or marketplace name, a version, a ref, a
// description, a path read from installed.yml or a catalog, an extension's
// or hook's output. Both are lexical.Printable (control, format and
// separator characters and invalid UTF-8 escaped, the length bounded);
// they differ only in the bound.

// shown renders a name, version, ref or description (lexical.LineEcho).
func shown(s string) string { return lexical.Printable(s, lexical.LineEcho) }

// shownText renders a path, URL, source, diagnostic or line of output
// (lexical.TextEcho).
func shownText(s string) string { return lexical.Printable(s, lexical.TextEcho) }

// shownLines renders text of several lines line by line with shownText,
// keeping its line breaks (a diff, a YAML snippet naming a key file).
func shownLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = shownText(l)
	}
	return strings.Join(lines, "\n")
}
