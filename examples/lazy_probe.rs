use std::time::Instant;
fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let sym = std::env::args().nth(2).unwrap();
    let t = Instant::now();
    let ws = eddi::workspace::Workspace::new(&root, 16 << 20).unwrap();
    let w = ws.watch().unwrap();
    eprintln!("watch {:?}", t.elapsed());
    let t = Instant::now();
    let idx = eddi::analysis::index::ProjectIndex::build_in(&ws);
    eprintln!("build {:?} files {} unscanned {}", t.elapsed(), idx.len(), idx.unscanned());
    let t = Instant::now();
    let r = idx.find_references(&sym).map(|r| (r.certain.len(), r.possible.len()));
    eprintln!("refs {:?} {:?} unscanned {}", r, t.elapsed(), idx.unscanned());
    drop(w);
}
