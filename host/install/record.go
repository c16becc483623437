package install

import (
	"bytes"
	"encoding/base64"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// instructionsFile is the module's instructions (today's Lola's name).
const instructionsFile = "AGENTS.md"

// recordMaxInstructions bounds the instructions read to judge whether a
// target wrote them.
const recordMaxInstructions = 1 << 20

// recordFromPlan is the installed.yml entry for an install whose applied
// plan is p: it lists what p really wrote, not what the module holds (a
// target may not support every kind of item). p nil records nothing.
//
//   - a skill, command or agent is listed when some path p writes names
//     it: a path component equal to its name, or a file whose stem (with
//     or without a second extension: "x.prompt.md") is the name or ends
//     in "-<name>" (a module-prefixed file);
//   - has_instructions is true when the module has instructions and some
//     file p writes holds instructions, their text as handed to the target
//     (the module's AGENTS.md, trimmed, or the --append-context lines);
//   - an MCP server of the module is listed when some JSON file p writes
//     holds it as a member of a server container (claimServers: parsed,
//     never a substring) and p added it or changed its value there, or
//     the previous record of this install (prev) proves lola wrote that
//     value; mcp_values keeps, per such file, the digest of the value p
//     gives it there (ServerDigest). A server the user had with exactly
//     the module's value stays the user's.
//
// Non-guarantee: this reads the plan, not the target's intent; a target
// that rewrites an item's name beyond a prefix is not recognised.
func recordFromPlan(m *module.Module, assistant, scope, project string, p *plan.Plan, instructions []byte, prior map[string]priorFile, prev *Record) Record {
	r := Record{
		Module: m.Name().String(), Assistant: assistant, Scope: scope,
		Skills: []string{}, Commands: []string{}, Agents: []string{}, MCPs: []string{},
		ProjectPath: project,
	}
	if p == nil {
		return r
	}
	type written struct {
		path  string
		comps []string
		stem  string
		body  []byte
		json  bool
	}
	var ws []written
	for i, in := range p.Intents() {
		if in.Write == nil {
			continue
		}
		body, err := p.Body(i)
		if err != nil {
			continue
		}
		base := path.Base(in.Write.Path)
		ws = append(ws, written{
			path:  in.Write.Path,
			comps: strings.Split(in.Write.Path, "/"),
			stem:  strings.TrimSuffix(base, path.Ext(base)),
			body:  body,
			json:  strings.HasSuffix(base, ".json"),
		})
	}
	named := func(name string) bool {
		for _, w := range ws {
			// "NAME.md", "MODULE-NAME.md", and with a kind before the
			// extension, "NAME.prompt.md", "NAME.agent.md" (copilot).
			for _, stem := range []string{w.stem, strings.TrimSuffix(w.stem, path.Ext(w.stem))} {
				if stem == name || strings.HasSuffix(stem, "-"+name) {
					return true
				}
			}
			for _, c := range w.comps[:len(w.comps)-1] {
				if c == name {
					return true
				}
			}
		}
		return false
	}
	l := m.Layout()
	for _, s := range l.Skills {
		if named(s.Name) {
			r.Skills = append(r.Skills, s.Name)
		}
	}
	for _, c := range l.Commands {
		if named(c.Name) {
			r.Commands = append(r.Commands, c.Name)
		}
	}
	for _, a := range l.Agents {
		if named(a.Name) {
			r.Agents = append(r.Agents, a.Name)
		}
	}
	brought := map[string]bool{}
	for _, name := range l.MCPs {
		brought[name] = true
	}
	claimed := map[string]bool{}
	for _, w := range ws {
		if !w.json || len(brought) == 0 {
			continue
		}
		for name, d := range claimServers(w.path, w.body, brought, prior, prev) {
			claimed[name] = true
			r.recordValue(w.path, name, d)
		}
	}
	for name := range claimed {
		r.MCPs = append(r.MCPs, name)
	}
	if l.Instructions {
		if text := bytes.TrimSpace(instructions); len(text) > 0 {
			for _, w := range ws {
				if bytes.Contains(w.body, text) {
					r.HasInstructions = true
					break
				}
			}
		}
	}
	for _, s := range [][]string{r.Skills, r.Commands, r.Agents, r.MCPs} {
		sort.Strings(s)
	}
	return r
}

// instructionsText is the module's instructions, trimmed of surrounding
// white space; nil when unreadable.
func instructionsText(m *module.Module) []byte {
	f, err := os.Open(filepath.Join(m.ContentDir(), instructionsFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, recordMaxInstructions))
	if err != nil {
		return nil
	}
	return bytes.TrimSpace(b)
}

// keepUntouchedParts completes r, the record of a reinstall, with the
// parts of shared files the plan left alone. A target writes nothing to a
// managed file (CLAUDE.md, .mcp.json) that already holds exactly the
// module's part, so recordFromPlan, which reads the plan, does not see
// that part; yet it is there and it is lola's. An MCP server name or the
// instructions stay recorded when the previous record of this install
// (prev) claimed them, the module still has them, and a managed file the
// plan neither writes nor deletes (nor renames, nor removes a directory
// above) still holds them, as the target was shown it (current); a kept
// server keeps the digest prev recorded for it in such a file. Nothing
// is claimed that the previous record did not: a first install, or a
// part the user put there, gains nothing here.
func keepUntouchedParts(r *Record, prev *Record, l module.Layout, p *plan.Plan, current []schema.File, instructions []byte) {
	if prev == nil || p == nil {
		return
	}
	touched := func(path string) bool {
		for _, in := range p.Intents() {
			var ps []string
			switch {
			case in.Write != nil:
				ps = []string{in.Write.Path}
			case in.Delete != nil:
				ps = []string{in.Delete.Path}
			case in.Rename != nil:
				ps = []string{in.Rename.From, in.Rename.To}
			}
			for _, q := range ps {
				if q == path || strings.HasPrefix(path, strings.TrimSuffix(q, "/")+"/") {
					return true
				}
			}
		}
		return false
	}
	var untouched []schema.File
	for _, f := range current {
		if !touched(f.Path) {
			untouched = append(untouched, f)
		}
	}
	bodyOf := func(f schema.File) []byte {
		if f.Encoding == schema.EncodingBase64 {
			b, err := base64.StdEncoding.DecodeString(f.Content)
			if err != nil {
				return nil
			}
			return b
		}
		return []byte(f.Content)
	}
	holds := func(needle []byte) bool {
		for _, f := range untouched {
			if bytes.Contains(bodyOf(f), needle) {
				return true
			}
		}
		return false
	}
	// A server is held when it is a parsed member of a server container
	// of an untouched JSON file (never a substring).
	holdsServer := func(name string) bool {
		for _, f := range untouched {
			if strings.HasSuffix(f.Path, ".json") && serverNames(bodyOf(f))[name] {
				return true
			}
		}
		return false
	}
	has := map[string]bool{}
	for _, n := range l.MCPs {
		has[n] = true
	}
	for _, n := range r.MCPs {
		has[n] = false // recorded already
	}
	for _, n := range prev.MCPs {
		if has[n] && holdsServer(n) {
			r.MCPs = append(r.MCPs, n)
			has[n] = false
			// The value lola wrote there is the one prev recorded.
			for _, f := range untouched {
				if d, ok := prev.MCPValues[f.Path][n]; ok {
					r.recordValue(f.Path, n, d)
				}
			}
		}
	}
	sort.Strings(r.MCPs)
	if !r.HasInstructions && prev.HasInstructions && l.Instructions {
		if text := bytes.TrimSpace(instructions); len(text) > 0 && holds(text) {
			r.HasInstructions = true
		}
	}
}

// recordValue notes in r.MCPValues that lola wrote the server name into
// the managed file path with the value whose digest is d.
func (r *Record) recordValue(path, name, d string) {
	if r.MCPValues == nil {
		r.MCPValues = map[string]map[string]string{}
	}
	if r.MCPValues[path] == nil {
		r.MCPValues[path] = map[string]string{}
	}
	r.MCPValues[path][name] = d
}

// claimServers is, of the servers named in brought, those the write of
// body to the JSON file path makes lola's, with the digest of each one's
// value there. Ownership is proven, never inferred: a server is lola's
// when the file did not exist before the plan, or did and had no member
// of that name in any server container, or had one with another value
// (the plan changed it: the guard let it only because the server was
// lola's already or the module brings it and the user had none); or when
// prev, this install's previous record, recorded exactly this value in
// this file, or claimed the name without recording any value (today's
// Lola's records, which prove the server is the install's). A server
// whose value the plan left as the user had it is not claimed, nor is
// anything in a file whose prior content could not be read.
func claimServers(path string, body []byte, brought map[string]bool, prior map[string]priorFile, prev *Record) map[string]string {
	after := serverDigests(body, brought)
	out := map[string]string{}
	pf, ok := prior[path]
	var before map[string]string
	var had map[string]bool
	if ok && pf.known && pf.existed {
		before, had = serverDigests(pf.body, brought), serverNames(pf.body)
	}
	for name, d := range after {
		switch {
		case ok && pf.known && (!pf.existed || !had[name] || before[name] != "" && before[name] != d):
		case prev != nil && prev.MCPValues[path][name] == d:
		case prev != nil && slices.Contains(prev.MCPs, name) && !prev.hasValue(name):
		default:
			continue
		}
		out[name] = d
	}
	return out
}

// hasValue reports whether r recorded a value for the server name in
// any file.
func (r *Record) hasValue(name string) bool {
	for _, vs := range r.MCPValues {
		if _, ok := vs[name]; ok {
			return true
		}
	}
	return false
}

// serverNames is every member name of every top-level object member of
// body (the server containers), nil when body is not one JSON object.
func serverNames(body []byte) map[string]bool {
	top, ok := objectMembers(body)
	if !ok {
		return nil
	}
	out := map[string]bool{}
	for _, m := range top {
		inner, ok := objectValue([]string{m.value})
		if !ok || m.name == "$schema" {
			continue
		}
		for _, s := range inner {
			out[s.name] = true
		}
	}
	return out
}
