package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Managed files (CLAUDE.md, .mcp.json, GEMINI.md, ...) are shared by design:
// the user writes in them and so does the target. The host cannot trust a
// target to keep to its part, so it judges every rewrite and every
// deletion of a managed file by parts:
//
//   - A managed JSON file (an MCP configuration) is judged member by
//     member. Its top-level members that are not objects (the user's
//     settings) must stay as they are; "$schema" may appear only when
//     lola creates the file. Inside a top-level object (the server
//     container: mcpServers, servers, mcp), a member may change only when
//     lola owns its name (an install of this root recorded it; on
//     uninstall, only while it holds the value that record's mcp_values
//     holds for it: one the user edited is theirs) or when the
//     module brings that name and the user has no member of that name:
//     a module server named like one of the user's is refused, even with
//     --force, since taking it over would delete the user's server at
//     uninstall.
//   - A managed file may be deleted only when lola created it (no file was
//     there before an install of lola's wrote it) and, for JSON, when
//     nothing is left in it but "$schema" and members lola owns. A file the
//     user had, however empty lola leaves it, is written back instead.
//
// Values are compared as compact JSON, so a target may re-indent but not
// change a user's value. Non-guarantee: in a managed text file (CLAUDE.md)
// the host does not check the text outside lola's section, whose layout
// differs per assistant; it checks only the deletion rule. The rules are
// conflict.unowned rejections and are not waived by --force.

// managedParts is what the host knows of one plan's managed files.
type managedParts struct {
	// owned is the server names lola owns in each managed JSON file
	// (root-relative path -> names).
	owned map[string]map[string]bool
	// brought is the server names the module brings (install only).
	brought map[string]bool
	// created is the managed files lola created under this root.
	created map[string]bool
	// proof, when set (uninstall), is the record being removed: a server
	// it owns by name is lola's only while its value is the one the
	// record's mcp_values holds for it (provenServer); one the user
	// edited since is theirs.
	proof *Record
}

// ownsServer reports whether the server name, holding values (compact;
// none when absent) in the managed JSON file path, is lola's.
func (m managedParts) ownsServer(path, name string, values []string) bool {
	if !m.owned[path][name] {
		return false
	}
	if m.proof == nil {
		return true
	}
	for _, v := range values {
		if !provenServer(m.proof, path, name, []byte(v)) {
			return false
		}
	}
	return true
}

// isJSON reports whether a managed file is judged as JSON.
func isJSON(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".json") }

// member is one member of a JSON object: its name and its value, compact.
type member struct {
	name  string
	value string
}

// objectMembers decodes b as one JSON object: its members in file order,
// each value compacted. ok is false when b is not exactly one object.
func objectMembers(b []byte) (ms []member, ok bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, false
		}
		name, _ := t.(string)
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			return nil, false
		}
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil {
			return nil, false
		}
		ms = append(ms, member{name: name, value: c.String()})
	}
	if t, err := d.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return ms, true
}

// byName groups members by name (a name may repeat in a hostile file).
func byName(ms []member) map[string][]string {
	out := map[string][]string{}
	for _, m := range ms {
		out[m.name] = append(out[m.name], m.value)
	}
	return out
}

func sameValues(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// objectValue returns the members of values when they are exactly one
// JSON object (or nothing: an absent member is an empty object here).
func objectValue(values []string) ([]member, bool) {
	switch len(values) {
	case 0:
		return nil, true
	case 1:
		if strings.HasPrefix(values[0], "{") {
			return objectMembers([]byte(values[0]))
		}
	}
	return nil, false
}

func sortedNames(a, b map[string][]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string][]string{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// jsonRewrite judges a rewrite of the managed JSON file path from before
// (existed false: there was no file) to after. It returns "" when the
// rewrite changes only lola's part, else why not.
func (m managedParts) jsonRewrite(path string, before []byte, existed bool, after []byte) string {
	var old []member
	if existed {
		var ok bool
		if old, ok = objectMembers(before); !ok {
			return fmt.Sprintf("%s holds no JSON object lola can judge (comments, a trailing comma?): it is kept as the user wrote it", path)
		}
	}
	nw, ok := objectMembers(after)
	if !ok {
		return fmt.Sprintf("the target's %s is not one JSON object", path)
	}
	ob, nb := byName(old), byName(nw)
	for _, name := range sortedNames(ob, nb) {
		if sameValues(ob[name], nb[name]) || name == "$schema" && !existed {
			continue
		}
		oi, ok1 := objectValue(ob[name])
		ni, ok2 := objectValue(nb[name])
		if !ok1 || !ok2 {
			return fmt.Sprintf("%s: the member %q is the user's setting, not lola's part: it is kept", path, name)
		}
		if why := m.innerRewrite(path, name, byName(oi), byName(ni)); why != "" {
			return why
		}
	}
	return ""
}

// innerRewrite judges the changes inside the top-level object container.
func (m managedParts) innerRewrite(path, container string, ob, nb map[string][]string) string {
	for _, name := range sortedNames(ob, nb) {
		if sameValues(ob[name], nb[name]) || m.ownsServer(path, name, ob[name]) {
			continue
		}
		_, had := ob[name]
		if m.brought[name] && !had {
			continue
		}
		if _, kept := nb[name]; kept && m.brought[name] {
			return fmt.Sprintf("%s already holds a %q entry %q that lola did not write: it is kept, not overwritten (not even with --force, which would hand it to lola's uninstall); rename or remove yours, or the module's", path, container, name)
		}
		return fmt.Sprintf("%s: the %q entry %q is the user's, not lola's: it is kept", path, container, name)
	}
	return ""
}

// jsonDelete judges deleting the managed JSON file path holding before.
func (m managedParts) jsonDelete(path string, before []byte) string {
	if !m.created[path] {
		return fmt.Sprintf("%s was there before lola wrote to it: it is the user's and is kept, not deleted", path)
	}
	ms, ok := objectMembers(before)
	if !ok {
		return fmt.Sprintf("%s holds no JSON object lola can judge: it is kept", path)
	}
	for _, top := range ms {
		if top.name == "$schema" {
			continue
		}
		inner, ok := objectValue([]string{top.value})
		if !ok {
			return fmt.Sprintf("%s: the member %q is the user's setting: the file is kept", path, top.name)
		}
		for _, s := range inner {
			if !m.ownsServer(path, s.name, []string{s.value}) {
				return fmt.Sprintf("%s: the %q entry %q is the user's: the file is kept", path, top.name, s.name)
			}
		}
	}
	return ""
}

// textDelete judges deleting the managed text file path.
func (m managedParts) textDelete(path string) string {
	if !m.created[path] {
		return fmt.Sprintf("%s was there before lola wrote to it: it is the user's and is kept, not deleted", path)
	}
	return ""
}
