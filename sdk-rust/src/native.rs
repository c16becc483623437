//! The tier-2 entry point: the same handler over stdin and stdout.

use crate::Handler;
use std::io::{Read, Write};

/// Reads the request from stdin, writes the plan to stdout, and exits with
/// the status `lola_run` would have returned.
///
/// First, on Linux and macOS, it moves the plan's stdout to a private
/// close-on-exec descriptor (a duplicate of fd 1) and makes fd 1 a copy of
/// fd 2, so a stray `println!` in a handler (or in C code it calls) lands
/// in the diagnostics instead of corrupting the plan, as it does in tier 1.
/// Not guaranteed: output written before `main` runs still reaches the real
/// stdout; on other systems (or when a descriptor cannot be duplicated)
/// nothing is moved and the plan goes to fd 1 as before.
pub fn main(handler: Handler) {
    crate::diag::install_panic_hook();
    let mut plan_out = private_stdout::take();
    let mut request = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut request) {
        let _ = writeln!(std::io::stderr(), "reading the request: {}", e);
        std::process::exit(crate::status::BAD_REQUEST);
    }
    match crate::run_bytes(handler, &request) {
        Ok(plan) => {
            // A handler's unflushed print! goes to stderr (fd 1 is stderr
            // now) before the plan is written.
            let _ = std::io::stdout().flush();
            if plan_out.write_all(&plan).and_then(|_| plan_out.flush()).is_err() {
                std::process::exit(crate::status::ENCODING);
            }
        }
        Err((code, why)) => {
            let _ = writeln!(std::io::stderr(), "{}", why);
            std::process::exit(code);
        }
    }
}

#[cfg(any(target_os = "linux", target_os = "macos"))]
mod private_stdout {
    use std::fs::File;
    use std::io::Write;
    use std::os::raw::c_int;
    use std::os::unix::io::FromRawFd;

    // Declared here rather than taken from the libc crate: the SDK needs
    // three calls and no dependency beyond serde.
    extern "C" {
        fn fcntl(fd: c_int, cmd: c_int, ...) -> c_int;
        fn dup2(oldfd: c_int, newfd: c_int) -> c_int;
        fn close(fd: c_int) -> c_int;
    }

    #[cfg(target_os = "linux")]
    const F_DUPFD_CLOEXEC: c_int = 1030;
    #[cfg(target_os = "macos")]
    const F_DUPFD_CLOEXEC: c_int = 67;

    /// Where the plan goes: a private duplicate of fd 1, with fd 1 then
    /// pointing at stderr; or fd 1 itself when either step fails.
    pub fn take() -> Box<dyn Write> {
        // Anything the handler's process already buffered for fd 1 is
        // flushed to the real stdout first (nothing, in a generated main).
        let _ = std::io::stdout().flush();
        // SAFETY: plain descriptor calls; the new descriptor is owned by
        // the File below, and fd 1 is only replaced when it was duplicated.
        unsafe {
            let fd = fcntl(1, F_DUPFD_CLOEXEC, 3 as c_int);
            if fd < 0 {
                return Box::new(std::io::stdout());
            }
            if dup2(2, 1) < 0 {
                close(fd);
                return Box::new(std::io::stdout());
            }
            Box::new(File::from_raw_fd(fd))
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
mod private_stdout {
    use std::io::Write;

    /// Where the plan goes: stdout, unmoved on this system.
    pub fn take() -> Box<dyn Write> {
        Box::new(std::io::stdout())
    }
}
