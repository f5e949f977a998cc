//! tree-sitter's heap in the binary: mimalloc, the allocator of Eddi's own
//! data (`ALLOCATOR` in `lib.rs`), instead of C `malloc`. Every cold scan
//! parses a file, walks its tree and frees it; with glibc's `malloc` that
//! cost `malloc_consolidate`, `_int_malloc` and `_int_free` in the parse,
//! in the tree cursor's stack and in the tree's release, on the index's
//! parse floor and on its scans alike (docs/PERFORMANCE.md, "tree-sitter's
//! heap"). The Python extension makes the same choice where it is loaded
//! (`crates/eddi-py/src/tree_heap.rs`).

use std::ffi::c_void;
use std::sync::Once;

/// `calloc` of mimalloc: its sys crate has it only with extra features.
unsafe extern "C" fn zeroed(count: usize, size: usize) -> *mut c_void {
    match count.checked_mul(size) {
        Some(total) => libmimalloc_sys::mi_zalloc(total),
        None => std::ptr::null_mut(),
    }
}

/// Sends tree-sitter's allocations to mimalloc, once per process. Call it
/// before anything is parsed: a tree made by one allocator must not be
/// freed by the other.
pub fn use_mimalloc() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: called first thing in `main` (the binary's, a
        // benchmark's), before any parser or tree exists: no tree-sitter
        // object made by one allocator is ever freed by the other.
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
