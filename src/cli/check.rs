//! `wellgen check`: every check, nothing written; diagnostics in the format asked for.

use super::compile::{Compiled, compile_as, notes_line, summary, unused_import_flags};
use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, Input};
use crate::diag::report::Format;

pub(super) fn check(input: &Input, strict: bool, format: Format, quiet: bool) -> u8 {
    if let Some(error) = unused_import_flags(input) {
        eprintln!("{error}");
        return EXIT_USAGE;
    }
    match compile_as(input, quiet, format) {
        Compiled::Ok(artifacts, diags) => {
            let failed = strict && diags.warning_count() > 0;
            // A JSON or SARIF document already holds the counts; stderr stays for failures.
            if (!quiet || failed) && !format.is_document() {
                let docs = artifacts.iter().filter(|a| a.serving.is_some()).count();
                eprintln!(
                    "{}: {} ({docs} documents)",
                    crate::diag::shown::path(&input.source),
                    summary(&diags, 0)
                );
                if !quiet && let Some(line) = notes_line(&diags, input.notes, "check") {
                    eprintln!("{line}");
                }
            }
            if failed { EXIT_INVALID } else { EXIT_OK }
        }
        Compiled::Invalid => EXIT_INVALID,
        Compiled::Unreadable => EXIT_USAGE,
    }
}
