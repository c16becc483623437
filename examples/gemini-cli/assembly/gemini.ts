// Lola's Gemini CLI target, a tier-1 extension built with
// sdk-assemblyscript. It writes what upstream Lola's Gemini target writes
// (see README.md for the intentional differences), in project and user
// scope (the host hands the project or the home as the root):
//   - each command to .gemini/commands/<cmd>.toml: the frontmatter's
//     description and the body as the prompt, $ARGUMENTS as {{args}}, and
//     "Arguments: {{args}}" before a body that uses $1, $2, ...;
//   - the module's skills listed in GEMINI.md's skills section (upstream's
//     header and markers), each pointing at a copy of the skill: under
//     .lola/modules/<module>/ in project scope, as upstream copies it there,
//     and under .gemini/lola/modules/<module>/ in user scope;
//   - the module's AGENTS.md as its block in GEMINI.md's instructions section;
//   - the servers of mcps.json merged into .gemini/settings.json.
// GEMINI.md and .gemini/settings.json are managed files: the host hands
// their current content; only lola's parts change, the user's bytes stay.
// uninstall deletes what install writes and takes lola's parts out again.
import { File, Module, PlanBuilder, Request, register } from "@lola-pm/sdk-assemblyscript/assembly/lola";
import { inventoryOf, inventoryError, universalNewlines, Inventory } from "@lola-pm/sdk-assemblyscript/assembly/inventory";
import { parse, hasPositionalArgs } from "@lola-pm/sdk-assemblyscript/assembly/frontmatter";
import { instructionsSet, instructionsRemove, skillsSet, skillsRemove } from "@lola-pm/sdk-assemblyscript/assembly/managed";
import { merge, remove, mcpError, gone } from "@lola-pm/sdk-assemblyscript/assembly/mcp";
export {
  lola_abi_version,
  lola_alloc,
  lola_run,
  lola_plan_ptr,
  lola_plan_len,
} from "@lola-pm/sdk-assemblyscript/assembly/lola";

const GEMINI_MD = "GEMINI.md";
const SETTINGS = ".gemini/settings.json";

// Upstream's header of the skills section, word for word: Gemini CLI users
// switching from upstream keep the same GEMINI.md.
export const HEADER =
  "## Lola Skills\n\n" +
  "These skills are installed by Lola and provide specialized capabilities.\n" +
  "When a task matches a skill's description, read the skill's SKILL.md file\n" +
  "to learn the detailed instructions and workflows.\n\n" +
  "**How to use skills:**\n" +
  "1. Check if your task matches any skill description below\n" +
  "2. Use `read_file` to read the skill's SKILL.md for detailed instructions\n" +
  "3. Follow the instructions in the SKILL.md file\n\n";

// gemini converts a command's argument placeholders as upstream does.
export function geminiArgs(body: string): string {
  const r = body.replaceAll("$ARGUMENTS", "{{args}}");
  return hasPositionalArgs(r) ? "Arguments: {{args}}\n\n" + r : r;
}

// command renders a command file as Gemini CLI's TOML, byte for byte as
// upstream writes it (no final newline); description is the inventory's.
export function command(doc: string, description: string): string {
  const d = parse(doc);
  const desc = description.replaceAll("\\", "\\\\").replaceAll('"', '\\"');
  const prompt = geminiArgs(d.body).trimEnd().replaceAll('"""', '\\"""');
  return 'description = "' + desc + '"\nprompt = """\n' + prompt + '\n"""';
}

// copyRoot is where a module's skill copies go, per scope.
function copyRoot(scope: string, module: string): string {
  return (scope == "user" ? ".gemini/lola/modules/" : ".lola/modules/") + module;
}

// listedRoot is how GEMINI.md names copyRoot.
function listedRoot(scope: string, module: string): string {
  return scope == "user" ? "~/" + copyRoot(scope, module) : copyRoot(scope, module);
}

function skillsBlock(scope: string, m: Module, inv: Inventory): string {
  let block = "\n### " + m.name + "\n\n";
  for (let i = 0; i < inv.skills.length; i++) {
    const s = inv.skills[i];
    const dir = listedRoot(scope, m.name) + (s.dir == "" ? "" : "/" + s.dir);
    block += "#### " + s.name + "\n";
    block += "**When to use:** " + s.description + "\n";
    block += "**Instructions:** Read `" + dir + "/SKILL.md` for detailed guidance.\n\n";
  }
  return block;
}

function currentOf(req: Request, path: string): string | null {
  const f = currentFile(req, path);
  return f != null ? f!.content : null;
}

// currentFile is the request's current file at path, null when none: a
// rewrite computed from it is a compare-and-swap on it (plan.rewrite).
function currentFile(req: Request, path: string): File | null {
  for (let i = 0; i < req.current.length; i++) if (req.current[i].path == path) return req.current[i];
  return null;
}

function handle(req: Request, plan: PlanBuilder): void {
  const uninstall = req.operation == "uninstall";
  const mdBefore = currentOf(req, GEMINI_MD);
  const setBefore = currentOf(req, SETTINGS);
  let md = mdBefore != null ? mdBefore! : "";
  let settings: string | null = setBefore;
  let emptied = false;
  for (let i = 0; i < req.modules.length; i++) {
    const m = req.modules[i];
    const found = inventoryOf(m);
    if (found == null) {
      plan.fail(inventoryError);
      return;
    }
    const inv = found!;
    // Skills: copies, and the listing in GEMINI.md.
    for (let k = 0; k < inv.skills.length; k++) {
      const s = inv.skills[k];
      const base = copyRoot(req.scope, m.name) + (s.dir == "" ? "" : "/" + s.dir) + "/";
      if (uninstall) plan.delete(base + "SKILL.md");
      else plan.copyFile(base + "SKILL.md", s.skillMd);
      for (let j = 0; j < s.files.length; j++) {
        if (uninstall) plan.delete(base + s.rel[j]);
        else plan.copyFile(base + s.rel[j], s.files[j]);
      }
    }
    if (inv.skills.length > 0) {
      md = uninstall ? skillsRemove(md, HEADER, m.name) : skillsSet(md, HEADER, m.name, skillsBlock(req.scope, m, inv));
    }
    // Commands.
    for (let k = 0; k < inv.commands.length; k++) {
      const c = inv.commands[k];
      const dest = ".gemini/commands/" + c.name + ".toml";
      if (uninstall) plan.delete(dest);
      else if (c.file.encoding == "base64") plan.fail("module.invalid: " + c.file.path + " is not UTF-8 text");
      else plan.write(dest, command(universalNewlines(c.file.content), c.description));
    }
    // MCP servers.
    if (inv.servers.keys.length > 0) {
      if (uninstall) {
        if (settings != null) {
          const left = remove(settings!, inv.servers.keys);
          if (left == null) { plan.fail(mcpError); return; }
          // A later module whose servers are already gone leaves an
          // emptied file emptied.
          emptied = gone || (emptied && left! == settings!);
          settings = left;
        }
      } else {
        const merged = merge(settings, inv.servers);
        if (merged == null) { plan.fail(mcpError); return; }
        settings = merged;
        emptied = false;
      }
    }
    // Instructions.
    if (inv.instructions != null) {
      md = uninstall ? instructionsRemove(md, m.name) : instructionsSet(md, m.name, universalNewlines(inv.instructions!.content));
    }
  }
  // Only a file lola created goes; the user's, however empty, stays.
  if (emptied && setBefore != null && req.lolaCreated(SETTINGS)) plan.delete(SETTINGS);
  else if (settings != null && (setBefore == null || settings! != setBefore!)) plan.rewrite(SETTINGS, settings!, currentFile(req, SETTINGS));
  const before = mdBefore != null ? mdBefore! : "";
  if (md != before) {
    // A GEMINI.md lola created goes once its removal leaves it empty; a
    // GEMINI.md the user had stays.
    if (uninstall && md.trim() == "" && req.lolaCreated(GEMINI_MD)) plan.delete(GEMINI_MD);
    else plan.rewrite(GEMINI_MD, md, currentFile(req, GEMINI_MD));
  }
}

register(handle);
