//! `cargo fuzz run wire`: see `eddi_fuzz::checks::wire` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eddi_fuzz::checks::wire::check(data));
