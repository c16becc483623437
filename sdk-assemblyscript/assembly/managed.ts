// Managed blocks: text between two marker lines inside a file the user also
// edits (GEMINI.md, AGENTS.md). Only the block changes; every byte outside
// it stays. The same contract as sdk-rust's managed module, plus upstream
// Lola's skills section (used by the targets that list skills in a
// markdown file rather than installing them where the assistant finds them).

export const INSTRUCTIONS_START = "<!-- lola:instructions:start -->";
export const INSTRUCTIONS_END = "<!-- lola:instructions:end -->";
export const SKILLS_START = "<!-- lola:skills:start -->";
export const SKILLS_END = "<!-- lola:skills:end -->";

// findBlock returns [start, end) of the first start…end block, or [-1, -1].
export function findBlock(content: string, start: string, end: string): i32[] {
  const s = content.indexOf(start);
  if (s < 0) return [-1, -1];
  const e = content.indexOf(end, s + start.length);
  if (e < 0) return [-1, -1];
  return [s, e + end.length];
}

function trimEndNewlines(s: string): string {
  let e = s.length;
  while (e > 0 && s.charCodeAt(e - 1) == 0x0a) e--;
  return s.substring(0, e);
}

// rejoin joins the text before a removed block (its trailing newlines
// trimmed) to the text after it. With nothing before it, the newline that
// ended the block goes too: a block added to an empty file leaves it empty
// again, not holding a newline the user never wrote.
function rejoin(head: string, tail: string): string {
  const h = trimEndNewlines(head);
  if (h == "" && tail.startsWith("\n")) return tail.substring(1);
  return h + tail;
}

// splice replaces the block's inside with inner, or appends the block after
// the file's text (trailing whitespace trimmed, a blank line between).
export function splice(content: string, start: string, end: string, inner: string): string {
  const b = findBlock(content, start, end);
  if (b[0] >= 0) return content.substring(0, b[0]) + start + inner + end + content.substring(b[1]);
  const head = content.trimEnd();
  return head + (head == "" ? "" : "\n\n") + start + inner + end + "\n";
}

// removeBlock removes the block and the newlines before it.
export function removeBlock(content: string, start: string, end: string): string {
  const b = findBlock(content, start, end);
  if (b[0] < 0) return content;
  return rejoin(content.substring(0, b[0]), content.substring(b[1]));
}

// lead is the user's text before a new section: trailing whitespace trimmed
// and a blank line, as upstream appends it — except that a file with no
// text of the user's starts with lola's section, where upstream writes two
// blank lines first (the project's shared difference for every target).
function lead(content: string): string {
  const head = content.trimEnd();
  return head == "" ? "" : head + "\n\n";
}

function moduleStart(m: string): string {
  return "<!-- lola:module:" + m + ":start -->";
}
function moduleEnd(m: string): string {
  return "<!-- lola:module:" + m + ":end -->";
}

// moduleBlocks lists the module blocks of an instructions section's inside.
function moduleBlocks(inside: string, names: string[], blocks: string[]): void {
  const open = "<!-- lola:module:";
  let from = 0;
  while (true) {
    const i = inside.indexOf(open, from);
    if (i < 0) return;
    const n = inside.indexOf(":start -->", i + open.length);
    if (n < 0) return;
    const name = inside.substring(i + open.length, n);
    if (name == "" || name.includes(":")) { from = i + open.length; continue; }
    const close = moduleEnd(name);
    const c = inside.indexOf(close, i);
    if (c < 0) { from = i + open.length; continue; }
    const k = names.indexOf(name);
    const block = inside.substring(i, c + close.length).trim();
    if (k >= 0) { names.splice(k, 1); blocks.splice(k, 1); }
    names.push(name);
    blocks.push(block);
    from = c + close.length;
  }
}

function withoutModuleBlock(inside: string, module: string): string {
  const b = findBlock(inside, moduleStart(module), moduleEnd(module));
  return b[0] < 0 ? inside : inside.substring(0, b[0]) + inside.substring(b[1]);
}

// instructionsSet puts module's instructions (trimmed) in upstream's
// section, module blocks sorted by name; empty text changes nothing.
export function instructionsSet(content: string, module: string, text: string): string {
  const t = text.trim();
  if (t == "") return content;
  const block = moduleStart(module) + "\n" + t + "\n" + moduleEnd(module);
  const b = findBlock(content, INSTRUCTIONS_START, INSTRUCTIONS_END);
  if (b[0] < 0) return lead(content) + INSTRUCTIONS_START + "\n" + block + "\n" + INSTRUCTIONS_END + "\n";
  const inside = withoutModuleBlock(content.substring(b[0] + INSTRUCTIONS_START.length, b[1] - INSTRUCTIONS_END.length), module);
  const names: string[] = [];
  const blocks: string[] = [];
  moduleBlocks(inside, names, blocks);
  const k = names.indexOf(module);
  if (k >= 0) { names.splice(k, 1); blocks.splice(k, 1); }
  names.push(module);
  blocks.push(block);
  const sorted = names.slice(0);
  sorted.sort((a: string, b: string): i32 => (a < b ? -1 : a > b ? 1 : 0));
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) parts.push(blocks[names.indexOf(sorted[i])]);
  const joined = parts.join("\n\n");
  return content.substring(0, b[0]) + INSTRUCTIONS_START + (joined == "" ? "" : "\n" + joined + "\n") + INSTRUCTIONS_END + content.substring(b[1]);
}

// instructionsRemove takes module's block out; the section goes when empty.
export function instructionsRemove(content: string, module: string): string {
  const b = findBlock(content, INSTRUCTIONS_START, INSTRUCTIONS_END);
  if (b[0] < 0) return content;
  const before = content.substring(b[0] + INSTRUCTIONS_START.length, b[1] - INSTRUCTIONS_END.length);
  let inside = withoutModuleBlock(before, module);
  if (inside != before) {
    while (inside.includes("\n\n\n")) inside = inside.replaceAll("\n\n\n", "\n\n");
  }
  const names: string[] = [];
  const blocks: string[] = [];
  moduleBlocks(inside, names, blocks);
  if (names.length == 0) return rejoin(content.substring(0, b[0]), content.substring(b[1]));
  return content.substring(0, b[0]) + INSTRUCTIONS_START + inside + INSTRUCTIONS_END + content.substring(b[1]);
}

// withoutModuleSkills drops the "### <module>" part of a skills section's inside.
function withoutModuleSkills(inside: string, module: string): string {
  const lines = inside.split("\n");
  const out: string[] = [];
  let skipping = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("### ")) {
      if (line == "### " + module) { skipping = true; continue; }
      skipping = false;
    }
    if (!skipping) out.push(line);
  }
  return out.join("\n");
}

// skillsSet puts module's skills listing (block: "\n### <module>\n\n...")
// in upstream's skills section, after the other modules' listings; a new
// section goes after the file's text, headed by header.
export function skillsSet(content: string, header: string, module: string, block: string): string {
  const b = findBlock(content, SKILLS_START, SKILLS_END);
  if (b[0] < 0) return lead(content) + header + SKILLS_START + "\n" + block + SKILLS_END + "\n";
  const inside = withoutModuleSkills(content.substring(b[0] + SKILLS_START.length, b[1] - SKILLS_END.length), module);
  return content.substring(0, b[0]) + SKILLS_START + inside + block + SKILLS_END + content.substring(b[1]);
}

// skillsRemove takes module's listing out. When no module is listed any
// more the section goes, with its header and the newlines before it, so
// install then uninstall gives the user's file back (upstream leaves an
// empty section behind).
export function skillsRemove(content: string, header: string, module: string): string {
  const b = findBlock(content, SKILLS_START, SKILLS_END);
  if (b[0] < 0) return content;
  const inside = withoutModuleSkills(content.substring(b[0] + SKILLS_START.length, b[1] - SKILLS_END.length), module);
  if (!inside.includes("\n### ") && !inside.startsWith("### ")) {
    let head = b[0];
    if (content.substring(0, head).endsWith(header)) head -= header.length;
    return rejoin(content.substring(0, head), content.substring(b[1]));
  }
  return content.substring(0, b[0]) + SKILLS_START + inside + SKILLS_END + content.substring(b[1]);
}
