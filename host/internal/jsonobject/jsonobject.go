// Package jsonobject reads and writes one JSON object as its members in
// order, each value as written, so a rewrite that drops or replaces some
// members leaves every other byte of their values as the user wrote them.
// host/install (narrowing an uninstall's MCP rewrite) and host/reinstall
// (removing stale MCP servers) share it.
//
// Non-guarantee: Encode writes no whitespace between members; a caller
// that writes a file indents it (Indent).
package jsonobject

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Member is one member of a JSON object, its value as written.
type Member struct {
	Name string
	Raw  json.RawMessage
}

// Decode decodes b as exactly one JSON object (nothing after it), its
// members in order. A duplicate name is kept as written, twice.
func Decode(b []byte) ([]Member, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var ms []Member
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, false
		}
		name, ok := t.(string)
		if !ok {
			return nil, false
		}
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			return nil, false
		}
		ms = append(ms, Member{name, raw})
	}
	if t, err := d.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return ms, true
}

// Encode is ms as one compact JSON object, each value as it is.
func Encode(ms []Member) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(m.Name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(m.Raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}
