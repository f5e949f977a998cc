//! CPU priority of the threads that do heavy work: the router's heavy
//! threads (edits, saves, project-wide queries, refactors), rayon's pool
//! (the index's parallel scans, a refactor's parses) and the index's
//! background scan run at a lower priority than the threads that answer
//! light commands, so that on a busy machine the scheduler gives a core
//! to a cursor command first. Lowering one's own priority needs no
//! privilege; raising it back would, so a thread is lowered once, for its
//! whole life (as rust-analyzer gives its threads an intent).

/// How much lower (a `nice` increment): well below the default, not idle.
const LOWER_BY: i32 = 10;

/// Lowers the calling thread's CPU priority (Linux: its nice value, a
/// per-thread attribute). Elsewhere, and when refused, nothing changes.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    {
        let now = nice_of_this_thread();
        // SAFETY: a plain system call on the calling thread's own id.
        let result = unsafe {
            libc::setpriority(libc::PRIO_PROCESS, this_thread(), (now + LOWER_BY).min(19))
        };
        if result != 0 {
            tracing::debug!("cannot lower a thread's priority");
        }
    }
}

#[cfg(target_os = "linux")]
fn this_thread() -> libc::id_t {
    // SAFETY: gettid takes no arguments and cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as libc::id_t }
}

/// The calling thread's nice value.
#[cfg(target_os = "linux")]
fn nice_of_this_thread() -> i32 {
    // SAFETY: a plain system call on the calling thread's own id.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, this_thread()) }
}

/// Makes rayon's global pool one of low-priority threads. Call before
/// anything uses rayon; afterwards (the pool exists) it does nothing.
pub fn lower_rayon_pool() {
    let built = rayon::ThreadPoolBuilder::new()
        .start_handler(|_| lower_this_thread())
        .build_global();
    if built.is_err() {
        tracing::debug!("rayon's pool was built already; its priority stays");
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_lowered_thread_is_lowered_and_the_others_are_not() {
        let before = nice_of_this_thread();
        let lowered = std::thread::spawn(|| {
            let before = nice_of_this_thread();
            lower_this_thread();
            (before, nice_of_this_thread())
        })
        .join()
        .unwrap();
        assert_eq!(lowered.1, (lowered.0 + LOWER_BY).min(19));
        assert_eq!(nice_of_this_thread(), before, "only the calling thread");
    }
}
