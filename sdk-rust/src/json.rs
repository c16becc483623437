//! A small JSON reader that remembers where every value sits in the text,
//! and a writer in the layout upstream Lola writes (Python's
//! `json.dumps(indent=2)`, ASCII-only escapes). The MCP merge splices with
//! these positions, so the parts of a user's file it does not change keep
//! their bytes.
//!
//! Non-guarantees: numbers are kept as their source text (Python would
//! re-render `1e5` as `100000.0`); duplicate keys are kept as written.

use crate::Error;

/// A parsed JSON value with its byte span `[start, end)` in the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub start: usize,
    pub end: usize,
    pub value: Value,
}

/// One member of an object: the key's span starts at `key_start`.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key_start: usize,
    pub key: String,
    pub node: Node,
}

/// The kinds of JSON value. Numbers keep their source text.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Node>),
    Obj(Vec<Member>),
}

impl Node {
    /// The member named `key` of an object, if this is one and has it.
    pub fn member(&self, key: &str) -> Option<&Member> {
        match &self.value {
            Value::Obj(ms) => ms.iter().find(|m| m.key == key),
            _ => None,
        }
    }

    /// Whether two values are equal as JSON (object member order counts,
    /// as it does in the file; spans and number spelling aside).
    pub fn same(&self, other: &Node) -> bool {
        match (&self.value, &other.value) {
            (Value::Arr(a), Value::Arr(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
            }
            (Value::Obj(a), Value::Obj(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(x, y)| x.key == y.key && x.node.same(&y.node))
            }
            (x, y) => x == y,
        }
    }
}

/// Parses a whole document; trailing non-space text is an error.
pub fn parse(text: &str) -> Result<Node, Error> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    p.ws();
    let n = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("trailing text after the JSON value"));
    }
    Ok(n)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

const MAX_DEPTH: usize = 128;

impl<'a> Parser<'a> {
    fn err(&self, why: &str) -> Error {
        Error::new("json.invalid", format!("at byte {}: {}", self.i, why))
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> Result<(), Error> {
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.err(&format!("expected {:?}", b as char)))
        }
    }

    fn value(&mut self) -> Result<Node, Error> {
        let start = self.i;
        let value = match self.s.get(self.i) {
            Some(b'{') => self.object()?,
            Some(b'[') => self.array()?,
            Some(b'"') => Value::Str(self.string()?),
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            Some(b'-') | Some(b'0'..=b'9') => self.number()?,
            _ => return Err(self.err("expected a value")),
        };
        Ok(Node {
            start,
            end: self.i,
            value,
        })
    }

    fn word(&mut self, w: &str, v: Value) -> Result<Value, Error> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(self.err("unknown literal"))
        }
    }

    fn number(&mut self) -> Result<Value, Error> {
        let start = self.i;
        if self.s[self.i] == b'-' {
            self.i += 1;
        }
        let digits = |p: &mut Self| {
            let d = p.i;
            while p.i < p.s.len() && p.s[p.i].is_ascii_digit() {
                p.i += 1;
            }
            p.i > d
        };
        if self.s.get(self.i) == Some(&b'0') {
            self.i += 1;
        } else if !digits(self) {
            return Err(self.err("bad number"));
        }
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            if !digits(self) {
                return Err(self.err("bad number"));
            }
        }
        if matches!(self.s.get(self.i), Some(b'e') | Some(b'E')) {
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+') | Some(b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return Err(self.err("bad number"));
            }
        }
        Ok(Value::Num(
            String::from_utf8_lossy(&self.s[start..self.i]).into_owned(),
        ))
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let h = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.err("bad \\u escape"))?;
        self.i += 4;
        Ok(h)
    }

    fn string(&mut self) -> Result<String, Error> {
        self.eat(b'"')?;
        let mut out = Vec::new();
        loop {
            let c = *self.s.get(self.i).ok_or_else(|| self.err("unterminated string"))?;
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or_else(|| self.err("bad escape"))?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi)
                                && self.s[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err("bad surrogate pair"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(cp).ok_or_else(|| self.err("lone surrogate"))?
                        }
                        _ => return Err(self.err("bad escape")),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c if c < 0x20 => return Err(self.err("control character in string")),
                c => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| self.err("string is not UTF-8"))
    }

    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        Ok(())
    }

    fn array(&mut self) -> Result<Value, Error> {
        self.enter()?;
        self.eat(b'[')?;
        let mut items = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Arr(items));
        }
        loop {
            self.ws();
            items.push(self.value()?);
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    break;
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
        self.depth -= 1;
        Ok(Value::Arr(items))
    }

    fn object(&mut self) -> Result<Value, Error> {
        self.enter()?;
        self.eat(b'{')?;
        let mut members = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Obj(members));
        }
        loop {
            self.ws();
            let key_start = self.i;
            let key = self.string()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            let node = self.value()?;
            members.push(Member {
                key_start,
                key,
                node,
            });
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
        self.depth -= 1;
        Ok(Value::Obj(members))
    }
}

/// Renders `s` as a JSON string the way Python's `json.dumps` does by
/// default: every non-ASCII character as a `\uXXXX` escape.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Renders a value as `json.dumps(value, indent=2)` does, the value's
/// first line continuing a line whose indentation is `indent`.
pub fn dump(n: &Node, indent: &str) -> String {
    let inner = format!("{}  ", indent);
    match &n.value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Num(s) => s.clone(),
        Value::Str(s) => quote(s),
        Value::Arr(items) if items.is_empty() => "[]".to_string(),
        Value::Obj(ms) if ms.is_empty() => "{}".to_string(),
        Value::Arr(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| format!("{}{}", inner, dump(i, &inner)))
                .collect();
            format!("[\n{}\n{}]", parts.join(",\n"), indent)
        }
        Value::Obj(ms) => {
            let parts: Vec<String> = ms
                .iter()
                .map(|m| format!("{}{}: {}", inner, quote(&m.key), dump(&m.node, &inner)))
                .collect();
            format!("{{\n{}\n{}}}", parts.join(",\n"), indent)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dumps_like_python() {
        let n = parse(r#"{"a":[1,{"b":"é\n"}],"c":{},"d":[],"e":null,"f":true,"g":"😀"}"#).unwrap();
        assert_eq!(
            dump(&n, ""),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"\\u00e9\\n\"\n    }\n  ],\n  \"c\": {},\n  \"d\": [],\n  \"e\": null,\n  \"f\": true,\n  \"g\": \"\\ud83d\\ude00\"\n}"
        );
    }

    #[test]
    fn refuses_what_is_not_json() {
        for bad in ["", "{", "{\"a\" 1}", "[1,]", "{\"a\":1} x", "\"\\q\"", "01", "{'a':1}", "\"a\u{1}\""] {
            assert_eq!(parse(bad).unwrap_err().rule, "json.invalid", "{:?}", bad);
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn spans_point_into_the_source() {
        let src = " { \"k\" : [ 1 , 2 ] } ";
        let n = parse(src).unwrap();
        let m = n.member("k").unwrap();
        assert_eq!(&src[m.key_start..m.key_start + 3], "\"k\"");
        assert_eq!(&src[m.node.start..m.node.end], "[ 1 , 2 ]");
    }
}
