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
use eddi::refactor::{check, compute, Project, Refactoring, RenameKind, Summary, WorkspaceSources};
use eddi::workspace::Workspace;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
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
            ("django.http.response.HttpResponseBase.set_cookie".into(), "put_cookie".into()),
        ]
    } else {
        rest.chunks(2)
            .map(|c| (c[0].clone(), c.get(1).cloned().unwrap_or_else(|| "renamed".into())))
            .collect()
    };
    let workspace = Workspace::new(&root, 8 << 20).expect("a directory");
    let t = Instant::now();
    let index = ProjectIndex::build_in(&workspace);
    println!("root: {}  files: {}  cold index: {:.0} ms", root.display(), index.len(), ms(t.elapsed()));
    let sources = WorkspaceSources {
        workspace: &workspace,
    };
    let project = Project {
        index: &index,
        sources: &sources,
        current: None,
    };
    for (symbol, new) in pairs {
        let request = Refactoring::Rename {
            kind: RenameKind::Symbol,
            symbol: symbol.clone(),
            new_name: new.clone(),
            include_text: false,
        };
        let mut computes = Vec::new();
        let mut checks = Vec::new();
        let mut last = None;
        for _ in 0..7 {
            let t = Instant::now();
            let done = compute(&project, &request);
            computes.push(t.elapsed());
            let t = Instant::now();
            if let Ok(done) = &done {
                if let Err(e) = check::no_new_errors(&sources, &done.change) {
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
                            std::fs::write(target, edits.apply(&text).unwrap().to_string()).unwrap();
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
                    "{symbol} → {new}: {files} files, {references} references, {} left alone, {} mentions; compute median {:.1} ms, check median {:.1} ms",
                    done.left_alone.len(),
                    done.mentions.len(),
                    ms(median(computes)),
                    ms(median(checks)),
                );
            }
            Some(Err(e)) => println!("{symbol} → {new}: refused: {e}"),
            None => {}
        }
    }
}
