package install

import (
	"bytes"
	"encoding/base64"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
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
//   - an MCP server is listed when some JSON file p writes holds its name
//     as a string (the assistant's MCP config), and mcp_values keeps, per
//     such file, the digest of the value p gives it there (ServerDigest).
//
// Non-guarantee: this reads the plan, not the target's intent; a target
// that rewrites an item's name beyond a prefix is not recognised.
func recordFromPlan(m *module.Module, assistant, scope, project string, p *plan.Plan, instructions []byte) Record {
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
	for _, name := range l.MCPs {
		q := []byte(strconv.Quote(name))
		for _, w := range ws {
			if w.json && bytes.Contains(w.body, q) {
				r.MCPs = append(r.MCPs, name)
				break
			}
		}
	}
	claimed := map[string]bool{}
	for _, n := range r.MCPs {
		claimed[n] = true
	}
	for _, w := range ws {
		if w.json && len(claimed) > 0 {
			for name, d := range serverDigests(w.body, claimed) {
				r.recordValue(w.path, name, d)
			}
		}
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
	holds := func(needle []byte, jsonOnly bool) bool {
		for _, f := range untouched {
			if jsonOnly && !strings.HasSuffix(f.Path, ".json") {
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
			if bytes.Contains(body, needle) {
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
		if has[n] && holds([]byte(strconv.Quote(n)), true) {
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
		if text := bytes.TrimSpace(instructions); len(text) > 0 && holds(text, false) {
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
