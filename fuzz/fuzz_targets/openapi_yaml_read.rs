//! The OpenAPI importer's YAML reader alone (libyaml's events into values), checked against
//! serde_norway.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        wellgen::fuzzing::openapi_yaml_read(text);
    }
});
