//! Lola's built-in OpenCode target: the mapping of a module (as the host's
//! inventory describes it) onto the files OpenCode reads, equal to today's
//! Lola's. Everything but the mapping is sdk-rust's `assistant` module;
//! examples/go-opencode is the same target on sdk-go, held to the same
//! goldens.
//!
//! ```text
//! kind          project                          user (root = home)
//! skills        .opencode/skills/<skill>/        .config/opencode/skills/<skill>/
//! commands      .opencode/commands/<name>.md     .config/opencode/commands/<name>.md
//! agents        .opencode/agents/<name>.md       .config/opencode/agents/<name>.md
//! instructions  AGENTS.md (managed section)      .config/opencode/AGENTS.md
//! MCP servers   opencode.json ("mcp")            .config/opencode/opencode.json
//! ```
//!
//! Agents get `mode: subagent` in their frontmatter. MCP servers are
//! rewritten into OpenCode's dialect (local: type local, command as one
//! array, environment; remote: type remote), `${VAR}` becoming `{env:VAR}`.

use lola_sdk::assistant::{Scoped, Target};
use lola_sdk::jsonconfig::Value;
use lola_sdk::{frontmatter, Error, PlanBuilder, Request};

/// The mapping.
pub static TARGET: Target = Target {
    name: "opencode",
    skills: Scoped { project: ".opencode/skills", user: ".config/opencode/skills" },
    commands: Scoped { project: ".opencode/commands", user: ".config/opencode/commands" },
    agents: Scoped { project: ".opencode/agents", user: ".config/opencode/agents" },
    instructions: Scoped { project: "AGENTS.md", user: ".config/opencode/AGENTS.md" },
    mcp: Scoped { project: "opencode.json", user: ".config/opencode/opencode.json" },
    mcp_container: "mcp",
    mcp_seed: Some(seed),
    mcp_server: Some(server),
    skill_md_verbatim: true,
    agent: Some(agent),
    ..Target::NONE
};

/// A new opencode.json starts with OpenCode's schema.
fn seed() -> Value {
    let mut v = Value::object();
    v.set("$schema", Value::str("https://opencode.ai/config.json"));
    v
}

/// An agent as OpenCode reads it: `mode: subagent` set.
pub fn agent(_name: &str, doc: &str) -> String {
    let mut d = frontmatter::parse(doc);
    d.set("mode", "subagent");
    d.render()
}

/// `${VAR}` as OpenCode's `{env:VAR}` (VAR: one or more characters other
/// than `}`), every occurrence, left to right.
pub fn env_ref(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("${") {
        let after = &rest[i + 2..];
        match after.find('}') {
            Some(j) if j > 0 => {
                out.push_str(&rest[..i]);
                out.push_str("{env:");
                out.push_str(&after[..j]);
                out.push('}');
                rest = &after[j + 1..];
            }
            Some(_) => {
                // "${}" does not match; the search goes on after its '$'.
                out.push_str(&rest[..i + 1]);
                rest = &rest[i + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

fn env(v: &Value) -> Value {
    match v {
        Value::Str(s) => Value::Str(env_ref(s)),
        other => other.clone(),
    }
}

fn env_object(v: &Value) -> Value {
    let mut out = Value::object();
    if let Value::Object(ms) = v {
        for (k, x) in ms {
            out.set(k, env(x));
        }
    }
    out
}

/// A module's MCP server in OpenCode's dialect.
pub fn server(input: Value) -> Value {
    let mut out = Value::object();
    if let Some(Value::Str(t)) = input.get("type") {
        if t == "http" || t == "sse" {
            out.set("type", Value::str("remote"));
            match input.get("url") {
                Some(Value::Null) | None => {}
                Some(u) => out.set("url", env(u)),
            }
            if let Some(h @ Value::Object(ms)) = input.get("headers") {
                if !ms.is_empty() {
                    out.set("headers", env_object(h));
                }
            }
            return out;
        }
    }
    out.set("type", Value::str("local"));
    if let Some(c @ Value::Str(s)) = input.get("command") {
        if !s.is_empty() {
            let mut items = vec![c.clone()];
            if let Some(Value::Array(a)) = input.get("args") {
                items.extend(a.iter().cloned());
            }
            out.set("command", Value::Array(items));
        }
    }
    if let Some(e @ Value::Object(ms)) = input.get("env") {
        if !ms.is_empty() {
            out.set("environment", env_object(e));
        }
    }
    out
}

pub fn handle(req: &Request, plan: &mut PlanBuilder) -> Result<(), Error> {
    TARGET.plan(req, plan)
}

lola_sdk::extension!(handle);

#[cfg(test)]
mod tests {
    use super::*;
    use lola_sdk::jsonconfig::{parse, render};

    #[test]
    fn env_references_as_the_go_targets_regexp_rewrites_them() {
        for (s, want) in [
            ("${A}", "{env:A}"),
            ("x${A}y${B_2}", "x{env:A}y{env:B_2}"),
            ("${}", "${}"),
            ("$${A}", "${env:A}"),
            ("${}${A}", "${}{env:A}"),
            ("${a${b}", "{env:a${b}"),
            ("${open", "${open"),
            ("é${é}", "é{env:é}"),
        ] {
            assert_eq!(env_ref(s), want, "{}", s);
        }
    }

    #[test]
    fn servers_in_opencodes_dialect() {
        let local = server(parse(r#"{"command":"npx","args":["-y","${X}"],"env":{"K":"${K}"},"cwd":"."}"#).unwrap());
        assert_eq!(render(&local, "", ""), r#"{"type": "local", "command": ["npx", "-y", "${X}"], "environment": {"K": "{env:K}"}}"#);
        let remote = server(parse(r#"{"type":"sse","url":"https://h/${P}","headers":{}}"#).unwrap());
        assert_eq!(render(&remote, "", ""), r#"{"type": "remote", "url": "https://h/{env:P}"}"#);
    }
}
