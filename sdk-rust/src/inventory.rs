//! A module's parts — skills, commands, agents, instructions, MCP servers —
//! so that a target is only its assistant's mapping of them.
//!
//! The layout is upstream Lola's (`models.py`): skills are
//! `skills/<name>/SKILL.md` with their supporting files beside it (folders
//! starting with a dot are skipped); without any, a `SKILL.md` at the
//! module's content root makes the module one skill, named by its
//! frontmatter `name` or else by the module; commands and agents are the
//! `.md` files directly in `commands/` and `agents/`; instructions are a
//! non-empty `AGENTS.md`; MCP servers come from `mcps.json`. Every list is
//! sorted by name, as upstream sorts them.

use crate::{frontmatter, File, Module};

/// One skill: its name, its SKILL.md, and its other files with their paths
/// relative to the skill's folder.
#[derive(Debug, Clone)]
pub struct Skill<'a> {
    pub name: String,
    pub skill_md: &'a File,
    pub files: Vec<(String, &'a File)>,
    /// The skill folder's path in the module ("skills/<name>" or "" for a
    /// single-skill module).
    pub dir: String,
}

/// A command or agent: its name (the file name without `.md`) and file.
#[derive(Debug, Clone)]
pub struct Named<'a> {
    pub name: String,
    pub file: &'a File,
}

/// Everything of a module a target can install.
#[derive(Debug, Clone, Default)]
pub struct Inventory<'a> {
    pub skills: Vec<Skill<'a>>,
    pub commands: Vec<Named<'a>>,
    pub agents: Vec<Named<'a>>,
    pub instructions: Option<&'a File>,
    pub mcps: Option<&'a File>,
}

fn md_in<'a>(m: &'a Module, dir: &str) -> Vec<Named<'a>> {
    let mut out: Vec<Named> = m
        .files
        .iter()
        .filter_map(|f| {
            let rest = f.path.strip_prefix(dir)?.strip_prefix('/')?;
            if rest.contains('/') {
                return None;
            }
            let name = rest.strip_suffix(".md")?;
            Some(Named {
                name: name.to_string(),
                file: f,
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The module's inventory, derived from its files.
pub fn of(m: &Module) -> Inventory<'_> {
    let mut skills: Vec<Skill> = Vec::new();
    for f in &m.files {
        let parts: Vec<&str> = f.path.split('/').collect();
        if parts.len() == 3 && parts[0] == "skills" && parts[2] == "SKILL.md" && !parts[1].starts_with('.') {
            let dir = format!("skills/{}", parts[1]);
            let prefix = format!("{}/", dir);
            let mut files: Vec<(String, &File)> = m
                .files
                .iter()
                .filter(|g| g.path.starts_with(&prefix) && g.path != f.path)
                .map(|g| (g.path[prefix.len()..].to_string(), g))
                .collect();
            files.sort_by(|a, b| a.0.cmp(&b.0));
            skills.push(Skill {
                name: parts[1].to_string(),
                skill_md: f,
                files,
                dir,
            });
        }
    }
    if skills.is_empty() {
        if let Some(f) = m.files.iter().find(|f| f.path == "SKILL.md") {
            let text = String::from_utf8(f.bytes().unwrap_or_default()).unwrap_or_default();
            let doc = frontmatter::parse(&text);
            let name = match doc.get("name") {
                Some(n) if !n.is_empty() => n.to_string(),
                _ => m.name.clone(),
            };
            let mut files: Vec<(String, &File)> = m
                .files
                .iter()
                .filter(|g| g.path != "SKILL.md")
                .map(|g| (g.path.clone(), g))
                .collect();
            files.sort_by(|a, b| a.0.cmp(&b.0));
            skills.push(Skill {
                name,
                skill_md: f,
                files,
                dir: String::new(),
            });
        }
    }
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    Inventory {
        skills,
        commands: md_in(m, "commands"),
        agents: md_in(m, "agents"),
        instructions: m
            .files
            .iter()
            .find(|f| f.path == "AGENTS.md" && !f.content.is_empty()),
        mcps: m.files.iter().find(|f| f.path == "mcps.json"),
    }
}

/// A request file's text, refusing bytes that are not UTF-8 (`module.invalid`).
pub fn text(f: &File) -> Result<String, crate::Error> {
    String::from_utf8(f.bytes()?).map_err(|_| {
        crate::Error::new("module.invalid", format!("{}: not UTF-8 text", f.path))
    })
}
