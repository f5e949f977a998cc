//! The fuzz targets' checks as ordinary tests: the saved corpus replayed
//! with deterministic mutations, and one named test per finding. This is
//! `scripts/fuzz smoke` (`cargo test --test fuzz`); see `docs/RELIABILITY.md`.

mod fuzz_corpus;
mod fuzz_regressions;
