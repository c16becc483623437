// A module's parts — skills, commands, agents, instructions, MCP servers —
// so that a target is only its assistant's mapping of them. The layout is
// upstream Lola's (models.py), the same as sdk-rust's inventory module:
// skills are skills/<name>/SKILL.md with their supporting files (folders
// starting with a dot skipped); without any, a SKILL.md at the content root
// makes the module one skill, named by its frontmatter name or else the
// module; commands and agents are the .md files directly in commands/ and
// agents/; instructions are a non-empty AGENTS.md; MCP servers come from
// mcps.json. Lists are sorted by name, as upstream sorts them.
import { File, Module } from "./lola";
import { parse } from "./frontmatter";

export class Skill {
  name: string = "";
  // The skill folder's path in the module: "skills/<name>", or "" for a
  // single-skill module.
  dir: string = "";
  skillMd: File = new File();
  // Every file of the skill, SKILL.md included, with its path relative to
  // the skill folder in rel (same order as files).
  files: File[] = [];
  rel: string[] = [];
}

export class Named {
  name: string = "";
  file: File = new File();
}

export class Inventory {
  skills: Skill[] = [];
  commands: Named[] = [];
  agents: Named[] = [];
  instructions: File | null = null;
  mcps: File | null = null;
}

function byName(a: string, b: string): i32 {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortSkills(s: Skill[]): void {
  s.sort((a: Skill, b: Skill): i32 => byName(a.name, b.name));
}

function mdIn(m: Module, dir: string): Named[] {
  const out: Named[] = [];
  for (let i = 0; i < m.files.length; i++) {
    const p = m.files[i].path;
    if (!p.startsWith(dir + "/") || !p.endsWith(".md")) continue;
    const rest = p.substring(dir.length + 1);
    if (rest.includes("/")) continue;
    const n = new Named();
    n.name = rest.substring(0, rest.length - 3);
    n.file = m.files[i];
    out.push(n);
  }
  out.sort((a: Named, b: Named): i32 => byName(a.name, b.name));
  return out;
}

function skillFrom(m: Module, name: string, dir: string, md: File): Skill {
  const s = new Skill();
  s.name = name;
  s.dir = dir;
  s.skillMd = md;
  const prefix = dir == "" ? "" : dir + "/";
  const rels: string[] = [];
  for (let i = 0; i < m.files.length; i++) {
    if (m.files[i].path.startsWith(prefix)) rels.push(m.files[i].path.substring(prefix.length));
  }
  rels.sort(byName);
  for (let i = 0; i < rels.length; i++) {
    for (let j = 0; j < m.files.length; j++) {
      if (m.files[j].path == prefix + rels[i]) {
        s.files.push(m.files[j]);
        s.rel.push(rels[i]);
        break;
      }
    }
  }
  return s;
}

export function inventoryOf(m: Module): Inventory {
  const inv = new Inventory();
  for (let i = 0; i < m.files.length; i++) {
    const parts = m.files[i].path.split("/");
    if (parts.length == 3 && parts[0] == "skills" && parts[2] == "SKILL.md" && !parts[1].startsWith(".")) {
      inv.skills.push(skillFrom(m, parts[1], "skills/" + parts[1], m.files[i]));
    }
  }
  if (inv.skills.length == 0) {
    for (let i = 0; i < m.files.length; i++) {
      if (m.files[i].path != "SKILL.md") continue;
      const f = m.files[i];
      const name = f.encoding == "base64" ? "" : parse(f.content).get("name");
      inv.skills.push(skillFrom(m, name != "" ? name : m.name, "", f));
    }
  }
  sortSkills(inv.skills);
  inv.commands = mdIn(m, "commands");
  inv.agents = mdIn(m, "agents");
  for (let i = 0; i < m.files.length; i++) {
    const f = m.files[i];
    if (f.path == "AGENTS.md" && f.content != "") inv.instructions = f;
    if (f.path == "mcps.json") inv.mcps = f;
  }
  return inv;
}
