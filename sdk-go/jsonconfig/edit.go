package jsonconfig

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Change is one member to set (Value non-nil) or remove (Value nil) in
// the container object.
type Change struct {
	Name  string
	Value *Value
}

// Apply applies changes, in order, to members of the top-level object's
// container member (say "mcpServers") of doc. exists is whether the file
// exists; when it does not, doc is ignored and a new document is started
// from seed (an object, e.g. {"$schema": ...}), laid out as json.dumps
// with indent 2 lays it out.
//
// It returns the new document and whether it is emptied: a removal that
// leaves the container empty takes the container away, and when some
// member was removed and the top-level object then has no member but
// "$schema", the document holds nothing of anyone's (today's Lola deletes
// the file then). Whether to delete an emptied file is the caller's
// choice: the host lets a target delete only a managed file lola created
// (schema.Request.Created); a file the user had is written back emptied. A document
// that is not a strict JSON object, or whose container is not an object,
// or that names the container or an edited member twice, is refused: it is
// the user's, and guessing would rewrite it.
func Apply(doc string, exists bool, seed Value, container string, changes []Change) (out string, del bool, err error) {
	if !exists {
		removalsOnly := true
		for _, c := range changes {
			removalsOnly = removalsOnly && c.Value == nil
		}
		if removalsOnly {
			return "", false, nil
		}
		doc = Render(seed, "", "  ") + "\n"
	} else if !json.Valid([]byte(doc)) {
		return "", false, ErrNotJSON
	}
	removed := false
	for _, c := range changes {
		if c.Value == nil {
			var gone bool
			if doc, gone, err = remove(doc, container, c.Name); err != nil {
				return "", false, err
			}
			removed = removed || gone
			continue
		}
		if doc, err = set(doc, container, c.Name, *c.Value); err != nil {
			return "", false, err
		}
	}
	if !removed {
		return doc, false, nil
	}
	_, ms, _, err := top(doc)
	if err != nil {
		return "", false, err
	}
	for _, m := range ms {
		if m.key != "$schema" {
			return doc, false, nil
		}
	}
	return doc, true, nil
}

// span is one member of an object: where its key starts and where its
// value starts and ends (end exclusive).
type span struct {
	key                        string
	keyStart, valStart, valEnd int
}

// object locates the object starting at open ('{'): its members and the
// index of its closing brace. doc is valid JSON.
func object(doc string, open int) ([]span, int) {
	var out []span
	i := skipWS(doc, open+1)
	for doc[i] != '}' {
		ks := i
		ke := skipString(doc, i)
		key := unquoteKey(doc[ks:ke])
		i = skipWS(doc, ke)
		i = skipWS(doc, i+1) // ':'
		vs := i
		i = skipValue(doc, i)
		out = append(out, span{key: key, keyStart: ks, valStart: vs, valEnd: i})
		i = skipWS(doc, i)
		if doc[i] == ',' {
			i = skipWS(doc, i+1)
		}
	}
	return out, i
}

// unquoteKey decodes a JSON string token (valid: the document was
// checked), taking the plain bytes when it holds no escape.
func unquoteKey(tok string) string {
	if !strings.Contains(tok, "\\") {
		return tok[1 : len(tok)-1]
	}
	var s string
	_ = json.Unmarshal([]byte(tok), &s)
	return s
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(doc string, i int) int {
	for i < len(doc) && isWS(doc[i]) {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at i.
func skipString(doc string, i int) int {
	for j := i + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(doc)
}

// skipValue returns the index just past the value starting at i.
func skipValue(doc string, i int) int {
	switch doc[i] {
	case '"':
		return skipString(doc, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(doc); j++ {
			switch doc[j] {
			case '"':
				j = skipString(doc, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(doc)
	}
	j := i
	for j < len(doc) && !isWS(doc[j]) && doc[j] != ',' && doc[j] != '}' && doc[j] != ']' {
		j++
	}
	return j
}

// top returns the top-level object's '{' index, members and closing brace.
func top(doc string) (int, []span, int, error) {
	open := skipWS(doc, 0)
	if open >= len(doc) || doc[open] != '{' {
		return 0, nil, 0, fmt.Errorf("%w: the top level is not an object", ErrNotJSON)
	}
	ms, close := object(doc, open)
	return open, ms, close, nil
}

// find returns the index of the one member named key, -1 when absent.
func find(ms []span, key string) (int, error) {
	at := -1
	for i, m := range ms {
		if m.key == key {
			if at >= 0 {
				return 0, fmt.Errorf("the object names %q twice; fix the file by hand", key)
			}
			at = i
		}
	}
	return at, nil
}

// unit is the document's indentation step: its first member's
// indentation, or two spaces (json.dumps(indent=2)) when it has none.
func unit(doc string, ms []span) string {
	if len(ms) > 0 {
		sep := doc[wsStart(doc, ms[0].keyStart):ms[0].keyStart]
		if i := strings.LastIndexByte(sep, '\n'); i >= 0 && len(sep) > i+1 {
			return sep[i+1:]
		}
	}
	return "  "
}

func wsStart(doc string, i int) int {
	for i > 0 && isWS(doc[i-1]) {
		i--
	}
	return i
}

// lineIndent is the leading whitespace of the line holding index i.
func lineIndent(doc string, i int) string {
	s := strings.LastIndexByte(doc[:i], '\n') + 1
	e := s
	for e < len(doc) && (doc[e] == ' ' || doc[e] == '\t') {
		e++
	}
	return doc[s:e]
}

// insert adds member key: v at the end of the object at open, laid out
// like its siblings.
func insert(doc string, open int, ms []span, close int, key string, v Value, step string) string {
	if len(ms) == 0 {
		ind := lineIndent(doc, open)
		m := quote(key) + ": " + Render(v, ind+step, step)
		return doc[:open+1] + "\n" + ind + step + m + "\n" + ind + doc[close:]
	}
	last := ms[len(ms)-1]
	sep := doc[wsStart(doc, last.keyStart):last.keyStart]
	var m string
	if i := strings.LastIndexByte(sep, '\n'); i >= 0 {
		m = quote(key) + ": " + Render(v, sep[i+1:], step)
	} else {
		m = quote(key) + ": " + Render(v, "", "")
	}
	return doc[:last.valEnd] + "," + sep + m + doc[last.valEnd:]
}

// cut removes member i of ms, taking the separator that joined it: the
// comma and whitespace before it, or for the first member the whitespace
// and comma after it. Removing the member insert appended gives back the
// document as it was before.
func cut(doc string, ms []span, i int) string {
	switch {
	case len(ms) == 1:
		return doc[:ms[0].keyStart] + doc[ms[0].valEnd:]
	case i > 0:
		return doc[:ms[i-1].valEnd] + doc[ms[i].valEnd:]
	default:
		return doc[:ms[0].keyStart] + doc[ms[1].keyStart:]
	}
}

func set(doc, container, name string, v Value) (string, error) {
	open, ms, close, err := top(doc)
	if err != nil {
		return "", err
	}
	c, err := find(ms, container)
	if err != nil {
		return "", err
	}
	step := unit(doc, ms)
	if c < 0 {
		doc = insert(doc, open, ms, close, container, NewObject(), step)
		if open, ms, close, err = top(doc); err != nil {
			return "", err
		}
		c = len(ms) - 1
	}
	cs := ms[c]
	if doc[cs.valStart] != '{' {
		return "", fmt.Errorf("%q is not an object; fix the file by hand", container)
	}
	inner, iclose := object(doc, cs.valStart)
	at, err := find(inner, name)
	if err != nil {
		return "", err
	}
	if at < 0 {
		return insert(doc, cs.valStart, inner, iclose, name, v, step), nil
	}
	// Replace the value in place (its position kept, as a dict
	// assignment keeps it), laid out at its member's indentation.
	m := inner[at]
	ind := lineIndent(doc, m.keyStart)
	if !strings.Contains(doc[wsStart(doc, m.keyStart):m.keyStart], "\n") {
		return doc[:m.valStart] + Render(v, "", "") + doc[m.valEnd:], nil
	}
	return doc[:m.valStart] + Render(v, ind, step) + doc[m.valEnd:], nil
}

// remove takes the member name out of the container; removed is whether
// it was there.
func remove(doc, container, name string) (out string, removed bool, err error) {
	_, ms, _, err := top(doc)
	if err != nil {
		return "", false, err
	}
	c, err := find(ms, container)
	if err != nil || c < 0 {
		return doc, false, err
	}
	cs := ms[c]
	if doc[cs.valStart] != '{' {
		return "", false, fmt.Errorf("%q is not an object; fix the file by hand", container)
	}
	inner, _ := object(doc, cs.valStart)
	at, err := find(inner, name)
	if err != nil || at < 0 {
		return doc, false, err
	}
	if len(inner) > 1 {
		return cut(doc, inner, at), true, nil
	}
	// The container held only this member: take the container away too.
	return cut(doc, ms, c), true, nil
}
