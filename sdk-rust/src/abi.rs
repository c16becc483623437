//! The tier-1 ABI's state. A wasm instance is single-threaded, so the two
//! buffers live in statics behind a RefCell-free cell: the host calls one
//! export at a time.

use crate::Handler;
use std::cell::UnsafeCell;
use std::io::Write;

struct Buffers {
    request: Vec<u8>,
    plan: Vec<u8>,
}

struct Cell(UnsafeCell<Buffers>);

// SAFETY: wasm32 instances run one thread; the exports are never re-entered.
unsafe impl Sync for Cell {}

static STATE: Cell = Cell(UnsafeCell::new(Buffers {
    request: Vec::new(),
    plan: Vec::new(),
}));

fn state() -> &'static mut Buffers {
    // SAFETY: see the Sync impl: one export runs at a time.
    unsafe { &mut *STATE.0.get() }
}

/// Runs the static constructors once. Exported as `_initialize` so that
/// wasm-ld does not wrap every export in ctors/dtors.
pub fn initialize() {
    crate::diag::install_panic_hook();
    #[cfg(target_arch = "wasm32")]
    {
        extern "C" {
            fn __wasm_call_ctors();
        }
        // SAFETY: called once by the host before any other export.
        unsafe { __wasm_call_ctors() }
    }
}

/// Reserves the request buffer; it stays valid until the next alloc.
pub fn alloc(size: i32) -> i32 {
    if size < 0 {
        return 0;
    }
    let s = state();
    s.request = vec![0u8; size as usize];
    s.request.as_mut_ptr() as usize as i32
}

/// Runs the handler on the request the host placed in the buffer.
pub fn run(handler: Handler, ptr: i32, len: i32) -> i32 {
    let s = state();
    let start = s.request.as_ptr() as usize as i32;
    if len < 0 || ptr != start || len as usize > s.request.len() {
        let _ = writeln!(
            std::io::stderr(),
            "lola_run: request is not in the buffer lola_alloc returned"
        );
        return crate::status::BAD_REQUEST;
    }
    let result = crate::run_bytes(handler, &s.request[..len as usize]);
    s.request = Vec::new();
    match result {
        Ok(plan) => {
            s.plan = plan;
            crate::status::OK
        }
        Err((code, why)) => {
            s.plan = Vec::new();
            let _ = writeln!(std::io::stderr(), "{}", why);
            code
        }
    }
}

/// Where the last plan starts.
pub fn plan_ptr() -> i32 {
    state().plan.as_ptr() as usize as i32
}

/// How long the last plan is.
pub fn plan_len() -> i32 {
    state().plan.len() as i32
}
