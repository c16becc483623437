//! Markdown frontmatter, read and written as upstream Lola does (its
//! `frontmatter.py`, on python-frontmatter and PyYAML).
//!
//! Reading: the document is trimmed; if its first line is a fence of three
//! or more dashes, the text up to the next such fence line is the YAML and
//! the rest, trimmed, is the body. YAML that does not load as a mapping
//! gives no fields. YAML this reader cannot read gives no fields and the
//! whole document, untrimmed, as the body — as upstream does when the YAML
//! does not parse.

use crate::yaml::{self, Mapping, Value};

/// A document split into its frontmatter fields and its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub fields: Mapping,
    pub body: String,
}

impl Document {
    /// The string value of `key`, if the frontmatter has one.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_str())
    }

    /// Sets `key` to the string `value`: in place when the key exists,
    /// appended otherwise (Python's `dict.update` order).
    pub fn set(&mut self, key: &str, value: &str) {
        let v = Value::Str(value.to_string());
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = v,
            None => self.fields.push((key.to_string(), v)),
        }
    }

    /// The document as upstream writes a rewritten agent: the fields as
    /// `yaml.dump` lays them out between fences, then the body as it is.
    pub fn render(&self) -> String {
        format!("---\n{}\n---\n{}", yaml::dump(&self.fields), self.body)
    }
}

fn is_fence(line: &str) -> bool {
    let dashes = line.len() - line.trim_start_matches('-').len();
    dashes >= 3 && line[dashes..].trim().is_empty()
}

/// Splits `doc` into fields and body (see the module documentation).
pub fn parse(doc: &str) -> Document {
    let text = doc.trim();
    let plain = |body: &str| Document {
        fields: Vec::new(),
        body: body.to_string(),
    };
    let first_end = text.find('\n').unwrap_or(text.len());
    if !is_fence(&text[..first_end]) {
        return plain(text);
    }
    let mut pos = first_end;
    let mut close = None;
    while pos < text.len() {
        let start = pos + 1;
        let end = text[start..].find('\n').map(|i| start + i).unwrap_or(text.len());
        if is_fence(&text[start..end]) {
            close = Some((start, end));
            break;
        }
        pos = end;
    }
    let (cs, ce) = match close {
        Some(c) => c,
        None => return plain(text),
    };
    let front = &text[(first_end + 1).min(cs)..cs];
    match yaml::parse(front) {
        Some(fields) => Document {
            fields,
            body: text[ce..].trim().to_string(),
        },
        None => plain(doc),
    }
}

/// Whether `content` uses positional placeholders (`$1`, `$2`, ...).
pub fn has_positional_args(content: &str) -> bool {
    let b = content.as_bytes();
    b.windows(2).any(|w| w[0] == b'$' && w[1].is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_as_python_frontmatter_does() {
        let d = parse("\n---\nname: a\ndescription: Does b\n---\n\nBody\n---\nmore\n\n");
        assert_eq!(d.get("description"), Some("Does b"));
        assert_eq!(d.body, "Body\n---\nmore");
        let none = parse("  just text \n");
        assert!(none.fields.is_empty());
        assert_eq!(none.body, "just text");
        let unclosed = parse("---\nname: a\n");
        assert!(unclosed.fields.is_empty());
        assert_eq!(unclosed.body, "---\nname: a");
        let bad = parse("---\n  : [\n---\nx\n");
        assert_eq!(bad.body, "---\n  : [\n---\nx\n");
    }

    #[test]
    fn set_keeps_the_order_and_appends() {
        let mut d = parse("---\nmodel: sonnet\ntools: Read\n---\nB\n");
        d.set("name", "n");
        d.set("model", "inherit");
        assert_eq!(d.render(), "---\nmodel: inherit\ntools: Read\nname: n\n---\nB");
    }

    #[test]
    fn positional_args() {
        assert!(has_positional_args("run $1 now"));
        assert!(!has_positional_args("costs $ 5 or $ARGUMENTS"));
    }
}
