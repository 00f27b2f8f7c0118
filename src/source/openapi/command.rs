//! `wellgen import`: an OpenAPI document in, an editable, commented service.toml out.

use std::io::Write as _;
use std::path::Path;

use crate::cli::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::diag::{Diagnostic, Diagnostics, SourceText};
use crate::source::toml_out::{self, Notes};
use crate::source::{self, TomlLocator, parse_service_toml};
use crate::watchdog::Watchdog;

use super::{Imported, Options, import_text};

pub fn import(openapi: &Path, out: &Path, options: &Options, time_limit: u64, quiet: bool) -> u8 {
    if out.exists() {
        eprintln!(
            "error: {} already exists; refusing to overwrite it (choose another with -o)",
            out.display()
        );
        return EXIT_USAGE;
    }
    let watchdog = Watchdog::start(time_limit, format!("importing {}", openapi.display()));
    let text = match source::read_limited(openapi, options.max_input_size) {
        Ok(t) => t,
        Err(d) => {
            let mut one = Diagnostics::default();
            one.push(d);
            print(openapi, "", &one, None, quiet);
            return EXIT_USAGE;
        }
    };
    let mut diags = Diagnostics::default();
    let imported = import_text(Some(openapi), &text, options, &mut diags);
    print(openapi, &text, &diags, None, quiet);
    let Some(imported) = imported else {
        eprintln!("error: import failed; nothing written");
        return EXIT_INVALID;
    };
    // What only the written file can fix: say so now, the file shows where.
    let mut later = Diagnostics::default();
    for (key, d) in &imported.deferred {
        let mut d = d.clone().help(format!("set `{key}` in {}", out.display()));
        d.severity = crate::diag::Severity::Warning;
        later.push(d);
    }
    print(openapi, &text, &later, None, quiet);
    let capabilities = imported.doc.capabilities.len();
    let rendered = render(&imported, openapi, out);
    // Check the written file the way `wellgen build` will, pointing into it.
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
    drop(watchdog);
    let _writing = crate::watchdog::writing();
    if let Err(e) = write_new(out, rendered.as_bytes()) {
        eprintln!(
            "error: cannot write {}: {}",
            out.display(),
            source::io_reason(&e)
        );
        return EXIT_USAGE;
    }
    let locator = TomlLocator::new(&rendered);
    print(out, &rendered, &checks, Some(&locator), quiet);
    if builds {
        if !quiet {
            eprintln!(
                "wrote {} ({capabilities} capabilities from {}); next: edit it, then `wellgen build {}`",
                out.display(),
                imported.version.as_str(),
                out.display()
            );
        }
        EXIT_OK
    } else {
        eprintln!(
            "wrote {} ({capabilities} capabilities), but it does not build yet: {}",
            out.display(),
            if checks.has_errors() {
                "fix the errors above"
            } else {
                "set what its `set this` comments ask for"
            }
        );
        EXIT_INVALID
    }
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

/// The service.toml text of an import, with comments saying where everything came from.
pub fn render(imported: &Imported, openapi: &Path, out: &Path) -> String {
    let relative = relative_to(openapi, out.parent().unwrap_or(Path::new("")));
    let mut header = vec![
        format!(
            "service.toml imported by `wellgen import` from {} ({}).",
            openapi.display(),
            imported.version.as_str()
        ),
        format!(
            "{} capabilities from {} operations{}.",
            imported.doc.capabilities.len(),
            imported.operations,
            if imported.filtered_out > 0 {
                format!(
                    " ({} left out by --include/--exclude)",
                    imported.filtered_out
                )
            } else {
                String::new()
            }
        ),
        "This file is now the source: edit it freely, then run `wellgen build`.".into(),
        "To keep following the OpenAPI document instead, keep here only what you change and add"
            .into(),
        "  [source]".into(),
        format!("  openapi = \"{relative}\""),
        "Reference: docs/service-toml.md and docs/openapi-import.md.".into(),
    ];
    if imported.deferred.iter().any(|(_, d)| d.is_error()) {
        header.push("Before building, set the keys written commented out below.".into());
    }
    let notes = Notes {
        header,
        capabilities: imported
            .doc
            .capabilities
            .iter()
            .zip(&imported.origins)
            .map(|(c, origin)| {
                format!(
                    "{} {}  <- {origin}",
                    c.method.as_deref().unwrap_or("GET"),
                    c.path.as_deref().unwrap_or_default()
                )
            })
            .collect(),
        missing: imported
            .deferred
            .iter()
            .filter(|(_, d)| d.is_error())
            .map(|(key, d)| (key.clone(), d.message.clone()))
            .collect(),
    };
    toml_out::render(&imported.doc, &notes)
}

fn relative_to(path: &Path, dir: &Path) -> String {
    let p = path
        .strip_prefix(dir)
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf);
    p.display().to_string().replace('\\', "/")
}

fn print(path: &Path, text: &str, diags: &Diagnostics, locator: Option<&TomlLocator>, quiet: bool) {
    let src = SourceText {
        path,
        text,
        locator: locator.map(|l| l as _),
    };
    let mut err = std::io::stderr().lock();
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| std::cmp::Reverse(d.severity));
    for d in sorted.into_iter().filter(|d| d.is_error() || !quiet) {
        let _ = writeln!(err, "{}", src.render(d));
    }
}
