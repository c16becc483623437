package reinstall

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/internal/jsonobject"
	"github.com/lola-pm/lola/schema"
)

// What a reinstall does about MCP servers the new module version no
// longer has. A target plans from the module it is given, so it adds and
// updates the module's servers but cannot know the ones an older version
// brought; today's Lola removes those ("orphaned MCPs") on update, and so
// do we: the host removes, from each managed JSON file of the install's
// target, the members of a server container (mcpServers, servers, mcp)
// named after a server the previous record of this install claimed and
// the module no longer brings, when its value is still the one lola wrote
// there (the record's mcp_values digest). A server the user changed
// since, or one the record holds no digest for (written by today's Lola
// or an older lola), is the user's as far as lola can prove: it is kept
// and reported, as a changed stale file is. Every other member stays as
// it was (values byte-equal once compacted; the file re-indented). A file
// lola created that is left holding nothing but "$schema" and empty
// containers is deleted. The edit is one plan lola proposes, through the
// pipeline (validated whole, applied atomically, audited under the run's
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

// serverEdit is what withoutServers did to one file.
type serverEdit struct {
	out     []byte   // the file without the removed servers
	removed []string // server names removed
	kept    []string // stale server names left, not proved lola's
	empty   bool     // only "$schema" and empty server containers are left
}

// withoutServers returns b without the members of its server containers
// named in stale whose value mine accepts (the one lola wrote); stale
// members mine refuses are kept and listed. removed is empty when no
// member went (or b is not one JSON object, which is left alone).
func withoutServers(b []byte, stale map[string]bool, mine func(name string, value json.RawMessage) bool) serverEdit {
	var e serverEdit
	top, ok := jsonobject.Decode(b)
	if !ok {
		return e
	}
	empty := true
	for i, m := range top {
		if !serverContainers[m.Name] {
			if m.Name != "$schema" {
				empty = false
			}
			continue
		}
		inner, ok := jsonobject.Decode(m.Raw)
		if !ok {
			empty = false
			continue
		}
		kept := inner[:0:0]
		for _, s := range inner {
			if stale[s.Name] {
				if mine(s.Name, s.Raw) {
					e.removed = append(e.removed, s.Name)
					continue
				}
				e.kept = append(e.kept, s.Name)
			}
			kept = append(kept, s)
		}
		if len(kept) > 0 {
			empty = false
		}
		if len(kept) != len(inner) {
			top[i].Raw = jsonobject.Encode(kept)
		}
	}
	if len(e.removed) == 0 {
		return serverEdit{kept: e.kept}
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, jsonobject.Encode(top), "", "  "); err != nil {
		return serverEdit{}
	}
	ind.WriteByte('\n')
	e.out, e.empty = ind.Bytes(), empty
	return e
}

// StaleServer is an MCP server the new module version no longer brings,
// in one managed JSON file.
type StaleServer struct {
	Name string
	Path string // root-relative, slash form
}

// removeStaleServers removes, as one plan, the servers old claimed that
// the module (brought) no longer has from the managed JSON files of old's
// target under root, where each still holds the value old recorded. It
// returns the servers removed and the stale ones kept.
func removeStaleServers(ctx context.Context, root, home string, old install.Record, brought []string, log *audit.Log) ([]StaleServer, []StaleServer, error) {
	stale := staleServers(old, brought)
	if len(stale) == 0 {
		return nil, nil, nil
	}
	cat, err := extension.Discover(home)
	if err != nil {
		return nil, nil, err
	}
	ext, err := cat.Lookup(old.Assistant)
	if err != nil {
		return nil, nil, err
	}
	current, err := ext.CurrentFiles(root)
	if err != nil {
		return nil, nil, err
	}
	reg, err := install.ReadRegistry(home)
	if err != nil {
		return nil, nil, err
	}
	created := map[string]bool{}
	for _, r := range reg.All() {
		if r.Scope == old.Scope && r.ProjectPath == old.ProjectPath {
			for _, p := range r.ManagedCreated {
				created[p] = true
			}
		}
	}
	intents, removed, kept := staleServerPlan(current, stale, old, created)
	if len(intents) == 0 {
		return nil, kept, nil
	}
	if err := applyOwnPlan(ctx, root, home, intents, log, "removing the MCP servers the new version no longer has"); err != nil {
		return nil, kept, err
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
	return removed, kept, err
}

// ownIntent is one intent of a plan lola proposes itself.
type ownIntent struct {
	Op        string `json:"op"`
	Path      string `json:"path"`
	Content   string `json:"content,omitempty"`
	Encoding  string `json:"encoding,omitempty"`
	IfContent string `json:"if_content,omitempty"`
}

// staleServerPlan is the plan removing the stale servers lola still owns
// from the managed files current (as read), the servers it removes, and
// the stale ones it keeps. Each rewrite is a compare-and-swap on the bytes
// it was computed from (if_content): a file the user edits between this
// read and the apply refuses the plan (conflict.changed) rather than
// losing the edit.
func staleServerPlan(current []schema.File, stale map[string]bool, old install.Record, created map[string]bool) (intents []ownIntent, removed, kept []StaleServer) {
	for _, f := range current {
		if !strings.HasSuffix(strings.ToLower(f.Path), ".json") {
			continue
		}
		body := []byte(f.Content)
		if f.Encoding == schema.EncodingBase64 {
			b, err := base64.StdEncoding.DecodeString(f.Content)
			if err != nil {
				continue
			}
			body = b
		}
		recorded := old.MCPValues[f.Path]
		e := withoutServers(body, stale, func(name string, value json.RawMessage) bool {
			d, ok := install.ServerDigest(value)
			return ok && recorded[name] == d
		})
		for _, n := range e.kept {
			kept = append(kept, StaleServer{Name: n, Path: f.Path})
		}
		if len(e.removed) == 0 {
			continue
		}
		if e.empty && created[f.Path] {
			intents = append(intents, ownIntent{Op: "delete", Path: f.Path})
		} else {
			intents = append(intents, ownIntent{Op: "write", Path: f.Path, Content: base64.StdEncoding.EncodeToString(e.out), Encoding: "base64", IfContent: schema.IfContentSHA256(body)})
		}
		for _, n := range e.removed {
			removed = append(removed, StaleServer{Name: n, Path: f.Path})
		}
	}
	return intents, removed, kept
}
