//! What an edit costs, by file size (1k, 10k, 100k lines of Python-ish
//! text) and by position in the file (start, middle, end).
//!
//! Groups (run `scripts/bench-edit` for a table; see docs/BENCHMARKS.md):
//! - `buffer_edit`: `Buffer::edit` of a one-line insert — ChangeSet build,
//!   invert, apply and history commit: an edit plus its undo record. The
//!   target of issue 2 is under 20 µs at any position, flat in file size.
//!   The file is `f.txt`, so no syntax tree is kept.
//! - `buffer_edit_py`: the same in `f.py`, whose buffer also keeps a
//!   tree-sitter tree in step (incremental reparse on every change).
//! - `engine_mem`: whole commands through `Engine::execute` (parse, run,
//!   journal append, render) on `f.txt` with the session journal on tmpfs
//!   (`/dev/shm`), so the journal's fsync costs no disk I/O: the command
//!   path without persistence cost, as close as the public API allows.
//!   `engine_mem_py`: one of them (`Insert Line`, middle) on `f.py`.
//! - `engine_disk`: the same with the journal on the real disk, as in
//!   production (each mutating command fsyncs before it replies).
//! - `snapshot`: `Engine::flush`, the full snapshot the store writes every
//!   `SNAPSHOT_EVERY` (256) journal events. The engine benchmarks flush
//!   *outside* the timed part often enough that no snapshot lands inside
//!   it, so their figures are per-command costs; the snapshot's amortised
//!   share is this figure / 256 per event.
//!
//! Each edit is undone (untimed) before the next, so the document and the
//! history stay the same size for the whole measurement.

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use eddi::edit::{ChangeSet, Position};
use eddi::engine::{Engine, EngineConfig, Request};
use eddi::session::Buffer;
use eddi::workspace::Workspace;

const SIZES: [(usize, &str); 3] = [(1_000, "1k"), (10_000, "10k"), (100_000, "100k")];
const WHERE: [&str; 3] = ["start", "middle", "end"];
/// Lines per generated function block (see [`python`]).
const BLOCK: usize = 10;
/// Flush (untimed) before the journal reaches the store's snapshot
/// threshold of 256 events, so snapshots never land in a timed command.
const FLUSH_AFTER: usize = 200;

/// `lines` lines of realistic Python: functions of ten lines each, with
/// docstrings, loops, comments (some non-ASCII) and blank separators.
fn python(lines: usize) -> String {
    let mut out = String::with_capacity(lines * 40);
    let mut count = 0;
    for k in 0.. {
        let block = format!(
            "def function_{k}(self, value, items=None):\n\
             \x20   \"\"\"Return the weighted total for record {k}.\"\"\"\n\
             \x20   if items is None:\n\
             \x20       items = []\n\
             \x20   total = value * {m} + len(items)\n\
             \x20   for item in items:\n\
             \x20       total += item.weight  # {note}\n\
             \x20   logger.debug(\"function_{k}: %s\", total)\n\
             \x20   return total\n\
             \n",
            m = k % 7 + 1,
            note = if k % 5 == 0 {
                "naïve 世界 sum"
            } else {
                "accumulate"
            },
        );
        for line in block.split_inclusive('\n') {
            if count == lines {
                return out;
            }
            out.push_str(line);
            count += 1;
        }
    }
    unreachable!()
}

/// The line a benchmark works at.
fn line_at(lines: usize, place: &str) -> usize {
    match place {
        "start" => 0,
        "middle" => lines / 2,
        _ => lines - 1,
    }
}

fn buffer_edit(c: &mut Criterion) {
    buffer_group(c, "buffer_edit", "f.txt", 30);
}

/// The same edit in a `.py` buffer, which keeps a tree-sitter tree in step
/// with every change (an incremental reparse per edit, undo and redo).
fn buffer_edit_py(c: &mut Criterion) {
    buffer_group(c, "buffer_edit_py", "f.py", 10);
}

fn buffer_group(c: &mut Criterion, name: &str, file: &str, samples: usize) {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(samples)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    let dir = tempfile::tempdir().unwrap();
    let workspace = Workspace::new(dir.path(), 1 << 30).unwrap();
    let path = workspace.resolve(file).unwrap();
    for (lines, label) in SIZES {
        let mut buffer = Buffer::new(path.clone(), &python(lines), None);
        for place in WHERE {
            let line = line_at(lines, place);
            buffer.set_cursor(Position::new(line, 0));
            group.bench_function(BenchmarkId::new(place, label), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let start = Instant::now();
                        let text = buffer.text();
                        let at = text.line_to_char(line);
                        let change =
                            ChangeSet::replace(text.len_chars(), at, at, "    x = compute(1)\n")
                                .unwrap();
                        buffer.edit(change, Position::new(line + 1, 0)).unwrap();
                        total += start.elapsed();
                        // Untimed: back to the same text and a one-step history.
                        assert_eq!(buffer.undo(1).len(), 1);
                    }
                    total
                })
            });
        }
    }
    group.finish();
}

/// An engine with one session that has `f.py` (of `lines` lines) open.
struct Bench {
    engine: Engine,
    _root: tempfile::TempDir,
    _state: tempfile::TempDir,
}

impl Bench {
    fn new(lines: usize, in_memory: bool, file: &str) -> Bench {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join(file), python(lines)).unwrap();
        let state = if in_memory && Path::new("/dev/shm").is_dir() {
            tempfile::tempdir_in("/dev/shm").unwrap()
        } else {
            if in_memory {
                eprintln!("no /dev/shm: engine_mem keeps its journal on disk");
            }
            tempfile::tempdir().unwrap()
        };
        let mut config = EngineConfig::new(root.path());
        config.state_dir = Some(state.path().join("state"));
        config.max_file_size = 1 << 30;
        let engine = Engine::open(config).unwrap();
        let bench = Bench {
            engine,
            _root: root,
            _state: state,
        };
        bench.run(&format!("Start bench; Open {file}"));
        bench
    }

    /// Runs one message, which must succeed; returns how long it took.
    fn run(&self, text: &str) -> Duration {
        let start = Instant::now();
        let response = self.engine.execute(&Request {
            sender: "bench",
            text,
            id: None,
        });
        let took = start.elapsed();
        assert!(response.ok, "{text} -> {}", response.text);
        took
    }
}

/// One engine benchmark: `timed(toggle)` is measured, `untimed` (an undo)
/// restores the state; `events` is how many journal events one round adds.
struct Case {
    name: &'static str,
    timed: Box<dyn Fn(bool) -> String>,
    untimed: Option<&'static str>,
    events: usize,
}

fn cases(lines: usize, place: &str) -> Vec<Case> {
    let line = line_at(lines, place);
    // Two neighbouring targets, alternated so every Goto/Find really moves.
    let (goto_a, goto_b) = if line + 1 < lines {
        (line, line + 1)
    } else {
        (line - 1, line)
    };
    let block = line / BLOCK;
    let (find_a, find_b) = if block == 0 {
        (0, 1)
    } else {
        (block - 1, block)
    };
    vec![
        Case {
            name: "insert_line",
            timed: Box::new(|_| "Insert Line \"    x = compute(1)\"".to_owned()),
            untimed: Some("Undo"),
            events: 2,
        },
        Case {
            name: "delete_line",
            timed: Box::new(|_| "Delete Line".to_owned()),
            untimed: Some("Undo"),
            events: 2,
        },
        Case {
            name: "goto",
            timed: Box::new(move |odd| format!("Goto {}", if odd { goto_a } else { goto_b })),
            untimed: None,
            events: 1,
        },
        Case {
            name: "find",
            timed: Box::new(move |odd| {
                format!(
                    "Find \"def function_{}(\"",
                    if odd { find_a } else { find_b }
                )
            }),
            untimed: None,
            events: 1,
        },
    ]
}

/// Where an engine group keeps its journal, which file it edits and which
/// (command, place) pairs it measures (all when empty).
struct Setup<'a> {
    in_memory: bool,
    file: &'a str,
    only: &'a [(&'a str, &'a str)],
    samples: usize,
}

fn engine_group(c: &mut Criterion, group_name: &str, setup: Setup<'_>) {
    let only = setup.only;
    let mut group = c.benchmark_group(group_name);
    group
        .sample_size(setup.samples)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for (lines, label) in SIZES {
        let bench = Bench::new(lines, setup.in_memory, setup.file);
        for place in WHERE {
            for case in cases(lines, place) {
                if !only.is_empty() && !only.contains(&(case.name, place)) {
                    continue;
                }
                bench.run(&format!("Goto {}", line_at(lines, place)));
                bench.engine.flush().unwrap();
                let mut events = 0;
                let mut toggle = false;
                let id = BenchmarkId::new(format!("{}-{place}", case.name), label);
                group.bench_function(id, |b| {
                    b.iter_custom(|iters| {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            if events + case.events > FLUSH_AFTER {
                                bench.engine.flush().unwrap();
                                events = 0;
                            }
                            toggle = !toggle;
                            total += bench.run(&(case.timed)(toggle));
                            if let Some(untimed) = case.untimed {
                                bench.run(untimed);
                            }
                            events += case.events;
                        }
                        total
                    })
                });
            }
        }
    }
    group.finish();
}

/// The command path on a plain-text file (no syntax tree): parse, run,
/// journal append on tmpfs, render.
fn engine_mem(c: &mut Criterion) {
    let setup = Setup {
        in_memory: true,
        file: "f.txt",
        only: &[],
        samples: 20,
    };
    engine_group(c, "engine_mem", setup);
}

/// The same command path on a `.py` file, whose buffer reparses its syntax
/// tree on every edit and undo; measured for one command, as the reparse
/// dominates and is measured per position in `buffer_edit_py`.
fn engine_mem_py(c: &mut Criterion) {
    let setup = Setup {
        in_memory: true,
        file: "f.py",
        only: &[("insert_line", "middle")],
        samples: 10,
    };
    engine_group(c, "engine_mem_py", setup);
}

/// On disk every command pays the journal fsync; measured where it shows
/// the fsync, not for every command and position again.
fn engine_disk(c: &mut Criterion) {
    let setup = Setup {
        in_memory: false,
        file: "f.txt",
        only: &[("insert_line", "middle"), ("goto", "middle")],
        samples: 20,
    };
    engine_group(c, "engine_disk", setup);
}

fn snapshot(c: &mut Criterion) {
    let mut group = c.benchmark_group("snapshot");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for (lines, label) in SIZES {
        for (name, in_memory) in [("mem", true), ("disk", false)] {
            let bench = Bench::new(lines, in_memory, "f.txt");
            group.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| bench.engine.flush().unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    buffer_edit,
    buffer_edit_py,
    engine_mem,
    engine_mem_py,
    engine_disk,
    snapshot
);
criterion_main!(benches);
