// Package jsonconfig edits a JSON configuration file that Lola shares with
// its user (.mcp.json, opencode.json, .vscode/mcp.json, ...): it adds,
// replaces and removes members of one object inside it, such as the MCP
// servers under "mcpServers", and touches no other byte.
//
// Guarantees:
//   - Bytes outside the edited member are kept: key order, spacing,
//     indentation, escapes and number spellings of the user's part are
//     unchanged. An inserted member follows the indentation of its
//     siblings (or two spaces per level when it has none), as
//     json.dumps(indent=2) lays it out, which is what today's Lola writes.
//   - Remove undoes Set exactly: adding a member and then removing it gives
//     back the original document byte for byte, including when Set had to
//     create the containing object (Remove takes an object it empties
//     away, and reports an empty document so the caller can delete a file
//     it created).
//   - A new document is laid out exactly as Python's json.dumps(doc,
//     indent=2) + "\n" lays it out (ASCII-only, \u escapes), so a file
//     Lola creates is the one today's Lola creates.
//
// Non-guarantees: the document must be strict JSON (RFC 8259). A file
// with comments or trailing commas (JSONC) is refused with ErrNotJSON
// rather than rewritten: today's Lola would replace it by an object
// holding only its servers, losing the user's content. A container that
// the user left empty ("mcpServers": {}) and Lola then filled and emptied
// is removed, not restored to {}.
package jsonconfig
