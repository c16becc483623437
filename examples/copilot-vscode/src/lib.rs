//! Lola's built-in GitHub Copilot (VS Code) target, equal to today's
//! Lola's: copilot-cli's mapping (its `copilot.rs`, included here) except
//! that MCP servers go into .vscode/mcp.json under VS Code's "servers" key
//! with an explicit type (stdio, or http for a server with a url), and that
//! VS Code has no user-scope place for commands or MCP servers, so a
//! user-scope install leaves those out. examples/go-copilot-vscode is the
//! same target on sdk-go, held to the same goldens.

// Included rather than depended on: copilot-cli's crate exports its own
// lola_run, which would clash with this one's in the module.
#[path = "../../copilot-cli/src/copilot.rs"]
pub mod copilot;

use lola_sdk::assistant::{Scoped, Target};
use lola_sdk::jsonconfig::Value;
use lola_sdk::{Error, PlanBuilder, Request};

/// The mapping.
pub fn target() -> Target {
    let mut t = copilot::target("copilot-vscode");
    t.commands.user = "";
    t.mcp = Scoped { project: ".vscode/mcp.json", user: "" };
    t.mcp_container = "servers";
    t.mcp_server = Some(server);
    t
}

/// A server as VS Code reads it: with an explicit type.
pub fn server(mut v: Value) -> Value {
    if v.get("type").is_none() {
        let kind = if v.get("url").is_some() { "http" } else { "stdio" };
        v.set("type", Value::str(kind));
    }
    v
}

pub fn handle(req: &Request, plan: &mut PlanBuilder) -> Result<(), Error> {
    target().plan(req, plan)
}

lola_sdk::extension!(handle);
