// MCP servers merged into, and removed from, an assistant's JSON config
// file the user edits too (.gemini/settings.json, .cursor/mcp.json). The
// same contract as sdk-rust's mcp module:
//   - every part of the user's file the merge does not change keeps its
//     bytes; a file lola creates and every server it adds are laid out as
//     upstream Lola writes them (json.dumps(indent=2) and a newline);
//   - a server already present with the same value is left untouched;
//   - removal takes out exactly the named servers, an "mcpServers" object it
//     empties goes too, and a file left with no member but "$schema" is
//     reported as gone (upstream deletes it then too);
//   - a current file that is not a JSON object, or whose mcpServers is not
//     an object, or that names mcpServers or an edited server twice, is
//     refused ("managed.invalid") instead of being replaced or guessed at;
//     a module's mcps.json whose mcpServers is not an object is refused
//     ("module.invalid").
// Errors are returned in mcpError ("rule: detail"); results are null then.
import { JNode, J_OBJ, parse, jsonError, dump, pyQuote } from "./json";

export const SERVERS = "mcpServers";
export let mcpError = "";

// The servers of a module's mcps.json (an object node, possibly empty), or null.
export function serversOf(mcpsJson: string): JNode | null {
  mcpError = "";
  const doc = parse(mcpsJson);
  if (doc == null || doc.kind != J_OBJ) {
    mcpError = "module.invalid: mcps.json is not a JSON object " + jsonError;
    return null;
  }
  const i = doc.find(SERVERS);
  if (i < 0) return new JNode();
  const t = doc.items[i];
  if (t.kind != J_OBJ) {
    mcpError = "module.invalid: mcps.json: \"mcpServers\" is not an object";
    return null;
  }
  return t;
}

function current(text: string): JNode | null {
  const doc = parse(text);
  if (doc == null) {
    mcpError = "managed.invalid: not valid JSON (" + jsonError + ")";
    return null;
  }
  if (doc.kind != J_OBJ) {
    mcpError = "managed.invalid: the top level is not a JSON object";
    return null;
  }
  return doc;
}

// twice reports (and sets mcpError) when obj names key more than once:
// which one the assistant reads is not ours to guess.
function twice(obj: JNode, key: string, what: string): bool {
  let n = 0;
  for (let i = 0; i < obj.keys.length; i++) if (obj.keys[i] == key) n++;
  if (n > 1) mcpError = "managed.invalid: " + what + " \"" + key + "\" is named twice";
  return n > 1;
}

// lineIndent is the whitespace starting pos's line when only whitespace
// precedes pos on it, else null.
function lineIndent(text: string, pos: i32): string | null {
  const ls = text.lastIndexOf("\n", pos - 1) + 1;
  for (let i = ls; i < pos; i++) {
    const c = text.charCodeAt(i);
    if (c != 0x20 && c != 0x09) return null;
  }
  return text.substring(ls, pos);
}

function leadOf(text: string, pos: i32): string {
  const ls = text.lastIndexOf("\n", pos - 1) + 1;
  let e = ls;
  while (e < text.length && (text.charCodeAt(e) == 0x20 || text.charCodeAt(e) == 0x09)) e++;
  return text.substring(ls, e);
}

function appendMember(text: string, obj: JNode, key: string, value: JNode): string {
  const n = obj.items.length;
  if (n > 0) {
    const last = obj.items[n - 1];
    const ind = lineIndent(text, obj.keyStarts[n - 1]);
    let sep = ", ";
    let indent = "";
    if (ind != null) {
      sep = ",\n" + ind!;
      indent = ind!;
    } else {
      const o = lineIndent(text, obj.start);
      if (o != null) indent = o!;
    }
    return text.substring(0, last.end) + sep + pyQuote(key) + ": " + dump(value, indent) + text.substring(last.end);
  }
  const o = lineIndent(text, obj.start);
  const base = o != null ? o! : leadOf(text, obj.start);
  const inner = base + "  ";
  const body = "{\n" + inner + pyQuote(key) + ": " + dump(value, inner) + "\n" + base + "}";
  return text.substring(0, obj.start) + body + text.substring(obj.end);
}

function removeMember(text: string, obj: JNode, idx: i32): string {
  let from = 0;
  let to = 0;
  if (idx > 0) {
    from = obj.items[idx - 1].end;
    to = obj.items[idx].end;
  } else if (obj.items.length > 1) {
    from = obj.keyStarts[0];
    to = obj.keyStarts[1];
  } else {
    from = obj.start + 1;
    to = obj.end - 1;
  }
  return text.substring(0, from) + text.substring(to);
}

function oneMember(key: string, value: JNode): JNode {
  const o = new JNode();
  o.kind = J_OBJ;
  o.keys.push(key);
  o.keyStarts.push(0);
  o.items.push(value);
  return o;
}

// merge returns the config file with servers merged in; cur is its current
// content or null when it does not exist.
export function merge(cur: string | null, servers: JNode): string | null {
  mcpError = "";
  if (cur == null || cur!.trim() == "") return dump(oneMember(SERVERS, servers), "") + "\n";
  let text = cur!;
  for (let i = 0; i < servers.keys.length; i++) {
    const key = servers.keys[i];
    const value = servers.items[i];
    const doc = current(text);
    if (doc == null || twice(doc!, SERVERS, "the member")) return null;
    const t = doc!.find(SERVERS);
    if (t < 0) {
      text = appendMember(text, doc!, SERVERS, oneMember(key, value));
      continue;
    }
    const table = doc!.items[t];
    if (table.kind != J_OBJ) {
      mcpError = "managed.invalid: \"mcpServers\" is not a JSON object";
      return null;
    }
    if (twice(table, key, "the server")) return null;
    const e = table.find(key);
    if (e < 0) {
      text = appendMember(text, table, key, value);
    } else if (!table.items[e].same(value)) {
      const ind = lineIndent(text, table.keyStarts[e]);
      const old = table.items[e];
      text = text.substring(0, old.start) + dump(value, ind != null ? ind! : "") + text.substring(old.end);
    }
  }
  return text;
}

// removed is set by remove: true when the file is left with nothing in it
// (the caller deletes it).
export let gone = false;

// remove returns the config file without the servers named in names, or
// null on a refusal (mcpError set). gone tells whether nothing is left.
export function remove(cur: string, names: string[]): string | null {
  mcpError = "";
  gone = false;
  let text = cur;
  let removed = false;
  for (let i = 0; i < names.length; i++) {
    const doc = current(text);
    if (doc == null || twice(doc!, SERVERS, "the member")) return null;
    const t = doc!.find(SERVERS);
    if (t < 0) break;
    const table = doc!.items[t];
    if (table.kind != J_OBJ) {
      mcpError = "managed.invalid: \"mcpServers\" is not a JSON object";
      return null;
    }
    if (twice(table, names[i], "the server")) return null;
    const e = table.find(names[i]);
    if (e >= 0) {
      text = removeMember(text, table, e);
      removed = true;
    }
  }
  if (!removed) return text;
  const doc = current(text);
  if (doc == null) return null;
  const t = doc!.find(SERVERS);
  if (t >= 0 && doc!.items[t].kind == J_OBJ && doc!.items[t].items.length == 0) {
    text = removeMember(text, doc!, t);
    const left = current(text);
    if (left == null) return null;
    // Nothing but "$schema" left: lola's alone, as upstream judges it.
    let onlySchema = true;
    for (let k = 0; k < left!.keys.length; k++) if (left!.keys[k] != "$schema") onlySchema = false;
    if (onlySchema) gone = true;
  }
  return text;
}
