package module

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/lola-pm/lola/schema"
)

// Inventory projects the module's Layout onto files (what ReadFiles
// returned for its content directory): the one place the module's content
// is sorted into kinds, so no target parses a module again. Every path it
// names is a path of files; a file the layout names but files lacks (left
// out by ReadFiles) is not listed. MCP servers are read from the mcps.json
// entry of files with mcpServers, in the file's order.
func (l Layout) Inventory(files []schema.File) *schema.Inventory {
	inv := &schema.Inventory{
		SingleSkill: l.SingleSkill,
		Skills:      []schema.Skill{},
		Commands:    []schema.Command{},
		Agents:      []schema.Agent{},
		MCPServers:  []schema.MCPServer{},
	}
	have := make(map[string]*schema.File, len(files))
	for i := range files {
		have[files[i].Path] = &files[i]
	}
	for _, s := range l.Skills {
		sk := schema.Skill{Name: s.Name, Description: s.Description, Dir: s.Path, Files: []string{}}
		for _, f := range files {
			// A single-skill module's skill is its whole content root, as
			// today's Lola copies it.
			if l.SingleSkill || strings.HasPrefix(f.Path, s.Path+"/") {
				sk.Files = append(sk.Files, f.Path)
			}
		}
		inv.Skills = append(inv.Skills, sk)
	}
	for _, c := range l.Commands {
		if have[c.Path] == nil {
			continue
		}
		cmd := schema.Command{Name: c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint, Path: c.Path}
		side := strings.TrimSuffix(c.Path, ".md") + "/"
		for _, f := range files {
			if strings.HasPrefix(f.Path, side) {
				cmd.Sidecar = append(cmd.Sidecar, f.Path)
			}
		}
		inv.Commands = append(inv.Commands, cmd)
	}
	for _, a := range l.Agents {
		if have[a.Path] == nil {
			continue
		}
		inv.Agents = append(inv.Agents, schema.Agent{Name: a.Name, Description: a.Description, Model: a.Model, Path: a.Path})
	}
	if l.Instructions && have[instructionsFile] != nil {
		inv.Instructions = instructionsFile
	}
	if f := have[mcpsFile]; f != nil && f.Encoding != schema.EncodingBase64 {
		inv.MCPServers = mcpServers([]byte(f.Content))
	}
	return inv
}

// mcpServers returns the members of mcps.json's "mcpServers" object in
// the file's order, each value's bytes as written. As Python's json module
// reads it (today's Lola), a repeated name keeps its first position and
// its last value. A document that does not parse, or whose mcpServers is
// not an object, declares none; a server whose value is not an object is
// skipped, since no assistant can run it.
func mcpServers(b []byte) []schema.MCPServer {
	out := []schema.MCPServer{}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return out
	}
	raw, ok := doc["mcpServers"]
	if !ok {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return out
	}
	at := map[string]int{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return []schema.MCPServer{}
		}
		name, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return []schema.MCPServer{}
		}
		if i, ok := at[name]; ok {
			out[i].Config = v
			continue
		}
		at[name] = len(out)
		out = append(out, schema.MCPServer{Name: name, Config: v})
	}
	kept := out[:0]
	for _, s := range out {
		if len(s.Config) > 0 && s.Config[0] == '{' && s.Name != "" {
			kept = append(kept, s)
		}
	}
	return kept
}

// mcpNames returns the sorted names of the servers mcps.json declares.
func mcpNames(p string) []string {
	servers := mcpServers(readMetadataFile(p))
	out := make([]string, 0, len(servers))
	for _, s := range servers {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return out
}
