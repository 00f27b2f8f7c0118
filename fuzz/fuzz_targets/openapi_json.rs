//! The OpenAPI importer on JSON text, through lowering and every back end.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && text.trim_start().starts_with('{')
    {
        wellgen::fuzzing::openapi(text);
    }
});
