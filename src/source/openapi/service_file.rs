//! The service.toml that `wellgen import` writes: the imported document, with comments saying
//! where everything came from and what is left to set.

use std::path::Path;

use super::Imported;
use crate::source::toml_out::{self, Notes};

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
