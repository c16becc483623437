//! Lola's built-in OpenClaw target, equal to today's Lola's: skills only,
//! into the workspace's `skills/` directory, OpenClaw's highest-priority
//! discovery path. Commands, agents, instructions and MCP servers are not
//! installed (OpenClaw has no place for them yet). examples/go-openclaw is
//! the same target on sdk-go, held to the same goldens.
//!
//! The root is the workspace: `lola install -a openclaw --workspace W`
//! installs into ~/.openclaw/workspace (no W), ~/.openclaw/workspace-W (a
//! name) or W (a path); scope user installs into ~/.openclaw/workspace.

use lola_sdk::assistant::{Scoped, Target};
use lola_sdk::{Error, PlanBuilder, Request};

/// The mapping.
pub static TARGET: Target = Target {
    name: "openclaw",
    skills: Scoped { project: "skills", user: ".openclaw/workspace/skills" },
    ..Target::NONE
};

pub fn handle(req: &Request, plan: &mut PlanBuilder) -> Result<(), Error> {
    TARGET.plan(req, plan)
}

lola_sdk::extension!(handle);
