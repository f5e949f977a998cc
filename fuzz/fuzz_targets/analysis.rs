//! `cargo fuzz run analysis`: see `eddi_fuzz::checks::analysis` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eddi_fuzz::checks::analysis::check(data));
