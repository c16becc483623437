//! The part every Lola assistant target shares, mirroring sdk-go's
//! `assistant` package: it reads the module inventory the host sends and
//! plans the install or uninstall of each module's skills, commands,
//! agents, instructions and MCP servers. A target is only its assistant's
//! mapping: a [`Target`] value naming where each kind goes per scope and how
//! a file is rewritten for the assistant.
//!
//! ```ignore
//! use lola_sdk::assistant::{Scoped, Target};
//! static TARGET: Target = Target {
//!     name: "openclaw",
//!     skills: Scoped { project: "skills", user: ".openclaw/workspace/skills" },
//!     ..Target::NONE
//! };
//! pub fn handle(req: &lola_sdk::Request, p: &mut lola_sdk::PlanBuilder) -> Result<(), lola_sdk::Error> {
//!     TARGET.plan(req, p)
//! }
//! lola_sdk::extension!(handle);
//! ```
//!
//! Guarantees (those of sdk-go's `assistant`, and the same plans):
//! * A request without an inventory (an older host), an unknown scope, a
//!   module name that could forge a marker, an inventory naming a file the
//!   request does not carry, a skill, command or agent name that is not one
//!   path component, a skill file or sidecar outside its directory, or an
//!   MCP server that is not a JSON object is refused as a bad request
//!   (`request.invalid`, status 1) before any intent counts.
//! * Installed files keep their bytes (unless the target rewrites them, as
//!   today's Lola does) and their execute bit; copies go through
//!   [`PlanBuilder::copy_file`], text through [`PlanBuilder::write`],
//!   shared files through [`PlanBuilder::rewrite`].
//! * Shared files are edited, never replaced: instructions through
//!   [`managed::set_block`] (the user's text outside lola's section kept
//!   byte for byte), MCP configs through [`jsonconfig::apply`] (the user's
//!   members and formatting kept). A shared file is deleted only when lola
//!   created it (`Request::created`) and nothing but lola's part was in it;
//!   a file the user had is written back, however empty. A rewrite of a
//!   shared file is a compare-and-swap on the bytes the request carried
//!   ([`PlanBuilder::rewrite`]: `if_content`, or `"absent"` for a file lola
//!   creates). A shared file that cannot be edited safely is refused
//!   (`managed.invalid`, status 2).
//! * An uninstall deletes exactly what the same module's install writes.
//!
//! Non-guarantees: the target is stateless: an uninstall plans from the
//! module as the store holds it now, so a file an older version of the
//! module installed and the current one no longer has is not removed.

use crate::jsonconfig::{self, Change};
use crate::{inventory, managed, Error, File, Module, PlanBuilder, Request};
use std::collections::HashMap;

/// A root-relative path per scope; "" means the assistant has no such place
/// in that scope and that kind is not installed there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scoped {
    pub project: &'static str,
    pub user: &'static str,
}

impl Scoped {
    /// No place in either scope.
    pub const NONE: Scoped = Scoped {
        project: "",
        user: "",
    };

    /// The path for `scope` (project when it is empty).
    pub fn for_scope(&self, scope: &str) -> &'static str {
        if scope == "user" {
            self.user
        } else {
            self.project
        }
    }
}

/// One assistant's mapping of a module.
#[derive(Clone, Copy)]
pub struct Target {
    /// Prefixes errors.
    pub name: &'static str,
    /// The directories skills, commands and agents go to.
    pub skills: Scoped,
    pub commands: Scoped,
    pub agents: Scoped,
    /// The shared Markdown file holding lola's managed section; the
    /// manifest must list it under `managed:`.
    pub instructions: Scoped,
    /// The JSON config holding MCP servers under the member
    /// `mcp_container`; the manifest must list it under `managed:`.
    pub mcp: Scoped,
    pub mcp_container: &'static str,
    /// The object a new MCP config starts from (None: `{}`).
    pub mcp_seed: Option<fn() -> jsonconfig::Value>,
    /// Rewrites a server definition for the assistant (None: written as the
    /// module declares it).
    pub mcp_server: Option<fn(jsonconfig::Value) -> jsonconfig::Value>,
    /// The installed file name of a command or agent (None: `<name>.md`). A
    /// command's sidecar directory is installed beside it under the file
    /// name less its last extension.
    pub command_file: Option<fn(&str) -> String>,
    pub agent_file: Option<fn(&str) -> String>,
    /// Rewrites a skill's SKILL.md (None: copied); None from it skips the
    /// skill, as today's Lola does for a skill it cannot map.
    pub skill: Option<fn(&crate::Skill, &str) -> Option<String>>,
    /// Rewrites an agent's file (None: copied): (name, text) -> text.
    pub agent: Option<fn(&str, &str) -> String>,
    /// Copies SKILL.md byte for byte. Otherwise SKILL.md, like every
    /// command, agent and instructions file, is read as text the way
    /// today's Lola reads it (universal newlines) and written without an
    /// execute bit.
    pub skill_md_verbatim: bool,
}

impl Target {
    /// A target that installs nothing: the base of `..Target::NONE`.
    pub const NONE: Target = Target {
        name: "",
        skills: Scoped::NONE,
        commands: Scoped::NONE,
        agents: Scoped::NONE,
        instructions: Scoped::NONE,
        mcp: Scoped::NONE,
        mcp_container: "",
        mcp_seed: None,
        mcp_server: None,
        command_file: None,
        agent_file: None,
        skill: None,
        agent: None,
        skill_md_verbatim: false,
    };

    fn bad(&self, why: String) -> Error {
        Error::bad_request(format!("{}: {}", self.name, why))
    }

    fn wrap(&self, e: Error) -> Error {
        Error::new(e.rule, format!("{}: {}", self.name, e.detail))
    }

    /// Plans `req`'s operation for every module of the request.
    pub fn plan(&self, req: &Request, p: &mut PlanBuilder) -> Result<(), Error> {
        let scope = req.scope.as_str();
        if !(scope.is_empty() || scope == "project" || scope == "user") {
            return Err(self.bad(format!("unknown scope {:?}", scope)));
        }
        let uninstall = req.operation == "uninstall";
        let mut ins = self.open_shared(req, self.instructions.for_scope(scope))?;
        let mcp = self.open_shared(req, self.mcp.for_scope(scope))?;
        let mut changes = Vec::new();
        for m in &req.modules {
            let files = self.check(m)?;
            let inv = m.inventory.as_ref().expect("checked");
            let module = Checked { inv, files };
            if uninstall {
                self.plan_uninstall(p, scope, &module)?;
            } else {
                self.plan_install(p, scope, &module)?;
            }
            if !ins.path.is_empty() {
                let body = if !uninstall && !inv.instructions.is_empty() {
                    module.text(&inv.instructions)
                } else {
                    String::new()
                };
                ins.doc = managed::set_block(&ins.doc, ins.path, &m.name, &body).map_err(|e| self.wrap(e))?;
            }
            if !mcp.path.is_empty() {
                changes.extend(self.mcp_changes(m, uninstall)?);
            }
        }
        ins.finish_managed(p)?;
        self.finish_mcp(p, &mcp, &changes)
    }

    fn open_shared<'a>(&self, req: &'a Request, file: &'static str) -> Result<Shared<'a>, Error> {
        let mut s = Shared {
            path: file,
            doc: String::new(),
            before: String::new(),
            current: None,
            created: req.lola_created(file),
        };
        if file.is_empty() {
            return Ok(s);
        }
        for f in req.current.iter().filter(|f| f.path == file) {
            let b = f.bytes().map_err(|e| self.wrap(Error::new(e.rule, format!("current {}: {}", file, e.detail))))?;
            s.doc = String::from_utf8_lossy(&b).into_owned();
            s.before = s.doc.clone();
            s.current = Some(f);
        }
        Ok(s)
    }

    fn mcp_changes(&self, m: &Module, uninstall: bool) -> Result<Vec<Change>, Error> {
        let mut out = Vec::new();
        for s in &m.inventory.as_ref().expect("checked").mcp_servers {
            if s.name.is_empty() {
                return Err(self.bad(format!("module {}: an MCP server has no name", m.name)));
            }
            if uninstall {
                out.push(Change {
                    name: s.name.clone(),
                    value: None,
                });
                continue;
            }
            let mut v = match jsonconfig::parse(s.config.get()) {
                Ok(v @ jsonconfig::Value::Object(_)) => v,
                _ => {
                    return Err(self.bad(format!(
                        "module {}: MCP server {:?} is not a JSON object",
                        m.name, s.name
                    )))
                }
            };
            if let Some(f) = self.mcp_server {
                v = f(v);
            }
            out.push(Change {
                name: s.name.clone(),
                value: Some(v),
            });
        }
        Ok(out)
    }

    fn finish_mcp(&self, p: &mut PlanBuilder, s: &Shared, changes: &[Change]) -> Result<(), Error> {
        if s.path.is_empty() || changes.is_empty() {
            return Ok(());
        }
        let seed = self.mcp_seed.map(|f| f()).unwrap_or_else(jsonconfig::Value::object);
        let exists = s.current.is_some();
        let (out, del) = jsonconfig::apply(&s.doc, exists, &seed, self.mcp_container, changes)
            .map_err(|e| self.wrap(Error::new(e.rule, format!("{}: {}", s.path, e.detail))))?;
        if del && exists && s.created {
            p.delete(s.path)?;
        } else if !(out == s.before || (!exists && out.is_empty())) {
            p.rewrite(s.path, &out, s.current)?;
        }
        Ok(())
    }

    /// Refuses a module whose inventory names a file the request lacks, or
    /// a name that is not one path component; returns its files by path.
    fn check<'a>(&self, m: &'a Module) -> Result<HashMap<&'a str, &'a File>, Error> {
        managed::check_module_name(&m.name).map_err(|e| self.wrap(e))?;
        let inv = match &m.inventory {
            Some(inv) => inv,
            None => {
                return Err(self.bad(format!(
                    "module {}: the request carries no inventory (the host predates it); update lola",
                    m.name
                )))
            }
        };
        let mut files = HashMap::with_capacity(m.files.len());
        for f in &m.files {
            crate::check_path(&f.path).map_err(|e| self.bad(format!("module {}: {}", m.name, e)))?;
            f.bytes().map_err(|e| self.bad(format!("module {}: {}: {}", m.name, f.path, e)))?;
            files.insert(f.path.as_str(), f);
        }
        let need = |p: &str| -> Result<(), Error> {
            if files.contains_key(p) {
                Ok(())
            } else {
                Err(self.bad(format!(
                    "module {}: the inventory names {:?}, which the request does not carry",
                    m.name, p
                )))
            }
        };
        let name = |kind: &str, n: &str| -> Result<(), Error> {
            if n.is_empty() || n.contains('/') || n.contains('\\') || crate::check_path(n).is_err() || n.starts_with('.') {
                Err(self.bad(format!(
                    "module {}: {} name {:?} is not a single path component",
                    m.name, kind, n
                )))
            } else {
                Ok(())
            }
        };
        for s in &inv.skills {
            name("skill", &s.name)?;
            for f in &s.files {
                need(f)?;
                if !s.dir.is_empty() && !f.starts_with(&format!("{}/", s.dir)) {
                    return Err(self.bad(format!("module {}: skill {}: {:?} is outside {}/", m.name, s.name, f, s.dir)));
                }
            }
            if need(&skill_md(&s.dir)).is_err() {
                return Err(self.bad(format!("module {}: skill {} has no SKILL.md", m.name, s.name)));
            }
        }
        for c in &inv.commands {
            name("command", &c.name)?;
            need(&c.path)?;
            let dir = format!("commands/{}/", c.name);
            for f in &c.sidecar {
                need(f)?;
                if !f.starts_with(&dir) {
                    return Err(self.bad(format!(
                        "module {}: command {}: sidecar {:?} is outside commands/{}/",
                        m.name, c.name, f, c.name
                    )));
                }
            }
        }
        for a in &inv.agents {
            name("agent", &a.name)?;
            need(&a.path)?;
        }
        if !inv.instructions.is_empty() {
            need(&inv.instructions)?;
        }
        Ok(files)
    }

    fn command_file(&self, n: &str) -> String {
        match self.command_file {
            Some(f) => f(n),
            None => format!("{}.md", n),
        }
    }

    fn agent_file(&self, n: &str) -> String {
        match self.agent_file {
            Some(f) => f(n),
            None => format!("{}.md", n),
        }
    }

    fn plan_install(&self, p: &mut PlanBuilder, scope: &str, m: &Checked) -> Result<(), Error> {
        let dir = self.skills.for_scope(scope);
        if !dir.is_empty() {
            for s in &m.inv.skills {
                let md_path = skill_md(&s.dir);
                let mut md = m.text(&md_path);
                let mut verbatim = self.skill_md_verbatim || !m.is_text(&md_path);
                if let Some(rewrite) = self.skill {
                    verbatim = false;
                    md = match rewrite(s, &md) {
                        Some(md) => md,
                        None => continue,
                    };
                }
                let dest = format!("{}/{}", dir, s.name);
                // Replace the skill directory whole: a stale supporting file
                // from an older version must not survive the upgrade.
                p.delete(&dest)?;
                for f in &s.files {
                    let rel = if s.dir.is_empty() {
                        f.as_str()
                    } else {
                        f.strip_prefix(&format!("{}/", s.dir)).unwrap_or(f)
                    };
                    let to = format!("{}/{}", dest, rel);
                    if *f == md_path && !verbatim {
                        p.write(&to, &md)?;
                    } else {
                        p.copy_file(&to, m.files[f.as_str()])?;
                    }
                }
            }
        }
        let dir = self.commands.for_scope(scope);
        if !dir.is_empty() {
            for c in &m.inv.commands {
                let file = self.command_file(&c.name);
                let to = format!("{}/{}", dir, file);
                if m.is_text(&c.path) {
                    p.write(&to, &m.text(&c.path))?;
                } else {
                    p.copy_file(&to, m.files[c.path.as_str()])?;
                }
                if !c.sidecar.is_empty() {
                    let side = format!("{}/{}", dir, sidecar_dir(&file));
                    p.delete(&side)?;
                    let prefix = format!("commands/{}/", c.name);
                    for f in &c.sidecar {
                        let rel = f.strip_prefix(&prefix).unwrap_or(f);
                        p.copy_file(&format!("{}/{}", side, rel), m.files[f.as_str()])?;
                    }
                }
            }
        }
        let dir = self.agents.for_scope(scope);
        if !dir.is_empty() {
            for a in &m.inv.agents {
                let dest = format!("{}/{}", dir, self.agent_file(&a.name));
                if !m.is_text(&a.path) {
                    p.copy_file(&dest, m.files[a.path.as_str()])?;
                    continue;
                }
                let text = m.text(&a.path);
                match self.agent {
                    Some(rewrite) => p.write(&dest, &rewrite(&a.name, &text))?,
                    None => p.write(&dest, &text)?,
                };
            }
        }
        Ok(())
    }

    fn plan_uninstall(&self, p: &mut PlanBuilder, scope: &str, m: &Checked) -> Result<(), Error> {
        let dir = self.skills.for_scope(scope);
        if !dir.is_empty() {
            for s in &m.inv.skills {
                p.delete(&format!("{}/{}", dir, s.name))?;
            }
        }
        let dir = self.commands.for_scope(scope);
        if !dir.is_empty() {
            for c in &m.inv.commands {
                let file = self.command_file(&c.name);
                p.delete(&format!("{}/{}", dir, file))?;
                if !c.sidecar.is_empty() {
                    p.delete(&format!("{}/{}", dir, sidecar_dir(&file)))?;
                }
            }
        }
        let dir = self.agents.for_scope(scope);
        if !dir.is_empty() {
            for a in &m.inv.agents {
                p.delete(&format!("{}/{}", dir, self.agent_file(&a.name)))?;
            }
        }
        Ok(())
    }
}

/// A skill's SKILL.md path in the module.
fn skill_md(dir: &str) -> String {
    if dir.is_empty() {
        "SKILL.md".to_string()
    } else {
        format!("{}/SKILL.md", dir)
    }
}

/// Where a command's co-named directory goes: the command's file name less
/// its last extension (deploy.md -> deploy/, deploy.prompt.md ->
/// deploy.prompt/, as today's Lola names it).
fn sidecar_dir(file: &str) -> &str {
    match file.rfind('.') {
        Some(i) if !file[i..].contains('/') => &file[..i],
        _ => file,
    }
}

/// A request module whose inventory has been checked.
struct Checked<'a> {
    inv: &'a crate::Inventory,
    files: HashMap<&'a str, &'a File>,
}

impl<'a> Checked<'a> {
    /// A module file read as today's Lola reads text (Python's read_text:
    /// universal newlines, CRLF and lone CR become LF).
    fn text(&self, p: &str) -> String {
        let b = self.files[p].bytes().unwrap_or_default(); // checked
        inventory::universal_newlines(&String::from_utf8_lossy(&b))
    }

    /// Whether a file reached the target as UTF-8 text; other files are
    /// copied as bytes (today's Lola cannot read them as text).
    fn is_text(&self, p: &str) -> bool {
        self.files[p].encoding != "base64"
    }
}

/// A file the host handed over in the request's current list.
struct Shared<'a> {
    path: &'static str,
    doc: String,
    before: String,
    /// The request's current file (None: the file does not exist). A
    /// rewrite is a compare-and-swap on its bytes ([`PlanBuilder::rewrite`],
    /// `if_content`): an edit the user makes before the host applies the
    /// plan refuses it (`conflict.changed`) instead of being overwritten.
    current: Option<&'a File>,
    /// Whether lola created the file (`Request::created`): only then may it
    /// be deleted once lola's part of it is gone.
    created: bool,
}

impl<'a> Shared<'a> {
    fn finish_managed(&self, p: &mut PlanBuilder) -> Result<(), Error> {
        if self.path.is_empty() || self.doc == self.before {
            return Ok(());
        }
        if self.doc.is_empty() && self.current.is_some() && self.created {
            // Only lola's section was there, in a file lola created.
            p.delete(self.path)?;
        } else {
            p.rewrite(self.path, &self.doc, self.current)?;
        }
        Ok(())
    }
}


#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    static T: Target = Target {
        name: "t",
        skills: Scoped { project: "s", user: "" },
        instructions: Scoped { project: "I.md", user: "" },
        mcp: Scoped { project: "m.json", user: "" },
        mcp_container: "mcpServers",
        ..Target::NONE
    };

    fn handle(req: &Request, p: &mut PlanBuilder) -> Result<(), Error> {
        T.plan(req, p)
    }

    fn run(op: &str, scope: &str, current: Value, created: Value) -> Result<Value, (i32, String)> {
        let req = json!({"protocol": 1, "operation": op, "scope": scope, "current": current, "created": created,
            "modules": [{"name": "m", "files": [
                {"path": "AGENTS.md", "content": "Be kind.\r\n"},
                {"path": "skills/a/SKILL.md", "content": "x"},
                {"path": "skills/a/run.sh", "content": "IyE=", "encoding": "base64", "executable": true, "mode": "0750"}],
              "inventory": {"skills": [{"name": "a", "dir": "skills/a", "files": ["skills/a/SKILL.md", "skills/a/run.sh"]}],
                "commands": [], "agents": [], "instructions": "AGENTS.md",
                "mcpServers": [{"name": "s", "config": {"command": "x"}}]}}]});
        crate::run_bytes(handle, &serde_json::to_vec(&req).unwrap()).map(|p| serde_json::from_slice(&p).unwrap())
    }

    fn intents(plan: &Value) -> Vec<(String, String)> {
        plan["intents"].as_array().unwrap().iter()
            .map(|i| (i["op"].as_str().unwrap().to_string(), i["path"].as_str().unwrap().to_string()))
            .collect()
    }

    fn content(plan: &Value, path: &str) -> String {
        plan["intents"].as_array().unwrap().iter().find(|i| i["path"] == path && i["op"] == "write")
            .map(|i| i["content"].as_str().unwrap().to_string()).unwrap_or_else(|| panic!("no write of {}: {}", path, plan))
    }

    fn if_content(plan: &Value, path: &str) -> String {
        plan["intents"].as_array().unwrap().iter().find(|i| i["path"] == path && i["op"] == "write")
            .map(|i| i["if_content"].as_str().unwrap_or("").to_string()).unwrap()
    }

    #[test]
    fn install_copies_with_the_execute_bit_and_edits_shared_files() {
        let plan = run("install", "project", json!([]), json!([])).unwrap();
        let run_sh = plan["intents"].as_array().unwrap().iter().find(|i| i["path"] == "s/a/run.sh").unwrap();
        // Copied as it is: bytes, execute bit and the mode the host named.
        assert_eq!(run_sh, &json!({"op": "write", "path": "s/a/run.sh", "content": "IyE=", "encoding": "base64", "executable": true, "mode": "0750"}));
        assert!(content(&plan, "I.md").contains("\nBe kind.\n<!-- lola:module:m:end -->"));
        assert_eq!(content(&plan, "m.json"), "{\n  \"mcpServers\": {\n    \"s\": {\n      \"command\": \"x\"\n    }\n  }\n}\n");
        // Computed from no file: the writes apply only while there is none.
        assert_eq!(if_content(&plan, "I.md"), "absent");
        assert_eq!(if_content(&plan, "m.json"), "absent");
        assert_eq!(if_content(&plan, "s/a/SKILL.md"), "", "a module file is no rewrite");
        // A scope with no place for a kind installs none of it.
        let user = run("install", "user", json!([]), json!([])).unwrap();
        assert_eq!(user["intents"], json!([]));
    }

    /// A shared file left with nothing of the user's is deleted only when
    /// lola created it; one the user had is written back, however empty.
    #[test]
    fn an_emptied_shared_file_goes_only_when_lola_created_it() {
        let installed = run("install", "project", json!([]), json!([])).unwrap();
        let current = json!([{"path": "I.md", "content": content(&installed, "I.md")},
                             {"path": "m.json", "content": content(&installed, "m.json")}]);
        let mine = run("uninstall", "project", current.clone(), json!([])).unwrap();
        assert_eq!(intents(&mine), vec![("delete".into(), "s/a".into()), ("write".into(), "I.md".into()), ("write".into(), "m.json".into())]);
        assert_eq!(content(&mine, "I.md"), "");
        // Rewrites are compare-and-swaps on what the request carried.
        assert_eq!(if_content(&mine, "I.md"), crate::sha256::if_content(Some(content(&installed, "I.md").as_bytes())));
        assert_eq!(if_content(&mine, "m.json"), crate::sha256::if_content(Some(content(&installed, "m.json").as_bytes())));
        let ours = run("uninstall", "project", current, json!(["I.md", "m.json"])).unwrap();
        assert_eq!(intents(&ours), vec![("delete".into(), "s/a".into()), ("delete".into(), "I.md".into()), ("delete".into(), "m.json".into())]);
    }

    #[test]
    fn a_users_text_survives_install_then_uninstall() {
        let user = json!([{"path": "I.md", "content": "# Mine\n"}, {"path": "m.json", "content": "{\"a\": 1}\n"}]);
        let installed = run("install", "project", user.clone(), json!([])).unwrap();
        let current = json!([{"path": "I.md", "content": content(&installed, "I.md")},
                             {"path": "m.json", "content": content(&installed, "m.json")}]);
        let back = run("uninstall", "project", current, json!(["I.md", "m.json"])).unwrap();
        assert_eq!(content(&back, "I.md"), "# Mine\n");
        assert_eq!(content(&back, "m.json"), "{\"a\": 1}\n");
    }

    #[test]
    fn a_broken_shared_file_is_refused_not_replaced() {
        let broken = json!([{"path": "I.md", "content": "<!-- lola:instructions:start -->\n"}]);
        let (code, why) = run("install", "project", broken, json!([])).unwrap_err();
        assert_eq!(code, crate::status::HANDLER_ERROR);
        assert!(why.starts_with("managed.invalid: t: I.md: "), "{}", why);
    }
}
