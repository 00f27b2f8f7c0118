//! `wellgen check`: every check, nothing written.

use super::compile::{Compiled, compile, summary};
use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, Input};

pub(super) fn check(input: &Input, strict: bool, quiet: bool) -> u8 {
    match compile(input, quiet, strict) {
        Compiled::Ok(artifacts, diags) => {
            let failed = strict && diags.warning_count() > 0;
            if !quiet || failed {
                let docs = artifacts.iter().filter(|a| a.serving.is_some()).count();
                eprintln!(
                    "{}: {} ({docs} documents)",
                    input.source.display(),
                    summary(&diags)
                );
            }
            if failed { EXIT_INVALID } else { EXIT_OK }
        }
        Compiled::Invalid => EXIT_INVALID,
        Compiled::Unreadable => EXIT_USAGE,
    }
}
