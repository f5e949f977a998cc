//! `cargo fuzz run tools`: see `eddi_fuzz::checks::tools` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| eddi_fuzz::checks::tools::check(data));
