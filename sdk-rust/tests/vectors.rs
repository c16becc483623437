//! The guest's lexical path rules agree with the host's on the shared plan
//! vectors: every path of a valid (or conflict-only) vector passes, and a
//! `path.*` vector holds a path refused with exactly its labelled rule.

use std::fs;
use std::path::Path;

fn paths_of(plan: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(intents) = plan.get("intents").and_then(|v| v.as_array()) {
        for i in intents {
            for key in ["path", "from", "to", "dest"] {
                if let Some(p) = i.get(key).and_then(|v| v.as_str()) {
                    out.push(p.to_string());
                }
            }
        }
    }
    out
}

fn plans_in(dir: &Path) -> Vec<(String, serde_json::Value)> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().map(|x| x == "json").unwrap_or(false) {
            if let Ok(v) = serde_json::from_slice(&fs::read(&p).unwrap()) {
                out.push((p.display().to_string(), v));
            }
        }
    }
    out
}

#[test]
fn builder_path_rules_agree_with_the_host_vectors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schema/vectors");
    let mut checked = 0;
    for (name, plan) in plans_in(&root.join("valid")) {
        for p in paths_of(&plan) {
            assert!(
                lola_sdk::check_path(&p).is_ok(),
                "{}: valid path {:?} refused",
                name,
                p
            );
        }
        checked += 1;
    }
    for e in fs::read_dir(root.join("invalid")).unwrap() {
        let dir = e.unwrap().path();
        let rule = dir.file_name().unwrap().to_string_lossy().to_string();
        for (name, plan) in plans_in(&dir) {
            let rules: Vec<&'static str> = paths_of(&plan)
                .iter()
                .filter_map(|p| lola_sdk::check_path(p).err().map(|e| e.rule))
                .collect();
            if rule.starts_with("path.") {
                assert!(
                    rules.contains(&rule.as_str()),
                    "{}: no path refused with {} (got {:?})",
                    name,
                    rule,
                    rules
                );
                checked += 1;
            } else if rule.starts_with("conflict.") {
                assert!(
                    rules.is_empty(),
                    "{}: a conflict vector's path refused: {:?}",
                    name,
                    rules
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {} vectors checked", checked);
}
