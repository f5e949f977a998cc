fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    for _ in 0..4 {
        let t = std::time::Instant::now();
        let idx = eddi::analysis::index::ProjectIndex::build(&root);
        eprintln!("build {:?} {}", t.elapsed(), idx.paths().len());
    }
}
