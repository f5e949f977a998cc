//! `cargo fuzz run change`: see `eddi_fuzz::checks::change` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eddi_fuzz::checks::change::check(data));
