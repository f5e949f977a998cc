//! `cargo fuzz run refactor`: see `eddi_fuzz::checks::refactor` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eddi_fuzz::checks::refactor::check(data));
