//! The `_headers` / `_redirects` section merge, with arbitrary existing files.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    wellgen::fuzzing::headers_merge(data);
});
