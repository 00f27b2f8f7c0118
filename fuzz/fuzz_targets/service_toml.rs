//! The service.toml front end and everything after it: any text must give diagnostics or
//! artifacts, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        wellgen::fuzzing::service_toml(text);
    }
});
