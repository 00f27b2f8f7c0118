//! `wellgen build`: compile, then write the output folder.

use std::path::Path;

use super::compile::{Compiled, compile, summary};
use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, Input};
use crate::write;

pub(super) fn build(input: &Input, out: &Path, quiet: bool) -> u8 {
    let (artifacts, diags) = match compile(input, quiet, false) {
        Compiled::Ok(a, d) => (a, d),
        Compiled::Invalid => {
            eprintln!("error: build failed; {} left unchanged", out.display());
            return EXIT_INVALID;
        }
        Compiled::Unreadable => return EXIT_USAGE,
    };
    let source_dir = input.source.parent().map(|p| {
        if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        }
    });
    match write::write(out, &artifacts, source_dir) {
        Ok(report) => {
            match report.recovered {
                Some(write::Recovered::Finished) => eprintln!(
                    "note: finished the renames of a build interrupted earlier in {}",
                    out.display()
                ),
                Some(write::Recovered::Undone) => eprintln!(
                    "note: removed the staged files of a build interrupted earlier in {}",
                    out.display()
                ),
                None => {}
            }
            for why in &report.kept {
                if !quiet {
                    eprintln!("warning: {why}");
                }
            }
            if !quiet {
                let mut line = format!(
                    "built {} files into {} ({} written, {} unchanged",
                    artifacts.len(),
                    out.display(),
                    report.written,
                    report.unchanged
                );
                if !report.removed.is_empty() {
                    line.push_str(&format!(", {} stale removed", report.removed.len()));
                }
                line.push_str(&format!("; {})", summary(&diags)));
                eprintln!("{line}");
            }
            EXIT_OK
        }
        Err(e) => {
            eprintln!("error: {}", e.message);
            if let Some(h) = e.help {
                eprintln!("  = help: {h}");
            }
            if e.pending {
                eprintln!(
                    "error: build interrupted; {} is completed by the next build",
                    out.display()
                );
            } else {
                eprintln!("error: build failed; {} left unchanged", out.display());
            }
            EXIT_USAGE
        }
    }
}
