//! The instructions the cold index costs next to its floor, for a count
//! that does not drift with the machine's speed (`docs/BENCHMARKS-index.md`):
//!
//! ```text
//! valgrind --tool=callgrind ./target/release/examples/index_work floor <root>
//! valgrind --tool=callgrind ./target/release/examples/index_work build <root>
//! ```
//!
//! `floor` does what `index_bench`'s floor does (walk, read, parse and count
//! the lines of every Python file, trees dropped at once); `build` is `ProjectIndex::build`
//! then `scan_all`. The ratio of the two totals ("Collected") is the work
//! the index adds, without the cache misses that wall time also counts.

use std::path::PathBuf;

use eddi::analysis::index::ProjectIndex;

#[path = "common/floor.rs"]
mod floor;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(mode), Some(root)) = (args.next(), args.next().map(PathBuf::from)) else {
        eprintln!("usage: index_work <floor|build> <root>");
        std::process::exit(2);
    };
    match mode.as_str() {
        "floor" => {
            let (lines, _, nodes) = floor::parse_all(&root);
            println!("floor: {lines} lines, {nodes} syntax nodes");
        }
        "build" => {
            let index = ProjectIndex::build(&root);
            index.scan_all();
            println!("build: {} files indexed", index.len());
        }
        other => {
            eprintln!("unknown mode {other:?}: floor or build");
            std::process::exit(2);
        }
    }
}
