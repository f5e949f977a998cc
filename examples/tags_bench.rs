//! Benchmark of the project index on a code base of the brace languages
//! (TypeScript, Go, …): the parse floor (every indexed file read and
//! parsed with its language's grammar), the cold index (build + scan of
//! every file), and warm `find_references` of a symbol: asked again
//! (median of 50), and after another file's new text (median of 20
//! each): a file that does not spell the name (the answer kept), a file
//! of its uses (resolved again, the other files' imports kept).
//!
//! Usage: `cargo run --release --example tags_bench -- <root> <symbol>…`
//! (`TAGS_BENCH_ROUNDS=1` for one round, 3 by default).
//! `tags_bench --first <root> <symbol>`: what a new process's first
//! query costs — the index built (every file listed and read, none
//! scanned) and one `find_references`, which scans only the files that
//! spell the name; `scripts/bench-tags` times it against one ast-grep
//! scan of the tree.
//! `tags_bench --store <root>`: scans every file and stores the scans in
//! the state directory (`TAGS_BENCH_STATE`, else `<root>/.eddi`, a
//! workspace's own), which a later `--first` then reads instead of
//! parsing the files it needs (it prints how many it read); remove it to
//! time a first query without it.
//!
//! Each round also prints the process's CPU time (all threads) of the
//! floor and of the cold index, whose ratio the machine's load moves less
//! than the wall one's.

use std::time::{Duration, Instant};

use eddi::analysis::index::{disk, ProjectIndex};
use rayon::prelude::*;

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

/// The CPU time of the whole process so far (every thread).
fn cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("--first") => return first_query(),
        Some("--store") => return store(),
        _ => {}
    }
    let mut args = std::env::args().skip(1);
    let root = std::path::PathBuf::from(args.next().expect("usage: tags_bench <root> <symbol>…"));
    let symbols: Vec<String> = args.collect();
    let paths = disk::indexed_files(&root);
    println!("root: {}  files: {}", root.display(), paths.len());
    let rounds: usize = std::env::var("TAGS_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    for round in 0..rounds {
        let started = Instant::now();
        let cpu = cpu_time();
        let parsed: usize = paths
            .par_iter()
            .filter_map(|rel| {
                let language = eddi::language::language_of(rel)?;
                let text = std::fs::read_to_string(root.join(rel)).ok()?;
                let mut parser = tree_sitter::Parser::new();
                parser.set_language(&language.grammar()).ok()?;
                parser
                    .parse(&text, None)
                    .map(|t| t.root_node().descendant_count())
            })
            .sum();
        let floor = started.elapsed();
        let floor_cpu = cpu_time() - cpu;
        let started = Instant::now();
        let cpu = cpu_time();
        let index = ProjectIndex::build(&root);
        let built = started.elapsed();
        index.scan_all();
        let cold = started.elapsed();
        let cold_cpu = cpu_time() - cpu;
        println!(
            "round {round}: parse floor {:.0} ms ({parsed} nodes); cold index {:.0} ms (build {:.0} ms) = {:.2}x floor; CPU floor {:.0} ms, cold {:.0} ms = {:.2}x",
            floor.as_secs_f64() * 1e3,
            cold.as_secs_f64() * 1e3,
            built.as_secs_f64() * 1e3,
            cold.as_secs_f64() / floor.as_secs_f64(),
            floor_cpu.as_secs_f64() * 1e3,
            cold_cpu.as_secs_f64() * 1e3,
            cold_cpu.as_secs_f64() / floor_cpu.as_secs_f64()
        );
        if round + 1 < rounds {
            continue;
        }
        for symbol in &symbols {
            let first = Instant::now();
            let found = index.tags().find_references(index.root(), symbol, None);
            let first = first.elapsed();
            let times: Vec<Duration> = (0..50)
                .map(|_| {
                    let t = Instant::now();
                    let _ = index.tags().find_references(index.root(), symbol, None);
                    t.elapsed()
                })
                .collect();
            // a query after another file's new text (a sender's unsaved
            // buffer, a save; that file scanned first): one that does not
            // spell the name keeps the answer; one of the uses' files makes
            // the query resolve again (the other files' imports kept)
            let last = symbol.rsplit('.').next().unwrap_or(symbol);
            let elsewhere = first_path(&index, |p| {
                std::fs::read_to_string(root.join(p)).is_ok_and(|t| !t.contains(last))
            });
            let of_uses = found.as_ref().ok().and_then(|r| {
                let defined: Vec<&str> = r
                    .definitions
                    .iter()
                    .map(|d| d.location.path.as_str())
                    .collect();
                first_path(&index, |p| {
                    !defined.contains(&p) && r.certain.iter().any(|l| l.path == p)
                })
            });
            let after = |edited: Option<String>| -> Option<Duration> {
                let edited = laid_over(&root, &edited?)?;
                let times = (0..20)
                    .map(|_| {
                        let view = index.overlaid(&edited);
                        view.tags().scan_all();
                        let t = Instant::now();
                        let _ = view.tags().find_references(view.root(), symbol, None);
                        t.elapsed()
                    })
                    .collect();
                Some(median(times))
            };
            let ms = |d: Option<Duration>| match d {
                Some(d) => format!("{:.3} ms", d.as_secs_f64() * 1e3),
                None => "-".to_string(),
            };
            let (kept, resolved) = (after(elsewhere), after(of_uses));
            match found {
                Ok(r) => println!(
                    "find_references {symbol}: {} certain, {} possible; first {:.2} ms, warm median {:.3} ms; after an edit of a file that does not spell it, median {}; of a file of its uses (resolved again), median {}",
                    r.certain.len(),
                    r.possible.len(),
                    first.as_secs_f64() * 1e3,
                    median(times).as_secs_f64() * 1e3,
                    ms(kept),
                    ms(resolved)
                ),
                Err(e) => println!("find_references {symbol}: {e}"),
            }
        }
    }
}

/// The first brace file of the index (by path) that `fits`.
fn first_path(index: &ProjectIndex, fits: impl Fn(&str) -> bool) -> Option<String> {
    let mut paths: Vec<&str> = index.tags().paths().collect();
    paths.sort_unstable();
    paths.into_iter().find(|p| fits(p)).map(str::to_string)
}

/// A file with its own text, as a sender's buffer: laid over the index,
/// it makes a new state of the index in which that file alone has a new
/// text.
fn laid_over(root: &std::path::Path, path: &str) -> Option<Vec<(String, ropey::Rope)>> {
    let text = std::fs::read_to_string(root.join(path)).ok()?;
    Some(vec![(path.to_string(), ropey::Rope::from_str(&text))])
}

/// A new process's first `find_references`: the index built, then one
/// query (the files it reads scanned on the way).
fn first_query() {
    let mut args = std::env::args().skip(2);
    let usage = "usage: tags_bench --first <root> <symbol>";
    let root = std::path::PathBuf::from(args.next().expect(usage));
    let symbol = args.next().expect(usage);
    let started = Instant::now();
    let index = stated_index(&root);
    let built = started.elapsed();
    let found = index.tags().find_references(index.root(), &symbol, None);
    let total = started.elapsed();
    let scanned = index.tags().len() - index.tags().unscanned();
    let restored = index.tags().restored();
    match found {
        Ok(r) => println!(
            "first find_references {symbol}: {} certain, {} possible; {:.0} ms (build {:.0} ms, {scanned} files scanned, of which {restored} read from the store)",
            r.certain.len(),
            r.possible.len(),
            total.as_secs_f64() * 1e3,
            built.as_secs_f64() * 1e3,
        ),
        Err(e) => println!("first find_references {symbol}: {e}"),
    }
}

/// Scans every file of `<root>` and stores the scans for later processes.
fn store() {
    let root = std::env::args()
        .nth(2)
        .expect("usage: tags_bench --store <root>");
    let root = std::path::PathBuf::from(root);
    let index = stated_index(&root);
    index.scan_all();
    let started = Instant::now();
    let stored = index.store_scans();
    println!(
        "stored {stored:?} scans in {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    // read back by a new index: every scan as the text makes it
    let again = stated_index(&root);
    again.scan_all();
    let shown = |index: &ProjectIndex, path: &str| {
        format!("{:?}", index.tags().entry(path).map(|e| e.file()))
    };
    let paths: Vec<&str> = index.tags().paths().collect();
    let equal = paths
        .iter()
        .filter(|p| shown(&index, p) == shown(&again, p))
        .count();
    println!(
        "read back: {} of {} scans from the store, {equal} of {} equal to the text's",
        again.tags().restored(),
        paths.len(),
        paths.len()
    );
}

/// The index of the workspace at `root`, whose state directory is
/// `TAGS_BENCH_STATE` when set (where its scans are stored).
fn stated_index(root: &std::path::Path) -> ProjectIndex {
    let Some(state) = std::env::var_os("TAGS_BENCH_STATE") else {
        return ProjectIndex::build(root);
    };
    let workspace = eddi::workspace::Workspace::new(root, disk::MAX_FILE_BYTES)
        .and_then(|w| w.with_state_dir(std::path::Path::new(&state)))
        .expect("the root is a directory and the state directory can be made");
    ProjectIndex::build_in(&workspace)
}
