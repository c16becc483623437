//! A module's parts — skills, commands, agents, instructions, MCP servers —
//! resolved from the inventory the host sends with each module, so that a
//! target is only its assistant's mapping of them and no target parses a
//! module's layout again.
//!
//! Strictness: a module without an inventory (a host that predates it), or
//! whose inventory names a file the module does not carry, a skill file
//! outside its skill's folder, or an MCP server whose config is not a JSON
//! object, is refused as a bad request (`request.invalid`, status 1) rather
//! than installing nothing or part of the module.

use crate::json::{self, Member, Value};
use crate::{Error, File, Module};

/// One skill: its name and description, its SKILL.md, and its other files
/// with their paths relative to the skill's folder.
#[derive(Debug, Clone)]
pub struct Skill<'a> {
    pub name: &'a str,
    pub description: &'a str,
    /// The skill folder's path in the module ("skills/<name>", or "" for a
    /// single-skill module).
    pub dir: &'a str,
    pub skill_md: &'a File,
    pub files: Vec<(&'a str, &'a File)>,
}

/// A command: its name, description, file and co-named folder's files
/// (paths relative to that folder).
#[derive(Debug, Clone)]
pub struct Command<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub file: &'a File,
    pub sidecar: Vec<(&'a str, &'a File)>,
}

/// An agent: its name, description, model and file.
#[derive(Debug, Clone)]
pub struct Agent<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub model: &'a str,
    pub file: &'a File,
}

/// Everything of a module a target can install.
#[derive(Debug, Clone)]
pub struct Inventory<'a> {
    pub single_skill: bool,
    pub skills: Vec<Skill<'a>>,
    pub commands: Vec<Command<'a>>,
    pub agents: Vec<Agent<'a>>,
    pub instructions: Option<&'a File>,
    /// The MCP servers, in mcps.json's order, as parsed JSON members.
    pub mcp_servers: Vec<Member>,
}

fn bad(m: &Module, why: String) -> Error {
    Error::new("request.invalid", format!("module {:?}: inventory: {}", m.name, why))
}

fn file<'a>(m: &'a Module, path: &str) -> Result<&'a File, Error> {
    m.files
        .iter()
        .find(|f| f.path == path)
        .ok_or_else(|| bad(m, format!("{:?} is not among the module's files", path)))
}

fn under<'a>(m: &'a Module, dir: &str, path: &'a str) -> Result<(&'a str, &'a File), Error> {
    let rel = if dir.is_empty() {
        Some(path)
    } else {
        path.strip_prefix(dir).and_then(|r| r.strip_prefix('/'))
    };
    match rel {
        Some(r) if !r.is_empty() => Ok((r, file(m, path)?)),
        _ => Err(bad(m, format!("{:?} is not inside {:?}", path, dir))),
    }
}

/// The module's inventory, resolved against its files.
pub fn of(m: &Module) -> Result<Inventory<'_>, Error> {
    let inv = m
        .inventory
        .as_ref()
        .ok_or_else(|| bad(m, "missing (the host predates module inventories)".to_string()))?;
    let mut skills = Vec::new();
    for s in &inv.skills {
        let mut skill_md = None;
        let mut files = Vec::new();
        for p in &s.files {
            let (rel, f) = under(m, &s.dir, p)?;
            if rel == "SKILL.md" {
                skill_md = Some(f);
            } else {
                files.push((rel, f));
            }
        }
        skills.push(Skill {
            name: &s.name,
            description: &s.description,
            dir: &s.dir,
            skill_md: skill_md.ok_or_else(|| bad(m, format!("skill {:?} has no SKILL.md", s.name)))?,
            files,
        });
    }
    let mut commands = Vec::new();
    for c in &inv.commands {
        let dir = format!("commands/{}", c.name);
        let mut sidecar = Vec::new();
        for p in &c.sidecar {
            sidecar.push(under(m, &dir, p)?);
        }
        commands.push(Command {
            name: &c.name,
            description: &c.description,
            file: file(m, &c.path)?,
            sidecar,
        });
    }
    let mut agents = Vec::new();
    for a in &inv.agents {
        agents.push(Agent {
            name: &a.name,
            description: &a.description,
            model: &a.model,
            file: file(m, &a.path)?,
        });
    }
    let instructions = if inv.instructions.is_empty() {
        None
    } else {
        Some(file(m, &inv.instructions)?)
    };
    let mut mcp_servers = Vec::new();
    for s in &inv.mcp_servers {
        let node = json::parse(s.config.get()).map_err(|e| bad(m, format!("server {:?}: {}", s.name, e.detail)))?;
        if !matches!(node.value, Value::Obj(_)) {
            return Err(bad(m, format!("server {:?}: config is not an object", s.name)));
        }
        mcp_servers.push(Member {
            key_start: 0,
            key: s.name.clone(),
            node,
        });
    }
    Ok(Inventory {
        single_skill: inv.single_skill,
        skills,
        commands,
        agents,
        instructions,
        mcp_servers,
    })
}

/// A request file's text as upstream Lola reads a module's markdown
/// (Python's `Path.read_text()`): UTF-8, with universal newlines (`\r\n` and
/// a lone `\r` become `\n`). What it writes from this text has LF endings.
pub fn read_text(f: &File) -> Result<String, Error> {
    Ok(universal_newlines(&text(f)?))
}

/// `\r\n` and a lone `\r` as `\n`, as Python's text mode reads them.
pub fn universal_newlines(s: &str) -> String {
    if !s.contains('\r') {
        return s.to_string();
    }
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// A request file's text as it is, refusing bytes that are not UTF-8 (`module.invalid`).
pub fn text(f: &File) -> Result<String, Error> {
    String::from_utf8(f.bytes()?)
        .map_err(|_| Error::new("module.invalid", format!("{}: not UTF-8 text", f.path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(inv: &str) -> Module {
        let src = format!(
            r#"{{"name":"m","files":[{{"path":"skills/a/SKILL.md","content":"x"}},{{"path":"skills/a/run.sh","content":"y","executable":true}}]{}}}"#,
            inv
        );
        serde_json::from_str(&src).unwrap()
    }

    const OK: &str = r#","inventory":{"skills":[{"name":"a","dir":"skills/a","files":["skills/a/SKILL.md","skills/a/run.sh"]}],"commands":[],"agents":[],"mcpServers":[{"name":"s","config":{"z":1,"a":[2]}}]}"#;

    #[test]
    fn universal_newlines_as_python_reads_text() {
        assert_eq!(universal_newlines("a\r\nb\rc\n\r\r\n"), "a\nb\nc\n\n\n");
    }

    #[test]
    fn resolves_paths_and_keeps_server_key_order() {
        let m = module(OK);
        let inv = of(&m).unwrap();
        assert_eq!(inv.skills[0].skill_md.path, "skills/a/SKILL.md");
        assert_eq!(inv.skills[0].files[0].0, "run.sh");
        assert!(inv.skills[0].files[0].1.executable);
        assert_eq!(json::dump(&inv.mcp_servers[0].node, ""), "{\n  \"z\": 1,\n  \"a\": [\n    2\n  ]\n}");
    }

    #[test]
    fn refuses_a_missing_or_lying_inventory() {
        let cases = [
            String::new(),
            OK.replace("skills/a/run.sh\"]", "skills/a/gone.sh\"]"),
            OK.replace("\"skills/a/SKILL.md\",", "\"skills/b/../a/x\","),
            OK.replace("{\"z\":1,\"a\":[2]}", "[1]"),
            OK.replace("\"skills/a/SKILL.md\",", ""),
        ];
        for c in &cases {
            let m = module(c);
            assert_eq!(of(&m).unwrap_err().rule, "request.invalid", "{}", c);
        }
        let strict: Result<Module, _> = serde_json::from_str(r#"{"name":"m","files":[],"inventory":{"skills":[]}}"#);
        assert!(strict.is_err(), "an inventory without its lists is not a request");
    }
}
