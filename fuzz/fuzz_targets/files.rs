#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| nimbus_fuzz::files(data));
