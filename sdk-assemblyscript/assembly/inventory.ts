// A module's parts — skills, commands, agents, instructions, MCP servers —
// resolved from the inventory the host sends with each module, so that a
// target is only its assistant's mapping and no target parses a module's
// layout again. The same contract as sdk-rust's inventory module: a module
// without an inventory, or whose inventory names a file the module does not
// carry, a skill file outside its skill's folder, a skill without SKILL.md,
// or an MCP server whose config is not a JSON object, is refused as a bad
// request ("request.invalid", status 1) through inventoryError, and
// inventoryOf returns null.
import { File, Module } from "./lola";
import { JNode, J_OBJ, parse } from "./json";

export class Skill {
  name: string = "";
  description: string = "";
  // "skills/<name>", or "" for a single-skill module.
  dir: string = "";
  skillMd: File = new File();
  // The skill's other files and their paths relative to the skill folder.
  files: File[] = [];
  rel: string[] = [];
}

export class Command {
  name: string = "";
  description: string = "";
  file: File = new File();
  // The co-named folder's files, paths relative to commands/<name>/.
  sidecar: File[] = [];
  sidecarRel: string[] = [];
}

export class Agent {
  name: string = "";
  description: string = "";
  model: string = "";
  file: File = new File();
}

export class Inventory {
  singleSkill: bool = false;
  skills: Skill[] = [];
  commands: Command[] = [];
  agents: Agent[] = [];
  instructions: File | null = null;
  // The MCP servers in mcps.json's order: an object node of name -> config.
  servers: JNode = new JNode();
}

export let inventoryError = "";

function fileOf(m: Module, path: string): File | null {
  for (let i = 0; i < m.files.length; i++) if (m.files[i].path == path) return m.files[i];
  inventoryError = "request.invalid: module " + m.name + ": inventory: " + path + " is not among the module's files";
  return null;
}

// relOf is path less the dir/ prefix, or "" (with inventoryError) when outside.
function relOf(m: Module, dir: string, path: string): string {
  const rel = dir == "" ? path : path.startsWith(dir + "/") ? path.substring(dir.length + 1) : "";
  if (rel == "") inventoryError = "request.invalid: module " + m.name + ": inventory: " + path + " is not inside " + dir;
  return rel;
}

export function inventoryOf(m: Module): Inventory | null {
  inventoryError = "";
  if (m.inventory == null) {
    inventoryError = "request.invalid: module " + m.name + ": inventory: missing (the host predates module inventories)";
    return null;
  }
  const src = m.inventory!;
  const inv = new Inventory();
  inv.singleSkill = src.singleSkill;
  for (let i = 0; i < src.skills.length; i++) {
    const s = src.skills[i];
    const k = new Skill();
    k.name = s.name;
    k.description = s.description;
    k.dir = s.dir;
    let md = false;
    for (let j = 0; j < s.files.length; j++) {
      const rel = relOf(m, s.dir, s.files[j]);
      if (rel == "") return null;
      const f = fileOf(m, s.files[j]);
      if (f == null) return null;
      if (rel == "SKILL.md") {
        k.skillMd = f!;
        md = true;
      } else {
        k.files.push(f!);
        k.rel.push(rel);
      }
    }
    if (!md) {
      inventoryError = "request.invalid: module " + m.name + ": inventory: skill " + s.name + " has no SKILL.md";
      return null;
    }
    inv.skills.push(k);
  }
  for (let i = 0; i < src.commands.length; i++) {
    const c = src.commands[i];
    const k = new Command();
    k.name = c.name;
    k.description = c.description;
    const f = fileOf(m, c.path);
    if (f == null) return null;
    k.file = f!;
    for (let j = 0; j < c.sidecar.length; j++) {
      const rel = relOf(m, "commands/" + c.name, c.sidecar[j]);
      if (rel == "") return null;
      const g = fileOf(m, c.sidecar[j]);
      if (g == null) return null;
      k.sidecar.push(g!);
      k.sidecarRel.push(rel);
    }
    inv.commands.push(k);
  }
  for (let i = 0; i < src.agents.length; i++) {
    const a = src.agents[i];
    const k = new Agent();
    k.name = a.name;
    k.description = a.description;
    k.model = a.model;
    const f = fileOf(m, a.path);
    if (f == null) return null;
    k.file = f!;
    inv.agents.push(k);
  }
  if (src.instructions != "") {
    const f = fileOf(m, src.instructions);
    if (f == null) return null;
    inv.instructions = f;
  }
  inv.servers.kind = J_OBJ;
  for (let i = 0; i < src.mcpServers.length; i++) {
    const s = src.mcpServers[i];
    const n = parse(s.config.text);
    if (n == null || n.kind != J_OBJ) {
      inventoryError = "request.invalid: module " + m.name + ": inventory: server " + s.name + ": config is not a JSON object";
      return null;
    }
    inv.servers.keys.push(s.name);
    inv.servers.keyStarts.push(0);
    inv.servers.items.push(n!);
  }
  return inv;
}

// universalNewlines reads text as upstream Lola reads a module's markdown
// (Python's Path.read_text()): "\r\n" and a lone "\r" become "\n".
export function universalNewlines(s: string): string {
  if (!s.includes("\r")) return s;
  return s.replaceAll("\r\n", "\n").replaceAll("\r", "\n");
}
