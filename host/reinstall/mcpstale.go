package reinstall

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/schema"
)

// What a reinstall does about MCP servers the new module version no
// longer has. A target plans from the module it is given, so it adds and
// updates the module's servers but cannot know the ones an older version
// brought; today's Lola removes those ("orphaned MCPs") on update, and so
// do we: the host removes, from each managed JSON file of the install's
// target, the members of a server container (mcpServers, servers, mcp)
// named after a server the previous record of this install claimed and
// the module no longer brings. Every other member stays as it was (values
// byte-equal once compacted; the file re-indented). A file lola created
// that is left holding nothing but "$schema" and empty containers is
// deleted. The edit is one plan lola proposes, through the pipeline
// (validated whole, applied atomically, audited under the run's
// correlation), like removeStale's.

// serverContainers are the top-level members of a managed JSON file that
// hold MCP servers, by assistant: .mcp.json, .cursor/mcp.json and
// .gemini/settings.json "mcpServers", .vscode/mcp.json "servers",
// opencode.json "mcp".
var serverContainers = map[string]bool{"mcpServers": true, "servers": true, "mcp": true}

// staleServers are the names old claims that the module no longer brings.
func staleServers(old install.Record, brought []string) map[string]bool {
	now := map[string]bool{}
	for _, n := range brought {
		now[n] = true
	}
	out := map[string]bool{}
	for _, n := range old.MCPs {
		if !now[n] {
			out[n] = true
		}
	}
	return out
}

// jsonMember is one member of a JSON object, its value as written.
type jsonMember struct {
	name string
	raw  json.RawMessage
}

func decodeObject(b []byte) ([]jsonMember, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var ms []jsonMember
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
		ms = append(ms, jsonMember{name, raw})
	}
	if t, err := d.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := d.Token(); err == nil {
		return nil, false // more than one value
	}
	return ms, true
}

func encodeObject(ms []jsonMember) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(m.name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(m.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// withoutServers returns b without the members of its server containers
// named in stale; changed is false when none was there (or b is not one
// JSON object, which is left alone). empty is true when what is left is
// only "$schema" and empty server containers.
func withoutServers(b []byte, stale map[string]bool) (out []byte, changed, empty bool) {
	top, ok := decodeObject(b)
	if !ok {
		return nil, false, false
	}
	empty = true
	for i, m := range top {
		if !serverContainers[m.name] {
			if m.name != "$schema" {
				empty = false
			}
			continue
		}
		inner, ok := decodeObject(m.raw)
		if !ok {
			empty = false
			continue
		}
		kept := inner[:0:0]
		for _, s := range inner {
			if stale[s.name] {
				changed = true
				continue
			}
			kept = append(kept, s)
		}
		if len(kept) > 0 {
			empty = false
		}
		if len(kept) != len(inner) {
			top[i].raw = encodeObject(kept)
		}
	}
	if !changed {
		return nil, false, false
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, encodeObject(top), "", "  "); err != nil {
		return nil, false, false
	}
	ind.WriteByte('\n')
	return ind.Bytes(), true, empty
}

// removeStaleServers removes, as one plan, the servers old claimed that
// the module (brought) no longer has from the managed JSON files of old's
// target under root. It returns the files it rewrote or deleted.
func removeStaleServers(ctx context.Context, root, home string, old install.Record, brought []string, log *audit.Log) ([]string, error) {
	stale := staleServers(old, brought)
	if len(stale) == 0 {
		return nil, nil
	}
	cat, err := extension.Discover(home)
	if err != nil {
		return nil, err
	}
	ext, err := cat.Lookup(old.Assistant)
	if err != nil {
		return nil, err
	}
	current, err := ext.CurrentFiles(root)
	if err != nil {
		return nil, err
	}
	reg, err := install.ReadRegistry(home)
	if err != nil {
		return nil, err
	}
	created := map[string]bool{}
	for _, r := range reg.All() {
		if r.Scope == old.Scope && r.ProjectPath == old.ProjectPath {
			for _, p := range r.ManagedCreated {
				created[p] = true
			}
		}
	}
	type intent struct {
		Op       string `json:"op"`
		Path     string `json:"path"`
		Content  string `json:"content,omitempty"`
		Encoding string `json:"encoding,omitempty"`
	}
	var intents []intent
	var touched []string
	for _, f := range current {
		if !strings.HasSuffix(strings.ToLower(f.Path), ".json") {
			continue
		}
		body := []byte(f.Content)
		if f.Encoding == schema.EncodingBase64 {
			if body, err = base64.StdEncoding.DecodeString(f.Content); err != nil {
				continue
			}
		}
		out, changed, empty := withoutServers(body, stale)
		if !changed {
			continue
		}
		if empty && created[f.Path] {
			intents = append(intents, intent{Op: "delete", Path: f.Path})
		} else {
			intents = append(intents, intent{Op: "write", Path: f.Path, Content: base64.StdEncoding.EncodeToString(out), Encoding: "base64"})
		}
		touched = append(touched, f.Path)
	}
	if len(intents) == 0 {
		return nil, nil
	}
	if err := applyOwnPlan(ctx, root, home, intents, log, "removing the MCP servers the new version no longer has"); err != nil {
		return nil, err
	}
	var gone []string
	for _, in := range intents {
		if in.Op == "delete" {
			gone = append(gone, in.Path)
		}
	}
	if len(gone) > 0 {
		err = install.UpdateRegistry(home, func(reg *install.Registry) error {
			for _, r := range reg.All() {
				if r.Scope != old.Scope || r.ProjectPath != old.ProjectPath || len(r.ManagedCreated) == 0 {
					continue
				}
				var keep []string
				for _, p := range r.ManagedCreated {
					if !slices.Contains(gone, p) {
						keep = append(keep, p)
					}
				}
				r.ManagedCreated = keep
				reg.Put(r)
			}
			return nil
		})
	}
	sort.Strings(touched)
	return touched, err
}
