//! `MessageRouter`: runs each sender's messages strictly in arrival order,
//! different senders concurrently (at most `max_concurrent_operations` at a
//! time), and publishes each reply before the sender's next message runs.
//!
//! Design: a fixed pool of `max_concurrent_operations` OS threads (the
//! engine is synchronous: file I/O, fsync) and one FIFO queue per sender.
//! [`MessageRouter::dispatch`] is synchronous and appends to the sender's
//! queue, so the order in which the listener calls it is the order the
//! sender's messages run. A sender with queued work is *scheduled* on a run
//! list; a pool thread takes it, drains up to [`MAX_BATCH`] of its messages,
//! runs them, publishes the replies in order, and puts the sender back at
//! the end of the run list if more arrived (round robin between senders).
//! A sender is on the run list or being drained by at most one thread, which
//! is what keeps its order. The path from the listener to the reply is one
//! thread hand-off (a condition variable), the least a blocking engine
//! allows.
//!
//! **Light and heavy threads.** The handler tells light messages (reads
//! and moves in the sender's own buffers: [`Prepared::is_light`]) from
//! heavy ones (edits, which wait for an fsync; saves; project-wide queries
//! and refactors). A sender is on the run list of its next message's
//! weight, and each list has threads of its own: [`LIGHT_THREADS`] for
//! light batches, the rest of the pool for heavy ones, at a lower CPU
//! priority ([`crate::priority`]). So a cursor command never waits behind
//! other senders' fsyncs and refactors for a thread, nor, on a saturated
//! machine, for a core. A batch holds messages of one weight; a sender's
//! order holds as before (it is on one run list, or being run, at a
//! time). A pool of one thread runs both.
//!
//! The router knows nothing of commands: it calls a [`CommandHandler`]
//! (which also enforces the permissions).

use std::collections::{HashMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use tokio::runtime::Handle;
use tokio::sync::Notify;

use super::handler::{CommandHandler, Incoming, Prepared, Reply};
use super::report;

/// Most messages of one sender run in one turn.
pub const MAX_BATCH: usize = 32;
/// How long one idle thread polls for new work before it sleeps. Waking a
/// sleeping thread costs tens of microseconds on a busy machine, more than a
/// short command; a conversation's next message usually comes sooner.
const SPIN: Duration = Duration::from_micros(100);
/// Threads of a pool (of three or more) that run light batches only.
pub const LIGHT_THREADS: usize = 2;

/// Which batches a pool thread runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Light,
    /// At a lower CPU priority.
    Heavy,
    /// The one thread of a pool of one: light batches first.
    Both,
}

/// The roles of a pool of `threads`: two light threads and the rest heavy
/// (a pool of two: one of each).
fn roles(threads: usize) -> Vec<Role> {
    match threads {
        0 | 1 => vec![Role::Both],
        n => {
            let light = LIGHT_THREADS.min(n - 1);
            let mut roles = vec![Role::Light; light];
            roles.resize(n, Role::Heavy);
            roles
        }
    }
}

/// Publishes one reply; called by the pool thread that ran the message, in
/// the sender's order.
pub type ReplySink = Box<dyn FnOnce(Reply) -> BoxFuture<'static, ()> + Send>;

/// What a queued message asks of the pool.
enum Work {
    /// Run it through the handler (as it prepared it, when it did).
    Run(Incoming, Option<Prepared>),
    /// Already answered by the transport (a rejection); publish it in turn.
    Answer(Reply),
}

struct Job {
    work: Work,
    sink: ReplySink,
}

impl Job {
    /// Light work ([`Prepared::is_light`]); a message the handler has not
    /// looked at counts as heavy, a transport's answer as light (there is
    /// nothing to run).
    fn is_light(&self) -> bool {
        match &self.work {
            Work::Run(_, Some(prepared)) => prepared.is_light(),
            Work::Run(_, None) => false,
            Work::Answer(_) => true,
        }
    }
}

#[derive(Default)]
struct State {
    /// Per sender, the messages not yet taken by a thread. An entry exists
    /// while the sender is scheduled (on a run list or being run).
    queues: HashMap<String, VecDeque<Job>>,
    /// Scheduled senders waiting for a thread, whose next message is light.
    light: VecDeque<String>,
    /// Scheduled senders waiting for a thread, whose next message is heavy.
    heavy: VecDeque<String>,
    /// Messages queued or running.
    pending: usize,
    /// No new messages are taken.
    closed: bool,
    /// Threads exit once `ready` is empty.
    stopping: bool,
}

struct Inner {
    state: Mutex<State>,
    /// Signalled when a sender joins `light` (and, in a pool of one, `heavy`).
    light_work: Condvar,
    /// Signalled when a sender joins `heavy`.
    heavy_work: Condvar,
    /// How many scheduled senders the spinner's kind of thread (light, or
    /// the one of a pool of one) could take, readable without the lock.
    ready_len: AtomicUsize,
    /// The pool is one thread that runs both weights.
    single: bool,
    /// One thread at most polls instead of sleeping; while it does, new work
    /// needs no wake-up call.
    spinning: AtomicBool,
    /// Signalled when `pending` drops to zero (shutdown waits on it).
    idle: Notify,
    handler: Arc<dyn CommandHandler>,
    runtime: Handle,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Puts a sender with queued messages on the run list of its next
    /// message's weight, and wakes a thread.
    fn schedule(&self, state: &mut State, sender: String) {
        let light = state
            .queues
            .get(&sender)
            .and_then(|queue| queue.front())
            .is_some_and(Job::is_light);
        if light {
            state.light.push_back(sender);
        } else {
            state.heavy.push_back(sender);
        }
        if light || self.single {
            self.count_ready(state);
            self.light_work.notify_one();
        } else {
            self.heavy_work.notify_one();
        }
    }

    fn count_ready(&self, state: &State) {
        let heavy = if self.single { state.heavy.len() } else { 0 };
        self.ready_len
            .store(state.light.len() + heavy, Ordering::SeqCst);
    }

    /// The next sender a thread of `role` runs, and whether its batch is
    /// heavy.
    fn take_next(&self, state: &mut State, role: Role) -> Option<(String, bool)> {
        let next = match role {
            Role::Light => state.light.pop_front().map(|sender| (sender, false)),
            Role::Heavy => state.heavy.pop_front().map(|sender| (sender, true)),
            Role::Both => (state.light.pop_front().map(|sender| (sender, false)))
                .or_else(|| state.heavy.pop_front().map(|sender| (sender, true))),
        };
        if next.is_some() && role != Role::Heavy {
            self.count_ready(state);
        }
        next
    }

    /// Wakes every thread (to stop).
    fn wake_all(&self) {
        self.light_work.notify_all();
        self.heavy_work.notify_all();
    }
}

/// Routes messages to the handler, per sender in order.
pub struct MessageRouter {
    inner: Arc<Inner>,
}

impl MessageRouter {
    /// Starts the pool. Must be called within a tokio runtime (replies are
    /// published through it).
    pub fn new(handler: Arc<dyn CommandHandler>, max_concurrent_operations: usize) -> Self {
        let roles = roles(max_concurrent_operations);
        let inner = Arc::new(Inner {
            state: Mutex::new(State::default()),
            light_work: Condvar::new(),
            heavy_work: Condvar::new(),
            ready_len: AtomicUsize::new(0),
            single: roles == [Role::Both],
            spinning: AtomicBool::new(false),
            idle: Notify::new(),
            handler,
            runtime: Handle::current(),
        });
        for (n, role) in roles.into_iter().enumerate() {
            let inner = inner.clone();
            std::thread::Builder::new()
                .name(format!("eddi-router-{n}"))
                .spawn(move || {
                    if role == Role::Heavy {
                        crate::priority::lower_this_thread();
                    }
                    pool_thread(&inner, role)
                })
                .expect("cannot start a router thread");
        }
        MessageRouter { inner }
    }

    pub fn handler(&self) -> &Arc<dyn CommandHandler> {
        &self.inner.handler
    }

    /// Queues a message behind the sender's earlier ones. Returns `false`
    /// once the router is shutting down (the message is not taken).
    pub fn dispatch(&self, request: Incoming, sink: ReplySink) -> bool {
        let sender = request.sender.clone();
        self.enqueue(
            &sender,
            Job {
                work: Work::Run(request, None),
                sink,
            },
        )
    }

    /// Runs a message at once on the calling task when the handler calls it
    /// quick (cursor moves and reads: microseconds, no fsync) and its sender
    /// has nothing queued or running; otherwise queues it like
    /// [`MessageRouter::dispatch`]. The fast path saves the two thread
    /// hand-offs of the pool, which dominate a quick command's round trip.
    /// The sender stays marked busy until its reply is published, so its
    /// order holds either way. Returns `false` when shutting down.
    pub async fn submit(&self, request: Incoming, sink: ReplySink) -> bool {
        match self.run_inline(request) {
            Ok((reply, busy)) => {
                sink(reply).await;
                drop(busy);
                true
            }
            Err(queued) => {
                let (request, prepared) = *queued;
                self.enqueue(
                    &request.sender.clone(),
                    Job {
                        work: Work::Run(request, Some(prepared)),
                        sink,
                    },
                )
            }
        }
    }

    /// Runs a quick message of an idle sender now; gives it back otherwise,
    /// with the handler's look at it (so it is parsed once either way).
    fn run_inline(&self, request: Incoming) -> Result<(Reply, Busy), Box<(Incoming, Prepared)>> {
        let prepared = self.inner.handler.prepare(&request);
        if !prepared.is_quick() {
            return Err(Box::new((request, prepared)));
        }
        {
            let mut state = self.inner.lock();
            if state.closed || state.queues.contains_key(&request.sender) {
                return Err(Box::new((request, prepared)));
            }
            // An entry that is not on a run list: later messages of this
            // sender queue behind it and wait until `Busy` is dropped.
            state.queues.insert(request.sender.clone(), VecDeque::new());
            state.pending += 1;
        }
        let busy = Busy {
            inner: self.inner.clone(),
            sender: request.sender.clone(),
        };
        let reply = run_one(&*self.inner.handler, &request, Some(prepared));
        Ok((reply, busy))
    }

    /// Queues a transport-made answer (a rejection) in the sender's order.
    pub fn answer(&self, sender: &str, reply: Reply, sink: ReplySink) -> bool {
        self.enqueue(
            sender,
            Job {
                work: Work::Answer(reply),
                sink,
            },
        )
    }

    /// The senders with queued or running messages.
    pub fn active_senders(&self) -> Vec<String> {
        self.inner.lock().queues.keys().cloned().collect()
    }

    fn enqueue(&self, sender: &str, job: Job) -> bool {
        let mut state = self.inner.lock();
        if state.closed {
            return false;
        }
        state.pending += 1;
        match state.queues.get_mut(sender) {
            Some(queue) => queue.push_back(job),
            None => {
                state
                    .queues
                    .insert(sender.to_string(), VecDeque::from([job]));
                self.inner.schedule(&mut state, sender.to_string());
            }
        }
        true
    }

    /// Stops taking messages, waits until every queued one is answered, then
    /// lets the pool threads go.
    pub async fn shutdown(&self) {
        self.inner.lock().closed = true;
        loop {
            let idle = self.inner.idle.notified();
            tokio::pin!(idle);
            idle.as_mut().enable();
            if self.inner.lock().pending == 0 {
                break;
            }
            idle.await;
        }
        self.inner.lock().stopping = true;
        self.inner.wake_all();
    }
}

impl Drop for MessageRouter {
    fn drop(&mut self) {
        self.inner.lock().stopping = true;
        self.inner.wake_all();
    }
}

/// A sender whose message runs outside the pool; dropping it hands the
/// messages that arrived meanwhile to the pool.
struct Busy {
    inner: Arc<Inner>,
    sender: String,
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut state = self.inner.lock();
        state.pending -= 1;
        let more = state
            .queues
            .get(&self.sender)
            .is_some_and(|q| !q.is_empty());
        if more {
            self.inner.schedule(&mut state, self.sender.clone());
        } else {
            state.queues.remove(&self.sender);
            if state.pending == 0 {
                drop(state);
                self.inner.idle.notify_waiters();
            }
        }
    }
}

fn pool_thread(inner: &Arc<Inner>, role: Role) {
    loop {
        let (sender, batch) = {
            let mut state = inner.lock();
            let (sender, heavy) = loop {
                if let Some(next) = inner.take_next(&mut state, role) {
                    break next;
                }
                if state.stopping {
                    return;
                }
                if role != Role::Heavy && !inner.spinning.swap(true, Ordering::SeqCst) {
                    drop(state);
                    let until = Instant::now() + SPIN;
                    while inner.ready_len.load(Ordering::SeqCst) == 0 && Instant::now() < until {
                        std::thread::yield_now();
                    }
                    inner.spinning.store(false, Ordering::SeqCst);
                    state = inner.lock();
                    continue;
                }
                let work = match role {
                    Role::Heavy => &inner.heavy_work,
                    Role::Light | Role::Both => &inner.light_work,
                };
                state = work.wait(state).unwrap_or_else(|p| p.into_inner());
            };
            let queue = state
                .queues
                .get_mut(&sender)
                .expect("a ready sender has a queue");
            // the messages of the same weight as the first
            let take = queue
                .iter()
                .take(MAX_BATCH)
                .take_while(|job| job.is_light() != heavy)
                .count();
            let batch: Vec<Job> = queue.drain(..take).collect();
            (sender, batch)
        };
        let count = batch.len();
        match catch_unwind(AssertUnwindSafe(|| run_batch(inner, batch))) {
            // The last reply is published, and the sender's books settled,
            // by the runtime: a heavy thread, at its lower priority, could
            // wait for a core in between while the sender's next message
            // (sent the moment the reply arrives) waited behind it.
            Ok(Some((reply, sink))) => {
                let inner = inner.clone();
                inner.runtime.clone().spawn(async move {
                    use futures::FutureExt;
                    // the books are settled even if publishing panics
                    if AssertUnwindSafe(sink(reply)).catch_unwind().await.is_err() {
                        report::internal("router", &format!("a reply to {sender} panicked"));
                    }
                    finish_batch(&inner, sender, count);
                });
            }
            Ok(None) => finish_batch(inner, sender, count),
            Err(_) => {
                report::internal("router", &format!("a batch of {sender} panicked"));
                finish_batch(inner, sender, count);
            }
        }
    }
}

/// After a sender's batch: schedules the sender again if more of its
/// messages came meanwhile, else it leaves the router's books.
fn finish_batch(inner: &Inner, sender: String, count: usize) {
    let mut state = inner.lock();
    state.pending -= count;
    let more = state.queues.get(&sender).is_some_and(|q| !q.is_empty());
    if more {
        inner.schedule(&mut state, sender);
    } else {
        state.queues.remove(&sender);
        if state.pending == 0 {
            drop(state);
            inner.idle.notify_waiters();
        }
    }
}

/// Runs a sender's batch in order and publishes each reply before the next
/// message of the sender runs; gives back the last reply, not published.
fn run_batch(inner: &Inner, batch: Vec<Job>) -> Option<(Reply, ReplySink)> {
    let mut last: Option<(Reply, ReplySink)> = None;
    for job in batch {
        if let Some((reply, sink)) = last.take() {
            // a reply that panics is lost, not the replies after it
            let publish = || inner.runtime.block_on(sink(reply));
            if catch_unwind(AssertUnwindSafe(publish)).is_err() {
                report::internal("router", "a reply panicked");
            }
        }
        let reply = match job.work {
            Work::Answer(reply) => reply,
            Work::Run(request, prepared) => run_one(&*inner.handler, &request, prepared),
        };
        last = Some((reply, job.sink));
    }
    last
}

/// The handler; a panic becomes a `Fail`, never a lost reply.
fn run_one(handler: &dyn CommandHandler, request: &Incoming, prepared: Option<Prepared>) -> Reply {
    let run = || match prepared {
        Some(prepared) => handler.run(request, prepared),
        None => handler.handle(request),
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(reply) => reply,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            report::internal("handler", &format!("panic for {}: {what}", request.sender));
            Reply::fail("Internal error: the command was not completed")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::ResponseFormat;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;
    use tokio::sync::mpsc;

    /// Echoes the text, records the peak number of concurrent calls. A
    /// text starting with `q` is quick, with `l` light, anything else
    /// heavy; `wait` waits until `released` (at most 10 s).
    #[derive(Default)]
    struct Echo {
        running: AtomicUsize,
        peak: AtomicUsize,
        released: std::sync::atomic::AtomicBool,
    }

    impl CommandHandler for Echo {
        fn handle(&self, req: &Incoming) -> Reply {
            let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
            self.peak.fetch_max(now, Ordering::SeqCst);
            if req.text == "panic" {
                self.running.fetch_sub(1, Ordering::SeqCst);
                panic!("boom");
            }
            if req.text == "wait" {
                let until = Instant::now() + Duration::from_secs(10);
                while !self.released.load(Ordering::SeqCst) && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            std::thread::sleep(Duration::from_micros(200));
            self.running.fetch_sub(1, Ordering::SeqCst);
            Reply {
                text: format!("{}:{}", req.sender, req.text),
                ok: true,
                duplicate: false,
                format: crate::commands::ResponseFormat::Terse,
                fitted_in: None,
            }
        }
        fn prepare(&self, req: &Incoming) -> Prepared {
            match req.text.starts_with('l') {
                true => Prepared::light(),
                false => Prepared::quick(req.text.starts_with('q')),
            }
        }
        fn session_of(&self, _: &str) -> Option<String> {
            None
        }
        fn set_response_format(&self, _: &str, _: ResponseFormat) {}
        fn flush(&self) -> Result<(), String> {
            Ok(())
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn quick_messages_run_inline_without_overtaking_queued_ones() {
        let router = Arc::new(router(Arc::new(Echo::default()), 2));
        let mut tasks = Vec::new();
        let mut receivers = Vec::new();
        for s in 0..4 {
            let (tx, rx) = mpsc::unbounded_channel();
            receivers.push(rx);
            let router = router.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..60 {
                    // Runs of quick messages behind slow ones, and alone.
                    let text = if i % 3 == 0 {
                        format!("{i}")
                    } else {
                        format!("q{i}")
                    };
                    let req = incoming(&format!("s{s}"), &text);
                    assert!(router.submit(req, sink_to(tx.clone())).await);
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        for (s, rx) in receivers.iter_mut().enumerate() {
            let got = replies(rx, 60).await;
            let want: Vec<String> = (0..60)
                .map(|i| {
                    if i % 3 == 0 {
                        format!("s{s}:{i}")
                    } else {
                        format!("s{s}:q{i}")
                    }
                })
                .collect();
            assert_eq!(got, want);
        }
        router.shutdown().await;
    }

    /// The next `n` replies of a sender, in the order they came.
    async fn replies(rx: &mut mpsc::UnboundedReceiver<String>, n: usize) -> Vec<String> {
        let mut got = Vec::new();
        while got.len() < n {
            got.push(rx.recv().await.unwrap());
        }
        got
    }

    fn incoming(sender: &str, text: &str) -> Incoming {
        Incoming {
            sender: sender.into(),
            text: text.into(),
            id: None,
            room: None,
        }
    }

    #[test]
    fn a_pool_keeps_two_threads_for_light_work() {
        use Role::*;
        assert_eq!(roles(1), [Both]);
        assert_eq!(roles(2), [Light, Heavy]);
        assert_eq!(roles(3), [Light, Light, Heavy]);
        assert_eq!(roles(10).iter().filter(|r| **r == Heavy).count(), 8);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn heavy_messages_do_not_hold_back_light_ones() {
        // two light threads, one heavy: while `a`'s heavy message runs and
        // `b`'s and `d`'s (as many as the pool has threads) wait behind it,
        // `c`'s light ones are answered
        let echo = Arc::new(Echo::default());
        let router = router(echo.clone(), 3);
        let (a_tx, mut a_rx) = mpsc::unbounded_channel();
        let (b_tx, mut b_rx) = mpsc::unbounded_channel();
        let (c_tx, mut c_rx) = mpsc::unbounded_channel();
        assert!(router.submit(incoming("a", "wait"), sink_to(a_tx)).await);
        assert!(
            router
                .submit(incoming("b", "wait"), sink_to(b_tx.clone()))
                .await
        );
        assert!(router.submit(incoming("d", "wait"), sink_to(b_tx)).await);
        for text in ["l1", "q2", "l3"] {
            assert!(
                router
                    .submit(incoming("c", text), sink_to(c_tx.clone()))
                    .await
            );
        }
        let mut got = Vec::new();
        for _ in 0..3 {
            let reply = tokio::time::timeout(Duration::from_secs(5), c_rx.recv()).await;
            got.push(reply.expect("c answered while a's message runs").unwrap());
        }
        assert_eq!(got, ["c:l1", "c:q2", "c:l3"]);
        assert!(a_rx.try_recv().is_err(), "a's message is still running");
        assert!(b_rx.try_recv().is_err(), "b's waits for the heavy thread");
        echo.released.store(true, Ordering::SeqCst);
        assert_eq!(a_rx.recv().await.unwrap(), "a:wait");
        // two senders: each keeps its order, not one before the other
        let mut waited = [b_rx.recv().await.unwrap(), b_rx.recv().await.unwrap()];
        waited.sort();
        assert_eq!(waited, ["b:wait", "d:wait"]);
        router.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_senders_order_holds_across_light_and_heavy_threads() {
        for threads in [1, 2, 4] {
            let router = Arc::new(router(Arc::new(Echo::default()), threads));
            let mut tasks = Vec::new();
            let mut receivers = Vec::new();
            let text = |i: usize| match i % 4 {
                0 => format!("h{i}"),
                1 => format!("l{i}"),
                2 => format!("q{i}"),
                _ => format!("l{i}"),
            };
            for s in 0..6 {
                let (tx, rx) = mpsc::unbounded_channel();
                receivers.push(rx);
                let router = router.clone();
                tasks.push(tokio::spawn(async move {
                    for i in 0..80 {
                        // a burst, then one at a time as the replies come
                        let req = incoming(&format!("s{s}"), &text(i));
                        assert!(router.submit(req, sink_to(tx.clone())).await);
                        if i % 20 == 19 {
                            tokio::time::sleep(Duration::from_millis(2)).await;
                        }
                    }
                }));
            }
            for task in tasks {
                task.await.unwrap();
            }
            for (s, rx) in receivers.iter_mut().enumerate() {
                let got = replies(rx, 80).await;
                let want: Vec<String> = (0..80).map(|i| format!("s{s}:{}", text(i))).collect();
                assert_eq!(got, want, "{threads} threads");
            }
            router.shutdown().await;
        }
    }

    /// A closed-loop sender (each message sent when the last is answered)
    /// whose heavy messages alternate with quick ones: every reply comes,
    /// in order, and the quick ones do not wait for the heavy thread's
    /// books (they are settled by the runtime right after the reply).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_conversation_of_heavy_and_quick_messages_runs_in_order() {
        let router = router(Arc::new(Echo::default()), 3);
        let (tx, mut rx) = mpsc::unbounded_channel();
        for i in 0..200 {
            let text = if i % 2 == 0 {
                format!("h{i}")
            } else {
                format!("q{i}")
            };
            assert!(
                router
                    .submit(incoming("c", &text), sink_to(tx.clone()))
                    .await
            );
            let reply = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await;
            assert_eq!(reply.expect("answered").unwrap(), format!("c:{text}"));
        }
        router.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_reply_that_panics_does_not_stall_its_sender() {
        let router = router(Arc::new(Echo::default()), 3);
        let (tx, mut rx) = mpsc::unbounded_channel();
        let panicking: ReplySink = Box::new(|_reply: Reply| Box::pin(async { panic!("publish") }));
        assert!(router.submit(incoming("p", "heavy"), panicking).await);
        for text in ["after", "lafter", "qafter"] {
            assert!(
                router
                    .submit(incoming("p", text), sink_to(tx.clone()))
                    .await
            );
            let reply = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await;
            assert_eq!(reply.expect("answered").unwrap(), format!("p:{text}"));
        }
        router.shutdown().await;
    }

    fn router(handler: Arc<Echo>, max: usize) -> MessageRouter {
        MessageRouter::new(handler, max)
    }

    fn sink_to(tx: mpsc::UnboundedSender<String>) -> ReplySink {
        Box::new(move |reply: Reply| {
            Box::pin(async move {
                tx.send(reply.text).ok();
            })
        })
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn per_sender_order_and_bounded_concurrency() {
        let echo = Arc::new(Echo::default());
        let router = router(echo.clone(), 3);
        let mut receivers = Vec::new();
        for s in 0..10 {
            let (tx, rx) = mpsc::unbounded_channel();
            receivers.push(rx);
            for i in 0..50 {
                let req = incoming(&format!("s{s}"), &i.to_string());
                if i == 25 {
                    router.answer(&req.sender, Reply::fail("rejected"), sink_to(tx.clone()));
                }
                assert!(router.dispatch(req, sink_to(tx.clone())));
            }
        }
        for (s, rx) in receivers.iter_mut().enumerate() {
            let got = replies(rx, 51).await;
            let mut want: Vec<String> = (0..50).map(|i| format!("s{s}:{i}")).collect();
            want.insert(25, "Fail \"rejected\"".into());
            assert_eq!(got, want);
        }
        assert!(echo.peak.load(Ordering::SeqCst) <= 3);
        router.shutdown().await;
        let (tx, _rx) = mpsc::unbounded_channel();
        let late = incoming("s0", "late");
        assert!(!router.dispatch(late, sink_to(tx)));
    }

    #[tokio::test]
    async fn a_panic_becomes_a_fail() {
        let router = router(Arc::new(Echo::default()), 2);
        let (tx, mut rx) = mpsc::unbounded_channel();
        for text in ["panic", "after"] {
            let req = incoming("p", text);
            router.dispatch(req, sink_to(tx.clone()));
        }
        assert_eq!(
            rx.recv().await.unwrap(),
            "Fail \"Internal error: the command was not completed\""
        );
        assert_eq!(rx.recv().await.unwrap(), "p:after");
    }

    #[tokio::test]
    async fn shutdown_finishes_queued_work() {
        let router = router(Arc::new(Echo::default()), 1);
        let (tx, mut rx) = mpsc::unbounded_channel();
        for i in 0..100 {
            let req = incoming("q", &i.to_string());
            router.dispatch(req, sink_to(tx.clone()));
        }
        router.shutdown().await;
        drop(tx);
        let mut n = 0;
        while rx.recv().await.is_some() {
            n += 1;
        }
        assert_eq!(n, 100);
    }
}
