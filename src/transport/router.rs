//! `MessageRouter`: runs each sender's messages strictly in arrival order,
//! different senders concurrently (at most `max_concurrent_operations` at a
//! time), and publishes each reply before the sender's next message runs.
//!
//! Design: one short-lived tokio task per *active* sender owns an mpsc inbox.
//! [`MessageRouter::dispatch`] is synchronous, so the order in which the
//! listener calls it is the order the sender's messages run and their replies
//! are published. A worker drains whatever is queued (up to [`MAX_BATCH`])
//! into one `spawn_blocking` call, which keeps the per-message overhead low
//! under load, then publishes the replies in order. An idle worker removes its
//! own entry from the map under the map's lock, so a message can never be
//! queued to a worker that is gone.
//!
//! The router knows nothing of commands: it calls a [`CommandHandler`] and,
//! for restricted senders, the [`MessageValidator`]'s permission check.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::sync::{mpsc, Semaphore};

use super::handler::{CommandHandler, Incoming, Reply};
use super::report;
use super::validator::MessageValidator;

/// Most messages of one sender run in one blocking call.
pub const MAX_BATCH: usize = 32;
/// A sender's worker exits after this long without messages.
const IDLE: Duration = Duration::from_secs(30);

/// Publishes one reply; called by the sender's worker, in order.
pub type ReplySink = Box<dyn FnOnce(Reply) -> BoxFuture<'static, ()> + Send>;

/// What a queued message asks of the worker.
enum Work {
    /// Run it through the handler.
    Run(Incoming),
    /// Already answered by the transport (a rejection); publish it in turn.
    Answer(Reply),
}

struct Job {
    work: Work,
    sink: ReplySink,
}

type Inboxes = Arc<Mutex<HashMap<String, mpsc::UnboundedSender<Job>>>>;

/// Routes messages to the handler, per sender in order.
pub struct MessageRouter {
    handler: Arc<dyn CommandHandler>,
    validator: Arc<MessageValidator>,
    inboxes: Inboxes,
    permits: Arc<Semaphore>,
    /// Every worker holds a clone; [`MessageRouter::shutdown`] waits until
    /// all are dropped (mini-redis's shutdown trick).
    done_tx: Mutex<Option<mpsc::Sender<()>>>,
    done_rx: tokio::sync::Mutex<mpsc::Receiver<()>>,
}

impl MessageRouter {
    pub fn new(
        handler: Arc<dyn CommandHandler>,
        validator: Arc<MessageValidator>,
        max_concurrent_operations: usize,
    ) -> Self {
        let (done_tx, done_rx) = mpsc::channel(1);
        MessageRouter {
            handler,
            validator,
            inboxes: Arc::new(Mutex::new(HashMap::new())),
            permits: Arc::new(Semaphore::new(max_concurrent_operations.max(1))),
            done_tx: Mutex::new(Some(done_tx)),
            done_rx: tokio::sync::Mutex::new(done_rx),
        }
    }

    pub fn handler(&self) -> &Arc<dyn CommandHandler> {
        &self.handler
    }

    /// Queues a message behind the sender's earlier ones. Returns `false`
    /// once the router is shutting down (the message is not taken).
    pub fn dispatch(&self, request: Incoming, sink: ReplySink) -> bool {
        let sender = request.sender.clone();
        self.enqueue(
            &sender,
            Job {
                work: Work::Run(request),
                sink,
            },
        )
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

    /// The senders with a running worker.
    pub fn active_senders(&self) -> Vec<String> {
        self.inboxes.lock().unwrap().keys().cloned().collect()
    }

    fn enqueue(&self, sender: &str, job: Job) -> bool {
        let Some(done) = self.done_tx.lock().unwrap().clone() else {
            return false;
        };
        let mut inboxes = self.inboxes.lock().unwrap();
        let job = match inboxes.get(sender) {
            Some(tx) => match tx.send(job) {
                Ok(()) => return true,
                Err(mpsc::error::SendError(job)) => job,
            },
            None => job,
        };
        let (tx, rx) = mpsc::unbounded_channel();
        tx.send(job).ok();
        inboxes.insert(sender.to_string(), tx);
        drop(inboxes);
        let worker = Worker {
            sender: sender.to_string(),
            rx,
            inboxes: self.inboxes.clone(),
            handler: self.handler.clone(),
            validator: self.validator.clone(),
            permits: self.permits.clone(),
            _done: done,
        };
        tokio::spawn(worker.run());
        true
    }

    /// Stops taking messages and waits until every queued one is answered.
    pub async fn shutdown(&self) {
        self.done_tx.lock().unwrap().take();
        // Dropping the inboxes' senders lets each worker finish its queue and exit.
        self.inboxes.lock().unwrap().clear();
        let mut rx = self.done_rx.lock().await;
        while rx.recv().await.is_some() {}
    }
}

struct Worker {
    sender: String,
    rx: mpsc::UnboundedReceiver<Job>,
    inboxes: Inboxes,
    handler: Arc<dyn CommandHandler>,
    validator: Arc<MessageValidator>,
    permits: Arc<Semaphore>,
    _done: mpsc::Sender<()>,
}

impl Worker {
    async fn run(mut self) {
        loop {
            let first = match tokio::time::timeout(IDLE, self.rx.recv()).await {
                Ok(Some(job)) => job,
                Ok(None) => return,
                Err(_) => {
                    let mut inboxes = self.inboxes.lock().unwrap();
                    if self.rx.is_empty() {
                        inboxes.remove(&self.sender);
                        return;
                    }
                    continue;
                }
            };
            let mut batch = vec![first];
            while batch.len() < MAX_BATCH {
                match self.rx.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            let (works, sinks): (Vec<Work>, Vec<ReplySink>) =
                batch.into_iter().map(|job| (job.work, job.sink)).unzip();
            let replies = self.run_batch(works).await;
            for (reply, sink) in replies.into_iter().zip(sinks) {
                sink(reply).await;
            }
        }
    }

    async fn run_batch(&self, works: Vec<Work>) -> Vec<Reply> {
        if works.iter().all(|w| matches!(w, Work::Answer(_))) {
            return works
                .into_iter()
                .map(|w| match w {
                    Work::Answer(reply) => reply,
                    Work::Run(_) => unreachable!(),
                })
                .collect();
        }
        let count = works.len();
        let _permit = self
            .permits
            .acquire()
            .await
            .expect("the semaphore is never closed");
        let handler = self.handler.clone();
        let validator = self.validator.clone();
        let joined = tokio::task::spawn_blocking(move || {
            works
                .into_iter()
                .map(|work| match work {
                    Work::Answer(reply) => reply,
                    Work::Run(request) => run_one(&*handler, &validator, &request),
                })
                .collect::<Vec<Reply>>()
        })
        .await;
        match joined {
            Ok(replies) => replies,
            Err(err) => {
                report::internal("router", &format!("blocking task failed: {err}"));
                vec![Reply::fail("Internal error: the command was not completed"); count]
            }
        }
    }
}

/// Permission check, then the handler; a panic becomes a `Fail`, never a
/// lost reply.
fn run_one(
    handler: &dyn CommandHandler,
    validator: &MessageValidator,
    request: &Incoming,
) -> Reply {
    if let Err(denied) = validator.check_message(&request.sender, &request.text) {
        return Reply::fail(&denied);
    }
    match catch_unwind(AssertUnwindSafe(|| handler.handle(request))) {
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
    use crate::transport::validator::{Permissions, ValidatorConfig};
    use std::sync::atomic::{AtomicUsize, Ordering};

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
        fn session_of(&self, _: &str) -> Option<String> {
            None
        }
        fn set_response_format(&self, _: &str, _: ResponseFormat) {}
        fn flush(&self) -> Result<(), String> {
            Ok(())
        }
    }

    fn router(handler: Arc<Echo>, max: usize) -> MessageRouter {
        let validator = MessageValidator::new(ValidatorConfig::new(1024, Permissions::default()));
        MessageRouter::new(handler, Arc::new(validator), max)
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
