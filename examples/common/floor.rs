//! The raw parse floor the index is measured against, shared by
//! `index_bench` (timed) and `index_work` (counted by callgrind): walk,
//! read and parse every Python file under a root in parallel, nothing
//! else (each tree dropped at once).

use std::path::Path;

use eddi::analysis::index::disk;
use rayon::prelude::*;

/// Lines, bytes and syntax nodes of every Python file under `root`.
pub fn parse_all(root: &Path) -> (usize, usize, usize) {
    // Python's modules (the index reads other languages' files too)
    disk::indexed_files(root)
        .par_iter()
        .filter(|rel| rel.ends_with(".py"))
        .map(|rel| {
            let Ok(src) = std::fs::read_to_string(root.join(rel)) else {
                return (0, 0, 0);
            };
            let n = disk::parse(&src)
                .map(|t| t.root_node().descendant_count())
                .unwrap_or(0);
            (src.lines().count(), src.len(), n)
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
}
