//! Test helpers for extensions (sdk-go's `lolatest` and
//! `assistant/assistanttest`, for Rust): call them from an example's
//! `tests/*.rs`. They panic on a failure, naming the case.
//!
//! * [`golden`] runs the handler on every `<dir>/<name>.request.json` and
//!   requires the plan to equal `<name>.plan.json` as JSON (the same value;
//!   sdk-go writes `<` as `\u003c` on the wire, sdk-rust does not, and both
//!   decode to the same bytes on disk), or, with `<name>.error.txt`, a
//!   handler error containing its text.
//! * [`replay`] applies each step's plan of today's Lola's scenario
//!   (`examples/testdata/upstream`) to the tree the step before left and
//!   requires the tree upstream's own code left, bytes and execute bits.
//! * [`hostile`] feeds an assistant target the kit fixture module with one
//!   thing broken at a time and requires each to be refused, with no plan.

use crate::{run_bytes, status, Handler};
use serde_json::{json, Map, Value};
use std::path::Path;

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {}", p.display(), e))
}

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&read(p)).unwrap_or_else(|e| panic!("{}: {}", p.display(), e))
}

/// Every golden case of `dir` (see the module documentation); returns how
/// many ran.
pub fn golden(handler: Handler, dir: &Path) -> usize {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {}", dir.display(), e))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".request.json").map(str::to_string))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no {}/*.request.json", dir.display());
    for name in &names {
        let req = read(&dir.join(format!("{}.request.json", name)));
        let got = run_bytes(handler, &req);
        if let Ok(want) = std::fs::read_to_string(dir.join(format!("{}.error.txt", name))) {
            match got {
                Err((code, why)) if code != status::OK && why.contains(want.trim()) => continue,
                other => panic!("{}: got {:?}, want an error containing {:?}", name, other.map(|p| String::from_utf8_lossy(&p).into_owned()), want.trim()),
            }
        }
        let plan = got.unwrap_or_else(|e| panic!("{}: {:?}", name, e));
        let plan: Value = serde_json::from_slice(&plan).unwrap();
        let want = read_json(&dir.join(format!("{}.plan.json", name)));
        assert!(plan == want, "{}: plan differs from its golden\n got {}\nwant {}", name, plan, want);
    }
    names.len()
}

/// Applies a plan's writes and deletes to a tree of {path: {content,
/// executable}} (a delete removes the path and everything beneath it).
pub fn apply(tree: &mut Map<String, Value>, plan: &Value) {
    for i in plan["intents"].as_array().expect("intents") {
        let path = i["path"].as_str().expect("path").to_string();
        match i["op"].as_str().expect("op") {
            "write" => {
                let raw = i["content"].as_str().expect("content");
                let content = if i["encoding"] == "base64" {
                    String::from_utf8(crate::base64_decode(raw).expect("base64")).expect("UTF-8")
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

/// Replays today's Lola's scenario for `assistant` in both scopes: the
/// step requests are `dir/<scope>-<n>-<op>-<module>.request.json` (the ones
/// the host sends, recorded by sdk-go's assistanttest), `upstream` is
/// examples/testdata/upstream/upstream.json.
pub fn replay(handler: Handler, assistant: &str, dir: &Path, upstream: &Path) {
    let all = read_json(upstream);
    for scope in ["project", "user"] {
        let steps = all[format!("{}/{}", assistant, scope)]
            .as_array()
            .unwrap_or_else(|| panic!("no upstream steps for {}/{}", assistant, scope));
        assert!(steps.len() >= 2, "{}/{}: {} steps", assistant, scope, steps.len());
        let mut tree = steps[0]["files"].as_object().expect("files").clone();
        for (n, st) in steps.iter().enumerate().skip(1) {
            let (op, name) = st["step"].as_str().expect("step").split_once(' ').expect("op name");
            let step = format!("{}-{}-{}-{}", scope, n, op, name);
            let req = read(&dir.join(format!("{}.request.json", step)));
            let plan = run_bytes(handler, &req).unwrap_or_else(|e| panic!("{}: {:?}", step, e));
            apply(&mut tree, &serde_json::from_slice(&plan).unwrap());
            let got = Value::Object(tree.clone());
            if got != st["files"] {
                let g = serde_json::to_string_pretty(&got).unwrap();
                let w = serde_json::to_string_pretty(&st["files"]).unwrap();
                panic!("{}: tree differs from upstream's\n--- got\n{}\n--- want\n{}", step, g, w);
            }
        }
    }
}

/// Feeds `handler` the kit fixture module (`fixtures/modules/kit.module.json`)
/// with one thing broken each, and requires each run to fail with the
/// status and a message naming what is wrong, and no plan. `mcp_file` is the
/// target's project MCP config ("" when it has none): handed over as JSONC,
/// it must be refused rather than rewritten.
pub fn hostile(handler: Handler, assistant: &str, mcp_file: &str, fixtures: &Path) {
    let kit = read_json(&fixtures.join("modules").join("kit.module.json"));
    let base = json!({"protocol": 1, "operation": "install", "assistant": assistant, "scope": "project", "modules": [kit]});
    type Mutate = Box<dyn Fn(&mut Value)>;
    let bad = status::BAD_REQUEST;
    let mut cases: Vec<(&str, i32, &str, Mutate)> = vec![
        ("no inventory (an older host)", bad, "no inventory", Box::new(|r| {
            r["modules"][0].as_object_mut().unwrap().remove("inventory");
        })),
        ("inventory names a file not sent", bad, "does not carry", Box::new(|r| {
            r["modules"][0]["inventory"]["agents"][0]["path"] = json!("agents/ghost.md");
        })),
        ("skill name escapes its directory", bad, "not a single path component", Box::new(|r| {
            r["modules"][0]["inventory"]["skills"][0]["name"] = json!("../../.ssh");
        })),
        ("command name with a separator", bad, "not a single path component", Box::new(|r| {
            r["modules"][0]["inventory"]["commands"][0]["name"] = json!("a/b");
        })),
        ("skill file outside the skill", bad, "outside", Box::new(|r| {
            r["modules"][0]["inventory"]["skills"][0]["files"].as_array_mut().unwrap().push(json!("AGENTS.md"));
        })),
        ("sidecar outside the command's directory", bad, "outside", Box::new(|r| {
            r["modules"][0]["inventory"]["commands"][0]["sidecar"] = json!(["AGENTS.md"]);
        })),
        ("module file path traversal", bad, "path.traversal", Box::new(|r| {
            r["modules"][0]["files"][0]["path"] = json!("../AGENTS.md");
        })),
        ("module name that forges a marker", bad, "module name", Box::new(|r| {
            r["modules"][0]["name"] = json!("x:end --> <!-- lola:module:y");
        })),
        ("unknown scope", bad, "scope", Box::new(|r| r["scope"] = json!("system"))),
    ];
    if !mcp_file.is_empty() {
        let f = mcp_file.to_string();
        cases.push(("MCP server that is not an object", bad, "not a JSON object", Box::new(|r| {
            r["modules"][0]["inventory"]["mcpServers"][0]["config"] = json!("rm -rf ~");
        })));
        cases.push(("user's MCP config is JSONC", status::HANDLER_ERROR, "not valid JSON", Box::new(move |r| {
            r["current"] = json!([{"path": f, "content": "{\n  // mine\n  \"x\": 1\n}\n"}]);
        })));
    }
    // The unbroken request must succeed, or every refusal proves nothing.
    run_bytes(handler, &serde_json::to_vec(&base).unwrap()).expect("the kit module itself");
    for (name, code, want, mutate) in &cases {
        let mut r = base.clone();
        mutate(&mut r);
        match run_bytes(handler, &serde_json::to_vec(&r).unwrap()) {
            Err((c, why)) if c == *code && why.contains(want) => {}
            other => panic!("{}: got {:?}; want status {} with an error containing {:?} and no plan", name, other.map(|p| String::from_utf8_lossy(&p).into_owned()), code, want),
        }
    }
}
