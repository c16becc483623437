package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
)

// ServerDigest is the sha256 (hex) of an MCP server's JSON value in
// canonical form: decoded and encoded again, object keys sorted, numbers
// as written, no HTML escaping. Re-indenting the file or reordering a
// server's keys, as editors and other tools do, keeps the digest; changing
// any value does not. ok is false when raw is not exactly one JSON value.
//
// Non-guarantee: an object repeating a key is judged by its last
// occurrence, as encoding/json (and most readers) take it.
func ServerDigest(raw []byte) (digest string, ok bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "", false
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return "", false
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return "", false
	}
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return hex.EncodeToString(sum[:]), true
}

// serverDigests is, for the servers named in names, the digest of each
// one's value in body, a managed JSON file: looked for in every top-level
// object member (the server container: mcpServers, servers, mcp), as the
// managed-parts rules judge them. A name whose values differ within the
// file is left out (nothing is proved of it); a body that is not one
// JSON object proves nothing (nil).
func serverDigests(body []byte, names map[string]bool) map[string]string {
	top, ok := objectMembers(body)
	if !ok {
		return nil
	}
	out := map[string]string{}
	ambiguous := map[string]bool{}
	for _, m := range top {
		inner, ok := objectValue([]string{m.value})
		if !ok || m.name == "$schema" {
			continue
		}
		for _, s := range inner {
			if !names[s.name] || ambiguous[s.name] {
				continue
			}
			d, ok := ServerDigest([]byte(s.value))
			if prev, seen := out[s.name]; !ok || seen && prev != d {
				ambiguous[s.name] = true
				delete(out, s.name)
				continue
			}
			out[s.name] = d
		}
	}
	return out
}
