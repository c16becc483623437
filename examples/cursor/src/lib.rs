//! Lola's Cursor target, a tier-1 extension built with sdk-rust. It writes
//! what upstream Lola's Cursor target writes (see README.md for the few
//! intentional differences), in project and user scope alike (the host
//! hands the project or the home as the root):
//!
//! * each skill to `.cursor/skills/<skill>/SKILL.md`, its supporting files
//!   beside it (scripts keep their executable bit);
//! * each command to `.cursor/commands/<cmd>.md`, unchanged, with its
//!   co-named folder `commands/<cmd>/` if the module has one;
//! * each agent to `.cursor/agents/<agent>.md`, its frontmatter rewritten
//!   with `name: <agent>` and `model: inherit`;
//! * the module's `AGENTS.md` to `.cursor/rules/<module>-instructions.mdc`,
//!   an always-applied rule;
//! * the servers of `mcps.json` into `.cursor/mcp.json`, a managed file: the
//!   host hands its current content, the user's servers stay byte for byte.
//!
//! `uninstall` deletes exactly the files `install` writes for the same
//! module and takes the module's servers out of `.cursor/mcp.json` again.

use lola_sdk::inventory::{self, Inventory};
use lola_sdk::{frontmatter, mcp, Error, Module, PlanBuilder, Request};

/// The managed MCP config file, relative to the root.
pub const MCP_FILE: &str = ".cursor/mcp.json";

/// The `.mdc` rule upstream writes for a module's instructions, or None
/// when the instructions are only whitespace.
pub fn instructions_rule(module: &str, text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    Some(format!(
        "---\ndescription: {} module instructions\nglobs:\nalwaysApply: true\n---\n\n{}",
        module, t
    ))
}

/// An agent as Cursor reads it: upstream's frontmatter rewrite.
pub fn agent(name: &str, text: &str) -> String {
    let mut doc = frontmatter::parse(text);
    doc.set("name", name);
    doc.set("model", "inherit");
    doc.render()
}

/// Files of a command's co-named folder (`commands/<cmd>/...`), with their
/// paths relative to that folder.
fn sidecar<'a>(m: &'a Module, cmd: &str) -> Vec<(String, &'a lola_sdk::File)> {
    let prefix = format!("commands/{}/", cmd);
    m.files
        .iter()
        .filter_map(|f| f.path.strip_prefix(&prefix).map(|r| (r.to_string(), f)))
        .collect()
}

/// Every file path `install` writes for module `m` (MCP aside), in order.
fn install_module(
    m: &Module,
    inv: &Inventory,
    plan: &mut PlanBuilder,
    uninstall: bool,
) -> Result<(), Error> {
    let put = |plan: &mut PlanBuilder, path: String, f: Option<&lola_sdk::File>, text: Option<String>| -> Result<(), Error> {
        if uninstall {
            plan.delete(&path)?;
        } else if let Some(f) = f {
            plan.write_file(&path, f)?;
        } else if let Some(t) = text {
            plan.write(&path, &t)?;
        }
        Ok(())
    };
    for s in &inv.skills {
        let dir = format!(".cursor/skills/{}", s.name);
        put(plan, format!("{}/SKILL.md", dir), Some(s.skill_md), None)?;
        for (rel, f) in &s.files {
            put(plan, format!("{}/{}", dir, rel), Some(*f), None)?;
        }
    }
    for c in &inv.commands {
        put(plan, format!(".cursor/commands/{}.md", c.name), Some(c.file), None)?;
        for (rel, f) in sidecar(m, &c.name) {
            put(plan, format!(".cursor/commands/{}/{}", c.name, rel), Some(f), None)?;
        }
    }
    for a in &inv.agents {
        let text = if uninstall {
            None
        } else {
            Some(agent(&a.name, &inventory::text(a.file)?))
        };
        put(plan, format!(".cursor/agents/{}.md", a.name), None, text)?;
    }
    if let Some(f) = inv.instructions {
        if let Some(rule) = instructions_rule(&m.name, &inventory::text(f)?) {
            let text = if uninstall { None } else { Some(rule) };
            put(plan, format!(".cursor/rules/{}-instructions.mdc", m.name), None, text)?;
        }
    }
    Ok(())
}

pub fn handle(req: &Request, plan: &mut PlanBuilder) -> Result<(), Error> {
    let uninstall = req.operation == "uninstall";
    let current = req
        .current
        .iter()
        .find(|f| f.path == MCP_FILE)
        .map(inventory::text)
        .transpose()?;
    let mut mcp_text = current.clone();
    for m in &req.modules {
        let inv = inventory::of(m);
        install_module(m, &inv, plan, uninstall)?;
        let servers = match inv.mcps {
            Some(f) => mcp::servers_of(&inventory::text(f)?)?,
            None => continue,
        };
        if servers.is_empty() {
            continue;
        }
        mcp_text = if uninstall {
            match &mcp_text {
                Some(t) => {
                    let names: Vec<String> = servers.iter().map(|s| s.key.clone()).collect();
                    mcp::remove(t, &names)?
                }
                None => None,
            }
        } else {
            Some(mcp::merge(mcp_text.as_deref(), &servers)?)
        };
    }
    match (&current, &mcp_text) {
        (Some(_), None) => {
            plan.delete(MCP_FILE)?;
        }
        (before, Some(after)) if before.as_ref() != Some(after) => {
            plan.write(MCP_FILE, after)?;
        }
        _ => {}
    }
    Ok(())
}

lola_sdk::extension!(handle);
