//! `wellgen import`: an OpenAPI document in, an editable, commented service.toml out.

use std::io::Write as _;
use std::path::Path;

use super::compile::notes_line;
use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::diag::report::{self, Format, Shown};
use crate::diag::{Diagnostic, Diagnostics, SourceText};
use crate::source::openapi::{Options, import_text, service_file};
use crate::source::{self, TomlLocator, parse_service_toml};
use crate::watchdog;

/// What the timed part of an import produced: everything but the write.
struct Converted {
    text: String,
    diags: Diagnostics,
    /// What only the written file can fix.
    later: Diagnostics,
    /// `None` when the import failed.
    written: Option<Written>,
}

struct Written {
    rendered: String,
    checks: Diagnostics,
    builds: bool,
    capabilities: usize,
    version: &'static str,
}

pub(super) fn import(
    openapi: &Path,
    out: &Path,
    options: &Options,
    site_url: Option<&str>,
    time_limit: u64,
    shown: Shown,
) -> u8 {
    let quiet = shown.errors_only;
    if out.exists() {
        eprintln!(
            "error: {} already exists; refusing to overwrite it (choose another with -o)",
            out.display()
        );
        return EXIT_USAGE;
    }
    let (path, target, opts) = (openapi.to_path_buf(), out.to_path_buf(), options.clone());
    let site = site_url.map(str::to_string);
    let Some(converted) = watchdog::within(time_limit, move || {
        convert(&path, &target, &opts, site.as_deref())
    }) else {
        eprintln!(
            "{}",
            watchdog::gave_up(time_limit, &format!("importing {}", openapi.display()))
        );
        return EXIT_USAGE;
    };
    let converted = match converted {
        Ok(c) => c,
        Err(d) => {
            let mut one = Diagnostics::default();
            one.push(d);
            print(openapi, "", &one, None, shown);
            return EXIT_USAGE;
        }
    };
    print(openapi, &converted.text, &converted.diags, None, shown);
    let Some(written) = converted.written else {
        eprintln!("error: import failed; nothing written");
        return EXIT_INVALID;
    };
    print(openapi, &converted.text, &converted.later, None, shown);
    if let Err(e) = write_new(out, written.rendered.as_bytes()) {
        eprintln!(
            "error: cannot write {}: {}",
            out.display(),
            crate::diag::io_reason(&e)
        );
        return EXIT_USAGE;
    }
    let locator = TomlLocator::new(&written.rendered);
    print(
        out,
        &written.rendered,
        &written.checks,
        Some(&locator),
        shown,
    );
    let mut all = Diagnostics::default();
    all.extend(converted.diags.iter().chain(written.checks.iter()).cloned());
    let notes = notes_line(&all, shown.notes, "import").filter(|_| !quiet);
    if written.builds {
        if !quiet {
            eprintln!(
                "wrote {} ({} capabilities from {}); next: edit it, then `wellgen build {}`",
                out.display(),
                written.capabilities,
                written.version,
                out.display()
            );
        }
        if let Some(line) = notes {
            eprintln!("{line}");
        }
        EXIT_OK
    } else {
        eprintln!(
            "wrote {} ({} capabilities), but it does not build yet: {}",
            out.display(),
            written.capabilities,
            if written.checks.has_errors() {
                "fix the errors above"
            } else {
                "set what its `set this` comments ask for"
            }
        );
        if let Some(line) = notes {
            eprintln!("{line}");
        }
        EXIT_INVALID
    }
}

/// Reads and imports `openapi`, renders the service.toml for `out` and checks it the way
/// `wellgen build` will. `site_url`: `--site-url`. An unreadable document is the `Err`.
fn convert(
    openapi: &Path,
    out: &Path,
    options: &Options,
    site_url: Option<&str>,
) -> Result<Converted, Diagnostic> {
    let text = source::read_limited(openapi, options.max_input_size)?;
    let mut diags = Diagnostics::default();
    let imported = import_text(Some(openapi), &text, options, &mut diags);
    let mut later = Diagnostics::default();
    let Some(mut imported) = imported else {
        return Ok(Converted {
            text,
            diags,
            later,
            written: None,
        });
    };
    // What only the written file can fix: say so now, the file shows where.
    for (key, d) in &imported.deferred {
        let mut d = d.clone().help(format!("set `{key}` in {}", out.display()));
        d.severity = crate::diag::Severity::Warning;
        later.push(d);
    }
    let rendered = service_file::render_reviewed(&mut imported, openapi, out, &diags, site_url);
    let mut checks = Diagnostics::default();
    // A deferred error is one the model cannot see (e.g. protected operations without
    // `[auth]` fail only in the back ends): the file does not build until it is set.
    let unset = imported.deferred.iter().any(|(_, d)| d.is_error());
    let builds = match parse_service_toml(&rendered) {
        Ok(raw) => crate::model::lower(raw, &mut checks).is_some() && !unset,
        Err(d) => {
            checks.push(d);
            false
        }
    };
    Ok(Converted {
        text,
        diags,
        later,
        written: Some(Written {
            rendered,
            checks,
            builds,
            capabilities: imported.doc.capabilities.len(),
            version: imported.version.as_str(),
        }),
    })
}

/// Writes a file that must not exist yet, whole or not at all: staged beside it, then linked
/// into place without replacing anything (a file made meanwhile is an error, not overwritten).
fn write_new(out: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut staged = tempfile::Builder::new()
        .prefix(".wellgen-import-")
        .tempfile_in(dir)?;
    staged.write_all(bytes)?;
    staged.as_file().sync_all()?;
    staged.persist_noclobber(out).map_err(|e| e.error)?;
    Ok(())
}

/// Prints diagnostics as `check` does: errors in full, warnings and notes grouped by kind
/// unless `--verbose`, notes only with `--notes`.
fn print(
    path: &Path,
    text: &str,
    diags: &Diagnostics,
    locator: Option<&TomlLocator>,
    shown: Shown,
) {
    let src = SourceText {
        path,
        text,
        locator: locator.map(|l| l as _),
    };
    report::print(Format::Human, &src, diags, shown);
}
