//! The tier-2 entry point: the same handler over stdin and stdout.

use crate::Handler;
use std::io::{Read, Write};

/// Reads the request from stdin, writes the plan to stdout, and exits with
/// the status `lola_run` would have returned.
pub fn main(handler: Handler) {
    crate::diag::install_panic_hook();
    let mut request = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut request) {
        let _ = writeln!(std::io::stderr(), "reading the request: {}", e);
        std::process::exit(crate::status::BAD_REQUEST);
    }
    match crate::run_bytes(handler, &request) {
        Ok(plan) => {
            let mut out = std::io::stdout();
            if out.write_all(&plan).and_then(|_| out.flush()).is_err() {
                std::process::exit(crate::status::ENCODING);
            }
        }
        Err((code, why)) => {
            let _ = writeln!(std::io::stderr(), "{}", why);
            std::process::exit(code);
        }
    }
}
