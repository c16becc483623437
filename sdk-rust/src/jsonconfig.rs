//! Edits a JSON configuration file that Lola shares with its user
//! (`.mcp.json`, `opencode.json`, `.vscode/mcp.json`, ...): adds, replaces
//! and removes members of one object inside it, such as the MCP servers
//! under `"mcpServers"`, and touches no other byte. It is sdk-go's
//! `jsonconfig`, line for line in behaviour, so a target written on either
//! SDK writes the same bytes (the built-in targets' goldens hold both to it).
//!
//! Guarantees:
//! * bytes outside the edited member are kept (key order, spacing,
//!   indentation, escapes, number spellings); an inserted member follows the
//!   indentation of its siblings (or two spaces per level when it has none),
//!   as `json.dumps(indent=2)` lays it out, which is what today's Lola writes;
//! * [`apply`] removing a member undoes setting it, byte for byte, including
//!   when the set had to create the containing object;
//! * a new document is laid out as Python's `json.dumps(doc, indent=2)` plus
//!   a newline (ASCII-only, `\u` escapes, numbers as Python writes them back).
//!
//! Non-guarantees: the document must be strict JSON (RFC 8259); a file with
//! comments or trailing commas (JSONC) is refused (`managed.invalid`, "not
//! valid JSON") rather than rewritten. Nesting deeper than 128 levels is
//! refused too (sdk-go accepts it). A container the user left empty and
//! Lola then filled and emptied is removed, not restored to `{}`.

use crate::json::{self, Node};
use crate::Error;

/// A JSON value with its object members in document order, as Python's
/// json module keeps them. A number holds its literal text.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(String),
    Str(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    /// An empty object.
    pub fn object() -> Value {
        Value::Object(Vec::new())
    }

    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(s.to_string())
    }

    /// The value of key `k` of an object (None for a non-object).
    pub fn get(&self, k: &str) -> Option<&Value> {
        match self {
            Value::Object(ms) => ms.iter().find(|(key, _)| key == k).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets key `k` of an object: in place when present, else appended (a
    /// Python dict assignment). A no-op on a non-object.
    pub fn set(&mut self, k: &str, x: Value) {
        if let Value::Object(ms) = self {
            match ms.iter_mut().find(|(key, _)| key == k) {
                Some(slot) => slot.1 = x,
                None => ms.push((k.to_string(), x)),
            }
        }
    }
}

/// The message of a document that is not one strict JSON value.
pub const NOT_JSON: &str = "not valid JSON (comments and trailing commas are not JSON)";

fn refuse(why: String) -> Error {
    Error::new("managed.invalid", why)
}

/// Parses one strict JSON value keeping member order; a key repeated in one
/// object keeps its first position and its last value, as Python does.
pub fn parse(text: &str) -> Result<Value, Error> {
    let n = json::parse(text).map_err(|_| refuse(NOT_JSON.to_string()))?;
    Ok(from_node(&n))
}

fn from_node(n: &Node) -> Value {
    match &n.value {
        json::Value::Null => Value::Null,
        json::Value::Bool(b) => Value::Bool(*b),
        json::Value::Num(s) => Value::Number(s.clone()),
        json::Value::Str(s) => Value::Str(s.clone()),
        json::Value::Arr(items) => Value::Array(items.iter().map(from_node).collect()),
        json::Value::Obj(ms) => {
            let mut v = Value::object();
            for m in ms {
                v.set(&m.key, from_node(&m.node));
            }
            v
        }
    }
}

/// Lays `v` out as Python's `json.dumps(v, indent=2)` would, each line after
/// the first prefixed by `base`; compact (one line, `", "` and `": "`) when
/// `indent` and `base` are empty.
pub fn render(v: &Value, base: &str, indent: &str) -> String {
    let mut b = String::new();
    render_into(&mut b, v, base, indent);
    b
}

fn render_into(b: &mut String, v: &Value, cur: &str, indent: &str) {
    let n = match v {
        Value::Null => return b.push_str("null"),
        Value::Bool(x) => return b.push_str(if *x { "true" } else { "false" }),
        Value::Number(s) => return b.push_str(&py_number(s)),
        Value::Str(s) => return b.push_str(&quote(s)),
        Value::Array(items) => items.len(),
        Value::Object(ms) => ms.len(),
    };
    let (open, close) = if let Value::Object(_) = v { ("{", "}") } else { ("[", "]") };
    b.push_str(open);
    if n == 0 {
        b.push_str(close);
        return;
    }
    let inner = format!("{}{}", cur, indent);
    for i in 0..n {
        if i > 0 {
            b.push(',');
            if indent.is_empty() {
                b.push(' ');
            }
        }
        if !indent.is_empty() {
            b.push('\n');
            b.push_str(&inner);
        }
        match v {
            Value::Object(ms) => {
                b.push_str(&quote(&ms[i].0));
                b.push_str(": ");
                render_into(b, &ms[i].1, &inner, indent);
            }
            Value::Array(items) => render_into(b, &items[i], &inner, indent),
            _ => unreachable!(),
        }
    }
    if !indent.is_empty() {
        b.push('\n');
        b.push_str(cur);
    }
    b.push_str(close);
}

/// Python's json string encoding with ensure_ascii: every character outside
/// printable ASCII is a `\u` escape (a surrogate pair above U+FFFF).
pub fn quote(s: &str) -> String {
    let mut b = String::with_capacity(s.len() + 2);
    b.push('"');
    for r in s.chars() {
        match r {
            '"' => b.push_str("\\\""),
            '\\' => b.push_str("\\\\"),
            '\n' => b.push_str("\\n"),
            '\r' => b.push_str("\\r"),
            '\t' => b.push_str("\\t"),
            '\u{8}' => b.push_str("\\b"),
            '\u{c}' => b.push_str("\\f"),
            _ if (r as u32) < 0x20 || (r as u32) >= 0x7f => {
                let mut units = [0u16; 2];
                for u in r.encode_utf16(&mut units) {
                    b.push_str(&format!("\\u{:04x}", u));
                }
            }
            _ => b.push(r),
        }
    }
    b.push('"');
    b
}

/// A JSON number spelled as Python writes it back after reading it: an
/// integer in decimal, anything with a fraction or exponent as the shortest
/// float repr.
fn py_number(lit: &str) -> String {
    if !lit.contains(|c| c == '.' || c == 'e' || c == 'E') {
        // Strict JSON has no leading zeros: only "-0" changes.
        return if lit == "-0" { "0".to_string() } else { lit.to_string() };
    }
    let f: f64 = match lit.parse() {
        Ok(f) if f64::is_finite(f) => f,
        _ => return lit.to_string(),
    };
    let e = format!("{:e}", f);
    let at = e.find('e').unwrap_or(e.len());
    let exp: i32 = e[at + 1..].parse().unwrap_or(0);
    if !(-4..16).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{}e{}{:02}", &e[..at], sign, exp.abs());
    }
    let mut s = format!("{}", f);
    if !s.contains('.') {
        s.push_str(".0");
    }
    s
}

/// One member to set (`value` Some) or remove (`value` None) in the
/// container object.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub name: String,
    pub value: Option<Value>,
}

/// Applies `changes`, in order, to members of the top-level object's
/// `container` member (say `"mcpServers"`) of `doc`. `exists` is whether
/// the file exists; when it does not, `doc` is ignored and a new document
/// is started from `seed` (an object, e.g. `{"$schema": ...}`).
///
/// Returns the new document and whether it is emptied: a removal that
/// leaves the container empty takes the container away, and when some
/// member was removed and the top-level object then has no member but
/// `$schema`, the document holds nothing of anyone's. Whether to delete an
/// emptied file is the caller's choice (only one lola created). A document
/// that is not a strict JSON object, whose container is not an object, or
/// that names the container or an edited member twice, is refused
/// (`managed.invalid`): it is the user's, and guessing would rewrite it.
pub fn apply(
    doc: &str,
    exists: bool,
    seed: &Value,
    container: &str,
    changes: &[Change],
) -> Result<(String, bool), Error> {
    let mut doc = if !exists {
        if changes.iter().all(|c| c.value.is_none()) {
            return Ok((String::new(), false));
        }
        render(seed, "", "  ") + "\n"
    } else {
        json::parse(doc).map_err(|_| refuse(NOT_JSON.to_string()))?;
        doc.to_string()
    };
    let mut removed = false;
    for c in changes {
        match &c.value {
            None => {
                let (out, gone) = remove(&doc, container, &c.name)?;
                doc = out;
                removed = removed || gone;
            }
            Some(v) => doc = set(&doc, container, &c.name, v)?,
        }
    }
    if !removed {
        return Ok((doc, false));
    }
    let (_, ms, _) = top(&doc)?;
    let only_schema = ms.iter().all(|m| m.key == "$schema");
    Ok((doc, only_schema))
}

/// One member of an object: where its key starts and where its value
/// starts and ends (end exclusive).
struct Span {
    key: String,
    key_start: usize,
    val_start: usize,
    val_end: usize,
}

fn is_ws(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\n' || c == b'\r'
}

fn skip_ws(d: &[u8], mut i: usize) -> usize {
    while i < d.len() && is_ws(d[i]) {
        i += 1;
    }
    i
}

/// The index just past the string starting at `i`.
fn skip_string(d: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < d.len() {
        match d[j] {
            b'\\' => j += 1,
            b'"' => return j + 1,
            _ => {}
        }
        j += 1;
    }
    d.len()
}

/// The index just past the value starting at `i`.
fn skip_value(d: &[u8], i: usize) -> usize {
    match d[i] {
        b'"' => skip_string(d, i),
        b'{' | b'[' => {
            let mut depth = 0i64;
            let mut j = i;
            while j < d.len() {
                match d[j] {
                    b'"' => j = skip_string(d, j) - 1,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            d.len()
        }
        _ => {
            let mut j = i;
            while j < d.len() && !is_ws(d[j]) && d[j] != b',' && d[j] != b'}' && d[j] != b']' {
                j += 1;
            }
            j
        }
    }
}

/// A key token's text (the document was checked: it is a valid string).
fn unquote_key(tok: &str) -> String {
    if !tok.contains('\\') {
        return tok[1..tok.len() - 1].to_string();
    }
    match json::parse(tok).map(|n| n.value) {
        Ok(json::Value::Str(s)) => s,
        _ => String::new(),
    }
}

/// The members of the object starting at `open` ('{') and the index of its
/// closing brace. `doc` is valid JSON.
fn object(doc: &str, open: usize) -> (Vec<Span>, usize) {
    let d = doc.as_bytes();
    let mut out = Vec::new();
    let mut i = skip_ws(d, open + 1);
    while d[i] != b'}' {
        let ks = i;
        let ke = skip_string(d, i);
        let key = unquote_key(&doc[ks..ke]);
        i = skip_ws(d, ke);
        i = skip_ws(d, i + 1); // ':'
        let vs = i;
        i = skip_value(d, i);
        out.push(Span {
            key,
            key_start: ks,
            val_start: vs,
            val_end: i,
        });
        i = skip_ws(d, i);
        if d[i] == b',' {
            i = skip_ws(d, i + 1);
        }
    }
    (out, i)
}

/// The top-level object's '{' index, members and closing brace.
fn top(doc: &str) -> Result<(usize, Vec<Span>, usize), Error> {
    let open = skip_ws(doc.as_bytes(), 0);
    if open >= doc.len() || doc.as_bytes()[open] != b'{' {
        return Err(refuse(format!("{}: the top level is not an object", NOT_JSON)));
    }
    let (ms, close) = object(doc, open);
    Ok((open, ms, close))
}

/// The index of the one member named `key`, None when absent.
fn find(ms: &[Span], key: &str) -> Result<Option<usize>, Error> {
    let mut at = None;
    for (i, m) in ms.iter().enumerate() {
        if m.key == key {
            if at.is_some() {
                return Err(refuse(format!("the object names {:?} twice; fix the file by hand", key)));
            }
            at = Some(i);
        }
    }
    Ok(at)
}

fn ws_start(d: &[u8], mut i: usize) -> usize {
    while i > 0 && is_ws(d[i - 1]) {
        i -= 1;
    }
    i
}

/// The document's indentation step: its first member's indentation, or
/// two spaces when it has none.
fn unit(doc: &str, ms: &[Span]) -> String {
    if let Some(m) = ms.first() {
        let sep = &doc[ws_start(doc.as_bytes(), m.key_start)..m.key_start];
        if let Some(i) = sep.rfind('\n') {
            if sep.len() > i + 1 {
                return sep[i + 1..].to_string();
            }
        }
    }
    "  ".to_string()
}

/// The leading whitespace of the line holding index `i`.
fn line_indent(doc: &str, i: usize) -> &str {
    let s = doc[..i].rfind('\n').map(|n| n + 1).unwrap_or(0);
    let d = doc.as_bytes();
    let mut e = s;
    while e < d.len() && (d[e] == b' ' || d[e] == b'\t') {
        e += 1;
    }
    &doc[s..e]
}

/// Adds member `key: v` at the end of the object at `open`, laid out like
/// its siblings.
fn insert(doc: &str, open: usize, ms: &[Span], close: usize, key: &str, v: &Value, step: &str) -> String {
    match ms.last() {
        None => {
            let ind = line_indent(doc, open);
            let inner = format!("{}{}", ind, step);
            let m = format!("{}: {}", quote(key), render(v, &inner, step));
            format!("{}\n{}{}\n{}{}", &doc[..open + 1], inner, m, ind, &doc[close..])
        }
        Some(last) => {
            let sep = &doc[ws_start(doc.as_bytes(), last.key_start)..last.key_start];
            let m = match sep.rfind('\n') {
                Some(i) => format!("{}: {}", quote(key), render(v, &sep[i + 1..], step)),
                None => format!("{}: {}", quote(key), render(v, "", "")),
            };
            format!("{},{}{}{}", &doc[..last.val_end], sep, m, &doc[last.val_end..])
        }
    }
}

/// Removes member `i` of `ms` with the separator that joined it, so that
/// removing the member `insert` appended gives back the document before.
fn cut(doc: &str, ms: &[Span], i: usize) -> String {
    if ms.len() == 1 {
        format!("{}{}", &doc[..ms[0].key_start], &doc[ms[0].val_end..])
    } else if i > 0 {
        format!("{}{}", &doc[..ms[i - 1].val_end], &doc[ms[i].val_end..])
    } else {
        format!("{}{}", &doc[..ms[0].key_start], &doc[ms[1].key_start..])
    }
}

fn not_object(container: &str) -> Error {
    refuse(format!("{:?} is not an object; fix the file by hand", container))
}

fn set(doc: &str, container: &str, name: &str, v: &Value) -> Result<String, Error> {
    let (open, ms, close) = top(doc)?;
    let step = unit(doc, &ms);
    let mut doc = doc.to_string();
    let cs = match find(&ms, container)? {
        Some(c) => ms.into_iter().nth(c).unwrap(),
        None => {
            doc = insert(&doc, open, &ms, close, container, &Value::object(), &step);
            top(&doc)?.1.pop().unwrap()
        }
    };
    if doc.as_bytes()[cs.val_start] != b'{' {
        return Err(not_object(container));
    }
    let (inner, iclose) = object(&doc, cs.val_start);
    let m = match find(&inner, name)? {
        None => return Ok(insert(&doc, cs.val_start, &inner, iclose, name, v, &step)),
        Some(at) => &inner[at],
    };
    // Replace the value in place (its position kept, as a dict assignment
    // keeps it), laid out at its member's indentation.
    let value = if doc[ws_start(doc.as_bytes(), m.key_start)..m.key_start].contains('\n') {
        render(v, line_indent(&doc, m.key_start), &step)
    } else {
        render(v, "", "")
    };
    Ok(format!("{}{}{}", &doc[..m.val_start], value, &doc[m.val_end..]))
}

/// Takes member `name` out of the container; the bool is whether it was
/// there.
fn remove(doc: &str, container: &str, name: &str) -> Result<(String, bool), Error> {
    let (_, ms, _) = top(doc)?;
    let c = match find(&ms, container)? {
        Some(c) => c,
        None => return Ok((doc.to_string(), false)),
    };
    let cs = &ms[c];
    if doc.as_bytes()[cs.val_start] != b'{' {
        return Err(not_object(container));
    }
    let (inner, _) = object(doc, cs.val_start);
    let at = match find(&inner, name)? {
        Some(at) => at,
        None => return Ok((doc.to_string(), false)),
    };
    if inner.len() > 1 {
        return Ok((cut(doc, &inner, at), true));
    }
    // The container held only this member: take the container away too.
    Ok((cut(doc, &ms, c), true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(s: &str) -> Change {
        Change {
            name: "s".into(),
            value: Some(parse(s).unwrap()),
        }
    }

    fn gone(name: &str) -> Change {
        Change {
            name: name.into(),
            value: None,
        }
    }

    #[test]
    fn a_new_document_is_laid_out_as_json_dumps() {
        let (out, del) = apply("", false, &Value::object(), "mcpServers", &[server(r#"{"command":"x","n":[1,2.50,1e20,-0],"u":"é😀<"}"#)]).unwrap();
        assert!(!del);
        assert_eq!(out, "{\n  \"mcpServers\": {\n    \"s\": {\n      \"command\": \"x\",\n      \"n\": [\n        1,\n        2.5,\n        1e+20,\n        0\n      ],\n      \"u\": \"\\u00e9\\ud83d\\ude00<\"\n    }\n  }\n}\n");
        let (back, del) = apply(&out, true, &Value::object(), "mcpServers", &[gone("s")]).unwrap();
        assert_eq!((back.as_str(), del), ("{\n  \n}\n", true));
    }

    /// Vectors produced by sdk-go's jsonconfig.Apply (set server "s" to
    /// {"a":1}, then remove it): the two SDKs write the same bytes.
    #[test]
    fn set_then_remove_gives_sdk_gos_bytes() {
        let cases: [(&str, &str, &str, bool); 4] = [
            (
                "{\"mcpServers\":{\n\t\"mine\":{\"command\":\"m\",\"env\":{\"K\":\"\\u00e9\"}}\n},\"other\" : [ 1,2 ]}\n",
                "{\"mcpServers\":{\n\t\"mine\":{\"command\":\"m\",\"env\":{\"K\":\"\\u00e9\"}},\n\t\"s\": {\n\t  \"a\": 1\n\t}\n},\"other\" : [ 1,2 ]}\n",
                "{\"mcpServers\":{\n\t\"mine\":{\"command\":\"m\",\"env\":{\"K\":\"\\u00e9\"}}\n},\"other\" : [ 1,2 ]}\n",
                false,
            ),
            (
                "{\n    \"theme\": \"dark\"\n}",
                "{\n    \"theme\": \"dark\",\n    \"mcpServers\": {\n        \"s\": {\n            \"a\": 1\n        }\n    }\n}",
                "{\n    \"theme\": \"dark\"\n}",
                false,
            ),
            (
                "{ \"$schema\": \"s\" }",
                "{ \"$schema\": \"s\", \"mcpServers\": {\n  \"s\": {\n    \"a\": 1\n  }\n} }",
                "{ \"$schema\": \"s\" }",
                true,
            ),
            (
                "{}",
                "{\n  \"mcpServers\": {\n    \"s\": {\n      \"a\": 1\n    }\n  }\n}",
                "{\n  \n}",
                true,
            ),
        ];
        for (user, want_set, want_back, emptied) in cases {
            let (set, del) = apply(user, true, &Value::object(), "mcpServers", &[server("{\"a\":1}")]).unwrap();
            assert_eq!((set.as_str(), del), (want_set, false), "{:?}", user);
            let (back, del) = apply(&set, true, &Value::object(), "mcpServers", &[gone("s")]).unwrap();
            assert_eq!((back.as_str(), del), (want_back, emptied), "{:?}", user);
        }
    }

    #[test]
    fn a_replaced_member_keeps_its_place() {
        let doc = "{\n  \"mcpServers\": {\n    \"s\": 1,\n    \"t\": 2\n  }\n}\n";
        let (out, _) = apply(doc, true, &Value::object(), "mcpServers", &[server("{\"a\":1}")]).unwrap();
        assert_eq!(out, "{\n  \"mcpServers\": {\n    \"s\": {\n      \"a\": 1\n    },\n    \"t\": 2\n  }\n}\n");
    }

    #[test]
    fn what_is_not_the_users_strict_json_object_is_refused() {
        for bad in [
            "{\n  // mine\n  \"x\": 1\n}\n",
            "{\"a\": 1,}",
            "[1]",
            "",
            "{\"mcpServers\": []}",
            "{\"mcpServers\": {}, \"mcpServers\": {}}",
            "{\"mcpServers\": {\"s\": 1, \"s\": 2}}",
        ] {
            let e = apply(bad, true, &Value::object(), "mcpServers", &[server("{}")]).unwrap_err();
            assert_eq!(e.rule, "managed.invalid", "{:?}", bad);
        }
        let e = apply("{", true, &Value::object(), "mcpServers", &[gone("s")]).unwrap_err();
        assert!(e.detail.starts_with("not valid JSON"), "{}", e);
    }

    #[test]
    fn a_parsed_duplicate_keeps_first_place_and_last_value() {
        let v = parse("{\"a\":1,\"b\":2,\"a\":3}").unwrap();
        assert_eq!(render(&v, "", ""), "{\"a\": 3, \"b\": 2}");
    }
}
