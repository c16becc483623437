// Markdown frontmatter, read as upstream Lola reads it (its frontmatter.py
// on python-frontmatter and PyYAML's safe loader) and written as upstream
// writes a rewritten agent (yaml.dump between fences) — the same contract
// as sdk-rust's frontmatter module.
//
// Reading: the document is trimmed; if its first line is a fence of three
// or more dashes, the text up to the next such line is the YAML and the
// rest, trimmed, is the body. YAML this reader cannot read (see yaml.ts)
// gives no fields and the whole document, untrimmed, as the body, as
// upstream does for YAML that does not parse.
import { YField, YValue, Y_STR, parse as parseYAML, dump } from "./yaml";

export class Document {
  fields: YField[] = [];
  body: string = "";

  // get returns the string value of key, or "" when absent or not a string.
  get(key: string): string {
    for (let i = 0; i < this.fields.length; i++) {
      const f = this.fields[i];
      if (f.key == key && f.value.kind == Y_STR) return f.value.text;
    }
    return "";
  }

  // has reports whether the frontmatter has key.
  has(key: string): bool {
    for (let i = 0; i < this.fields.length; i++) if (this.fields[i].key == key) return true;
    return false;
  }

  // set sets key to a string value, in place or appended (dict.update order).
  set(key: string, value: string): void {
    const v = new YValue();
    v.text = value;
    for (let i = 0; i < this.fields.length; i++) {
      if (this.fields[i].key == key) {
        this.fields[i].value = v;
        return;
      }
    }
    const f = new YField();
    f.key = key;
    f.value = v;
    this.fields.push(f);
  }

  // render is the document as upstream writes a rewritten agent.
  render(): string {
    return "---\n" + dump(this.fields) + "\n---\n" + this.body;
  }
}

function isFence(line: string): bool {
  let d = 0;
  while (d < line.length && line.charAt(d) == "-") d++;
  return d >= 3 && line.substring(d).trim() == "";
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
      const fields = parseYAML(text.substring(firstEnd + 1 < start ? firstEnd + 1 : start, start));
      if (fields == null) {
        d.body = doc;
        return d;
      }
      d.fields = fields!;
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
