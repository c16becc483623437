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

/// Every file `install` writes for module `m` (MCP aside), in upstream's
/// order; `uninstall` deletes the same paths.
fn install_module(m: &Module, inv: &Inventory, plan: &mut PlanBuilder, uninstall: bool) -> Result<(), Error> {
    let copy = |plan: &mut PlanBuilder, path: String, f: &lola_sdk::File| -> Result<(), Error> {
        if uninstall {
            plan.delete(&path)?;
        } else {
            plan.copy_file(&path, f)?;
        }
        Ok(())
    };
    let write = |plan: &mut PlanBuilder, path: String, text: &dyn Fn() -> Result<String, Error>| -> Result<(), Error> {
        if uninstall {
            plan.delete(&path)?;
        } else {
            plan.write(&path, &text()?)?;
        }
        Ok(())
    };
    // SKILL.md, commands, agents and instructions are read and written as
    // text, as upstream does (universal newlines, a new file's mode); the
    // skill's other files and a command's folder are copied as they are.
    for s in &inv.skills {
        let dir = format!(".cursor/skills/{}", s.name);
        write(plan, format!("{}/SKILL.md", dir), &|| inventory::read_text(s.skill_md))?;
        for (rel, f) in &s.files {
            copy(plan, format!("{}/{}", dir, rel), f)?;
        }
    }
    for c in &inv.commands {
        write(plan, format!(".cursor/commands/{}.md", c.name), &|| inventory::read_text(c.file))?;
        for (rel, f) in &c.sidecar {
            copy(plan, format!(".cursor/commands/{}/{}", c.name, rel), f)?;
        }
    }
    for a in &inv.agents {
        write(plan, format!(".cursor/agents/{}.md", a.name), &|| Ok(agent(a.name, &inventory::read_text(a.file)?)))?;
    }
    if let Some(f) = inv.instructions {
        if let Some(rule) = instructions_rule(&m.name, &inventory::read_text(f)?) {
            write(plan, format!(".cursor/rules/{}-instructions.mdc", m.name), &|| Ok(rule.clone()))?;
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
    let mut emptied = false;
    for m in &req.modules {
        let inv = inventory::of(m)?;
        install_module(m, &inv, plan, uninstall)?;
        if inv.mcp_servers.is_empty() {
            continue;
        }
        mcp_text = if uninstall {
            match &mcp_text {
                Some(t) => {
                    let names: Vec<String> = inv.mcp_servers.iter().map(|s| s.key.clone()).collect();
                    let left = mcp::remove(t, &names)?;
                    // A later module whose servers are already gone
                    // leaves an emptied file emptied.
                    emptied = left.emptied || (emptied && left.text == *t);
                    Some(left.text)
                }
                None => None,
            }
        } else {
            emptied = false;
            Some(mcp::merge(mcp_text.as_deref(), &inv.mcp_servers)?)
        };
    }
    match (&current, &mcp_text) {
        // Only a file lola created goes: the user's, however empty, stays.
        (Some(_), Some(_)) if emptied && req.lola_created(MCP_FILE) => {
            plan.delete(MCP_FILE)?;
        }
        (before, Some(after)) if before.as_ref() != Some(after) => {
            // A compare-and-swap on the file as the request carried it: an
            // edit the user makes before the host applies refuses the plan.
            let was = req.current.iter().find(|f| f.path == MCP_FILE);
            plan.rewrite(MCP_FILE, after, was)?;
        }
        _ => {}
    }
    Ok(())
}

lola_sdk::extension!(handle);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn run(req: Value) -> Result<Value, (i32, String)> {
        let bytes = serde_json::to_vec(&req).unwrap();
        lola_sdk::run_bytes(handle, &bytes).map(|p| serde_json::from_slice(&p).unwrap())
    }

    fn request(op: &str, mcp: Option<&str>) -> Value {
        let mut r = json!({"protocol": 1, "operation": op, "assistant": "cursor", "scope": "project",
            "modules": [{"name": "m", "files": [
                {"path": "mcps.json", "content": "{\"mcpServers\": {\"s\": {\"command\": \"x\"}}}"}],
                "inventory": {"skills": [], "commands": [], "agents": [],
                    "mcpServers": [{"name": "s", "config": {"command": "x"}}]}}]});
        if let Some(c) = mcp {
            r["current"] = json!([{"path": MCP_FILE, "content": c}]);
        }
        r
    }

    fn written(plan: &Value, path: &str) -> Option<String> {
        plan["intents"].as_array().unwrap().iter().find(|i| i["path"] == path && i["op"] == "write")
            .map(|i| i["content"].as_str().unwrap().to_string())
    }

    #[test]
    fn a_users_unusual_mcp_json_keeps_its_bytes_through_install_and_uninstall() {
        let user = "{\"mcpServers\":{\n\t\"mine\":{\"command\":\"m\",\"env\":{\"K\":\"\\u00e9\"}}\n},\"other\" : [ 1,2 ]}\n";
        let plan = run(request("install", Some(user))).unwrap();
        let merged = written(&plan, MCP_FILE).unwrap();
        assert!(merged.starts_with("{\"mcpServers\":{\n\t\"mine\":{\"command\":\"m\",\"env\":{\"K\":\"\\u00e9\"}},\n\t\"s\": {\n"), "{}", merged);
        assert!(merged.ends_with("},\"other\" : [ 1,2 ]}\n"), "{}", merged);
        let plan = run(request("uninstall", Some(&merged))).unwrap();
        assert_eq!(written(&plan, MCP_FILE).unwrap(), user);
    }

    #[test]
    fn a_server_the_user_added_after_install_survives_uninstall() {
        let plan = run(request("install", None)).unwrap();
        let ours = written(&plan, MCP_FILE).unwrap();
        let edited = ours.replacen("\"mcpServers\": {", "\"mcpServers\": {\n    \"mine\": {},", 1);
        let plan = run(request("uninstall", Some(&edited))).unwrap();
        assert_eq!(written(&plan, MCP_FILE).unwrap(), "{\n  \"mcpServers\": {\n    \"mine\": {}\n  }\n}\n");
    }

    #[test]
    fn a_file_lola_created_goes_on_uninstall() {
        let plan = run(request("install", None)).unwrap();
        let ours = written(&plan, MCP_FILE).unwrap();
        let mut req = request("uninstall", Some(&ours));
        req["created"] = json!([MCP_FILE]);
        let plan = run(req).unwrap();
        assert_eq!(plan["intents"], json!([{"op": "delete", "path": MCP_FILE}]));
    }

    #[test]
    fn a_users_file_left_empty_is_written_back_not_deleted() {
        let user = "{\"$schema\": \"https://x/s.json\"}\n";
        let plan = run(request("install", Some(user))).unwrap();
        let merged = written(&plan, MCP_FILE).unwrap();
        let plan = run(request("uninstall", Some(&merged))).unwrap();
        assert_eq!(written(&plan, MCP_FILE).unwrap(), user);
        let plan = run(request("uninstall", Some(&written(&run(request("install", None)).unwrap(), MCP_FILE).unwrap()))).unwrap();
        assert!(plan["intents"].as_array().unwrap().iter().all(|i| i["op"] != "delete"), "{}", plan);
    }

    #[test]
    fn a_broken_mcp_json_is_refused_and_nothing_is_planned() {
        for bad in ["{\"mcpServers\": ", "[1]", "{\"mcpServers\": \"x\"}"] {
            let (code, why) = run(request("install", Some(bad))).unwrap_err();
            assert_eq!(code, lola_sdk::status::HANDLER_ERROR);
            assert!(why.starts_with("managed.invalid: "), "{}", why);
        }
    }

    #[test]
    fn a_hostile_module_name_is_refused_by_the_builder() {
        let req = json!({"protocol": 1, "operation": "install", "modules": [{"name": "../x",
            "files": [{"path": "AGENTS.md", "content": "x"}],
            "inventory": {"skills": [], "commands": [], "agents": [], "instructions": "AGENTS.md", "mcpServers": []}}]});
        let (code, why) = run(req).unwrap_err();
        assert_eq!(code, lola_sdk::status::HANDLER_ERROR);
        assert!(why.contains("path.traversal"), "{}", why);
    }

    #[test]
    fn a_module_without_inventory_is_a_bad_request_not_an_empty_install() {
        let req = json!({"protocol": 1, "operation": "install", "modules": [{"name": "m",
            "files": [{"path": "commands/a.md", "content": "x"}]}]});
        let (code, why) = run(req).unwrap_err();
        assert_eq!(code, lola_sdk::status::BAD_REQUEST);
        assert!(why.starts_with("request.invalid: "), "{}", why);
    }

    #[test]
    fn a_skill_name_from_frontmatter_cannot_escape() {
        let req = json!({"protocol": 1, "operation": "install", "modules": [{"name": "m",
            "files": [{"path": "SKILL.md", "content": "---\nname: ../../etc\n---\nx\n"}],
            "inventory": {"singleSkill": true, "skills": [{"name": "../../etc", "dir": "", "files": ["SKILL.md"]}],
                "commands": [], "agents": [], "mcpServers": []}}]});
        let (_, why) = run(req).unwrap_err();
        assert!(why.contains("path.traversal"), "{}", why);
    }

    #[test]
    fn agents_get_upstreams_frontmatter() {
        assert_eq!(agent("a", "no frontmatter\n"), "---\nname: a\nmodel: inherit\n---\nno frontmatter");
        assert_eq!(
            agent("a", "---\nmodel: fast\ndescription: Does things: well\n---\nBody\n"),
            "---\nmodel: inherit\ndescription: 'Does things: well'\nname: a\n---\nBody"
        );
        assert_eq!(instructions_rule("m", " \n"), None);
    }
}
