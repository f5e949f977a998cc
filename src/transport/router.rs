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

#[derive(Default)]
struct State {
    /// Per sender, the messages not yet taken by a thread. An entry exists
    /// while the sender is scheduled (on `ready` or being drained).
    queues: HashMap<String, VecDeque<Job>>,
    /// Scheduled senders waiting for a thread.
    ready: VecDeque<String>,
    /// Messages queued or running.
    pending: usize,
    /// No new messages are taken.
    closed: bool,
    /// Threads exit once `ready` is empty.
    stopping: bool,
}

struct Inner {
    state: Mutex<State>,
    work: Condvar,
    /// `state.ready.len()`, readable without the lock (for the spinner).
    ready_len: AtomicUsize,
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
}

/// Routes messages to the handler, per sender in order.
pub struct MessageRouter {
    inner: Arc<Inner>,
}

impl MessageRouter {
    /// Starts the pool. Must be called within a tokio runtime (replies are
    /// published through it).
    pub fn new(handler: Arc<dyn CommandHandler>, max_concurrent_operations: usize) -> Self {
        let inner = Arc::new(Inner {
            state: Mutex::new(State::default()),
            work: Condvar::new(),
            ready_len: AtomicUsize::new(0),
            spinning: AtomicBool::new(false),
            idle: Notify::new(),
            handler,
            runtime: Handle::current(),
        });
        for n in 0..max_concurrent_operations.max(1) {
            let inner = inner.clone();
            std::thread::Builder::new()
                .name(format!("eddi-router-{n}"))
                .spawn(move || pool_thread(&inner))
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
            // An entry that is not on `ready`: later messages of this sender
            // queue behind it and wait until `Busy` is dropped.
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
                state.ready.push_back(sender.to_string());
                drop(state);
                self.inner.work.notify_one();
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
        self.inner.work.notify_all();
    }
}

impl Drop for MessageRouter {
    fn drop(&mut self) {
        self.inner.lock().stopping = true;
        self.inner.work.notify_all();
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
            state.ready.push_back(self.sender.clone());
            self.inner
                .ready_len
                .store(state.ready.len(), Ordering::SeqCst);
            drop(state);
            self.inner.work.notify_one();
        } else {
            state.queues.remove(&self.sender);
            if state.pending == 0 {
                drop(state);
                self.inner.idle.notify_waiters();
            }
        }
    }
}

fn pool_thread(inner: &Inner) {
    loop {
        let (sender, batch) = {
            let mut state = inner.lock();
            let sender = loop {
                if let Some(sender) = state.ready.pop_front() {
                    inner.ready_len.store(state.ready.len(), Ordering::SeqCst);
                    break sender;
                }
                if state.stopping {
                    return;
                }
                if !inner.spinning.swap(true, Ordering::SeqCst) {
                    drop(state);
                    let until = Instant::now() + SPIN;
                    while inner.ready_len.load(Ordering::SeqCst) == 0 && Instant::now() < until {
                        std::thread::yield_now();
                    }
                    inner.spinning.store(false, Ordering::SeqCst);
                    state = inner.lock();
                    continue;
                }
                state = inner.work.wait(state).unwrap_or_else(|p| p.into_inner());
            };
            let queue = state
                .queues
                .get_mut(&sender)
                .expect("a ready sender has a queue");
            let take = queue.len().min(MAX_BATCH);
            let batch: Vec<Job> = queue.drain(..take).collect();
            (sender, batch)
        };
        let count = batch.len();
        let outcome = catch_unwind(AssertUnwindSafe(|| run_batch(inner, batch)));
        if outcome.is_err() {
            report::internal("router", &format!("a batch of {sender} panicked"));
        }
        let mut state = inner.lock();
        state.pending -= count;
        let more = state.queues.get(&sender).is_some_and(|q| !q.is_empty());
        if more {
            state.ready.push_back(sender);
            inner.ready_len.store(state.ready.len(), Ordering::SeqCst);
            drop(state);
            inner.work.notify_one();
        } else {
            state.queues.remove(&sender);
            if state.pending == 0 {
                drop(state);
                inner.idle.notify_waiters();
            }
        }
    }
}

/// Runs a sender's batch in order and publishes each reply before the next
/// message of the sender can run.
fn run_batch(inner: &Inner, batch: Vec<Job>) {
    for job in batch {
        let reply = match job.work {
            Work::Answer(reply) => reply,
            Work::Run(request, prepared) => run_one(&*inner.handler, &request, prepared),
        };
        inner.runtime.block_on((job.sink)(reply));
    }
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
    use crate::lang::ResponseFormat;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;
    use tokio::sync::mpsc;

    /// Echoes the text, records the peak number of concurrent calls.
    #[derive(Default)]
    struct Echo {
        running: AtomicUsize,
        peak: AtomicUsize,
    }

    impl CommandHandler for Echo {
        fn handle(&self, req: &Incoming) -> Reply {
            let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
            self.peak.fetch_max(now, Ordering::SeqCst);
            if req.text == "panic" {
                self.running.fetch_sub(1, Ordering::SeqCst);
                panic!("boom");
            }
            std::thread::sleep(Duration::from_micros(200));
            self.running.fetch_sub(1, Ordering::SeqCst);
            Reply {
                text: format!("{}:{}", req.sender, req.text),
                ok: true,
                duplicate: false,
            }
        }
        fn prepare(&self, req: &Incoming) -> Prepared {
            Prepared::quick(req.text.starts_with('q'))
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
                    let req = Incoming {
                        sender: format!("s{s}"),
                        text,
                        id: None,
                        room: None,
                    };
                    assert!(router.submit(req, sink_to(tx.clone())).await);
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        for (s, rx) in receivers.iter_mut().enumerate() {
            let mut got = Vec::new();
            while got.len() < 60 {
                got.push(rx.recv().await.unwrap());
            }
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
                let req = Incoming {
                    sender: format!("s{s}"),
                    text: i.to_string(),
                    id: None,
                    room: None,
                };
                if i == 25 {
                    router.answer(&req.sender, Reply::fail("rejected"), sink_to(tx.clone()));
                }
                assert!(router.dispatch(req, sink_to(tx.clone())));
            }
        }
        for (s, rx) in receivers.iter_mut().enumerate() {
            let mut got = Vec::new();
            while got.len() < 51 {
                got.push(rx.recv().await.unwrap());
            }
            let mut want: Vec<String> = (0..50).map(|i| format!("s{s}:{i}")).collect();
            want.insert(25, "Fail \"rejected\"".into());
            assert_eq!(got, want);
        }
        assert!(echo.peak.load(Ordering::SeqCst) <= 3);
        router.shutdown().await;
        let (tx, _rx) = mpsc::unbounded_channel();
        let late = Incoming {
            sender: "s0".into(),
            text: "late".into(),
            id: None,
            room: None,
        };
        assert!(!router.dispatch(late, sink_to(tx)));
    }

    #[tokio::test]
    async fn a_panic_becomes_a_fail() {
        let router = router(Arc::new(Echo::default()), 2);
        let (tx, mut rx) = mpsc::unbounded_channel();
        for text in ["panic", "after"] {
            let req = Incoming {
                sender: "p".into(),
                text: text.into(),
                id: None,
                room: None,
            };
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
            let req = Incoming {
                sender: "q".into(),
                text: i.to_string(),
                id: None,
                room: None,
            };
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
