//! `cargo fuzz run parser`: see `eddi_fuzz::checks::parser` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eddi_fuzz::checks::parser::check(data));
