//! The Cursor target against upstream Lola's own behaviour, per scope: the
//! scenario of examples/testdata/upstream/gen.py (the one generator of every
//! target's goldens: install kit, solo and second, then uninstall them),
//! each step's plan applied to the tree the step before left, must give the
//! tree upstream's code left (examples/testdata/upstream/upstream.json),
//! executable bits included. Each step's request
//! (testdata/<scope>-<n>-<op>-<module>.request.json) is the one the host
//! sends (the conformance module checks that, and runs it through the real
//! host in both tiers), and its plan must equal its golden
//! (testdata/<step>.plan.json); LOLA_BLESS=1 rewrites those goldens after the
//! tree check passed.

use serde_json::{json, Map, Value};
use std::path::Path;

fn read(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap_or_else(|e| panic!("{}: {}", p.display(), e))).unwrap()
}

/// Applies a plan's writes and deletes to a tree of {path: {content, executable}}.
fn apply(tree: &mut Map<String, Value>, plan: &Value) {
    for i in plan["intents"].as_array().unwrap() {
        let path = i["path"].as_str().unwrap().to_string();
        match i["op"].as_str().unwrap() {
            "write" => {
                let raw = i["content"].as_str().unwrap();
                let content = if i["encoding"] == "base64" {
                    String::from_utf8(lola_sdk::base64_decode(raw).unwrap()).unwrap()
                } else {
                    raw.to_string()
                };
                let exec = i["executable"].as_bool().unwrap_or(false);
                tree.insert(path, json!({"content": content, "executable": exec}));
            }
            "delete" => {
                let under = format!("{}/", path);
                tree.retain(|k, _| k != &path && !k.starts_with(&under));
            }
            op => panic!("unexpected op {}", op),
        }
    }
}

#[test]
fn trees_equal_upstreams_in_both_scopes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let all = read(&dir.join("../../testdata/upstream/upstream.json"));
    let bless = std::env::var("LOLA_BLESS").is_ok();
    for scope in ["project", "user"] {
        let steps = all[format!("cursor/{}", scope)].as_array().unwrap();
        assert_eq!(steps.len(), 9, "{}: {} steps", scope, steps.len());
        let mut tree = steps[0]["files"].as_object().unwrap().clone();
        for (n, st) in steps.iter().enumerate().skip(1) {
            let (op, name) = st["step"].as_str().unwrap().split_once(' ').unwrap();
            let step = format!("{}-{}-{}-{}", scope, n, op, name);
            let req = std::fs::read(dir.join(format!("{}.request.json", step)))
                .unwrap_or_else(|e| panic!("{}: {}", step, e));
            let raw = lola_sdk::run_bytes(lola_cursor::handle, &req)
                .unwrap_or_else(|e| panic!("{}: {:?}", step, e));
            let plan: Value = serde_json::from_slice(&raw).unwrap();
            apply(&mut tree, &plan);
            let want = &st["files"];
            let got = Value::Object(tree.clone());
            if &got != want {
                let g = serde_json::to_string_pretty(&got).unwrap();
                let w = serde_json::to_string_pretty(want).unwrap();
                panic!("{}: tree differs from upstream's\n--- got\n{}\n--- want\n{}", step, g, w);
            }
            let golden = dir.join(format!("{}.plan.json", step));
            if bless {
                // The plan's own bytes (op first), as the goldens are kept.
                std::fs::write(&golden, [raw.as_slice(), b"\n"].concat()).unwrap();
            } else {
                assert_eq!(plan, read(&golden), "{}: plan differs from its golden", step);
            }
        }
    }
}
