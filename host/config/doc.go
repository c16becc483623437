// Package config reads the host's own configuration, $LOLA_HOME/config.yaml:
// the operator's remote policy (re-admitted destinations, redirect depth,
// the time bounds of a fetch and of a clone) and
// the user's narrowing of extensions' path grants.
//
// Guarantees:
//   - Decoding is strict: an unknown key anywhere is refused, naming the key;
//     a document with more than one YAML document, or a value of the wrong
//     type, is refused.
//   - A *Config exists only after validation: every admission is a valid CIDR
//     (optionally with a port), every limit is positive, every path prefix is
//     root-relative. An absent key takes its documented default; an explicit
//     zero or negative limit is an error, never "unlimited".
//   - Nothing an extension declares is read here: this file is the operator's.
//   - The one edit this package makes (TrustKey, for lola ext sign --trust)
//     inserts one trust.keys entry as text, keeps every other line, checks
//     the result decodes to the old document plus that entry, and never
//     rewrites a file that does not parse; it writes by descriptor,
//     atomically, never through a symbolic link.
//
// Non-guarantees: the package does not check file ownership or mode of
// config.yaml (it carries no secret); credentials live in a separate file,
// read by host/remote, which does.
package config
