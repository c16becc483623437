//! docs/abi.md's status 1 from a handler: `Error::bad_request` refuses the
//! request itself (a module without the inventory it needs, say), as a
//! request that is not protocol 1 is refused; any other error is status 2.

use lola_sdk::{run_bytes, status, Error, PlanBuilder, Request};

fn refuses(_: &Request, p: &mut PlanBuilder) -> Result<(), Error> {
    p.write("ok/a.md", "y")?;
    Err(Error::bad_request("module m: no inventory"))
}

fn fails(_: &Request, _: &mut PlanBuilder) -> Result<(), Error> {
    Err(Error::new("target.failed", "boom"))
}

const REQ: &[u8] = br#"{"protocol":1,"operation":"install","modules":[]}"#;

#[test]
fn a_refused_request_is_status_1_and_names_request_invalid() {
    match run_bytes(refuses, REQ) {
        Err((code, why)) => {
            assert_eq!(code, status::BAD_REQUEST);
            assert_eq!(why, "request.invalid: module m: no inventory");
        }
        Ok(plan) => panic!("a plan was emitted: {}", String::from_utf8_lossy(&plan)),
    }
    match run_bytes(fails, REQ) {
        Err((code, _)) => assert_eq!(code, status::HANDLER_ERROR),
        Ok(_) => panic!("a failing handler emitted a plan"),
    }
}
