//! issue 15: a refused builder call whose error the handler ignores fails
//! the run, as in the Go and AssemblyScript SDKs (Rust used to drop the
//! intent silently and emit the rest of the plan).

use lola_sdk::{run_bytes, status, Error, PlanBuilder, Request};

fn ignores_a_refusal(_: &Request, p: &mut PlanBuilder) -> Result<(), Error> {
    let _ = p.write("../escape", "x");
    p.write("ok/a.md", "y")?;
    Ok(())
}

fn ignores_a_bad_fetch(_: &Request, p: &mut PlanBuilder) -> Result<(), Error> {
    let _ = p.fetch("http://example.org/x", "ok/x", Default::default());
    Ok(())
}

fn clean(_: &Request, p: &mut PlanBuilder) -> Result<(), Error> {
    p.write("ok/a.md", "y")?;
    Ok(())
}

const REQ: &[u8] = br#"{"protocol":1,"operation":"generate","modules":[]}"#;

#[test]
fn an_ignored_builder_error_fails_the_run() {
    for (h, rule) in [
        (ignores_a_refusal as lola_sdk::Handler, "path.traversal"),
        (ignores_a_bad_fetch as lola_sdk::Handler, "remote.scheme"),
    ] {
        match run_bytes(h, REQ) {
            Err((code, why)) => {
                assert_eq!(code, status::HANDLER_ERROR);
                assert!(why.contains(rule), "{}", why);
            }
            Ok(plan) => panic!("a plan was emitted: {}", String::from_utf8_lossy(&plan)),
        }
    }
    assert!(run_bytes(clean, REQ).is_ok());
}

#[test]
fn one_status_table() {
    assert_eq!(
        [
            status::OK,
            status::BAD_REQUEST,
            status::HANDLER_ERROR,
            status::ENCODING,
            status::NO_HANDLER,
            status::HANDLER_PANIC
        ],
        [0, 1, 2, 3, 4, 5]
    );
}
