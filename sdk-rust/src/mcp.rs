//! MCP servers merged into, and removed from, an assistant's JSON config
//! file that the user edits too (`.cursor/mcp.json`, `.gemini/settings.json`).
//!
//! Guarantees: the bytes of every part of the user's file that the merge
//! does not change stay as they were (key order, spacing, escapes); a file
//! lola creates, and every server it adds, is laid out as upstream Lola
//! writes it (`json.dumps(indent=2)` plus a newline), so a file upstream
//! wrote is reproduced byte for byte. A server already present with the same
//! value is left untouched. Removal takes out exactly the named servers; an
//! `mcpServers` object that removal empties goes too, and a file left with
//! no member but `$schema` is reported as emptied (upstream deletes it), so
//! install then uninstall gives the user's file back. Whether an emptied
//! file is deleted is the caller's choice: the host lets a target delete
//! only a managed file lola created (`Request::lola_created`); a file the
//! user had is written back, however empty.
//!
//! Refusals: a current file that is not a JSON object, or whose
//! `mcpServers` is not an object, is refused (`managed.invalid`) instead of
//! being replaced (upstream silently starts over from `{}`, dropping the
//! user's file), and so is one that names `mcpServers`, or a server the
//! merge or removal touches, twice (which one counts is not ours to guess); a module's `mcps.json` without an `mcpServers` object is
//! refused (`module.invalid`).

use crate::json::{self, Member, Node, Value};
use crate::Error;

/// The key upstream Lola and the assistants use for the server table.
pub const SERVERS: &str = "mcpServers";

/// The servers of a module's `mcps.json`, in the file's order.
pub fn servers_of(mcps_json: &str) -> Result<Vec<Member>, Error> {
    let doc = json::parse(mcps_json)
        .map_err(|e| Error::new("module.invalid", format!("mcps.json: {}", e.detail)))?;
    match doc.member(SERVERS).map(|m| &m.node.value) {
        Some(Value::Obj(ms)) => Ok(ms.clone()),
        None if matches!(doc.value, Value::Obj(_)) => Ok(Vec::new()),
        _ => Err(Error::new(
            "module.invalid",
            "mcps.json: \"mcpServers\" is not an object",
        )),
    }
}

fn refuse(why: &str) -> Error {
    Error::new("managed.invalid", why.to_string())
}

fn parse_current(current: &str) -> Result<Node, Error> {
    let doc = json::parse(current).map_err(|e| refuse(&format!("not valid JSON ({})", e.detail)))?;
    if !matches!(doc.value, Value::Obj(_)) {
        return Err(refuse("the top level is not a JSON object"));
    }
    Ok(doc)
}

/// Refuses a document that names `key` more than once in `obj`: which one
/// the assistant reads is not ours to guess.
fn once(obj: &Node, key: &str, what: &str) -> Result<(), Error> {
    if let Value::Obj(ms) = &obj.value {
        if ms.iter().filter(|m| m.key == key).count() > 1 {
            return Err(refuse(&format!("{} {:?} is named twice", what, key)));
        }
    }
    Ok(())
}

/// Whether a top-level object holds nothing but `$schema`: lola's alone,
/// as upstream judges when it deletes the file.
fn only_schema(doc: &Node) -> bool {
    matches!(&doc.value, Value::Obj(ms) if ms.iter().all(|m| m.key == "$schema"))
}

/// The whitespace that starts the line `pos` is on, when only whitespace
/// precedes `pos` on it.
fn line_indent(text: &str, pos: usize) -> Option<String> {
    let line_start = text[..pos].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let prefix = &text[line_start..pos];
    if prefix.chars().all(|c| c == ' ' || c == '\t') {
        Some(prefix.to_string())
    } else {
        None
    }
}

/// Inserts member `key: value` at the end of the object `obj`.
fn append_member(text: &str, obj: &Node, key: &str, value: &Node) -> String {
    let members = match &obj.value {
        Value::Obj(ms) => ms,
        _ => unreachable!("append_member on a non-object"),
    };
    match members.last() {
        Some(last) => {
            let (sep, indent) = match line_indent(text, last.key_start) {
                Some(ind) => (format!(",\n{}", ind), ind),
                None => (", ".to_string(), line_indent(text, obj.start).unwrap_or_default()),
            };
            let ins = format!("{}{}: {}", sep, json::quote(key), json::dump(value, &indent));
            format!("{}{}{}", &text[..last.node.end], ins, &text[last.node.end..])
        }
        None => {
            let base = line_indent(text, obj.start)
                .or_else(|| {
                    // `"key": {}` — the indentation of the line it is on.
                    let ls = text[..obj.start].rfind('\n').map(|i| i + 1).unwrap_or(0);
                    let lead: String = text[ls..]
                        .chars()
                        .take_while(|c| *c == ' ' || *c == '\t')
                        .collect();
                    Some(lead)
                })
                .unwrap_or_default();
            let inner = format!("{}  ", base);
            let body = format!(
                "{{\n{}{}: {}\n{}}}",
                inner,
                json::quote(key),
                json::dump(value, &inner),
                base
            );
            format!("{}{}{}", &text[..obj.start], body, &text[obj.end..])
        }
    }
}

/// Removes member `idx` of object `obj`, with the separator that joined it.
fn remove_member(text: &str, obj: &Node, idx: usize) -> String {
    let members = match &obj.value {
        Value::Obj(ms) => ms,
        _ => unreachable!("remove_member on a non-object"),
    };
    let m = &members[idx];
    let (from, to) = if idx > 0 {
        (members[idx - 1].node.end, m.node.end)
    } else if members.len() > 1 {
        (m.key_start, members[1].key_start)
    } else {
        // The only member: the object becomes `{}`.
        (obj.start + 1, obj.end - 1)
    };
    format!("{}{}", &text[..from], &text[to..])
}

/// Merges `servers` into the config file whose current content is
/// `current` (None when it does not exist), returning the new content.
pub fn merge(current: Option<&str>, servers: &[Member]) -> Result<String, Error> {
    let mut text = match current {
        Some(c) if !c.trim().is_empty() => c.to_string(),
        _ => {
            let doc = Node {
                start: 0,
                end: 0,
                value: Value::Obj(vec![Member {
                    key_start: 0,
                    key: SERVERS.to_string(),
                    node: Node {
                        start: 0,
                        end: 0,
                        value: Value::Obj(servers.to_vec()),
                    },
                }]),
            };
            return Ok(format!("{}\n", json::dump(&doc, "")));
        }
    };
    for s in servers {
        let doc = parse_current(&text)?;
        once(&doc, SERVERS, "the member")?;
        let table = match doc.member(SERVERS) {
            None => {
                let table = Node {
                    start: 0,
                    end: 0,
                    value: Value::Obj(vec![s.clone()]),
                };
                text = append_member(&text, &doc, SERVERS, &table);
                continue;
            }
            Some(m) => m.node.clone(),
        };
        once(&table, &s.key, "the server")?;
        let existing = match &table.value {
            Value::Obj(ms) => ms.iter().find(|m| m.key == s.key).cloned(),
            _ => return Err(refuse("\"mcpServers\" is not a JSON object")),
        };
        text = match existing {
            Some(e) if e.node.same(&s.node) => text,
            Some(e) => {
                let indent = line_indent(&text, e.key_start).unwrap_or_default();
                format!(
                    "{}{}{}",
                    &text[..e.node.start],
                    json::dump(&s.node, &indent),
                    &text[e.node.end..]
                )
            }
            None => append_member(&text, &table, &s.key, &s.node),
        };
    }
    Ok(text)
}

/// What is left of a config file after a removal.
#[derive(Debug, Clone, PartialEq)]
pub struct Removed {
    /// The file's new text.
    pub text: String,
    /// A server was removed and nothing but `$schema` is left: deletable
    /// when lola created the file.
    pub emptied: bool,
}

/// Removes the servers named `names` from the config file `current`.
pub fn remove(current: &str, names: &[String]) -> Result<Removed, Error> {
    let mut text = current.to_string();
    let mut removed = false;
    for name in names {
        let doc = parse_current(&text)?;
        once(&doc, SERVERS, "the member")?;
        let table = match doc.member(SERVERS) {
            Some(m) => m.node.clone(),
            None => break,
        };
        once(&table, name, "the server")?;
        let idx = match &table.value {
            Value::Obj(ms) => ms.iter().position(|m| &m.key == name),
            _ => return Err(refuse("\"mcpServers\" is not a JSON object")),
        };
        if let Some(i) = idx {
            text = remove_member(&text, &table, i);
            removed = true;
        }
    }
    if !removed {
        return Ok(Removed { text, emptied: false });
    }
    let doc = parse_current(&text)?;
    if let Some(pos) = match &doc.value {
        Value::Obj(ms) => ms
            .iter()
            .position(|m| m.key == SERVERS && m.node.value == Value::Obj(Vec::new())),
        _ => None,
    } {
        text = remove_member(&text, &doc, pos);
        if only_schema(&parse_current(&text)?) {
            return Ok(Removed { text, emptied: true });
        }
    }
    Ok(Removed { text, emptied: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn servers(s: &str) -> Vec<Member> {
        servers_of(s).unwrap()
    }

    const MOD: &str = r#"{"mcpServers":{"a":{"command":"x","args":["-y"]},"r":{"type":"http","url":"https://h/é"}}}"#;

    #[test]
    fn a_new_file_is_laid_out_as_upstream_writes_it() {
        let got = merge(None, &servers(MOD)).unwrap();
        assert_eq!(got, "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"x\",\n      \"args\": [\n        \"-y\"\n      ]\n    },\n    \"r\": {\n      \"type\": \"http\",\n      \"url\": \"https://h/\\u00e9\"\n    }\n  }\n}\n");
        assert_eq!(remove(&got, &["a".into(), "r".into()]).unwrap(), Removed { text: "{}\n".into(), emptied: true });
    }

    #[test]
    fn the_users_part_keeps_its_bytes() {
        let user = "{ \"theme\":\"dark\" ,\n\t\"mcpServers\" : {\"mine\" : {\"command\":\"m\", \"args\":[ ] }},\n  \"z\": [1,2.50e3]   }\n";
        let merged = merge(Some(user), &servers(MOD)).unwrap();
        assert!(merged.starts_with("{ \"theme\":\"dark\" ,\n\t\"mcpServers\" : {\"mine\" : {\"command\":\"m\", \"args\":[ ] }, \"a\": "), "{}", merged);
        assert!(merged.ends_with("},\n  \"z\": [1,2.50e3]   }\n"), "{}", merged);
        let back = remove(&merged, &["a".into(), "r".into()]).unwrap().text;
        assert_eq!(back, user);
    }

    #[test]
    fn an_added_table_goes_again_on_removal() {
        let user = "{\n    \"theme\": \"dark\"\n}";
        let merged = merge(Some(user), &servers(MOD)).unwrap();
        assert!(merged.starts_with("{\n    \"theme\": \"dark\",\n    \"mcpServers\": {\n      \"a\": {\n"), "{}", merged);
        assert_eq!(remove(&merged, &["a".into(), "r".into()]).unwrap().text, user);
    }

    #[test]
    fn an_identical_server_is_left_alone_and_a_changed_one_replaced() {
        let first = merge(None, &servers(MOD)).unwrap();
        assert_eq!(merge(Some(&first), &servers(MOD)).unwrap(), first);
        let changed = merge(Some(&first), &servers(r#"{"mcpServers":{"a":{"command":"y"}}}"#)).unwrap();
        assert!(changed.contains("\"a\": {\n      \"command\": \"y\"\n    },\n    \"r\""), "{}", changed);
    }

    #[test]
    fn a_broken_user_file_is_refused_not_replaced() {
        for bad in ["{", "[]", "{\"mcpServers\": []}", "// c\n{}"] {
            assert_eq!(merge(Some(bad), &servers(MOD)).unwrap_err().rule, "managed.invalid", "{}", bad);
        }
        assert_eq!(remove("{\"mcpServers\": 3}", &["a".into()]).unwrap_err().rule, "managed.invalid");
        assert_eq!(servers_of("{\"mcpServers\": 1}").unwrap_err().rule, "module.invalid");
        let twice = "{\"mcpServers\": {}, \"mcpServers\": {}}";
        assert_eq!(merge(Some(twice), &servers(MOD)).unwrap_err().rule, "managed.invalid");
        let dup = "{\"mcpServers\": {\"a\": 1, \"a\": 2}}";
        assert_eq!(merge(Some(dup), &servers(MOD)).unwrap_err().rule, "managed.invalid");
        assert_eq!(remove(dup, &["a".into()]).unwrap_err().rule, "managed.invalid");
    }

    #[test]
    fn a_file_left_with_only_its_schema_is_gone() {
        let user = "{\"$schema\": \"https://x/s.json\"}";
        let merged = merge(Some(user), &servers(MOD)).unwrap();
        assert_eq!(remove(&merged, &["a".into(), "r".into()]).unwrap(), Removed { text: user.into(), emptied: true });
    }

    #[test]
    fn removal_takes_only_the_named_servers() {
        let user = "{\"mcpServers\": {\"a\": {\"mine\": true}, \"b\": 1}}";
        assert_eq!(remove(user, &["b".into()]).unwrap().text, "{\"mcpServers\": {\"a\": {\"mine\": true}}}");
        assert_eq!(remove(user, &["zz".into()]).unwrap(), Removed { text: user.into(), emptied: false });
        let schema_only = "{\"$schema\": \"s\"}";
        assert!(!remove(schema_only, &["a".into()]).unwrap().emptied, "nothing removed, nothing emptied");
    }
}
