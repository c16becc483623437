//! The GitHub Copilot mapping copilot-cli and copilot-vscode share (the
//! latter includes this file), equal to today's Lola's:
//!
//! ```text
//! kind          project                                  user (root = home)
//! skills        .github/skills/<skill>/                  .copilot/skills/<skill>/
//! commands      .github/prompts/<name>.prompt.md         .copilot/prompts/<name>.prompt.md
//! agents        .github/agents/<name>.agent.md           .copilot/agents/<name>.agent.md
//! instructions  .github/copilot-instructions.md          .copilot/copilot-instructions.md
//! MCP servers   .vscode/mcp.json ("mcpServers")          .copilot/mcp-config.json
//! ```
//!
//! A skill's SKILL.md is rewritten to Copilot's frontmatter (name,
//! description, applyTo from applyTo or globs); a skill without a
//! description is skipped, as today's Lola skips it.

use lola_sdk::assistant::{Scoped, Target};
use lola_sdk::frontmatter::{self, Document};
use lola_sdk::yaml::Value;

/// The mapping, errors prefixed with `name`.
pub fn target(name: &'static str) -> Target {
    Target {
        name,
        skills: Scoped { project: ".github/skills", user: ".copilot/skills" },
        commands: Scoped { project: ".github/prompts", user: ".copilot/prompts" },
        agents: Scoped { project: ".github/agents", user: ".copilot/agents" },
        instructions: Scoped { project: ".github/copilot-instructions.md", user: ".copilot/copilot-instructions.md" },
        mcp: Scoped { project: ".vscode/mcp.json", user: ".copilot/mcp-config.json" },
        mcp_container: "mcpServers",
        command_file: Some(|n| format!("{}.prompt.md", n)),
        agent_file: Some(|n| format!("{}.agent.md", n)),
        skill: Some(skill),
        ..Target::NONE
    }
}

/// Whether Python would treat the value PyYAML loads for `v` as true.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Str(s) => !s.is_empty(),
        Value::List(l) => !l.is_empty(),
        Value::Raw(s) => !matches!(s.trim(), "" | "{}" | "[]"),
        Value::Scalar(s) => match s.as_str() {
            "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => true,
            "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => false,
            "~" | "null" | "Null" | "NULL" | "" => false,
            n => !number_is_zero(n),
        },
    }
}

/// Whether a YAML 1.1 int or float scalar is zero (NaN and inf are not).
fn number_is_zero(n: &str) -> bool {
    let n = n.trim_start_matches(|c| c == '+' || c == '-');
    if let Some(h) = n.strip_prefix("0x") {
        return h.chars().all(|c| c == '0' || c == '_');
    }
    let n = n.strip_prefix("0b").unwrap_or(n);
    let mant = n.split(|c| c == 'e' || c == 'E').next().unwrap_or(n);
    !mant.is_empty() && mant.chars().all(|c| matches!(c, '0' | '_' | '.' | ':'))
}

/// Copilot's SKILL.md: name, description and applyTo (from applyTo or
/// globs); None (skipped) without a description.
pub fn skill(s: &lola_sdk::Skill, doc: &str) -> Option<String> {
    let d = frontmatter::parse(doc);
    let get = |k: &str| d.fields.iter().find(|(key, _)| key == k).map(|(_, v)| v);
    let desc = get("description").filter(|v| truthy(v))?;
    let mut fields = vec![
        ("name".to_string(), Value::Str(s.name.clone())),
        ("description".to_string(), desc.clone()),
    ];
    if let Some(v) = get("applyTo").filter(|v| truthy(v)).or_else(|| get("globs").filter(|v| truthy(v))) {
        fields.push(("applyTo".to_string(), v.clone()));
    }
    Some(Document { fields, body: d.body.clone() }.render())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truthiness_as_python_sees_the_loaded_value() {
        for (v, want) in [("0", false), ("0.0", false), ("0x0", false), ("00", false), ("1", true), ("0x10", true), (".nan", true), ("off", false), ("On", true), ("~", false)] {
            assert_eq!(truthy(&Value::Scalar(v.into())), want, "{}", v);
        }
        assert!(!truthy(&Value::Str(String::new())));
        assert!(!truthy(&Value::List(Vec::new())));
    }
}
