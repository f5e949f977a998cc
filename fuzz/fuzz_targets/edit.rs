//! `cargo fuzz run edit`: see `eddi_fuzz::checks::edit` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eddi_fuzz::checks::edit::check(data));
