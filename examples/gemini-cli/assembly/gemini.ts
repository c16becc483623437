// Lola's Gemini CLI target, a tier-1 extension built with sdk-assemblyscript.
//
// For each module of the request (module paths are relative to the module):
//   skills/<skill>/...   copied to .lola/modules/<module>/skills/<skill>/...,
//                        and listed in the managed section of GEMINI.md
//                        (between <!-- lola:skills:start --> and
//                        <!-- lola:skills:end -->, one "### <module>" block);
//   commands/<cmd>.md    rendered as .gemini/commands/<module>-<cmd>.toml
//                        (description from frontmatter; $ARGUMENTS -> {{args}}).
// GEMINI.md's current content arrives in the request's `current` list (the
// manifest names it as managed): the extension rewrites only its module's
// block and leaves everything else byte for byte. uninstall deletes what
// install writes and removes the module's block.
import { File, Module, PlanBuilder, Request, register } from "@lola-pm/sdk-assemblyscript/assembly/lola";
export {
  lola_abi_version,
  lola_alloc,
  lola_run,
  lola_plan_ptr,
  lola_plan_len,
} from "@lola-pm/sdk-assemblyscript/assembly/lola";

const MANAGED = "GEMINI.md";
const START = "<!-- lola:skills:start -->";
const END = "<!-- lola:skills:end -->";
const HEADER =
  "## Lola Skills\n\nThese skills are installed by Lola. When a task matches a skill's\n" +
  "description, read the skill's SKILL.md and follow it.\n\n";

function frontmatter(doc: string): string {
  if (!doc.startsWith("---\n")) return "";
  const end = doc.indexOf("\n---", 4);
  return end < 0 ? "" : doc.substring(4, end);
}

function body(doc: string): string {
  if (!doc.startsWith("---\n")) return doc;
  const end = doc.indexOf("\n---\n", 4);
  if (end < 0) return doc;
  let b = doc.substring(end + 5);
  while (b.startsWith("\n")) b = b.substring(1);
  return b;
}

function description(doc: string): string {
  const lines = frontmatter(doc).split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith("description:")) {
      let v = lines[i].substring(12).trim();
      if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) {
        v = v.substring(1, v.length - 1);
      }
      return v;
    }
  }
  return "";
}

// tomlString renders s as a TOML basic string.
function tomlString(s: string): string {
  return '"' + s.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n") + '"';
}

// tomlMultiline renders s as a TOML multi-line basic string.
function tomlMultiline(s: string): string {
  return '"""\n' + s.replaceAll("\\", "\\\\").replaceAll('"""', '""\\"') + '"""';
}

function command(doc: string): string {
  return (
    "description = " + tomlString(description(doc)) + "\n" +
    "prompt = " + tomlMultiline(body(doc).replaceAll("$ARGUMENTS", "{{args}}")) + "\n"
  );
}

function skillName(f: File): string {
  const parts = f.path.split("/");
  return parts.length >= 3 && parts[0] == "skills" ? parts[1] : "";
}

function moduleBlock(m: Module): string {
  let block = "";
  for (let i = 0; i < m.files.length; i++) {
    const f = m.files[i];
    if (skillName(f) == "" || !f.path.endsWith("/SKILL.md") || f.path.split("/").length != 3) continue;
    const name = skillName(f);
    block += "#### " + name + "\n";
    block += "**When to use:** " + description(f.content) + "\n";
    block += "**Instructions:** Read `.lola/modules/" + m.name + "/skills/" + name + "/SKILL.md`.\n\n";
  }
  return block == "" ? "" : "\n### " + m.name + "\n\n" + block;
}

// withoutModule removes "### <module>" blocks from a managed section's inside.
function withoutModule(inside: string, module: string): string {
  const lines = inside.split("\n");
  let out: string[] = [];
  let skipping = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("### ")) skipping = line == "### " + module;
    if (!skipping) out.push(line);
  }
  return out.join("\n");
}

// hasModules reports whether a managed section's inside still lists a module.
function hasModules(inside: string): bool {
  const lines = inside.split("\n");
  for (let i = 0; i < lines.length; i++) if (lines[i].startsWith("### ")) return true;
  return false;
}

// managed returns GEMINI.md with m's block replaced (or removed when block
// is ""). When the last module's block goes, the whole section goes with
// the header and the blank line install put before it, so install then
// uninstall gives the file back as it was.
export function managed(current: string, module: string, block: string): string {
  const s = current.indexOf(START);
  const e = current.indexOf(END);
  if (s >= 0 && e > s) {
    const inside = withoutModule(current.substring(s + START.length, e), module);
    if (block == "" && !hasModules(inside)) {
      let from = s;
      if (from >= HEADER.length && current.substring(from - HEADER.length, from) == HEADER) from -= HEADER.length;
      if (from >= 2 && current.substring(from - 2, from) == "\n\n") from -= 2;
      let to = e + END.length;
      if (from > 0 && to < current.length && current.charAt(to) == "\n") {
        // keep one newline: it ends the text before the section
      } else if (to < current.length && current.charAt(to) == "\n") {
        to += 1;
      }
      return current.substring(0, from) + current.substring(to);
    }
    return current.substring(0, s) + START + inside + block + current.substring(e);
  }
  if (block == "") return current;
  let head = current;
  while (head.endsWith("\n")) head = head.substring(0, head.length - 1);
  return (head == "" ? "" : head + "\n\n") + HEADER + START + "\n" + block + END + "\n";
}

function handle(req: Request, plan: PlanBuilder): void {
  const uninstall = req.operation == "uninstall";
  let gemini = "";
  let existed = false;
  for (let i = 0; i < req.current.length; i++) {
    if (req.current[i].path == MANAGED) {
      gemini = req.current[i].content;
      existed = true;
    }
  }
  const before = gemini;
  for (let i = 0; i < req.modules.length; i++) {
    const m = req.modules[i];
    for (let j = 0; j < m.files.length; j++) {
      const f = m.files[j];
      let dest = "";
      let toml = false;
      if (skillName(f) != "") {
        dest = ".lola/modules/" + m.name + "/" + f.path;
      } else if (f.path.startsWith("commands/") && f.path.endsWith(".md") && f.path.split("/").length == 2) {
        dest = ".gemini/commands/" + m.name + "-" + f.path.substring(9, f.path.length - 3) + ".toml";
        toml = true;
      } else {
        continue;
      }
      if (uninstall) plan.delete(dest);
      else if (toml) plan.write(dest, command(f.content));
      else plan.writeFile(dest, f);
    }
    gemini = managed(gemini, m.name, uninstall ? "" : moduleBlock(m));
  }
  if (existed && gemini.trim() == "" && before.trim() != "") plan.delete(MANAGED);
  else if (gemini != before || (!existed && gemini != "")) plan.write(MANAGED, gemini);
}

register(handle);
