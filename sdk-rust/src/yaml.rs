//! The YAML that frontmatter holds in practice — a flat mapping of scalars
//! and lists of scalars — read as PyYAML's safe loader reads it, and written
//! as PyYAML's `yaml.dump(default_flow_style=False, sort_keys=False)` writes
//! it (width 80, ASCII only), which is what upstream Lola writes when it
//! rewrites an agent's frontmatter.
//!
//! Non-guarantees: a value this reader does not model (a nested mapping, a
//! block scalar, anchors, multi-line strings) is kept as its source text
//! (`Value::Raw`) and written back unchanged rather than re-laid out; YAML
//! 1.1 scalars (`yes`, `0x1F`, dates) are recognised only to decide quoting.

/// A frontmatter value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A string (plain or quoted in the source).
    Str(String),
    /// A plain scalar YAML resolves to something other than a string
    /// (`true`, `3`, `null`, ...), kept as written.
    Scalar(String),
    /// A block or flow sequence of values.
    List(Vec<Value>),
    /// Anything else, kept as its source text after `key:`.
    Raw(String),
}

impl Value {
    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// An ordered mapping, as written.
pub type Mapping = Vec<(String, Value)>;

/// Whether PyYAML resolves plain `s` to a type other than str.
fn implicit_non_string(s: &str) -> bool {
    const WORDS: [&str; 27] = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "~", "null", "Null", "NULL", "", "<<", "=", ".nan",
        ".NaN",
    ];
    if WORDS.contains(&s) || s == ".NAN" {
        return true;
    }
    let t = s.strip_prefix(|c| c == '+' || c == '-').unwrap_or(s);
    if [".inf", ".Inf", ".INF"].contains(&t) {
        return true;
    }
    let b = t.as_bytes();
    if b.is_empty() {
        return false;
    }
    // int: 0b.., 0x.., 0[0-7_]+, decimal with _, sexagesimal.
    if let Some(r) = t.strip_prefix("0b") {
        return !r.is_empty() && r.bytes().all(|c| c == b'0' || c == b'1' || c == b'_');
    }
    if let Some(r) = t.strip_prefix("0x") {
        return !r.is_empty() && r.bytes().all(|c| c.is_ascii_hexdigit() || c == b'_');
    }
    let numeric = |c: u8| c.is_ascii_digit() || c == b'_';
    if b.iter().all(|c| numeric(*c)) && b[0].is_ascii_digit() {
        return true;
    }
    if b.iter().all(|c| numeric(*c) || *c == b':') && b[0].is_ascii_digit() {
        return true;
    }
    // float: digits '.' digits? exponent?, or '.' digits.
    let (mant, exp) = match t.find(|c| c == 'e' || c == 'E') {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    if let Some(e) = exp {
        let e = e.strip_prefix(|c| c == '+' || c == '-');
        if !matches!(e, Some(d) if !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit())) {
            return date_like(s);
        }
    }
    if let Some(dot) = mant.find('.') {
        let (i, f) = (&mant[..dot], &mant[dot + 1..]);
        let ok_i = i.bytes().all(|c| numeric(c) || c == b':') && (i.is_empty() || i.as_bytes()[0].is_ascii_digit());
        let ok_f = f.bytes().all(numeric);
        if ok_i && ok_f && !(i.is_empty() && f.is_empty()) {
            return true;
        }
    }
    date_like(s)
}

/// How PyYAML writes back the value it resolved plain `s` to: YAML 1.1
/// booleans (`yes`, `On`, ...) as `true`/`false`, nulls (`~`, `Null`, an
/// empty value) as `null`; anything else (numbers, dates) as written.
fn canonical(s: &str) -> &str {
    match s {
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => "true",
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => "false",
        "~" | "null" | "Null" | "NULL" | "" => "null",
        _ => s,
    }
}

/// A YAML 1.1 timestamp starts with `YYYY-M-D`.
fn date_like(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 8
        && b[..4].iter().all(|c| c.is_ascii_digit())
        && b[4] == b'-'
        && b[5].is_ascii_digit()
}

/// Reads a plain or quoted scalar written on one line.
fn scalar(v: &str) -> Option<Value> {
    let v = v.trim();
    if let Some(inner) = v.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        if v.len() >= 2 {
            return Some(Value::Str(inner.replace("''", "'")));
        }
    }
    if v.starts_with('"') && v.ends_with('"') && v.len() >= 2 {
        return unescape_double(&v[1..v.len() - 1]).map(Value::Str);
    }
    if v.starts_with(|c| "'\"[]{}|>&*!%@`".contains(c)) {
        return None;
    }
    let v = match v.find(" #") {
        Some(i) => v[..i].trim_end(),
        None => v,
    };
    if implicit_non_string(v) {
        Some(Value::Scalar(v.to_string()))
    } else {
        Some(Value::Str(v.to_string()))
    }
}

fn unescape_double(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '"' {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = it.next()?;
        let hex = |n: usize, it: &mut std::str::Chars| -> Option<char> {
            let h: String = it.take(n).collect();
            char::from_u32(u32::from_str_radix(&h, 16).ok()?)
        };
        out.push(match e {
            '0' => '\0',
            'a' => '\u{7}',
            'b' => '\u{8}',
            't' | '\t' => '\t',
            'n' => '\n',
            'v' => '\u{b}',
            'f' => '\u{c}',
            'r' => '\r',
            'e' => '\u{1b}',
            ' ' => ' ',
            '"' => '"',
            '/' => '/',
            '\\' => '\\',
            'N' => '\u{85}',
            '_' => '\u{a0}',
            'L' => '\u{2028}',
            'P' => '\u{2029}',
            'x' => hex(2, &mut it)?,
            'u' => hex(4, &mut it)?,
            'U' => hex(8, &mut it)?,
            _ => return None,
        });
    }
    Some(out)
}

fn flow_list(v: &str) -> Option<Value> {
    let inner = v.trim().strip_prefix('[')?.strip_suffix(']')?;
    if inner.contains(|c| "[]{}\"'".contains(c)) {
        return None;
    }
    if inner.trim().is_empty() {
        return Some(Value::List(Vec::new()));
    }
    inner
        .split(',')
        .map(scalar)
        .collect::<Option<Vec<_>>>()
        .map(Value::List)
}

/// Reads a frontmatter block as a mapping, or None when it is not the flat
/// mapping this reader models at its top level (the caller then treats the
/// document as having no usable frontmatter, as upstream does for YAML that
/// does not load as a mapping).
pub fn parse(src: &str) -> Option<Mapping> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out: Mapping = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if line.starts_with(' ') || line.starts_with('\t') {
            return None;
        }
        let colon = line.find(": ").or_else(|| {
            if line.ends_with(':') {
                Some(line.len() - 1)
            } else {
                None
            }
        })?;
        let key = line[..colon].trim().to_string();
        if key.is_empty() || key.starts_with(|c| "-?[{'\"".contains(c)) {
            return None;
        }
        let rest = line[colon + 1..].trim();
        // Continuation lines: indented, or block sequence entries.
        let mut cont: Vec<&str> = Vec::new();
        while i < lines.len()
            && (lines[i].starts_with(' ')
                || lines[i].starts_with('\t')
                || lines[i].starts_with("- ")
                || lines[i] == "-"
                || lines[i].trim().is_empty())
        {
            cont.push(lines[i]);
            i += 1;
        }
        while cont.last().map(|l| l.trim().is_empty()).unwrap_or(false) {
            cont.pop();
            i -= 1;
        }
        let raw = || {
            let mut r = rest.to_string();
            for c in &cont {
                r.push('\n');
                r.push_str(c);
            }
            Value::Raw(r)
        };
        let value = if cont.is_empty() {
            if rest.starts_with('[') {
                flow_list(rest).unwrap_or_else(raw)
            } else {
                scalar(rest).unwrap_or_else(raw)
            }
        } else if rest.is_empty() && cont.iter().all(|l| l.trim_start().starts_with("- ") || l.trim() == "-") {
            cont.iter()
                .map(|l| scalar(l.trim_start()[1..].trim()))
                .collect::<Option<Vec<_>>>()
                .map(Value::List)
                .unwrap_or_else(raw)
        } else if rest == ">-" && cont.iter().all(|l| !l.trim().is_empty() && l.starts_with(' ')) {
            // A folded block scalar without line breaks: its lines joined by spaces.
            let words: Vec<&str> = cont.iter().map(|l| l.trim()).collect();
            Value::Str(words.join(" "))
        } else if !rest.is_empty()
            && !rest.starts_with(|c| "'\"[{|>&*!".contains(c))
            && cont.iter().all(|l| !l.trim().is_empty() && !l.starts_with('-') && !l.contains(": ") && !l.trim_end().ends_with(':'))
        {
            // A plain scalar folded over several lines: joined by spaces.
            let mut s = rest.to_string();
            for c in &cont {
                s.push(' ');
                s.push_str(c.trim());
            }
            scalar(&s).unwrap_or_else(raw)
        } else {
            raw()
        };
        if let Some(slot) = out.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = value;
        } else {
            out.push((key, value));
        }
    }
    Some(out)
}

const WIDTH: usize = 80;

fn ws(c: Option<char>) -> bool {
    matches!(c, None | Some(' ') | Some('\t') | Some('\r') | Some('\n') | Some('\0'))
}

/// The style PyYAML's emitter picks for a string in block context.
fn style(s: &str) -> char {
    if s.is_empty() {
        return '\'';
    }
    let chars: Vec<char> = s.chars().collect();
    let mut block_ind = s.starts_with("---") || s.starts_with("...");
    let mut special = false;
    let n = chars.len();
    for (i, &c) in chars.iter().enumerate() {
        let followed_ws = i + 1 >= n || ws(chars.get(i + 1).copied());
        let preceded_ws = i == 0 || ws(Some(chars[i - 1]));
        if i == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(c) || (c == '-' && followed_ws) {
                block_ind = true;
            }
            if (c == '?' || c == ':') && followed_ws {
                block_ind = true;
            }
        } else {
            if c == ':' && followed_ws {
                block_ind = true;
            }
            if c == '#' && preceded_ws {
                block_ind = true;
            }
        }
        if !(c == '\n' || (' '..='~').contains(&c)) {
            special = true;
        }
    }
    let edge_space = chars[0] == ' ' || chars[n - 1] == ' ';
    if special || s.contains('\n') {
        return '"';
    }
    if !block_ind && !edge_space && !implicit_non_string(s) {
        return ' ';
    }
    '\''
}

/// A writer tracking the column, as PyYAML's emitter does for folding.
struct Out {
    buf: String,
    column: usize,
    indent: usize,
}

impl Out {
    fn put(&mut self, s: &str) {
        self.buf.push_str(s);
        self.column += s.chars().count();
    }

    fn newline_indent(&mut self) {
        self.buf.push('\n');
        self.column = 0;
        let pad = " ".repeat(self.indent);
        self.put(&pad);
    }

    fn plain(&mut self, s: &str) {
        self.put(" ");
        self.folded(s, false);
    }

    /// Writes words, breaking at a single space once past the width.
    fn folded(&mut self, s: &str, quoted: bool) {
        let chars: Vec<char> = s.chars().collect();
        let mut start = 0;
        let mut spaces = false;
        let mut end = 0;
        while end <= chars.len() {
            let ch = chars.get(end).copied();
            if spaces {
                if ch != Some(' ') {
                    let edge_ok = !quoted || (start != 0 && end != chars.len());
                    if start + 1 == end && self.column > WIDTH && edge_ok {
                        self.newline_indent();
                    } else {
                        let part: String = chars[start..end].iter().collect();
                        self.put(&part);
                    }
                    start = end;
                }
            } else if ch.is_none() || ch == Some(' ') || (quoted && ch == Some('\'')) {
                if start < end {
                    let part: String = chars[start..end].iter().collect();
                    self.put(&part);
                    start = end;
                }
            }
            if quoted && ch == Some('\'') {
                self.put("''");
                start = end + 1;
            }
            spaces = ch == Some(' ');
            end += 1;
        }
    }

    fn single(&mut self, s: &str) {
        self.put(" '");
        self.folded(s, true);
        self.put("'");
    }

    fn double(&mut self, s: &str) {
        self.put(" \"");
        let chars: Vec<char> = s.chars().collect();
        let (mut start, mut end) = (0usize, 0usize);
        while end <= chars.len() {
            let ch = chars.get(end).copied();
            let needs = match ch {
                None => true,
                Some(c) => c == '"' || c == '\\' || !(' '..='~').contains(&c),
            };
            if needs {
                if start < end {
                    let part: String = chars[start..end].iter().collect();
                    self.put(&part);
                    start = end;
                }
                if let Some(c) = ch {
                    let esc = match c {
                        '\0' => "\\0".to_string(),
                        '\u{7}' => "\\a".to_string(),
                        '\u{8}' => "\\b".to_string(),
                        '\t' => "\\t".to_string(),
                        '\n' => "\\n".to_string(),
                        '\u{b}' => "\\v".to_string(),
                        '\u{c}' => "\\f".to_string(),
                        '\r' => "\\r".to_string(),
                        '\u{1b}' => "\\e".to_string(),
                        '"' => "\\\"".to_string(),
                        '\\' => "\\\\".to_string(),
                        '\u{85}' => "\\N".to_string(),
                        '\u{a0}' => "\\_".to_string(),
                        '\u{2028}' => "\\L".to_string(),
                        '\u{2029}' => "\\P".to_string(),
                        c if (c as u32) <= 0xff => format!("\\x{:02X}", c as u32),
                        c if (c as u32) <= 0xffff => format!("\\u{:04X}", c as u32),
                        c => format!("\\U{:08X}", c as u32),
                    };
                    self.put(&esc);
                    start = end + 1;
                }
            }
            if end > 0
                && end + 1 < chars.len()
                && (ch == Some(' ') || start >= end)
                && self.column as isize + end as isize - start as isize > WIDTH as isize
            {
                let part: String = chars[start..end].iter().collect();
                if start < end {
                    start = end;
                }
                self.put(&part);
                self.put("\\");
                self.newline_indent();
                if chars[start] == ' ' {
                    self.put("\\");
                }
            }
            end += 1;
        }
        self.put("\"");
    }

    fn string(&mut self, s: &str) {
        match style(s) {
            ' ' => self.plain(s),
            '\'' => self.single(s),
            _ => self.double(s),
        }
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Str(s) => self.string(s),
            Value::Scalar(s) => self.put(&format!(" {}", canonical(s))),
            Value::Raw(r) => {
                if !r.starts_with('\n') {
                    self.put(" ");
                }
                self.put(r);
            }
            Value::List(items) if items.is_empty() => self.put(" []"),
            Value::List(items) => {
                for it in items {
                    self.buf.push('\n');
                    self.column = 0;
                    self.put("-");
                    self.value(it);
                }
            }
        }
    }
}

/// Writes a mapping as `yaml.dump(m, default_flow_style=False,
/// sort_keys=False)` does, without the final newline.
pub fn dump(m: &Mapping) -> String {
    let mut out = Out {
        buf: String::new(),
        column: 0,
        indent: 2,
    };
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            out.buf.push('\n');
            out.column = 0;
        }
        match style(k) {
            ' ' => out.put(k),
            _ => {
                // A key that needs quoting: written as PyYAML quotes a value,
                // less the separating space the value writer puts first.
                let at = out.buf.len();
                out.string(k);
                out.buf.remove(at);
                out.column -= 1;
            }
        }
        out.put(":");
        out.value(v);
    }
    out.buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_usual_frontmatter() {
        let m = parse("name: helper\ndescription: \"Ship \\\"it\\\"\"\ntools:\n  - Read\n  - Grep\nmodel: sonnet\nalt: 'it''s'\nn: 3\nflow: [a, b]\n").unwrap();
        assert_eq!(m[0], ("name".into(), Value::Str("helper".into())));
        assert_eq!(m[1].1, Value::Str("Ship \"it\"".into()));
        assert_eq!(m[2].1, Value::List(vec![Value::Str("Read".into()), Value::Str("Grep".into())]));
        assert_eq!(m[4].1, Value::Str("it's".into()));
        assert_eq!(m[5].1, Value::Scalar("3".into()));
        assert_eq!(m[6].1, Value::List(vec![Value::Str("a".into()), Value::Str("b".into())]));
        assert_eq!(parse("  indented: x\n"), None);
    }

    #[test]
    fn yaml_11_booleans_and_nulls_are_written_as_pyyaml_writes_them() {
        let m = parse("a: yes\nb: Off\nc: ~\nd:\ne: 0.5\n").unwrap();
        // PyYAML: yaml.dump(yaml.safe_load(...), sort_keys=False)
        assert_eq!(dump(&m), "a: true\nb: false\nc: null\nd: null\ne: 0.5");
    }

    #[test]
    fn keys_that_need_quoting_are_quoted_in_place() {
        let m = vec![
            ("name".to_string(), Value::Str("n".into())),
            ("yes".to_string(), Value::Str("x".into())),
            ("a: b".to_string(), Value::Str("y".into())),
        ];
        // PyYAML: yaml.dump({'name': 'n', 'yes': 'x', 'a: b': 'y'}, sort_keys=False)
        assert_eq!(dump(&m), "name: n\n'yes': x\n'a: b': y");
    }
}
