//! Lola's built-in GitHub Copilot CLI target, equal to today's Lola's: the
//! mapping in `copilot.rs`, which copilot-vscode shares. MCP servers go
//! into .vscode/mcp.json (project) or ~/.copilot/mcp-config.json (user)
//! under "mcpServers", as the module declares them. examples/go-copilot-cli
//! is the same target on sdk-go, held to the same goldens.

pub mod copilot;

use lola_sdk::{Error, PlanBuilder, Request};

pub fn handle(req: &Request, plan: &mut PlanBuilder) -> Result<(), Error> {
    copilot::target("copilot-cli").plan(req, plan)
}

lola_sdk::extension!(handle);
