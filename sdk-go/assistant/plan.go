package assistant

import (
	"errors"
	"path"
	"strings"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
)

func (t *Target) commandFile(n string) string {
	if t.CommandFile != nil {
		return t.CommandFile(n)
	}
	return n + ".md"
}

func (t *Target) agentFile(n string) string {
	if t.AgentFile != nil {
		return t.AgentFile(n)
	}
	return n + ".md"
}

// sidecarDir is where a command's co-named directory goes: the command's
// file name less its last extension (deploy.md -> deploy/, and
// deploy.prompt.md -> deploy.prompt/, as today's Lola names it).
func sidecarDir(file string) string { return strings.TrimSuffix(file, path.Ext(file)) }

// write writes a module file to dest, keeping its execute bit and, when
// the host names it (File.Mode), its permission bits: a 0664 source
// installs as 0664, as today's Lola's copies keep modes.
func write(p *lola.Plan, dest string, f *lola.File) error {
	var opts []lola.WriteOption
	if f.Executable {
		opts = append(opts, lola.Executable)
	}
	if f.Mode != "" {
		opts = append(opts, lola.Mode(f.Mode))
	}
	return p.WriteFile(dest, *f, opts...)
}

func (t *Target) planInstall(p *lola.Plan, scope schema.Scope, m module) error {
	var errs []error
	inv := m.Inventory
	if dir := t.Skills.For(scope); dir != "" {
		for _, s := range inv.Skills {
			skillMD := path.Join(s.Dir, "SKILL.md")
			md := m.text(skillMD)
			verbatim := t.SkillMDVerbatim || !m.isText(skillMD)
			if t.Skill != nil {
				verbatim = false
				var ok bool
				if md, ok = t.Skill(s, md); !ok {
					continue
				}
			}
			dest := dir + "/" + s.Name
			// Replace the skill directory whole: a stale supporting file
			// from an older version must not survive the upgrade.
			errs = append(errs, p.Delete(dest))
			for _, f := range s.Files {
				rel := f
				if s.Dir != "" {
					rel = strings.TrimPrefix(f, s.Dir+"/")
				}
				if f == skillMD && !verbatim {
					errs = append(errs, p.Write(dest+"/"+rel, md))
					continue
				}
				errs = append(errs, write(p, dest+"/"+rel, m.files[f]))
			}
		}
	}
	if dir := t.Commands.For(scope); dir != "" {
		for _, c := range inv.Commands {
			file := t.commandFile(c.Name)
			if m.isText(c.Path) {
				errs = append(errs, p.Write(dir+"/"+file, m.text(c.Path)))
			} else {
				errs = append(errs, write(p, dir+"/"+file, m.files[c.Path]))
			}
			if len(c.Sidecar) > 0 {
				side := dir + "/" + sidecarDir(file)
				errs = append(errs, p.Delete(side))
				for _, f := range c.Sidecar {
					errs = append(errs, write(p, side+"/"+strings.TrimPrefix(f, "commands/"+c.Name+"/"), m.files[f]))
				}
			}
		}
	}
	if dir := t.Agents.For(scope); dir != "" {
		for _, a := range inv.Agents {
			dest := dir + "/" + t.agentFile(a.Name)
			if !m.isText(a.Path) {
				errs = append(errs, write(p, dest, m.files[a.Path]))
				continue
			}
			if t.Agent == nil {
				errs = append(errs, p.Write(dest, m.text(a.Path)))
				continue
			}
			errs = append(errs, p.Write(dest, t.Agent(a.Name, m.text(a.Path))))
		}
	}
	return errors.Join(errs...)
}

func (t *Target) planUninstall(p *lola.Plan, scope schema.Scope, m module) error {
	var errs []error
	inv := m.Inventory
	if dir := t.Skills.For(scope); dir != "" {
		for _, s := range inv.Skills {
			errs = append(errs, p.Delete(dir+"/"+s.Name))
		}
	}
	if dir := t.Commands.For(scope); dir != "" {
		for _, c := range inv.Commands {
			file := t.commandFile(c.Name)
			errs = append(errs, p.Delete(dir+"/"+file))
			if len(c.Sidecar) > 0 {
				errs = append(errs, p.Delete(dir+"/"+sidecarDir(file)))
			}
		}
	}
	if dir := t.Agents.For(scope); dir != "" {
		for _, a := range inv.Agents {
			errs = append(errs, p.Delete(dir+"/"+t.agentFile(a.Name)))
		}
	}
	return errors.Join(errs...)
}
