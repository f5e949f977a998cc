//! Progress of a long command (a script over a project): how far it is,
//! said while it works to whoever watches the sender — a bar in `eddi
//! run`, MCP progress notifications, NATS progress messages. The engine
//! says it through a [`ProgressSink`]; the transports decide how often to
//! pass it on ([`Throttle`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How far a command is: `done` of `total` units of its current `stage`
/// (`reading files`, `foreach function`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Progress {
    pub stage: String,
    pub done: usize,
    pub total: usize,
}

/// Where progress goes.
pub type ProgressSink = Arc<dyn Fn(&Progress) + Send + Sync>;

/// The sinks that watch each sender, for as long as their [`Watch`] lives.
#[derive(Default)]
pub struct Watchers {
    by_sender: Mutex<HashMap<String, Vec<(u64, ProgressSink)>>>,
    next: AtomicU64,
}

/// A sink watching a sender; dropping it stops the watch.
#[must_use = "the watch ends when this is dropped"]
pub struct Watch {
    watchers: Arc<Watchers>,
    sender: String,
    id: u64,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut by_sender = self
            .watchers
            .by_sender
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(sinks) = by_sender.get_mut(&self.sender) {
            sinks.retain(|(id, _)| *id != self.id);
            if sinks.is_empty() {
                by_sender.remove(&self.sender);
            }
        }
    }
}

impl Watchers {
    /// `sink` gets the progress of `sender`'s commands until the watch
    /// is dropped.
    pub fn watch(self: &Arc<Self>, sender: &str, sink: ProgressSink) -> Watch {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.by_sender
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(sender.to_owned())
            .or_default()
            .push((id, sink));
        Watch {
            watchers: self.clone(),
            sender: sender.to_owned(),
            id,
        }
    }

    /// The sinks watching `sender` now.
    pub fn of(&self, sender: &str) -> Vec<ProgressSink> {
        self.by_sender
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(sender)
            .map(|sinks| sinks.iter().map(|(_, sink)| sink.clone()).collect())
            .unwrap_or_default()
    }
}

/// Passes progress on at most every `every`, and always the first and the
/// last of a stage: what a terminal or a remote client can take.
pub struct Throttle {
    every: Duration,
    last: Mutex<Option<(Instant, String)>>,
}

impl Throttle {
    pub fn new(every: Duration) -> Throttle {
        Throttle {
            every,
            last: Mutex::new(None),
        }
    }

    /// Whether `progress` should be passed on now.
    pub fn admit(&self, progress: &Progress) -> bool {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let admitted = match last.as_ref() {
            None => true,
            Some((_, stage)) if *stage != progress.stage => true,
            Some(_) if progress.done >= progress.total => true,
            Some((at, _)) => now.duration_since(*at) >= self.every,
        };
        if admitted {
            *last = Some((now, progress.stage.clone()));
        }
        admitted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(stage: &str, done: usize, total: usize) -> Progress {
        Progress {
            stage: stage.to_owned(),
            done,
            total,
        }
    }

    #[test]
    fn a_watch_ends_when_dropped() {
        let watchers = Arc::new(Watchers::default());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let into = seen.clone();
        let watch = watchers.watch(
            "a",
            Arc::new(move |p: &Progress| into.lock().unwrap().push(p.done)),
        );
        for sink in watchers.of("a") {
            sink(&at("x", 1, 2));
        }
        assert!(watchers.of("b").is_empty());
        drop(watch);
        assert!(watchers.of("a").is_empty());
        assert_eq!(*seen.lock().unwrap(), [1]);
    }

    #[test]
    fn the_throttle_passes_the_first_the_last_and_a_new_stage() {
        let throttle = Throttle::new(Duration::from_secs(3600));
        assert!(throttle.admit(&at("read", 1, 10)));
        assert!(!throttle.admit(&at("read", 2, 10)));
        assert!(throttle.admit(&at("read", 10, 10)));
        assert!(throttle.admit(&at("foreach function", 1, 5)));
        assert!(!throttle.admit(&at("foreach function", 2, 5)));
    }
}
