//! Lola's Cursor target, a tier-1 extension built with sdk-rust.
//!
//! For each module of the request (module paths are relative to the module):
//!
//! * `skills/<skill>/SKILL.md` becomes the rule `.cursor/rules/<module>-<skill>.mdc`,
//!   whose frontmatter carries the skill's `description` (from SKILL.md's own
//!   frontmatter), an empty `globs` and `alwaysApply: false`, followed by the
//!   skill's body; the skill's supporting files go beside it under
//!   `.cursor/rules/<module>-<skill>/`;
//! * `commands/<cmd>.md` is copied to `.cursor/commands/<module>-<cmd>.md`;
//! * `agents/<agent>.md` is copied to `.cursor/agents/<module>-<agent>.md`.
//!
//! `uninstall` deletes exactly the paths `install` writes for the same module
//! files. Other files of a module are ignored.

use lola_sdk::{Error, File, PlanBuilder, Request};

/// Where one module file lands in the project, or None when Cursor has no
/// place for it. Module files come as (module, file).
pub fn destination(module: &str, f: &File) -> Option<(String, Kind)> {
    let parts: Vec<&str> = f.path.split('/').collect();
    match parts.as_slice() {
        ["skills", skill, "SKILL.md"] => Some((
            format!(".cursor/rules/{}-{}.mdc", module, skill),
            Kind::Rule,
        )),
        ["skills", skill, rest @ ..] if !rest.is_empty() => Some((
            format!(".cursor/rules/{}-{}/{}", module, skill, rest.join("/")),
            Kind::Copy,
        )),
        ["commands", cmd] if cmd.ends_with(".md") => {
            Some((format!(".cursor/commands/{}-{}", module, cmd), Kind::Copy))
        }
        ["agents", agent] if agent.ends_with(".md") => {
            Some((format!(".cursor/agents/{}-{}", module, agent), Kind::Copy))
        }
        _ => None,
    }
}

/// What happens to a module file's content on its way into the project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A SKILL.md rewritten as an .mdc rule.
    Rule,
    /// Copied unchanged, in its own encoding.
    Copy,
}

/// Splits a markdown document into its YAML frontmatter block (without the
/// fences) and its body. A document without frontmatter has an empty one.
pub fn split_frontmatter(doc: &str) -> (&str, &str) {
    if let Some(rest) = doc.strip_prefix("---\n") {
        if let Some(end) = rest.find("\n---\n") {
            return (&rest[..end], &rest[end + 5..]);
        }
        if let Some(front) = rest.strip_suffix("\n---") {
            return (front, "");
        }
    }
    ("", doc)
}

/// The `description` of a frontmatter block: the value of its top-level
/// `description:` line, without surrounding quotes.
pub fn description(front: &str) -> String {
    for line in front.lines() {
        if let Some(v) = line.strip_prefix("description:") {
            let v = v.trim();
            let unquoted = v
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .or_else(|| v.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
                .unwrap_or(v);
            return unquoted.to_string();
        }
    }
    String::new()
}

/// Renders a SKILL.md as a Cursor rule.
pub fn rule(skill_md: &str) -> String {
    let (front, body) = split_frontmatter(skill_md);
    let desc = serde_json::to_string(&description(front)).unwrap_or_else(|_| "\"\"".to_string());
    format!(
        "---\ndescription: {}\nglobs:\nalwaysApply: false\n---\n{}",
        desc,
        body.trim_start_matches('\n')
    )
}

pub fn handle(req: &Request, plan: &mut PlanBuilder) -> Result<(), Error> {
    for m in &req.modules {
        for f in &m.files {
            let (dest, kind) = match destination(&m.name, f) {
                Some(d) => d,
                None => continue,
            };
            if req.operation == "uninstall" {
                plan.delete(&dest)?;
                continue;
            }
            match kind {
                Kind::Rule => {
                    let text = String::from_utf8(f.bytes()?).map_err(|_| {
                        Error::new(
                            "plan.encoding",
                            format!("{}: SKILL.md is not UTF-8", f.path),
                        )
                    })?;
                    plan.write(&dest, &rule(&text))?;
                }
                Kind::Copy => {
                    plan.write_file(&dest, f)?;
                }
            }
        }
    }
    Ok(())
}

lola_sdk::extension!(handle);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_install_and_uninstall() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        for (req_file, plan_file) in [
            ("install.request.json", "install.plan.json"),
            ("uninstall.request.json", "uninstall.plan.json"),
        ] {
            let req = std::fs::read(root.join(req_file)).unwrap();
            let got = lola_sdk::run_bytes(handle, &req).unwrap();
            let got: serde_json::Value = serde_json::from_slice(&got).unwrap();
            let want: serde_json::Value =
                serde_json::from_slice(&std::fs::read(root.join(plan_file)).unwrap()).unwrap();
            assert_eq!(got, want, "{}", req_file);
        }
    }

    #[test]
    fn frontmatter() {
        assert_eq!(
            split_frontmatter("---\na: b\n---\nbody\n"),
            ("a: b", "body\n")
        );
        assert_eq!(split_frontmatter("no front\n"), ("", "no front\n"));
        assert_eq!(
            description("name: x\ndescription: \"Reviews code\"\n"),
            "Reviews code"
        );
        assert_eq!(description("description: plain words"), "plain words");
        assert_eq!(
            rule("---\ndescription: d\n---\n# T\n"),
            "---\ndescription: \"d\"\nglobs:\nalwaysApply: false\n---\n# T\n"
        );
    }

    #[test]
    fn a_hostile_module_name_is_refused_by_the_builder() {
        let req = br#"{"protocol":1,"operation":"install","modules":[{"name":"../x","files":[{"path":"commands/a.md","content":"x"}]}]}"#;
        // The module name "../x" puts a ".." component into the destination;
        // the builder refuses it in the guest, before the host ever sees it.
        let err = lola_sdk::run_bytes(handle, req).unwrap_err();
        assert_eq!(err.0, lola_sdk::status::HANDLER_ERROR);
        assert!(err.1.contains("path.traversal"), "{}", err.1);
    }
}
