// Package assistant is the part every Lola assistant target shares: it
// reads the module inventory the host sends (schema.Inventory, built once
// by the host's module store) and plans the install or uninstall of each
// module's skills, commands, agents, instructions and MCP servers. A
// target is only its assistant's mapping: a Target value naming where each
// kind goes per scope and how a file is rewritten for the assistant. No
// target parses a module itself.
//
// Guarantees:
//   - A request without an inventory (an older host) is refused, never
//     planned as an empty install.
//   - Every inventory entry must name a file the request carries, with a
//     path and a name that pass the SDK's lexical path rules; anything
//     else fails the run before any intent is added.
//   - Installed files keep their bytes (unless the target rewrites them,
//     as today's Lola does) and their execute bit.
//   - Shared files are edited, never replaced: instructions through
//     sdk-go/managed (the user's text outside lola's section kept byte for
//     byte), MCP configs through sdk-go/jsonconfig (the user's members and
//     formatting kept; an uninstall gives back the file as it was before
//     the install). A shared file is deleted only when lola created it
//     (schema.Request.Created) and nothing but lola's part was in it; a
//     file the user had is written back, however empty.
//   - An uninstall deletes exactly what the same module's install writes.
//
// sdk-rust's assistant module is this package in Rust (the built-in
// targets are written on it); examples/go-<name> and examples/<name> are the
// same targets on the two SDKs, held to one set of goldens, so a change to
// the plans here must be made there too.
//
// Non-guarantees: the target is stateless: an uninstall plans from the
// module as the store holds it now, so a file an older version of the
// module installed and the current one no longer has is not removed.
package assistant

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
	"github.com/lola-pm/lola/sdk-go/jsonconfig"
	"github.com/lola-pm/lola/sdk-go/managed"
)

// Scoped is a root-relative path per scope; "" means the assistant has no
// such place in that scope and that kind is not installed there.
type Scoped struct {
	Project, User string
}

// For returns the path for scope (project when scope is empty).
func (s Scoped) For(scope schema.Scope) string {
	if scope == schema.ScopeUser {
		return s.User
	}
	return s.Project
}

// Target is one assistant's mapping of a module.
type Target struct {
	// Name prefixes errors.
	Name string
	// Skills, Commands and Agents are the directories the kind goes to.
	Skills, Commands, Agents Scoped
	// Instructions is the shared Markdown file holding lola's managed
	// section; the manifest must list it under managed:.
	Instructions Scoped
	// MCP is the JSON config holding MCP servers under the member
	// MCPContainer; the manifest must list it under managed:.
	MCP          Scoped
	MCPContainer string
	// MCPSeed is the object a new MCP config starts from (nil: {}).
	MCPSeed func() jsonconfig.Value
	// MCPServer rewrites a server definition for the assistant (nil:
	// written as the module declares it).
	MCPServer func(jsonconfig.Value) jsonconfig.Value
	// CommandFile and AgentFile name the installed file of a command or
	// agent (nil: <name>.md). A command's sidecar directory is installed
	// beside it under the file name less its last extension.
	CommandFile, AgentFile func(name string) string
	// Skill rewrites a skill's SKILL.md (nil: copied); ok false skips the
	// skill, as today's Lola does for a skill it cannot map.
	Skill func(skill schema.Skill, doc string) (out string, ok bool)
	// Agent rewrites an agent's file (nil: copied).
	Agent func(name, doc string) string
	// SkillMDVerbatim copies SKILL.md byte for byte. Otherwise SKILL.md,
	// like every command, agent and instructions file, is read as text the
	// way today's Lola reads it (Python's universal newlines: CRLF and CR
	// become LF) and written without an execute bit.
	SkillMDVerbatim bool
}

// Handler returns t as an sdk-go handler, for lola.Register.
func (t *Target) Handler() lola.Handler {
	return func(req *lola.Request, p *lola.Plan) error { return t.Plan(req, p) }
}

// Plan plans req's operation for every module of the request.
func (t *Target) Plan(req *lola.Request, p *lola.Plan) error {
	if req.Scope != "" && req.Scope != schema.ScopeProject && req.Scope != schema.ScopeUser {
		return t.errorf("unknown scope %q", req.Scope)
	}
	uninstall := req.Operation == schema.OperationUninstall
	ins, err := t.openShared(req, t.Instructions.For(req.Scope))
	if err != nil {
		return err
	}
	mcp, err := t.openShared(req, t.MCP.For(req.Scope))
	if err != nil {
		return err
	}
	var changes []jsonconfig.Change
	for i := range req.Modules {
		m := &req.Modules[i]
		mod, err := t.check(m)
		if err != nil {
			return err
		}
		if uninstall {
			err = t.planUninstall(p, req.Scope, mod)
		} else {
			err = t.planInstall(p, req.Scope, mod)
		}
		if err != nil {
			return err
		}
		if ins.path != "" {
			body := ""
			if !uninstall && m.Inventory.Instructions != "" {
				body = mod.text(m.Inventory.Instructions)
			}
			if ins.doc, err = managed.SetBlock(ins.doc, ins.path, m.Name, body); err != nil {
				return t.errorf("%w", err)
			}
		}
		if mcp.path != "" {
			c, err := t.mcpChanges(m, uninstall)
			if err != nil {
				return err
			}
			changes = append(changes, c...)
		}
	}
	if err := ins.finishManaged(p); err != nil {
		return err
	}
	return t.finishMCP(p, mcp, changes)
}

// shared is a file the host handed over in the request's current list.
type shared struct {
	path, doc, before string
	exists            bool
	// created is whether lola created the file (schema.Request.Created):
	// only then may it be deleted once lola's part of it is gone.
	created bool
}

func (t *Target) openShared(req *lola.Request, file string) (shared, error) {
	s := shared{path: file, created: req.LolaCreated(file)}
	if file == "" {
		return s, nil
	}
	for _, f := range req.Current {
		if f.Path != file {
			continue
		}
		b, err := lola.Bytes(f)
		if err != nil {
			return s, t.errorf("current %s: %w", file, err)
		}
		s.doc, s.before, s.exists = string(b), string(b), true
	}
	return s, nil
}

func (s shared) finishManaged(p *lola.Plan) error {
	switch {
	case s.path == "" || s.doc == s.before:
		return nil
	case s.doc == "" && s.exists && s.created:
		// Only lola's section was there, in a file lola created.
		return p.Delete(s.path)
	default:
		return p.Write(s.path, s.doc, s.ifContent())
	}
}

// ifContent makes a rewrite of the shared file a compare-and-swap on what
// the request carried: an edit the user makes before the host applies the
// plan refuses it (conflict.changed) instead of being overwritten.
func (s shared) ifContent() lola.WriteOption { return lola.IfContent([]byte(s.before), s.exists) }

func (t *Target) mcpChanges(m *lola.Module, uninstall bool) ([]jsonconfig.Change, error) {
	var out []jsonconfig.Change
	for _, s := range m.Inventory.MCPServers {
		if s.Name == "" {
			return nil, t.errorf("module %s: an MCP server has no name", m.Name)
		}
		if uninstall {
			out = append(out, jsonconfig.Change{Name: s.Name})
			continue
		}
		v, err := jsonconfig.Parse(s.Config)
		if err != nil || v.Kind != jsonconfig.Object {
			return nil, t.errorf("module %s: MCP server %q is not a JSON object", m.Name, s.Name)
		}
		if t.MCPServer != nil {
			v = t.MCPServer(v)
		}
		out = append(out, jsonconfig.Change{Name: s.Name, Value: &v})
	}
	return out, nil
}

func (t *Target) finishMCP(p *lola.Plan, s shared, changes []jsonconfig.Change) error {
	if s.path == "" || len(changes) == 0 {
		return nil
	}
	seed := jsonconfig.NewObject()
	if t.MCPSeed != nil {
		seed = t.MCPSeed()
	}
	out, del, err := jsonconfig.Apply(s.doc, s.exists, seed, t.MCPContainer, changes)
	if err != nil {
		return t.errorf("%s: %w", s.path, err)
	}
	switch {
	case del && s.exists && s.created:
		return p.Delete(s.path)
	case out == s.before || (!s.exists && out == ""):
		return nil
	default:
		return p.Write(s.path, out, s.ifContent())
	}
}

// module is a request module whose inventory has been checked.
type module struct {
	*lola.Module
	files map[string]*lola.File
}

// text is a module file read as today's Lola reads text (Python's
// read_text: universal newlines, CRLF and lone CR become LF).
func (m module) text(p string) string {
	b, _ := lola.Bytes(*m.files[p]) // checked by check
	return newlines.Replace(string(b))
}

// isText reports whether a file reached the target as UTF-8 text; other
// files are copied as bytes (today's Lola cannot read them as text).
func (m module) isText(p string) bool {
	return m.files[p].Encoding != schema.EncodingBase64
}

var newlines = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// check refuses a module whose inventory names a file the request lacks,
// or a name that is not one path component.
func (t *Target) check(m *lola.Module) (module, error) {
	if err := managed.CheckModuleName(m.Name); err != nil {
		return module{}, t.errorf("%w", err)
	}
	inv := m.Inventory
	if inv == nil {
		return module{}, t.errorf("module %s: the request carries no inventory (the host predates it); update lola", m.Name)
	}
	files := make(map[string]*lola.File, len(m.Files))
	for i := range m.Files {
		f := &m.Files[i]
		if err := lola.CheckPath(f.Path); err != nil {
			return module{}, t.errorf("module %s: %w", m.Name, err)
		}
		if _, err := lola.Bytes(*f); err != nil {
			return module{}, t.errorf("module %s: %s: %w", m.Name, f.Path, err)
		}
		files[f.Path] = f
	}
	need := func(p string) error {
		if files[p] == nil {
			return t.errorf("module %s: the inventory names %q, which the request does not carry", m.Name, p)
		}
		return nil
	}
	name := func(kind, n string) error {
		if n == "" || strings.ContainsAny(n, "/\\") || lola.CheckPath(n) != nil || strings.HasPrefix(n, ".") {
			return t.errorf("module %s: %s name %q is not a single path component", m.Name, kind, n)
		}
		return nil
	}
	var errs []error
	for _, s := range inv.Skills {
		errs = append(errs, name("skill", s.Name))
		for _, f := range s.Files {
			errs = append(errs, need(f))
			if s.Dir != "" && !strings.HasPrefix(f, s.Dir+"/") {
				errs = append(errs, t.errorf("module %s: skill %s: %q is outside %s/", m.Name, s.Name, f, s.Dir))
			}
		}
		if need(path.Join(s.Dir, "SKILL.md")) != nil {
			errs = append(errs, t.errorf("module %s: skill %s has no SKILL.md", m.Name, s.Name))
		}
	}
	for _, c := range inv.Commands {
		errs = append(errs, name("command", c.Name), need(c.Path))
		for _, f := range c.Sidecar {
			errs = append(errs, need(f))
			if !strings.HasPrefix(f, "commands/"+c.Name+"/") {
				errs = append(errs, t.errorf("module %s: command %s: sidecar %q is outside commands/%s/", m.Name, c.Name, f, c.Name))
			}
		}
	}
	for _, a := range inv.Agents {
		errs = append(errs, name("agent", a.Name), need(a.Path))
	}
	if inv.Instructions != "" {
		errs = append(errs, need(inv.Instructions))
	}
	if err := errors.Join(errs...); err != nil {
		return module{}, err
	}
	return module{Module: m, files: files}, nil
}

func (t *Target) errorf(format string, a ...any) error {
	return fmt.Errorf(t.Name+": "+format, a...)
}
