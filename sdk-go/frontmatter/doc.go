// Package frontmatter reads and writes the YAML frontmatter of Markdown
// files (skills, commands, agents) exactly as today's Lola does: it splits
// a document the way python-frontmatter does, resolves the YAML the way
// PyYAML's safe loader does (YAML 1.1: yes/no/on/off are booleans, 0777 is
// octal), and serialises the way yaml.dump(..., default_flow_style=False,
// sort_keys=False) does (key order kept, 2-space indentation, block
// sequences not indented under their key, plain scalars folded after column
// 80, non-ASCII escaped in double quotes). Targets that rewrite an agent's
// or a skill's frontmatter produce the bytes upstream produces.
//
// Guarantees: Parse never fails; a document whose frontmatter does not
// parse as YAML yields no metadata and the document unchanged, as upstream
// does. Key order is kept; a repeated key keeps its first position and its
// last value (as a Python dict built from it does). Dump output parses back
// to the same values.
//
// Non-guarantees: YAML features frontmatter does not use are approximated:
// anchors and aliases are expanded, tags other than the core ones are
// dropped (the value is kept as its scalar text), timestamps stay the
// scalar text they were written as (PyYAML would write a datetime back in
// its own canonical form), and very long double-quoted scalars are not
// folded at column 80 as PyYAML folds them.
package frontmatter
