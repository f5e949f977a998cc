//! Benchmark of the project index on a real codebase (see
//! `scripts/bench-index`): raw parse floor, cold build, warm references,
//! refresh without changes, peak RSS; then the same query through the
//! engine, whose index a watch of the tree keeps fresh (no walk per query),
//! and how soon it sees a file another program writes.
//!
//! Usage: `cargo run --release --example index_bench -- <root> [symbol…]`
//! The root must be writable: (g) creates one file in it and removes it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eddi::analysis::index::{disk, ProjectIndex};

#[path = "common/floor.rs"]
mod floor;

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// CPU time (user + system, all threads) of this process so far, from
/// `/proc/self/stat` in clock ticks of 10 ms (USER_HZ = 100 on Linux).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

/// On-CPU time of the calling thread, from `/proc/thread-self/schedstat`:
/// unlike wall time it excludes the time the thread waited for a core. The
/// kernel updates it at scheduler ticks, so only sums over many calls mean
/// something.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        s.split_whitespace().next()?.parse().ok()?,
    ))
}

/// (b2) The ratio of (b) with the machine's drift taken out: every file's
/// text (in memory) is parsed and dropped, then parsed and scanned into a
/// `FileIndex`, each timed on its own, one right after the other, on the
/// pool's threads; which of the two goes first alternates from file to
/// file and round to round, so neither gains from the other's warm
/// caches. Speed that drifts from one minute to the next moves both sums
/// alike, so their ratio holds still where (b)'s whole runs, seconds apart,
/// do not.
fn paired_by_file(root: &Path, paths: &[String], index: &ProjectIndex) {
    use rayon::prelude::*;
    let texts: Vec<(disk::ModuleName, String)> = paths
        .iter()
        .filter_map(|rel| {
            let text = std::fs::read_to_string(root.join(rel)).ok()?;
            let module = index.module_of(rel).unwrap_or_default().to_string();
            Some(((module, rel.ends_with("__init__.py")), text))
        })
        .collect();
    let rounds = count_from_env("INDEX_BENCH_PAIRED_ROUNDS", 3);
    let mut ratios = Vec::new();
    let (mut floor_sum, mut index_sum) = (Duration::ZERO, Duration::ZERO);
    for round in 0..rounds {
        let (floor, scanned) = texts
            .par_iter()
            .enumerate()
            .with_max_len(1)
            .map(|(i, (module, text))| {
                let parse_only = || {
                    let t = Instant::now();
                    drop(disk::parse(text));
                    t.elapsed()
                };
                let parse_and_scan = || {
                    let t = Instant::now();
                    let file = disk::index_text(module, text);
                    let took = t.elapsed();
                    drop(file); // an index keeps it: its drop is not the build's
                    took
                };
                if (i + round) % 2 == 0 {
                    let f = parse_only();
                    (f, parse_and_scan())
                } else {
                    let s = parse_and_scan();
                    (parse_only(), s)
                }
            })
            .reduce(
                || (Duration::ZERO, Duration::ZERO),
                |a, b| (a.0 + b.0, a.1 + b.1),
            );
        ratios.push(scanned.as_secs_f64() / floor.as_secs_f64().max(1e-9));
        floor_sum += floor;
        index_sum += scanned;
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "(b2) file by file, parse vs parse + scan, interleaved ({} files, {rounds} rounds): floor {:.0} ms, index {:.0} ms = {:.3}x (rounds from {:.3}x to {:.3}x)",
        texts.len(),
        ms(floor_sum) / rounds as f64,
        ms(index_sum) / rounds as f64,
        index_sum.as_secs_f64() / floor_sum.as_secs_f64().max(1e-9),
        ratios[0],
        ratios[ratios.len() - 1],
    );
}

/// A positive count from the environment variable `name`, else `default`.
fn count_from_env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(default)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(root) = args.next().map(PathBuf::from) else {
        eprintln!("usage: index_bench <root> [symbol…]");
        std::process::exit(2);
    };
    let mut symbols: Vec<String> = args.collect();
    if symbols.is_empty() {
        symbols = vec![
            "django.utils.translation.gettext".into(),
            "django.db.models.Q".into(),
        ];
    }
    let threads = rayon::current_num_threads();
    println!("root: {}  threads: {threads}", root.display());

    // Warm the page cache so that neither measurement pays for the disk.
    // Python's modules: the floor parses them alone
    let paths: Vec<String> = disk::indexed_files(&root)
        .into_iter()
        .filter(|p| p.ends_with(".py"))
        .collect();
    let _: usize = paths
        .iter()
        .map(|rel| std::fs::read(root.join(rel)).map(|b| b.len()).unwrap_or(0))
        .sum();

    // (a) the floor: walk, read and parse every file in parallel, nothing
    // else (trees dropped at once); (b) the cold index. The cores are shared
    // with other work, so the two are interleaved five times (INDEX_BENCH_RUNS; floor, build,
    // floor, build, …) and compared by their minimum and their median,
    // and pair by pair: a floor and the build right after it share the
    // machine's state, so the median of the pairs' ratios is the figure
    // least moved by the speed drifting from minute to minute.
    let floor_run = || {
        let t = Instant::now();
        let totals = floor::parse_all(&root);
        (t.elapsed(), totals)
    };
    let mut floors = Vec::new();
    let mut builds = Vec::new();
    let mut totals = (0, 0, 0);
    let mut reads = Vec::new();
    let mut index = None;
    let (mut floor_cpu, mut build_cpu) = (Duration::ZERO, Duration::ZERO);
    let runs = count_from_env("INDEX_BENCH_RUNS", 5);
    for _ in 0..runs {
        let c = cpu_time();
        let (took, t) = floor_run();
        floor_cpu += cpu_time().zip(c).map(|(a, b)| a - b).unwrap_or_default();
        floors.push(took);
        totals = t;
        drop(index.take());
        let c = cpu_time();
        let t = Instant::now();
        // the whole index: every file read, then every file scanned (a
        // build reads; queries scan what they need, or all at once)
        let built = ProjectIndex::build(&root);
        reads.push(t.elapsed());
        built.scan_all();
        builds.push(t.elapsed());
        build_cpu += cpu_time().zip(c).map(|(a, b)| a - b).unwrap_or_default();
        index = Some(built);
    }
    let Some(mut index) = index else { return };
    let (lines, bytes, nodes) = totals;
    println!(
        "files: {}  lines: {lines}  bytes: {bytes}  syntax nodes: {nodes}",
        paths.len()
    );
    let show = |v: &[Duration]| {
        v.iter()
            .map(|d| format!("{:.0}", ms(*d)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let min = |v: &[Duration]| v.iter().copied().min().unwrap_or_default();
    let median = |v: &[Duration]| {
        let mut v = v.to_vec();
        v.sort();
        v[v.len() / 2]
    };
    println!(
        "(a) raw parse floor (walk+read+parse): min {:.0} ms, median {:.0} ms (runs {} ms)",
        ms(min(&floors)),
        ms(median(&floors)),
        show(&floors)
    );
    println!(
        "(b) cold ProjectIndex::build + scan_all: min {:.0} ms, median {:.0} ms (runs {} ms) = {:.2}x floor (min/min), {:.2}x (median/median); files: {}, skipped: {}",
        ms(min(&builds)),
        ms(median(&builds)),
        show(&builds),
        min(&builds).as_secs_f64() / min(&floors).as_secs_f64(),
        median(&builds).as_secs_f64() / median(&floors).as_secs_f64(),
        index.len(),
        index.skipped().len()
    );
    let mut paired: Vec<f64> = floors
        .iter()
        .zip(&builds)
        .map(|(f, b)| b.as_secs_f64() / f.as_secs_f64().max(1e-9))
        .collect();
    paired.sort_by(f64::total_cmp);
    println!(
        "    pair by pair (each build / the floor just before it): median {:.2}x, from {:.2}x to {:.2}x over {runs} pairs",
        paired[paired.len() / 2],
        paired[0],
        paired[paired.len() - 1],
    );
    println!(
        "    of which ProjectIndex::build (walk + read, nothing scanned): min {:.0} ms, median {:.0} ms",
        ms(min(&reads)),
        ms(median(&reads)),
    );
    println!(
        "    CPU time (user+sys, all threads, {runs} runs each): floor {:.0} ms, build {:.0} ms = {:.2}x",
        ms(floor_cpu),
        ms(build_cpu),
        build_cpu.as_secs_f64() / floor_cpu.as_secs_f64().max(1e-9)
    );
    for s in index.skipped().iter().take(5) {
        println!("    skipped {}: {}", s.path, s.reason);
    }

    paired_by_file(&root, &paths, &index);

    // (c) warm references: wall time of each run, and the mean on-CPU time
    // of this thread over the 100 runs.
    for symbol in &symbols {
        let mut times = Vec::new();
        let mut summary = String::new();
        let cpu_before = thread_cpu();
        for i in 0..100 {
            let t = Instant::now();
            let r = index.find_references(symbol);
            times.push(t.elapsed());
            if i == 0 {
                summary = match r {
                    Ok(r) => format!(
                        "{} references, {} possible",
                        r.certain.len(),
                        r.possible.len()
                    ),
                    Err(e) => format!("error: {e}"),
                };
            }
        }
        let cpu_mean = thread_cpu()
            .zip(cpu_before)
            .map(|(a, b)| ms(a - b) / 100.0)
            .unwrap_or(f64::NAN);
        times.sort();
        let pct = |p: usize| {
            times
                .get(times.len() * p / 100)
                .map(|d| ms(*d))
                .unwrap_or(f64::NAN)
        };
        println!(
            "(c) find_references {symbol}: {summary}; wall median {:.2} ms, p99 {:.2} ms, max {:.2} ms; mean on-CPU {:.2} ms",
            pct(50),
            pct(99),
            times.last().map(|d| ms(*d)).unwrap_or(f64::NAN),
            cpu_mean
        );
    }
    let t = Instant::now();
    let callers = index.find_callers(&symbols[0]).map(|c| c.certain.len());
    println!(
        "    find_callers {}: {:?} in {:.2} ms",
        symbols[0],
        callers,
        ms(t.elapsed())
    );

    // (f) a query with one unsaved buffer laid over the index as a view
    // (`overlaid`: the engine's path when the sender has unsaved edits):
    // the view, the buffer's re-scan and the query, median of 20.
    let buffer = "django/db/models/query_utils.py";
    if let Ok(text) = std::fs::read_to_string(root.join(buffer)) {
        let rope = ropey::Rope::from_str(&text);
        let overlay = [(buffer.to_string(), rope)];
        let cpu = thread_cpu();
        let mut times: Vec<Duration> = (0..20)
            .map(|_| {
                let t = Instant::now();
                let view = index.overlaid(&overlay);
                let _ = view.find_references(&symbols[0]);
                t.elapsed()
            })
            .collect();
        let view_cpu = thread_cpu().zip(cpu).map(|(a, b)| ms(a - b) / 20.0);
        times.sort();
        // the way before views: write the buffer into the index, query,
        // re-read the file from disk and write it back
        let mut before: Vec<Duration> = (0..20)
            .map(|_| {
                let t = Instant::now();
                let _ = index.update_file(buffer, &overlay[0].1);
                let _ = index.find_references(&symbols[0]);
                let disk = std::fs::read_to_string(root.join(buffer)).unwrap_or_default();
                let _ = index.update_file(buffer, &ropey::Rope::from_str(&disk));
                t.elapsed()
            })
            .collect();
        before.sort();
        println!(
            "    the same by update_file + restore: median {:.2} ms",
            ms(before[before.len() / 2])
        );
        println!(
            "(f) find_references {} over a view with {buffer} unsaved: median {:.2} ms, max {:.2} ms; mean on-CPU {:.2} ms",
            symbols[0],
            ms(times[times.len() / 2]),
            ms(times[times.len() - 1]),
            view_cpu.unwrap_or(f64::NAN)
        );
    }

    // (e) refresh with nothing changed (the per-query polling cost).
    let (t, cpu) = (Instant::now(), thread_cpu());
    let report = index.refresh();
    println!(
        "(e) refresh, no changes: {:.0} ms, on-CPU {:.0} ms (changes found: {})",
        ms(t.elapsed()),
        thread_cpu()
            .zip(cpu)
            .map(|(a, b)| ms(a - b))
            .unwrap_or(f64::NAN),
        !report.is_empty()
    );

    // (d) peak memory of the run so far (before (g) builds a second index).
    match peak_rss_mb() {
        Some(mb) => println!("(d) peak RSS (VmHWM): {mb:.0} MB"),
        None => println!("(d) peak RSS: unavailable"),
    }

    // (g) through the engine (watch of the tree on, as `eddi serve` runs).
    drop(index);
    engine_queries(&root, &symbols[0]);
}

fn median_p99(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    let at = |p: usize| ms(times[(times.len() * p / 100).min(times.len() - 1)]);
    (at(50), at(99))
}

/// The first number of a reply (`Ok, Found 249 references …` → 249).
fn first_number(reply: &str) -> Option<usize> {
    reply
        .split(|c: char| !c.is_ascii_digit())
        .find(|w| !w.is_empty())?
        .parse()
        .ok()
}

/// (g) `Find References` through `Engine::execute`: the first one builds
/// the index and starts the watch; warm ones (median/p99 of 100, wall and
/// on-CPU) must not walk the tree (a walk is the 50–100 ms of (e)). Then a
/// file that uses the symbol is created by "another program" (std::fs), and
/// queries run back to back until one counts it: the time from the write
/// to that answer is the freshness; the same once the file is removed.
fn engine_queries(root: &Path, symbol: &str) {
    use eddi::engine::{Engine, EngineConfig, Request};
    let state = tempfile::tempdir().expect("a temp dir for the state");
    let mut config = EngineConfig::new(root);
    config.state_dir = Some(state.path().to_path_buf());
    config.output_limit = 200;
    config.scan_index_ahead = true; // as `eddi serve` runs
    let engine = match Engine::open(config) {
        Ok(engine) => engine,
        Err(e) => return println!("(g) engine: cannot open {}: {e}", root.display()),
    };
    let run = |text: &str| {
        let r = engine.execute(&Request {
            sender: "bench",
            text,
            id: None,
        });
        (r.ok, r.text)
    };
    run("Start bench");
    let query = format!("Find References {symbol}");
    let t = Instant::now();
    let (ok, first) = run(&query);
    let cold = t.elapsed();
    if !ok {
        return println!("(g) engine: {query}: {first}");
    }
    let count = first_number(&first);
    // the rest of the index, which `eddi serve` scans on a thread of its
    // own after the first query: waited for here, so that warm is whole
    let t = Instant::now();
    engine.scan_index();
    let rest = t.elapsed();
    let mut times = Vec::new();
    let cpu_before = thread_cpu();
    for _ in 0..100 {
        let t = Instant::now();
        run(&query);
        times.push(t.elapsed());
    }
    let cpu_mean = thread_cpu()
        .zip(cpu_before)
        .map(|(a, b)| ms(a - b) / 100.0)
        .unwrap_or(f64::NAN);
    let (median, p99) = median_p99(&mut times);
    println!(
        "(g) engine Find References {symbol}: first (build + watch; scans the files that spell the name) {:.0} ms, the rest scanned {:.0} ms later; warm wall median {median:.2} ms, p99 {p99:.2} ms; mean on-CPU {cpu_mean:.2} ms; reply: {}",
        ms(cold),
        ms(rest),
        first.lines().next().unwrap_or("").chars().take(80).collect::<String>()
    );
    let Some((module, name)) = symbol.rsplit_once('.') else {
        return;
    };
    let probe = root.join("eddi_bench_fresh.py");
    let seen_after = |seen: &dyn Fn(Option<usize>) -> bool, what: &str| {
        let t = Instant::now();
        let mut queries = 0;
        loop {
            queries += 1;
            let (_, reply) = run(&query);
            if seen(first_number(&reply)) {
                let took = t.elapsed();
                return println!(
                    "    freshness, {what}: seen by query {queries} after the write, {:.2} ms",
                    ms(took)
                );
            }
            if t.elapsed() > Duration::from_secs(10) {
                return println!(
                    "    freshness, {what}: NOT seen after 10 s ({queries} queries): {reply}"
                );
            }
        }
    };
    let body = format!("from {module} import {name}\n\nPROBE = {name}(\"fresh\")\n");
    if std::fs::write(&probe, body).is_err() {
        return println!("    freshness: cannot write {}", probe.display());
    }
    seen_after(
        &|n| n != count,
        "a new file using it (an import and a call)",
    );
    let _ = std::fs::remove_file(&probe);
    seen_after(&|n| n == count, "that file removed");
}
