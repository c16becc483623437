package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
	"github.com/lola-pm/lola/sdk-go/managed"
)

// layout is where one module's files land.
type layout struct {
	skills       map[string][]lola.File // skill name -> its files, paths relative to the skill dir
	skillOrder   []string
	commands     []lola.File // paths relative to commands/
	agents       []lola.File // paths relative to agents/
	instructions *lola.File
}

// instructionFiles are the module files whose content becomes the module's
// instructions in AGENTS.md, in order of preference.
var instructionFiles = []string{"AGENTS.md", "instructions.md"}

func mapModule(m lola.Module) (*layout, error) {
	l := &layout{skills: map[string][]lola.File{}}
	found := map[string]*lola.File{}
	for _, f := range m.Files {
		if err := lola.CheckPath(f.Path); err != nil {
			return nil, fmt.Errorf("opencode: module %s: %w", m.Name, err)
		}
		parts := strings.Split(f.Path, "/")
		switch {
		case parts[0] == "skills" && len(parts) >= 3:
			skill := parts[1]
			if _, seen := l.skills[skill]; !seen {
				l.skillOrder = append(l.skillOrder, skill)
			}
			rel := f
			rel.Path = strings.Join(parts[2:], "/")
			l.skills[skill] = append(l.skills[skill], rel)
		case parts[0] == "commands" || parts[0] == "agents":
			if len(parts) != 2 || !strings.HasSuffix(parts[1], ".md") {
				return nil, fmt.Errorf("opencode: module %s: %s: a %s entry must be a .md file directly under %s/", m.Name, f.Path, parts[0][:len(parts[0])-1], parts[0])
			}
			rel := f
			rel.Path = parts[1]
			if parts[0] == "commands" {
				l.commands = append(l.commands, rel)
			} else {
				l.agents = append(l.agents, rel)
			}
		case len(parts) == 1:
			for _, name := range instructionFiles {
				if f.Path == name {
					f := f
					found[name] = &f
				}
			}
		}
	}
	for _, name := range instructionFiles {
		if f := found[name]; f != nil {
			l.instructions = f
			break
		}
	}
	for _, skill := range l.skillOrder {
		has := false
		for _, f := range l.skills[skill] {
			has = has || f.Path == "SKILL.md"
		}
		if !has {
			return nil, fmt.Errorf("opencode: module %s: skills/%s has no SKILL.md", m.Name, skill)
		}
	}
	return l, nil
}

// base is the directory OpenCode reads for a scope: the project's
// .opencode/, or the global ~/.config/opencode/ (the root is the home).
func base(scope schema.Scope) string {
	if scope == schema.ScopeUser {
		return ".config/opencode/"
	}
	return ".opencode/"
}

// instructionsPath is the managed file for a scope.
func instructionsPath(scope schema.Scope) string {
	if scope == schema.ScopeUser {
		return ".config/opencode/AGENTS.md"
	}
	return "AGENTS.md"
}

func plan(req *lola.Request, p *lola.Plan) error {
	if req.Scope != "" && req.Scope != schema.ScopeProject && req.Scope != schema.ScopeUser {
		return fmt.Errorf("opencode: unknown scope %q", req.Scope)
	}
	dir := base(req.Scope)
	file := instructionsPath(req.Scope)
	doc, existed, err := currentContent(req, file)
	if err != nil {
		return err
	}
	before := doc
	for _, m := range req.Modules {
		if err := managed.CheckModuleName(m.Name); err != nil {
			return fmt.Errorf("opencode: %w", err)
		}
		l, err := mapModule(m)
		if err != nil {
			return err
		}
		body := ""
		if req.Operation == schema.OperationUninstall {
			if err := planUninstall(p, dir, l); err != nil {
				return err
			}
		} else {
			if err := planInstall(p, dir, l); err != nil {
				return err
			}
			if body, err = moduleBody(dir, l); err != nil {
				return err
			}
		}
		if doc, err = managed.SetBlock(doc, file, m.Name, body); err != nil {
			return fmt.Errorf("opencode: %w", err)
		}
	}
	switch {
	case doc == before:
		return nil
	case doc == "" && existed:
		// Only lola's section was there: the file was lola's.
		return p.Delete(file)
	default:
		return p.Write(file, doc)
	}
}

// moduleBody is the module's block in AGENTS.md: its instructions, then
// the list of its skills with when to use each and where it lives. Empty
// when the module has neither.
func moduleBody(dir string, l *layout) (string, error) {
	var b strings.Builder
	if l.instructions != nil {
		raw, err := lola.Bytes(*l.instructions)
		if err != nil {
			return "", err
		}
		b.WriteString(strings.TrimSpace(string(raw)))
	}
	if len(l.skillOrder) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("#### Skills\n")
		for _, skill := range l.skillOrder {
			desc := ""
			for _, f := range l.skills[skill] {
				if f.Path == "SKILL.md" {
					raw, err := lola.Bytes(f)
					if err != nil {
						return "", err
					}
					desc = description(string(raw))
				}
			}
			fmt.Fprintf(&b, "- **%s**: %s Instructions: `%sskills/%s/SKILL.md`\n", skill, whenToUse(desc), dir, skill)
		}
	}
	return b.String(), nil
}

func whenToUse(desc string) string {
	if desc == "" {
		return "(no description)."
	}
	if !strings.HasSuffix(desc, ".") {
		desc += "."
	}
	return desc
}

func planInstall(p *lola.Plan, dir string, l *layout) error {
	var errs []error
	for _, skill := range l.skillOrder {
		// Replace the skill directory whole: a stale supporting file from an
		// older version must not survive the upgrade.
		errs = append(errs, p.Delete(dir+"skills/"+skill))
		for _, f := range l.skills[skill] {
			errs = append(errs, p.WriteFile(dir+"skills/"+skill+"/"+f.Path, f))
		}
	}
	for _, f := range l.commands {
		errs = append(errs, p.WriteFile(dir+"commands/"+f.Path, f))
	}
	for _, f := range l.agents {
		raw, err := lola.Bytes(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, p.Write(dir+"agents/"+f.Path, asSubagent(string(raw))))
	}
	return errors.Join(errs...)
}

func planUninstall(p *lola.Plan, dir string, l *layout) error {
	var errs []error
	skills := append([]string(nil), l.skillOrder...)
	sort.Strings(skills)
	for _, skill := range skills {
		errs = append(errs, p.Delete(dir+"skills/"+skill))
	}
	for _, f := range l.commands {
		errs = append(errs, p.Delete(dir+"commands/"+f.Path))
	}
	for _, f := range l.agents {
		errs = append(errs, p.Delete(dir+"agents/"+f.Path))
	}
	return errors.Join(errs...)
}

// currentContent is the managed file's content as the host handed it over
// (the manifest names it under managed:), and whether it exists. Without an
// entry the file is absent.
func currentContent(req *lola.Request, file string) (string, bool, error) {
	for _, f := range req.Current {
		if f.Path != file {
			continue
		}
		b, err := lola.Bytes(f)
		if err != nil {
			return "", false, fmt.Errorf("opencode: current %s: %w", file, err)
		}
		return string(b), true, nil
	}
	return "", false, nil
}
