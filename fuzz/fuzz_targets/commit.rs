//! `cargo fuzz run commit`: see `eddi_fuzz::checks::commit` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eddi_fuzz::checks::commit::check(data));
