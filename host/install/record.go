package install

import (
	"bytes"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/plan"
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
//     it: a path component equal to its name, or a file whose stem is the
//     name or ends in "-<name>" (a module-prefixed file);
//   - has_instructions is true when the module has instructions and some
//     file p writes holds instructions, their text as handed to the target
//     (the module's AGENTS.md, trimmed, or the --append-context lines);
//   - an MCP server is listed when some JSON file p writes holds its name
//     as a string (the assistant's MCP config).
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
			comps: strings.Split(in.Write.Path, "/"),
			stem:  strings.TrimSuffix(base, path.Ext(base)),
			body:  body,
			json:  strings.HasSuffix(base, ".json"),
		})
	}
	named := func(name string) bool {
		for _, w := range ws {
			if w.stem == name || strings.HasSuffix(w.stem, "-"+name) {
				return true
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
