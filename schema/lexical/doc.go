// Package lexical holds the protocol's lexical rules: what a plan path, a
// remote URL or a fetch header may say, decided from its text alone, before
// anything touches a filesystem, resolves a name or dials. The host
// (host/pathrule, host/plan) and the guest SDK (sdk-go) both call these
// functions, so an intent the SDK accepts is one the host accepts, and the
// two refuse it under the same rule with the same detail (each adds only
// its own context: the host names the intent and member, the SDK the
// path).
//
// Every check returns a schema.Rule and a detail for people; the rule is
// schema.RuleUnknown, and the detail empty, when the text passes. A detail
// never carries a URL, a header value or content (any of them can hold a
// credential or a body), and it repeats a path component, a header name or
// a scheme only as a short prefix quoted with every non-ASCII and
// non-printable byte escaped (see Quote), so that a hostile plan can
// neither make a diagnostic large nor put control sequences in a terminal.
//
// Printable is the one rendering of an untrusted string for people that
// the host and the CLI use (a name, a path read from a file, a catalog
// field, an extension's output): control, format and separator characters
// and invalid UTF-8 escaped in place, the length bounded, everything else
// as it is.
//
// The rules do not depend on the platform: a plan valid on Linux is valid
// on Windows and macOS. Like package schema, this package depends on the
// standard library alone, so a guest built with sdk-go stays small.
package lexical
