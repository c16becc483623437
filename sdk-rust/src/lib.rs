//! Guest SDK for Lola extensions written in Rust.
//!
//! An extension is a function from a [`Request`] to a plan: it adds intents
//! to a [`PlanBuilder`] and never performs an effect itself. One source
//! builds both tiers:
//!
//! * tier 1, a WASI preview 1 reactor: `cargo build --release --target
//!   wasm32-wasi --lib` (crate-type `cdylib`; the target is spelled
//!   `wasm32-wasip1` on rustc >= 1.78, and the SDK builds on both because it
//!   keys on `target_arch = "wasm32"`);
//! * tier 2, a native binary: `cargo build --release`, with a `src/main.rs`
//!   of one line that calls the `main` the macro generates.
//!
//! ```ignore
//! // src/lib.rs
//! use lola_sdk::{Error, PlanBuilder, Request};
//!
//! pub fn handle(req: &Request, plan: &mut PlanBuilder) -> Result<(), Error> {
//!     for m in &req.modules {
//!         plan.write(&format!("notes/{}.md", m.name), "hello")?;
//!     }
//!     Ok(())
//! }
//! lola_sdk::extension!(handle);
//!
//! // src/main.rs
//! fn main() { my_extension::main() }
//! ```
//!
//! An assistant target is usually only a [`assistant::Target`] value: the
//! declarative mapping (where skills, commands, agents, instructions and MCP
//! servers go per scope, and how a file is rewritten), planned by the
//! [`assistant`] module exactly as sdk-go's `assistant` plans it, with
//! [`jsonconfig`] (sdk-go's byte-keeping JSON config edits) and
//! [`managed::set_block`] (sdk-go's managed section). [`testing`] holds the
//! golden, replay and hostile-request tests for an example's `tests/`.
//!
//! Lower-level helpers, for a target that maps a module its own way:
//! [`inventory::of`] (a module's parts from the request's inventory, checked
//! strictly), [`frontmatter`] (read as upstream Lola reads it, written as
//! PyYAML writes it), [`managed`] (marker-delimited blocks and upstream's
//! instructions section), [`mcp`] over [`json`] (MCP servers merged into and
//! removed from a JSON file the user edits, keeping the user's bytes), and
//! [`PlanBuilder::copy_file`], which keeps a module file's executable bit.
//!
//! Memory ownership follows the ABI: the request buffer handed out by
//! `lola_alloc` is valid for the duration of the `lola_run` call; the plan
//! buffer behind `lola_plan_ptr`/`lola_plan_len` stays valid until the
//! instance is discarded (the next `lola_run` replaces it).
//!
//! `lola_run` returns 0 on success, 1 when the request is not valid JSON of
//! the protocol (or the handler refused it with [`Error::bad_request`], or
//! any `request.*` rule, such as a module without its inventory), 2 when the handler returned an error, 3 when the plan could
//! not be encoded; the reason goes to stderr, which the host shows as the
//! extension's diagnostics. The native `main` exits with the same statuses.

mod base64;
mod builder;
pub mod sha256;
mod types;

pub mod diag;
pub use diag::{log, Level};

pub mod assistant;
pub mod frontmatter;
pub mod inventory;
pub mod json;
pub mod jsonconfig;
pub mod managed;
pub mod mcp;
pub mod yaml;

#[doc(hidden)]
pub mod abi;
#[doc(hidden)]
pub mod native;

pub mod testing;

pub use builder::{check_path, PlanBuilder};
pub use types::{
    Agent, Command, File, Intent, Inventory, McpServer, Module, Plan, Request, Skill, ABI_VERSION,
    PROTOCOL,
};

pub use crate::base64::{decode as base64_decode, encode as base64_encode};

use std::fmt;

/// An error naming the host rule it anticipates (e.g. `path.traversal`) or,
/// for an extension's own failure, any rule-like label the author chooses.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub rule: &'static str,
    pub detail: String,
}

impl Error {
    /// An error with a rule spelling and a detail for people.
    pub fn new(rule: &'static str, detail: impl Into<String>) -> Self {
        Error {
            rule,
            detail: detail.into(),
        }
    }

    /// The error a handler returns to refuse the request itself rather than
    /// fail: a module without the inventory the target needs, a scope or
    /// operation it cannot serve. The run ends with [`status::BAD_REQUEST`]
    /// (1, "bad-request" in docs/abi.md), not [`status::HANDLER_ERROR`], and
    /// stderr names `request.invalid` (the spelling sdk-go's `BadRequest`
    /// and sdk-assemblyscript's `badRequest` use). Any rule starting with
    /// `request.` does the same.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Error::new("request.invalid", detail)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.detail)
    }
}

impl std::error::Error for Error {}

/// The signature every extension handler has.
pub type Handler = fn(&Request, &mut PlanBuilder) -> Result<(), Error>;

/// Status codes `lola_run` returns and the native binary exits with: the
/// one table every SDK shares (docs/abi.md, "Status codes").
pub mod status {
    pub const OK: i32 = 0;
    pub const BAD_REQUEST: i32 = 1;
    pub const HANDLER_ERROR: i32 = 2;
    pub const ENCODING: i32 = 3;
    pub const NO_HANDLER: i32 = 4;
    pub const HANDLER_PANIC: i32 = 5;
}

/// Runs `handler` on request bytes, returning the plan bytes or a status
/// with its reason. Both tiers go through here, which is what makes their
/// plans identical.
pub fn run_bytes(handler: Handler, request: &[u8]) -> Result<Vec<u8>, (i32, String)> {
    let req: Request = serde_json::from_slice(request)
        .map_err(|e| (status::BAD_REQUEST, format!("request: {}", e)))?;
    if req.protocol != PROTOCOL {
        return Err((
            status::BAD_REQUEST,
            format!(
                "request: protocol {} (this SDK speaks {})",
                req.protocol, PROTOCOL
            ),
        ));
    }
    let mut plan = PlanBuilder::new();
    handler(&req, &mut plan).map_err(|e| {
        // A handler that finds the request itself wanting (a `request.*`
        // rule, e.g. a module without the inventory it needs) reports a bad
        // request, as a parse failure would.
        let code = if e.rule.starts_with("request.") {
            status::BAD_REQUEST
        } else {
            status::HANDLER_ERROR
        };
        (code, e.to_string())
    })?;
    if let Some(e) = plan.failure() {
        // The handler returned Ok after ignoring a refused builder call.
        return Err((
            status::HANDLER_ERROR,
            format!("{} (a refused builder call was ignored)", e),
        ));
    }
    serde_json::to_vec(&plan.build()).map_err(|e| (status::ENCODING, format!("plan: {}", e)))
}

/// Generates the tier-1 exports (`_initialize`, `lola_abi_version`,
/// `lola_alloc`, `lola_run`, `lola_plan_ptr`, `lola_plan_len`) on wasm32, and
/// a `pub fn main()` for the native binary elsewhere.
#[macro_export]
macro_rules! extension {
    ($handler:path) => {
        #[cfg(target_arch = "wasm32")]
        #[no_mangle]
        pub extern "C" fn _initialize() {
            $crate::abi::initialize()
        }
        #[cfg(target_arch = "wasm32")]
        #[no_mangle]
        pub extern "C" fn lola_abi_version() -> i32 {
            $crate::ABI_VERSION
        }
        #[cfg(target_arch = "wasm32")]
        #[no_mangle]
        pub extern "C" fn lola_alloc(size: i32) -> i32 {
            $crate::abi::alloc(size)
        }
        #[cfg(target_arch = "wasm32")]
        #[no_mangle]
        pub extern "C" fn lola_run(ptr: i32, len: i32) -> i32 {
            $crate::abi::run($handler, ptr, len)
        }
        #[cfg(target_arch = "wasm32")]
        #[no_mangle]
        pub extern "C" fn lola_plan_ptr() -> i32 {
            $crate::abi::plan_ptr()
        }
        #[cfg(target_arch = "wasm32")]
        #[no_mangle]
        pub extern "C" fn lola_plan_len() -> i32 {
            $crate::abi::plan_len()
        }
        /// The native (tier-2) entry point: stdin to stdout, exit status.
        #[cfg(not(target_arch = "wasm32"))]
        pub fn main() {
            $crate::native::main($handler)
        }
    };
}
