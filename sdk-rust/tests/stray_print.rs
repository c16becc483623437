//! issue 15: in tier 2 a stray `println!` in a handler corrupted the plan
//! (plan.malformed). The generated native main keeps the plan on a private
//! descriptor and points fd 1 at stderr, so the line lands in the
//! diagnostics and the plan arrives intact.
//!
//! This test is its own extension: run with LOLA_SDK_TEST_STRAY_PRINT set it
//! acts as one (harness = false, so nothing but the SDK writes stdout).

use lola_sdk::{Error, PlanBuilder, Request};
use std::io::Write;
use std::process::{Command, Stdio};

const CHILD: &str = "LOLA_SDK_TEST_STRAY_PRINT";

fn stray(_: &Request, p: &mut PlanBuilder) -> Result<(), Error> {
    println!("stray print");
    print!("no newline");
    p.delete("out/x")?;
    Ok(())
}

fn main() {
    if std::env::var_os(CHILD).is_some() {
        lola_sdk::native::main(stray);
        return;
    }
    if !cfg!(any(target_os = "linux", target_os = "macos")) {
        println!("stray_print: skipped (fd 1 is moved on Linux and macOS only)");
        return;
    }
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"protocol":1,"operation":"generate","modules":[]}"#)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}\n{}", out.status, stderr);
    assert_eq!(
        stdout,
        r#"{"protocol":1,"intents":[{"op":"delete","path":"out/x"}]}"#,
        "stderr: {}",
        stderr
    );
    assert_eq!(stderr, "stray print\nno newline");
    println!("stray_print: ok");
}
