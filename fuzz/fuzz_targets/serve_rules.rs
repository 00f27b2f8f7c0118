//! `wellgen serve`'s `_headers` and `_redirects` parsers and its request matching.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    wellgen::fuzzing::serve_rules(data);
});
