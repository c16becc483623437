// A small JSON reader that remembers where every value sits in the text,
// and a writer in upstream Lola's layout (Python's json.dumps(indent=2),
// ASCII-only escapes). The MCP merge splices with these positions, so the
// parts of a user's file it does not change keep their bytes. Positions are
// UTF-16 code units, as AssemblyScript strings index.
//
// Errors: AssemblyScript has no exceptions; parse returns null and leaves
// the reason in jsonError. Numbers keep their source text; duplicate keys
// are kept as written.

export const J_NULL: i32 = 0;
export const J_BOOL: i32 = 1;
export const J_NUM: i32 = 2;
export const J_STR: i32 = 3;
export const J_ARR: i32 = 4;
export const J_OBJ: i32 = 5;

export class JNode {
  kind: i32 = J_NULL;
  start: i32 = 0;
  end: i32 = 0;
  // The decoded string, the number's text, or "true"/"false".
  text: string = "";
  // Array items or object member values.
  items: JNode[] = [];
  // Object member keys and where each key's opening quote is.
  keys: string[] = [];
  keyStarts: i32[] = [];

  // The index of member key, or -1.
  find(key: string): i32 {
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] == key) return i;
    return -1;
  }

  // Whether two values are equal as JSON (member order counts).
  same(o: JNode): bool {
    if (this.kind != o.kind || this.text != o.text || this.items.length != o.items.length) return false;
    for (let i = 0; i < this.items.length; i++) {
      if (this.kind == J_OBJ && this.keys[i] != o.keys[i]) return false;
      if (!this.items[i].same(o.items[i])) return false;
    }
    return true;
  }
}

export let jsonError = "";

const MAX_DEPTH = 128;

class Parser {
  s: string;
  i: i32 = 0;
  depth: i32 = 0;
  err: string = "";
  constructor(s: string) {
    this.s = s;
  }

  fail(why: string): JNode | null {
    if (this.err == "") this.err = "at " + this.i.toString() + ": " + why;
    return null;
  }

  ws(): void {
    while (this.i < this.s.length) {
      const c = this.s.charCodeAt(this.i);
      if (c != 0x20 && c != 0x09 && c != 0x0a && c != 0x0d) break;
      this.i++;
    }
  }

  peek(): i32 {
    return this.i < this.s.length ? this.s.charCodeAt(this.i) : -1;
  }

  value(): JNode | null {
    const n = new JNode();
    n.start = this.i;
    const c = this.peek();
    if (c == 0x7b) {
      if (!this.object(n)) return null;
    } else if (c == 0x5b) {
      if (!this.array(n)) return null;
    } else if (c == 0x22) {
      const s = this.string();
      if (s == null) return null;
      n.kind = J_STR;
      n.text = s!;
    } else if (this.s.startsWith("true", this.i)) {
      n.kind = J_BOOL; n.text = "true"; this.i += 4;
    } else if (this.s.startsWith("false", this.i)) {
      n.kind = J_BOOL; n.text = "false"; this.i += 5;
    } else if (this.s.startsWith("null", this.i)) {
      n.kind = J_NULL; this.i += 4;
    } else if (c == 0x2d || (c >= 0x30 && c <= 0x39)) {
      if (!this.number()) return null;
      n.kind = J_NUM;
      n.text = this.s.substring(n.start, this.i);
    } else {
      return this.fail("expected a value");
    }
    n.end = this.i;
    return n;
  }

  digits(): bool {
    const d = this.i;
    while (this.peek() >= 0x30 && this.peek() <= 0x39) this.i++;
    return this.i > d;
  }

  number(): bool {
    if (this.peek() == 0x2d) this.i++;
    if (this.peek() == 0x30) this.i++;
    else if (!this.digits()) { this.fail("bad number"); return false; }
    if (this.peek() == 0x2e) {
      this.i++;
      if (!this.digits()) { this.fail("bad number"); return false; }
    }
    if (this.peek() == 0x65 || this.peek() == 0x45) {
      this.i++;
      if (this.peek() == 0x2b || this.peek() == 0x2d) this.i++;
      if (!this.digits()) { this.fail("bad number"); return false; }
    }
    return true;
  }

  hex4(): i32 {
    if (this.i + 4 > this.s.length) return -1;
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const c = this.s.charCodeAt(this.i + k);
      let d = -1;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) d = c - 0x61 + 10;
      else if (c >= 0x41 && c <= 0x46) d = c - 0x41 + 10;
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    this.i += 4;
    return v;
  }

  string(): string | null {
    this.i++; // the opening quote
    let out = "";
    let run = this.i;
    while (true) {
      if (this.i >= this.s.length) { this.fail("unterminated string"); return null; }
      const c = this.s.charCodeAt(this.i);
      if (c == 0x22) {
        out += this.s.substring(run, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) { this.fail("control character in string"); return null; }
      if (c != 0x5c) { this.i++; continue; }
      out += this.s.substring(run, this.i);
      this.i++;
      const e = this.peek();
      this.i++;
      if (e == 0x22) out += '"';
      else if (e == 0x5c) out += "\\";
      else if (e == 0x2f) out += "/";
      else if (e == 0x62) out += "\b";
      else if (e == 0x66) out += "\f";
      else if (e == 0x6e) out += "\n";
      else if (e == 0x72) out += "\r";
      else if (e == 0x74) out += "\t";
      else if (e == 0x75) {
        const u = this.hex4();
        if (u < 0) { this.fail("bad \\u escape"); return null; }
        out += String.fromCharCode(u);
      } else { this.fail("bad escape"); return null; }
      run = this.i;
    }
  }

  array(n: JNode): bool {
    if (++this.depth > MAX_DEPTH) { this.fail("nested too deeply"); return false; }
    n.kind = J_ARR;
    this.i++;
    this.ws();
    if (this.peek() == 0x5d) { this.i++; this.depth--; return true; }
    while (true) {
      this.ws();
      const v = this.value();
      if (v == null) return false;
      n.items.push(v!);
      this.ws();
      const c = this.peek();
      this.i++;
      if (c == 0x2c) continue;
      if (c == 0x5d) break;
      this.i--;
      this.fail("expected ',' or ']'");
      return false;
    }
    this.depth--;
    return true;
  }

  object(n: JNode): bool {
    if (++this.depth > MAX_DEPTH) { this.fail("nested too deeply"); return false; }
    n.kind = J_OBJ;
    this.i++;
    this.ws();
    if (this.peek() == 0x7d) { this.i++; this.depth--; return true; }
    while (true) {
      this.ws();
      if (this.peek() != 0x22) { this.fail("expected a key"); return false; }
      const ks = this.i;
      const k = this.string();
      if (k == null) return false;
      this.ws();
      if (this.peek() != 0x3a) { this.fail("expected ':'"); return false; }
      this.i++;
      this.ws();
      const v = this.value();
      if (v == null) return false;
      n.keys.push(k!);
      n.keyStarts.push(ks);
      n.items.push(v!);
      this.ws();
      const c = this.peek();
      this.i++;
      if (c == 0x2c) continue;
      if (c == 0x7d) break;
      this.i--;
      this.fail("expected ',' or '}'");
      return false;
    }
    this.depth--;
    return true;
  }
}

// parse reads a whole document, or returns null with jsonError set.
export function parse(text: string): JNode | null {
  const p = new Parser(text);
  p.ws();
  const n = p.value();
  if (n != null) {
    p.ws();
    if (p.i != text.length) p.fail("trailing text after the JSON value");
  }
  jsonError = p.err;
  return p.err == "" ? n : null;
}

const HEX = "0123456789abcdef";

// quote renders s as Python's json.dumps does: non-ASCII as \uXXXX.
export function pyQuote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c == 0x22) out += '\\"';
    else if (c == 0x5c) out += "\\\\";
    else if (c == 0x0a) out += "\\n";
    else if (c == 0x0d) out += "\\r";
    else if (c == 0x09) out += "\\t";
    else if (c == 0x08) out += "\\b";
    else if (c == 0x0c) out += "\\f";
    else if (c < 0x20 || c > 0x7e) {
      out += "\\u" + HEX.charAt((c >> 12) & 15) + HEX.charAt((c >> 8) & 15) + HEX.charAt((c >> 4) & 15) + HEX.charAt(c & 15);
    } else out += String.fromCharCode(c);
  }
  return out + '"';
}

// dump renders n as json.dumps(n, indent=2), continuing a line indented by indent.
export function dump(n: JNode, indent: string): string {
  const inner = indent + "  ";
  if (n.kind == J_NULL) return "null";
  if (n.kind == J_BOOL || n.kind == J_NUM) return n.text;
  if (n.kind == J_STR) return pyQuote(n.text);
  if (n.items.length == 0) return n.kind == J_ARR ? "[]" : "{}";
  const parts: string[] = [];
  for (let i = 0; i < n.items.length; i++) {
    const key = n.kind == J_OBJ ? pyQuote(n.keys[i]) + ": " : "";
    parts.push(inner + key + dump(n.items[i], inner));
  }
  return (n.kind == J_ARR ? "[\n" : "{\n") + parts.join(",\n") + "\n" + indent + (n.kind == J_ARR ? "]" : "}");
}
