//! The copilot-vscode target held to today's Lola and to its goldens: the same
//! testdata/ the Go implementation (examples/go-copilot-vscode) is held to.

use lola_sdk::testing;
use std::path::PathBuf;

fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Each replayed step's plan, applied to the tree the step before left,
/// gives the tree today's Lola's own code left, in both scopes.
#[test]
fn equal_to_todays_lola() {
    testing::replay(lola_copilot_vscode::handle, "copilot-vscode", &here().join("testdata"), &here().join("../testdata/upstream/upstream.json"));
}

/// Every testdata request gives its golden plan.
#[test]
fn golden() {
    assert_eq!(testing::golden(lola_copilot_vscode::handle, &here().join("testdata")), 16);
}

/// Requests the target must refuse, with no plan.
#[test]
fn hostile_requests_refused() {
    testing::hostile(lola_copilot_vscode::handle, "copilot-vscode", ".vscode/mcp.json", &here().join("../testdata"));
}
