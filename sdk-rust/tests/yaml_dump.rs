//! The frontmatter writer agrees with PyYAML's `yaml.dump` (what upstream
//! Lola writes) on vectors PyYAML itself produced: each case's frontmatter
//! is read and written back, and must equal PyYAML's dump of its load.

#[test]
fn yaml_dump_matches_pyyaml() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/yaml_dump.json");
    let cases: Vec<serde_json::Value> = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut failures = Vec::new();
    for c in &cases {
        let front = c["front"].as_str().unwrap();
        let want = c["dump"].as_str().unwrap();
        let got = lola_sdk::yaml::parse(front).map(|m| lola_sdk::yaml::dump(&m));
        if got.as_deref() != Some(want) {
            failures.push(format!("front {:?}\n  got  {:?}\n  want {:?}", front, got, want));
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
    assert!(cases.len() > 50);
}
