// Markdown frontmatter, read as upstream Lola reads it (its frontmatter.py
// on python-frontmatter and PyYAML's safe loader), and written back.
//
// Reading: the document is trimmed; if its first line is a fence of three
// or more dashes, the text up to the next such line is the YAML and the
// rest, trimmed, is the body. Fields are the top-level "key: value" lines;
// a value is kept as a string when it is one in YAML (plain or quoted, or a
// ">-" folded block); anything else (lists, numbers, nested mappings) is
// kept as its source text with isString false. A top-level line this reader
// cannot read makes the whole document the body with no fields, as upstream
// does for YAML that does not parse.
//
// Writing (render): string fields are written plain when PyYAML would
// write them plain, double-quoted otherwise; other fields as their source
// text. Unlike sdk-rust's writer this does not reproduce PyYAML's single
// quoting or its folding of long lines (no AssemblyScript target rewrites
// frontmatter today).

export class Field {
  key: string = "";
  value: string = "";
  isString: bool = true;
}

export class Document {
  fields: Field[] = [];
  body: string = "";

  // get returns the string value of key, or "" when absent or not a string.
  get(key: string): string {
    for (let i = 0; i < this.fields.length; i++) {
      if (this.fields[i].key == key && this.fields[i].isString) return this.fields[i].value;
    }
    return "";
  }

  // has reports whether the frontmatter has key.
  has(key: string): bool {
    for (let i = 0; i < this.fields.length; i++) if (this.fields[i].key == key) return true;
    return false;
  }

  // set sets key to a string value, in place or appended.
  set(key: string, value: string): void {
    for (let i = 0; i < this.fields.length; i++) {
      if (this.fields[i].key == key) {
        this.fields[i].value = value;
        this.fields[i].isString = true;
        return;
      }
    }
    const f = new Field();
    f.key = key;
    f.value = value;
    this.fields.push(f);
  }

  render(): string {
    let out = "---\n";
    for (let i = 0; i < this.fields.length; i++) {
      const f = this.fields[i];
      if (!f.isString) out += f.key + ":" + (f.value.startsWith("\n") ? "" : " ") + f.value + "\n";
      else out += f.key + ": " + (plainSafe(f.value) ? f.value : dq(f.value)) + "\n";
    }
    return out + "---\n" + this.body;
  }
}

function dq(s: string): string {
  return '"' + s.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n").replaceAll("\t", "\\t") + '"';
}

const WORDS = ["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
  "on", "On", "ON", "off", "Off", "OFF", "~", "null", "Null", "NULL", "<<", "="];

function numberLike(s: string): bool {
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c != 0x2e && c != 0x5f && c != 0x2b && c != 0x2d && c != 0x3a && c != 0x65 && c != 0x45 && c != 0x78) return false;
  }
  return digits > 0;
}

// plainSafe reports whether PyYAML would write s as a plain scalar.
export function plainSafe(s: string): bool {
  if (s.length == 0 || WORDS.includes(s) || numberLike(s)) return false;
  if (s.startsWith("---") || s.startsWith("...")) return false;
  if (s.charAt(0) == " " || s.charAt(s.length - 1) == " ") return false;
  if ("#,[]{}&*!|>'\"%@`".indexOf(s.charAt(0)) >= 0) return false;
  const c0 = s.charAt(0);
  if ((c0 == "-" || c0 == "?" || c0 == ":") && (s.length == 1 || s.charAt(1) == " ")) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
    if (c == 0x3a && (i + 1 == s.length || s.charAt(i + 1) == " ")) return false;
    if (c == 0x23 && i > 0 && s.charAt(i - 1) == " ") return false;
  }
  if (s.length >= 8 && numberLike(s.substring(0, 4)) && s.charAt(4) == "-") return false;
  return true;
}

function isFence(line: string): bool {
  let d = 0;
  while (d < line.length && line.charAt(d) == "-") d++;
  return d >= 3 && line.substring(d).trim() == "";
}

function unquote(v: string, f: Field): bool {
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) {
    f.value = v.substring(1, v.length - 1).replaceAll("''", "'");
    return true;
  }
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    const inner = v.substring(1, v.length - 1);
    let out = "";
    for (let i = 0; i < inner.length; i++) {
      const c = inner.charAt(i);
      if (c == '"') return false;
      if (c != "\\") { out += c; continue; }
      i++;
      const e = inner.charAt(i);
      if (e == "n") out += "\n";
      else if (e == "t") out += "\t";
      else if (e == "\\" || e == '"' || e == "/" || e == " ") out += e;
      else return false;
    }
    f.value = out;
    return true;
  }
  if (v.length > 0 && "[]{}|>&*!%@`".indexOf(v.charAt(0)) >= 0) {
    f.isString = false;
    f.value = v;
    return true;
  }
  const hash = v.indexOf(" #");
  const plain = hash >= 0 ? v.substring(0, hash).trimEnd() : v;
  f.value = plain;
  f.isString = !(plain == "" || WORDS.includes(plain) || numberLike(plain));
  return true;
}

function readFields(front: string, out: Field[]): bool {
  const lines = front.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i++];
    if (line.trim() == "" || line.trimStart().startsWith("#")) continue;
    if (line.startsWith(" ") || line.startsWith("\t")) return false;
    let colon = line.indexOf(": ");
    if (colon < 0 && line.endsWith(":")) colon = line.length - 1;
    if (colon <= 0) return false;
    const f = new Field();
    f.key = line.substring(0, colon).trim();
    const rest = line.substring(colon + 1).trim();
    let cont: string[] = [];
    while (i < lines.length && (lines[i].startsWith(" ") || lines[i].startsWith("\t") || lines[i].startsWith("-") || lines[i].trim() == "")) {
      cont.push(lines[i++]);
    }
    while (cont.length > 0 && cont[cont.length - 1].trim() == "") { cont.pop(); i--; }
    if (cont.length == 0) {
      if (!unquote(rest, f)) return false;
    } else if (rest == ">-") {
      const words: string[] = [];
      for (let k = 0; k < cont.length; k++) words.push(cont[k].trim());
      f.value = words.join(" ");
    } else {
      f.isString = false;
      f.value = rest + "\n" + cont.join("\n");
    }
    let replaced = false;
    for (let k = 0; k < out.length; k++) {
      if (out[k].key == f.key) { out[k] = f; replaced = true; }
    }
    if (!replaced) out.push(f);
  }
  return true;
}

// parse splits doc into fields and body (see the top of this file).
export function parse(doc: string): Document {
  const d = new Document();
  const text = doc.trim();
  const firstEnd = text.indexOf("\n") < 0 ? text.length : text.indexOf("\n");
  d.body = text;
  if (!isFence(text.substring(0, firstEnd))) return d;
  let pos = firstEnd;
  while (pos < text.length) {
    const start = pos + 1;
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (isFence(text.substring(start, end))) {
      const fields: Field[] = [];
      if (!readFields(text.substring(firstEnd + 1 < start ? firstEnd + 1 : start, start), fields)) {
        d.body = doc;
        return d;
      }
      d.fields = fields;
      d.body = text.substring(end).trim();
      return d;
    }
    pos = end;
  }
  return d;
}

// hasPositionalArgs reports whether content uses $1, $2, ... placeholders.
export function hasPositionalArgs(content: string): bool {
  for (let i = 0; i + 1 < content.length; i++) {
    const c = content.charCodeAt(i + 1);
    if (content.charAt(i) == "$" && c >= 0x30 && c <= 0x39) return true;
  }
  return false;
}
