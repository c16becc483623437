package main

import "github.com/lola-pm/lola/schema/lexical"

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
