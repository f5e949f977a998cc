//! The fuzz targets' checks as ordinary tests: every saved input of
//! `fuzz/corpus/<target>/` (the seeds, and the inputs of past findings)
//! through the same check functions the fuzz targets run, plus a fixed
//! number of deterministic mutations of each. This is the cheap smoke that
//! CI runs; real coverage-guided fuzzing is `scripts/fuzz` (see
//! `docs/RELIABILITY.md`). A finding's input moves to the corpus with its
//! fix, and gets a named test in `tests/fuzz/fuzz_regressions.rs`.

#[path = "../../fuzz/src/checks/mod.rs"]
#[allow(dead_code)]
mod checks;

use std::path::{Path, PathBuf};

/// Mutations per saved input: enough to shake the checks, cheap enough to
/// keep the whole file at a few seconds.
const MUTATIONS: usize = 16;

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.flatten().map(|e| e.path()).collect(),
        Err(_) => Vec::new(),
    };
    files.retain(|p| p.is_file());
    files.sort();
    files
}

/// xorshift: the same mutations on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A few byte flips, insertions, deletions and splices of `data`.
fn mutate(data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = data.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(4) {
            0 if at < out.len() => out[at] ^= 1 << rng.below(8),
            1 => out.insert(at, rng.next() as u8),
            2 if at < out.len() => {
                let end = (at + 1 + rng.below(8)).min(out.len());
                out.drain(at..end);
            }
            _ => {
                let from = rng.below(data.len() + 1);
                let end = (from + rng.below(16)).min(data.len());
                out.splice(at..at, data[from..end].iter().copied());
            }
        }
    }
    out
}

fn run(target: &str, dir: &str, mutations: usize) -> usize {
    let (_, check) = checks::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .expect("a known target");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(dir)
        .join(target);
    let files = inputs(&root);
    for file in &files {
        let data = std::fs::read(file).unwrap();
        let replay = std::panic::catch_unwind(|| check(&data));
        assert!(replay.is_ok(), "{target}: {} fails", file.display());
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ data.len() as u64);
        for n in 0..mutations {
            let mutated = mutate(&data, &mut rng);
            let outcome = std::panic::catch_unwind(|| check(&mutated));
            assert!(
                outcome.is_ok(),
                "{target}: mutation {n} of {} fails; input bytes: {mutated:?}",
                file.display()
            );
        }
    }
    files.len()
}

macro_rules! corpus_tests {
    ($($target:ident),*) => {$(
        #[test]
        fn $target() {
            let replayed = run(stringify!($target), "corpus", MUTATIONS);
            assert!(replayed > 0, "no saved inputs for {}", stringify!($target));
        }
    )*};
}

corpus_tests!(parser, wire, edit, commit, change, analysis, refactor, tools);

#[test]
fn every_target_has_a_test() {
    let names: Vec<&str> = checks::TARGETS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        ["parser", "wire", "edit", "commit", "change", "analysis", "refactor", "tools"]
    );
}

/// Finding 6 (`refactor`, docs/RELIABILITY.md): a module importing `f`
/// from itself 22 times made each binding of `f` resolve through `pkg.m.f`
/// again, 22 ways at each of the 24 levels of the depth bound, and
/// `InlineFunction f` never ended. The input, replayed alone: it ends (in
/// well under a second) since a resolution takes at most `MAX_STEPS` steps.
#[test]
fn a_name_a_module_imports_from_itself_many_times_resolves_in_bounded_steps() {
    let (_, check) = checks::TARGETS
        .iter()
        .find(|(name, _)| *name == "refactor")
        .expect("the refactor target");
    let input = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus/refactor/regression-resolve-branches-at-every-level");
    check(&std::fs::read(input).unwrap());
}
