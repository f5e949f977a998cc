//! tree-sitter's heap: the parse trees go to mimalloc, the allocator the
//! engine's own data already uses (`eddi`'s global allocator), instead of
//! C `malloc`. A cold walk of a large project parses every file in
//! parallel and keeps the trees; with glibc's `malloc` each thread's arena
//! grows a page range at a time (an `mprotect` and page faults each), which
//! cost about a tenth of the cold walk on Django (docs/PERFORMANCE.md).
//! The extension's choice, made where it is loaded, as the binary makes
//! its own (`src/lib.rs`).

use std::ffi::c_void;
use std::sync::Once;

/// `calloc` of mimalloc: its sys crate has it only with extra features.
unsafe extern "C" fn zeroed(count: usize, size: usize) -> *mut c_void {
    match count.checked_mul(size) {
        Some(total) => libmimalloc_sys::mi_zalloc(total),
        None => std::ptr::null_mut(),
    }
}

/// Sends tree-sitter's allocations to mimalloc, once per process.
pub fn use_mimalloc() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: called when the module is initialised, before this
        // extension parses anything: no tree-sitter object made by one
        // allocator is ever freed by the other (tree-sitter's C code is
        // linked into this extension alone).
        unsafe {
            tree_sitter::set_allocator(
                Some(libmimalloc_sys::mi_malloc),
                Some(zeroed),
                Some(libmimalloc_sys::mi_realloc),
                Some(libmimalloc_sys::mi_free),
            )
        }
    });
}
