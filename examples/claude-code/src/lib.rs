//! Lola's built-in Claude Code target: the mapping of a module (as the
//! host's inventory describes it) onto the files Claude Code reads, equal to
//! today's Lola's. Everything but the mapping is sdk-rust's `assistant`
//! module; examples/go-claude-code is the same target on sdk-go, held to the
//! same goldens.
//!
//! ```text
//! kind          project                        user (root = home)
//! skills        .claude/skills/<skill>/        .claude/skills/<skill>/
//! commands      .claude/commands/<name>.md     .claude/commands/<name>.md
//! agents        .claude/agents/<name>.md       .claude/agents/<name>.md
//! instructions  CLAUDE.md (managed section)    .claude/CLAUDE.md
//! MCP servers   .mcp.json ("mcpServers")       .mcp.json
//! ```
//!
//! Agents get `name: <agent>` in their frontmatter and `model: inherit` when
//! the author wrote no model (README.md: the one difference from today's
//! Lola).

use lola_sdk::assistant::{Scoped, Target};
use lola_sdk::{frontmatter, Error, PlanBuilder, Request};

/// The mapping.
pub static TARGET: Target = Target {
    name: "claude-code",
    skills: Scoped { project: ".claude/skills", user: ".claude/skills" },
    commands: Scoped { project: ".claude/commands", user: ".claude/commands" },
    agents: Scoped { project: ".claude/agents", user: ".claude/agents" },
    instructions: Scoped { project: "CLAUDE.md", user: ".claude/CLAUDE.md" },
    mcp: Scoped { project: ".mcp.json", user: ".mcp.json" },
    mcp_container: "mcpServers",
    agent: Some(agent),
    ..Target::NONE
};

/// The agent file Claude Code reads: its frontmatter with `name` set
/// (Claude Code requires it) and `model` defaulting to inherit,
/// re-serialised and with the body trimmed, as today's Lola writes it.
pub fn agent(name: &str, doc: &str) -> String {
    let mut d = frontmatter::parse(doc);
    d.set("name", name);
    if !d.fields.iter().any(|(k, _)| k == "model") {
        d.set("model", "inherit");
    }
    d.render()
}

pub fn handle(req: &Request, plan: &mut PlanBuilder) -> Result<(), Error> {
    TARGET.plan(req, plan)
}

lola_sdk::extension!(handle);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_authors_model_is_kept_and_a_missing_one_inherits() {
        assert_eq!(agent("a", "---\nmodel: fast\n---\nB\n"), "---\nmodel: fast\nname: a\n---\nB");
        assert_eq!(agent("a", "no frontmatter\n"), "---\nname: a\nmodel: inherit\n---\nno frontmatter");
    }
}
