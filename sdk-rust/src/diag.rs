//! Guest diagnostics: a bounded, levelled log on stderr (both tiers) and a
//! panic hook that reports a panic's message and location before the
//! process aborts or the module traps. The format is docs/abi.md's.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A log line's severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// A line is cut at this many bytes.
pub const MAX_LOG_LINE: usize = 4 << 10;
/// Past this many bytes in one process, lines are dropped (one line says so).
pub const MAX_LOG_BYTES: usize = 48 << 10;

static WRITTEN: AtomicUsize = AtomicUsize::new(0);

/// The line `log` writes for `msg`: "lola: LEVEL: msg\n", newlines escaped
/// so one call is one line, cut at MAX_LOG_LINE bytes (on a char boundary).
pub fn log_line(level: Level, msg: &str) -> String {
    let msg = msg.replace('\r', "\\r").replace('\n', "\\n");
    let mut line = format!("lola: {}: {}", level.name(), msg);
    if line.len() > MAX_LOG_LINE {
        let mut cut = MAX_LOG_LINE - " [cut]".len();
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
        line.push_str(" [cut]");
    }
    line.push('\n');
    line
}

/// Writes one diagnostic line to stderr, in both tiers. It never touches
/// the plan. Bounded by MAX_LOG_LINE and MAX_LOG_BYTES.
pub fn log(level: Level, msg: &str) {
    let line = log_line(level, msg);
    let before = WRITTEN.fetch_add(line.len(), Ordering::SeqCst);
    let mut err = std::io::stderr();
    if before + line.len() > MAX_LOG_BYTES {
        if before <= MAX_LOG_BYTES {
            let _ =
                err.write_all(b"lola: warn: log limit reached; further log lines are dropped\n");
            WRITTEN.store(MAX_LOG_BYTES + 1, Ordering::SeqCst);
        }
        return;
    }
    let _ = err.write_all(line.as_bytes());
}

/// The line the panic hook writes.
pub fn panic_line(msg: &str, file: &str, line: u32, col: u32) -> String {
    format!(
        "lola: handler panicked: {} at {}:{}:{}\n",
        msg, file, line, col
    )
}

/// Installs a panic hook that writes the panic's message and location to
/// stderr. The generated entry points (`_initialize`, `main`) call it, so a
/// panic in a handler names its cause in both tiers, even with
/// `panic = "abort"`.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = info.payload().downcast_ref::<String>() {
            s.clone()
        } else {
            "(a non-string panic value)".to_string()
        };
        let (file, line, col) = match info.location() {
            Some(l) => (l.file().to_string(), l.line(), l.column()),
            None => ("(unknown)".to_string(), 0, 0),
        };
        let _ = std::io::stderr().write_all(panic_line(&msg, &file, line, col).as_bytes());
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_call_is_one_bounded_line() {
        assert_eq!(
            log_line(Level::Warn, "two\nlines"),
            "lola: warn: two\\nlines\n"
        );
        let long = log_line(Level::Error, &"é".repeat(MAX_LOG_LINE));
        assert!(long.len() <= MAX_LOG_LINE + 1 && long.ends_with(" [cut]\n"));
    }

    #[test]
    fn a_panic_names_its_location() {
        assert_eq!(
            panic_line("boom", "src/lib.rs", 12, 5),
            "lola: handler panicked: boom at src/lib.rs:12:5\n"
        );
    }
}
