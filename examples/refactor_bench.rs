//! Benchmark of `Refactor RenameSymbol` through the engine, end to end
//! (see `scripts/bench-refactor`): one `Engine` on a copy of a project,
//! `Start b`, a warm-up `Find References` (which builds the index), then per
//! rename N repetitions of a timed `Refactor RenameSymbol <symbol> <new>`
//! (refresh + compute + check + commit of every file + reply) each followed
//! by a timed `Undo` (one commit restoring every file), so every repetition
//! starts from the original tree and the tree is left as it was found (an
//! untimed `Find References` after each waits for the index to take the
//! written files, which it does in the background after the reply);
//! then N timed `Preview Refactor …` (everything but the commit).
//!
//! Usage: `cargo run --release --example refactor_bench -- <root> [--reps N]
//! [--state-dir DIR] [symbol new]…`. The root is modified while it runs:
//! give it a copy. One `RESULT {json}` line per rename on stdout;
//! `RUST_LOG=eddi=debug` adds the refactor's phase times on stderr.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eddi::engine::{Engine, EngineConfig, Request};
use serde_json::json;

const SENDER: &str = "bench";

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The value at quantile `q` (0..=1) of the samples, nearest rank.
fn quantile(samples: &[Duration], q: f64) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort();
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// On-CPU time of every thread of this process so far, from
/// `/proc/self/task/*/schedstat` (nanoseconds): unlike wall time it leaves
/// out the time spent waiting for a core, which on a shared machine is most
/// of it. A thread that ended before the call is not counted, so only the
/// difference around work on long-lived threads means something.
fn process_cpu() -> Duration {
    let tasks = std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten();
    let nanos = tasks
        .filter_map(|task| std::fs::read_to_string(task.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    Duration::from_nanos(nanos)
}

/// On-CPU time of the whole process so far, threads that ended included
/// (user + system from `/proc/self/stat`, in clock ticks of 10 ms): for
/// the work a command leaves to a thread of its own, such as the index's
/// update after a rename.
fn process_cpu_all_threads() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // the fields after the command name, which is in parentheses
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15, the 12th and 13th after `)`
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// One command's cost: wall time and on-CPU time of the process.
#[derive(Clone, Copy)]
struct Cost {
    wall: Duration,
    cpu: Duration,
}

/// Runs one command, returning its reply and what it cost; a `Fail` ends
/// the benchmark (the figures would mean nothing).
fn timed(engine: &Engine, text: &str) -> (String, Cost) {
    let (t, cpu) = (Instant::now(), process_cpu());
    let response = engine.execute(&Request {
        sender: SENDER,
        text,
        id: None,
    });
    let took = Cost {
        wall: t.elapsed(),
        cpu: process_cpu().saturating_sub(cpu),
    };
    if !response.ok {
        println!("FAIL {text}: {}", response.text);
        eprintln!("refactor_bench: {text}: {}", response.text);
        std::process::exit(1);
    }
    (response.text, took)
}

/// `Ok, Renamed in 4 files (a.py, …), 23 references updated, …` → (4, 23).
fn renamed_counts(reply: &str) -> Option<(u64, u64)> {
    let rest = reply.split("Renamed in ").nth(1)?;
    let files = rest.split(' ').next()?.parse().ok()?;
    let counted = rest.split(" reference").next()?;
    let references = counted.rsplit(' ').next()?.parse().ok()?;
    Some((files, references))
}

/// Median, p90 and min of the wall times, and the median on-CPU time.
fn summary(costs: &[Cost]) -> serde_json::Value {
    let wall: Vec<Duration> = costs.iter().map(|c| c.wall).collect();
    let cpu: Vec<Duration> = costs.iter().map(|c| c.cpu).collect();
    json!({
        "median": ms(quantile(&wall, 0.5)),
        "p90": ms(quantile(&wall, 0.9)),
        "min": ms(quantile(&wall, 0.0)),
        "cpu_median": ms(quantile(&cpu, 0.5)),
        "all": wall.iter().map(|d| ms(*d)).collect::<Vec<_>>(),
    })
}

fn main() {
    // `RUST_LOG=eddi=debug` prints the refactor's phases (compute, check,
    // commit, index) on stderr.
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_writer(std::io::stderr)
            .init();
    }
    let mut args = std::env::args().skip(1);
    let Some(root) = args.next().map(PathBuf::from) else {
        eprintln!("usage: refactor_bench <root> [--reps N] [--state-dir DIR] [symbol new]…");
        std::process::exit(2);
    };
    let mut reps = 11;
    let mut state_dir = None;
    let mut words = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--reps" => reps = args.next().and_then(|n| n.parse().ok()).unwrap_or(reps),
            "--state-dir" => state_dir = args.next().map(PathBuf::from),
            _ => words.push(arg),
        }
    }
    if words.is_empty() {
        words = ["django.urls.reverse", "reverse_url"]
            .map(String::from)
            .to_vec();
    }
    if words.len() % 2 != 0 {
        eprintln!("refactor_bench: symbols and new names come in pairs");
        std::process::exit(2);
    }

    let t = Instant::now();
    let mut config = EngineConfig::new(&root);
    config.state_dir = state_dir;
    let engine = Engine::open(config).unwrap_or_else(|e| {
        eprintln!("refactor_bench: {e}");
        std::process::exit(1)
    });
    timed(&engine, "Start b");
    let open = t.elapsed();

    for pair in words.chunks(2) {
        let (symbol, new) = (&pair[0], &pair[1]);
        // The first query builds the index (the cold part); later ones only
        // refresh it, as an agent's session does between two refactors.
        let (references, warm_up) = timed(&engine, &format!("Find References {symbol}"));
        let warm_up = warm_up.wall;
        // A warm index is a whole one: what `eddi serve` scans in the
        // background after its first query.
        engine.scan_index();
        let refactor = format!("Refactor RenameSymbol {symbol} {new}");
        let (mut renames, mut undos) = (Vec::new(), Vec::new());
        let mut with_index = Duration::ZERO;
        let mut reply = String::new();
        let renamed = match symbol.rsplit_once('.') {
            Some((parent, _)) => format!("{parent}.{new}"),
            None => new.clone(),
        };
        let settle = format!("Find References {renamed}");
        for _ in 0..reps {
            let before = process_cpu_all_threads();
            let (text, took) = timed(&engine, &refactor);
            renames.push(took);
            reply = text;
            // The index takes the renamed files after the reply, in the
            // background: a query waits for it (untimed), so that the Undo
            // is timed alone and the next rename starts from a warm index.
            timed(&engine, &settle);
            with_index += process_cpu_all_threads().saturating_sub(before);
            undos.push(timed(&engine, "Undo").1);
            timed(&engine, &format!("Find References {symbol}"));
        }
        // The same without the commit (refresh + compute + check + reply):
        // the difference is what writing the files and the undo step costs.
        let previews: Vec<Cost> = (0..reps)
            .map(|_| timed(&engine, &format!("Preview {refactor}")).1)
            .collect();
        let (files, refs) = renamed_counts(&reply).unwrap_or((0, 0));
        let result = json!({
            "symbol": symbol,
            "new": new,
            "open_ms": ms(open),
            "first_query_ms": ms(warm_up),
            "find_references_reply": references.lines().next().unwrap_or(""),
            "reps": reps,
            "files": files,
            "references": refs,
            "reply": reply,
            "rename_ms": summary(&renames),
            // the rename, the index's update after it and the query that
            // waited for it: mean CPU per repetition
            "rename_and_index_cpu_ms": ms(with_index) / reps as f64,
            "undo_ms": summary(&undos),
            "preview_ms": summary(&previews),
        });
        println!("RESULT {result}");
    }
}
