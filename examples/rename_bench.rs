//! The warm path of `Refactor RenameSymbol` on a real codebase: the index
//! is built once, then each rename is computed (lookup, hierarchy, sites,
//! every changed file read once, conflicts, mentions) and checked
//! (`check::no_new_errors`: every changed file reparsed before and after)
//! several times; prints the median and the figures (files, references,
//! left alone, mentions).
//!
//! Usage: `cargo run --release --example rename_bench -- <root> [symbol new]…`
//! (the Django sources `scripts/bench-index` downloads, for instance).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eddi::analysis::index::ProjectIndex;
use eddi::refactor::{
    check, compute, Project, Refactoring, RenameKind, SitePolicy, Summary, WorkspaceSources,
};
use eddi::workspace::Workspace;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// On-CPU time of the calling thread (`/proc/thread-self/schedstat`):
/// unlike wall time it excludes waiting for a core on a loaded machine.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        s.split_whitespace().next()?.parse().ok()?,
    ))
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(root) = args.next().map(PathBuf::from) else {
        eprintln!("usage: rename_bench <root> [symbol new]…");
        std::process::exit(2);
    };
    let rest: Vec<String> = args.collect();
    let pairs: Vec<(String, String)> = if rest.is_empty() {
        vec![
            ("django.urls.reverse".into(), "reverse_url".into()),
            (
                "django.http.response.HttpResponseBase.set_cookie".into(),
                "put_cookie".into(),
            ),
        ]
    } else {
        rest.chunks(2)
            .map(|c| {
                (
                    c[0].clone(),
                    c.get(1).cloned().unwrap_or_else(|| "renamed".into()),
                )
            })
            .collect()
    };
    let workspace = Workspace::new(&root, 8 << 20).expect("a directory");
    let t = Instant::now();
    let index = ProjectIndex::build_in(&workspace);
    index.scan_all(); // warm: the whole index
    println!(
        "root: {}  files: {}  cold index: {:.0} ms",
        root.display(),
        index.len(),
        ms(t.elapsed())
    );
    let sources = WorkspaceSources {
        workspace: &workspace,
    };
    // A new project for each computation, as the engine makes them: the
    // files it read and parsed are not kept from one rename to the next.
    let project = || Project::new(&index, &sources, None);
    if std::env::var("RENAME_BENCH_PARTS").is_ok() {
        let t = Instant::now();
        let defs = index.rename_symbol("django.urls.reverse", None).unwrap();
        println!("lookup {:.1} ms", ms(t.elapsed()));
        let t = Instant::now();
        let sites = index.rename_sites(&defs, "reverse", false);
        println!("sites {:.1} ms ({})", ms(t.elapsed()), sites.certain.len());
        let t = Instant::now();
        let mut paths: Vec<&str> = sites.certain.iter().map(|l| l.path.as_str()).collect();
        paths.dedup();
        for p in &paths {
            let _ = eddi::refactor::Sources::source(&sources, p)
                .unwrap()
                .text
                .to_string();
        }
        println!("read {} files {:.1} ms", paths.len(), ms(t.elapsed()));
    }
    for (symbol, new) in pairs {
        let request = Refactoring::Rename {
            kind: RenameKind::Symbol,
            symbol: symbol.clone(),
            new_name: new.clone(),
            include_text: false,
            sites: SitePolicy::OnlyProven,
        };
        let mut computes = Vec::new();
        let mut checks = Vec::new();
        let mut last = None;
        let runs = 21;
        let cpu_before = thread_cpu();
        for _ in 0..runs {
            let t = Instant::now();
            let done = compute(&project(), &request);
            computes.push(t.elapsed());
            last = Some(done);
        }
        let cpu = cpu_before
            .zip(thread_cpu())
            .map(|(a, b)| ms(b - a) / runs as f64);
        for _ in 0..3 {
            let project = project();
            let done = compute(&project, &request);
            let t = Instant::now();
            if let Ok(done) = &done {
                if let Err(e) = check::no_new_errors(&project, done) {
                    println!("  check failed: {e}");
                }
            }
            checks.push(t.elapsed());
            last = Some(done);
        }
        match last {
            Some(Ok(done)) => {
                // RENAME_BENCH_OUT=<dir>: the changed files' new texts, to inspect
                if let Ok(out) = std::env::var("RENAME_BENCH_OUT") {
                    for (path, file) in done.change.files() {
                        if let eddi::change::FileOp::Edit(edits) = &file.op {
                            let text = ropey::Rope::from_str(
                                &std::fs::read_to_string(root.join(path.as_str())).unwrap(),
                            );
                            let target = PathBuf::from(&out).join(path.as_str());
                            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                            std::fs::write(target, edits.apply(&text).unwrap().to_string())
                                .unwrap();
                        }
                    }
                }
                let Summary::Renamed {
                    files, references, ..
                } = done.summary
                else {
                    unreachable!()
                };
                println!(
                    "{symbol} → {new}: {files} files, {references} references, {} left alone, {} mentions; compute: median {:.1} ms wall, {:.1} ms on-CPU per run (of {runs}); check::no_new_errors median {:.1} ms",
                    done.left_alone.len(),
                    done.mentions.len(),
                    ms(median(computes)),
                    cpu.unwrap_or(f64::NAN),
                    ms(median(checks)),
                );
            }
            Some(Err(e)) => println!("{symbol} → {new}: refused: {e}"),
            None => {}
        }
    }
}
