// The YAML frontmatter holds in practice — a flat mapping of scalars and
// lists of scalars — read as PyYAML's safe loader reads it and written as
// PyYAML's yaml.dump(default_flow_style=False, sort_keys=False) writes it
// (width 80, ASCII only): the same contract as sdk-rust's yaml module, and
// checked on the same PyYAML vectors (conformance TestYAMLDumpMatchesPyYAML).
// A value this reader does not model (a nested mapping, a block scalar
// other than ">-", anchors) is kept as its source text and written back
// unchanged.

export const Y_STR: i32 = 0; // a string
export const Y_SCALAR: i32 = 1; // a plain scalar YAML reads as non-string (true, 3, null), as written
export const Y_LIST: i32 = 2; // a sequence of values
export const Y_RAW: i32 = 3; // source text after "key:"

export class YValue {
  kind: i32 = Y_STR;
  text: string = "";
  items: YValue[] = [];
}

export class YField {
  key: string = "";
  value: YValue = new YValue();
}

function str(kind: i32, text: string): YValue {
  const v = new YValue();
  v.kind = kind;
  v.text = text;
  return v;
}

const WORDS = ["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
  "on", "On", "ON", "off", "Off", "OFF", "~", "null", "Null", "NULL", "", "<<", "=", ".nan", ".NaN", ".NAN"];

function isDigit(c: i32): bool {
  return c >= 0x30 && c <= 0x39;
}

function allOf(s: string, colon: bool): bool {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!(isDigit(c) || c == 0x5f || (colon && c == 0x3a))) return false;
  }
  return true;
}

function dateLike(s: string): bool {
  if (s.length < 8) return false;
  for (let i = 0; i < 4; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return s.charAt(4) == "-" && isDigit(s.charCodeAt(5));
}

// implicitNonString reports whether PyYAML resolves plain s to a non-str type.
export function implicitNonString(s: string): bool {
  if (WORDS.includes(s)) return true;
  const t = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
  if (t == ".inf" || t == ".Inf" || t == ".INF") return true;
  if (t.length == 0) return false;
  if (t.startsWith("0b")) {
    const r = t.substring(2);
    if (r.length == 0) return false;
    for (let i = 0; i < r.length; i++) if ("01_".indexOf(r.charAt(i)) < 0) return false;
    return true;
  }
  if (t.startsWith("0x")) {
    const r = t.substring(2);
    if (r.length == 0) return false;
    for (let i = 0; i < r.length; i++) if ("0123456789abcdefABCDEF_".indexOf(r.charAt(i)) < 0) return false;
    return true;
  }
  if (isDigit(t.charCodeAt(0)) && allOf(t, true)) return true;
  let mant = t;
  let e = t.indexOf("e");
  if (e < 0) e = t.indexOf("E");
  if (e >= 0) {
    mant = t.substring(0, e);
    let ex = t.substring(e + 1);
    if (!(ex.startsWith("+") || ex.startsWith("-"))) return dateLike(s);
    ex = ex.substring(1);
    if (ex.length == 0 || !allOf(ex.replaceAll("_", "x"), false)) return dateLike(s);
  }
  const dot = mant.indexOf(".");
  if (dot >= 0) {
    const i = mant.substring(0, dot);
    const f = mant.substring(dot + 1);
    const okI = allOf(i, true) && (i.length == 0 || isDigit(i.charCodeAt(0)));
    if (okI && allOf(f, false) && !(i.length == 0 && f.length == 0)) return true;
  }
  return dateLike(s);
}

function unescapeDouble(s: string): string | null {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c == '"') return null;
    if (c != "\\") { out += c; continue; }
    i++;
    if (i >= s.length) return null;
    const e = s.charAt(i);
    let n = 0;
    if (e == "x") n = 2;
    else if (e == "u") n = 4;
    else if (e == "U") n = 8;
    if (n > 0) {
      if (i + n > s.length - 1) return null;
      let h = 0;
      for (let k = 1; k <= n; k++) {
        const d = "0123456789abcdef".indexOf(s.charAt(i + k).toLowerCase());
        if (d < 0) return null;
        h = h * 16 + d;
      }
      if (h > 0x10ffff) return null;
      out += String.fromCodePoint(h);
      i += n;
      continue;
    }
    const from = "0abt\tnvfre \"/\\N_LP";
    const to = ["\0", "\x07", "\b", "\t", "\t", "\n", "\x0b", "\f", "\r", "\x1b", " ", '"', "/", "\\", "\u0085", "\u00a0", "\u2028", "\u2029"];
    const k = from.indexOf(e);
    if (k < 0) return null;
    out += to[k];
  }
  return out;
}

// scalar reads a plain or quoted scalar on one line, or null when it cannot.
function scalar(v0: string): YValue | null {
  const v = v0.trim();
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return str(Y_STR, v.substring(1, v.length - 1).replaceAll("''", "'"));
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    const u = unescapeDouble(v.substring(1, v.length - 1));
    return u == null ? null : str(Y_STR, u!);
  }
  if (v.length > 0 && "'\"[]{}|>&*!%@`".indexOf(v.charAt(0)) >= 0) return null;
  const h = v.indexOf(" #");
  const p = h >= 0 ? v.substring(0, h).trimEnd() : v;
  return str(implicitNonString(p) ? Y_SCALAR : Y_STR, p);
}

function flowList(v: string): YValue | null {
  const t = v.trim();
  if (!t.startsWith("[") || !t.endsWith("]")) return null;
  const inner = t.substring(1, t.length - 1);
  for (let i = 0; i < inner.length; i++) if ("[]{}\"'".indexOf(inner.charAt(i)) >= 0) return null;
  const l = new YValue();
  l.kind = Y_LIST;
  if (inner.trim() == "") return l;
  const parts = inner.split(",");
  for (let i = 0; i < parts.length; i++) {
    const s = scalar(parts[i]);
    if (s == null) return null;
    l.items.push(s!);
  }
  return l;
}

// parse reads a frontmatter block as a mapping, or returns null when its top
// level is not the flat mapping this reader models.
export function parse(src: string): YField[] | null {
  const lines = src.split("\n");
  const out: YField[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i++];
    if (line.trim() == "" || line.trimStart().startsWith("#")) continue;
    if (line.startsWith(" ") || line.startsWith("\t")) return null;
    let colon = line.indexOf(": ");
    if (colon < 0 && line.endsWith(":")) colon = line.length - 1;
    if (colon < 0) return null;
    const key = line.substring(0, colon).trim();
    if (key == "" || "-?[{'\"".indexOf(key.charAt(0)) >= 0) return null;
    const rest = line.substring(colon + 1).trim();
    const cont: string[] = [];
    while (i < lines.length && (lines[i].startsWith(" ") || lines[i].startsWith("\t") || lines[i].startsWith("- ") || lines[i] == "-" || lines[i].trim() == "")) {
      cont.push(lines[i++]);
    }
    while (cont.length > 0 && cont[cont.length - 1].trim() == "") { cont.pop(); i--; }
    const raw = str(Y_RAW, cont.length == 0 ? rest : rest + "\n" + cont.join("\n"));
    let value: YValue | null = null;
    if (cont.length == 0) {
      value = rest.startsWith("[") ? flowList(rest) : scalar(rest);
    } else {
      let dashes = rest == "";
      for (let k = 0; k < cont.length; k++) {
        const c = cont[k].trimStart();
        if (!(c.startsWith("- ") || c == "-")) dashes = false;
      }
      let folded = rest == ">-";
      for (let k = 0; k < cont.length; k++) if (cont[k].trim() == "" || !cont[k].startsWith(" ")) folded = false;
      let plain = rest != "" && "'\"[{|>&*!".indexOf(rest.charAt(0)) < 0;
      for (let k = 0; k < cont.length; k++) {
        const c = cont[k];
        if (c.trim() == "" || c.startsWith("-") || c.includes(": ") || c.trimEnd().endsWith(":")) plain = false;
      }
      if (dashes) {
        const l = new YValue();
        l.kind = Y_LIST;
        for (let k = 0; k < cont.length; k++) {
          const s = scalar(cont[k].trimStart().substring(1).trim());
          if (s == null) { l.kind = -1; break; }
          l.items.push(s!);
        }
        if (l.kind == Y_LIST) value = l;
      } else if (folded) {
        const words: string[] = [];
        for (let k = 0; k < cont.length; k++) words.push(cont[k].trim());
        value = str(Y_STR, words.join(" "));
      } else if (plain) {
        let s = rest;
        for (let k = 0; k < cont.length; k++) s += " " + cont[k].trim();
        value = scalar(s);
      }
    }
    const f = new YField();
    f.key = key;
    f.value = value != null ? value! : raw;
    let replaced = false;
    for (let k = 0; k < out.length; k++) if (out[k].key == key) { out[k] = f; replaced = true; }
    if (!replaced) out.push(f);
  }
  return out;
}

const WIDTH = 80;

function isWS(s: string, i: i32): bool {
  if (i < 0 || i >= s.length) return true;
  const c = s.charCodeAt(i);
  return c == 0x20 || c == 0x09 || c == 0x0d || c == 0x0a || c == 0;
}

// style is the style PyYAML's emitter picks for a string in block context:
// " " plain, "'" single-quoted, '"' double-quoted.
export function style(s: string): string {
  if (s.length == 0) return "'";
  let blockInd = s.startsWith("---") || s.startsWith("...");
  let special = false;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charAt(i);
    const followedWS = i + 1 >= n || isWS(s, i + 1);
    const precededWS = i == 0 || isWS(s, i - 1);
    if (i == 0) {
      if ("#,[]{}&*!|>'\"%@`".indexOf(c) >= 0 || (c == "-" && followedWS)) blockInd = true;
      if ((c == "?" || c == ":") && followedWS) blockInd = true;
    } else {
      if (c == ":" && followedWS) blockInd = true;
      if (c == "#" && precededWS) blockInd = true;
    }
    const code = s.charCodeAt(i);
    if (!(code == 0x0a || (code >= 0x20 && code <= 0x7e))) special = true;
  }
  if (special || s.includes("\n")) return '"';
  const edge = s.charAt(0) == " " || s.charAt(n - 1) == " ";
  if (!blockInd && !edge && !implicitNonString(s)) return " ";
  return "'";
}

const HEXU = "0123456789ABCDEF";

function hex(v: i32, digits: i32): string {
  let out = "";
  for (let i = digits - 1; i >= 0; i--) out += HEXU.charAt((v >> (i * 4)) & 15);
  return out;
}

// Out writes with PyYAML's column tracking, for folding at the width.
class Out {
  buf: string = "";
  column: i32 = 0;
  indent: i32 = 2;

  put(s: string): void {
    this.buf += s;
    this.column += s.length;
  }

  newlineIndent(): void {
    this.buf += "\n";
    this.column = 0;
    this.put(" ".repeat(this.indent));
  }

  folded(s: string, quoted: bool): void {
    let start = 0;
    let spaces = false;
    for (let end = 0; end <= s.length; end++) {
      const ch = end < s.length ? s.charAt(end) : "";
      if (spaces) {
        if (ch != " ") {
          const edgeOk = !quoted || (start != 0 && end != s.length);
          if (start + 1 == end && this.column > WIDTH && edgeOk) this.newlineIndent();
          else this.put(s.substring(start, end));
          start = end;
        }
      } else if (ch == "" || ch == " " || (quoted && ch == "'")) {
        if (start < end) {
          this.put(s.substring(start, end));
          start = end;
        }
      }
      if (quoted && ch == "'") {
        this.put("''");
        start = end + 1;
      }
      spaces = ch == " ";
    }
  }

  double(s: string): void {
    this.put(' "');
    let start = 0;
    for (let end = 0; end <= s.length; end++) {
      const has = end < s.length;
      const code = has ? s.codePointAt(end) : -1;
      const needs = !has || code == 0x22 || code == 0x5c || !(code >= 0x20 && code <= 0x7e);
      if (needs) {
        if (start < end) {
          this.put(s.substring(start, end));
          start = end;
        }
        if (has) {
          const from = "\0\x07\b\t\n\x0b\f\r\x1b\"\\\u0085\u00a0\u2028\u2029";
          const to = "0abtnvfre\"\\N_LP";
          const k = code <= 0xffff ? from.indexOf(String.fromCharCode(code)) : -1;
          let esc = "";
          if (k >= 0) esc = "\\" + to.charAt(k);
          else if (code <= 0xff) esc = "\\x" + hex(code, 2);
          else if (code <= 0xffff) esc = "\\u" + hex(code, 4);
          else esc = "\\U" + hex(code, 8);
          this.put(esc);
          if (code > 0xffff) end++; // the low surrogate
          start = end + 1;
        }
      }
      if (end > 0 && end + 1 < s.length && (s.charAt(end) == " " || start >= end) && this.column + end - start > WIDTH) {
        const part = start < end ? s.substring(start, end) : "";
        if (start < end) start = end;
        this.put(part);
        this.put("\\");
        this.newlineIndent();
        if (s.charAt(start) == " ") this.put("\\");
      }
    }
    this.put('"');
  }

  string(s: string): void {
    const st = style(s);
    if (st == " ") {
      this.put(" ");
      this.folded(s, false);
    } else if (st == "'") {
      this.put(" '");
      this.folded(s, true);
      this.put("'");
    } else this.double(s);
  }

  value(v: YValue): void {
    if (v.kind == Y_STR) this.string(v.text);
    else if (v.kind == Y_SCALAR) this.put(" " + v.text);
    else if (v.kind == Y_RAW) {
      if (!v.text.startsWith("\n")) this.put(" ");
      this.put(v.text);
    } else if (v.items.length == 0) this.put(" []");
    else {
      for (let i = 0; i < v.items.length; i++) {
        this.buf += "\n";
        this.column = 0;
        this.put("-");
        this.value(v.items[i]);
      }
    }
  }
}

// dump writes fields as yaml.dump does, without the final newline.
export function dump(fields: YField[]): string {
  const o = new Out();
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) {
      o.buf += "\n";
      o.column = 0;
    }
    const k = fields[i].key;
    if (style(k) == " ") o.put(k);
    else {
      // A key that needs quoting, written as PyYAML quotes a value, less
      // the separating space the value writer puts first.
      const at = o.buf.length;
      o.string(k);
      o.buf = o.buf.substring(0, at) + o.buf.substring(at + 1);
      o.column -= 1;
    }
    o.put(":");
    o.value(fields[i].value);
  }
  return o.buf;
}
