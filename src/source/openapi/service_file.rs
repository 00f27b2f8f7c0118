//! The service.toml that `wellgen import` writes: the imported document, with comments saying
//! where everything came from, what was left out or guessed, and what is left to set.

use std::path::Path;

use super::Imported;
use super::naming::capability_id;
use crate::diag::{Diagnostics, Origin};
use crate::source::toml_out::{self, Notes, WIDTH};
use crate::values::url::HttpsUrl;

/// The most findings listed one by one at the top; the rest are counted.
const REVIEW_MAX: usize = 20;
/// The most renamed ids named in the one finding that lists them.
const RENAMED_SHOWN: usize = 5;

/// The service.toml text of an import, with comments saying where everything came from.
pub fn render(imported: &Imported, openapi: &Path, out: &Path) -> String {
    render_with(imported, openapi, out, &Diagnostics::default(), None)
}

/// As [`render`], for `wellgen import`: `[service] site_url` is written (`site_url`, from
/// `--site-url`, else the base URL's origin, which every link between the documents then
/// assumes: a finding to review), and the import's warnings (`reported`) are listed at the top
/// for review: they say what the import left out or guessed, and the file should say it after
/// the terminal has scrolled away.
pub fn render_reviewed(
    imported: &mut Imported,
    openapi: &Path,
    out: &Path,
    reported: &Diagnostics,
    site_url: Option<&str>,
) -> String {
    let site = &mut imported.doc.service.site_url;
    let defaulted = match (site_url, &imported.doc.service.base_url) {
        (Some(url), _) => {
            *site = Some(url.to_string());
            None
        }
        (None, Some(base)) if site.is_none() => {
            let origin = HttpsUrl::parse_base(base).ok().map(|b| b.origin());
            *site = origin.as_ref().map(|o| o.as_str().to_string());
            origin.map(|o| {
                format!(
                    "`site_url = \"{o}\"` is the base URL's origin: the documents link to each \
                     other there; set the origin that publishes them (or pass --site-url)"
                )
            })
        }
        _ => None,
    };
    render_with(imported, openapi, out, reported, defaulted)
}

/// `site_review`: the finding about a defaulted `site_url`.
fn render_with(
    imported: &Imported,
    openapi: &Path,
    out: &Path,
    reported: &Diagnostics,
    site_review: Option<String>,
) -> String {
    let relative = relative_to(openapi, out.parent().unwrap_or(Path::new("")));
    // Places in the entry document are written relative to the service.toml, like `openapi`.
    let entry = format!("{}#", openapi.display());
    let place = |text: &str| text.replace(&entry, &format!("{relative}#"));
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
    let review = review(imported, reported, site_review, &place);
    if !review.is_empty() {
        header.push(String::new());
        header.push(format!(
            "To review: what the import left out or guessed ({} finding{}):",
            review.len(),
            if review.len() == 1 { "" } else { "s" }
        ));
        let shown = review.len().min(REVIEW_MAX);
        header.extend(review.iter().take(shown).map(|r| format!("- {r}")));
        if review.len() > shown {
            header.push(format!(
                "- … and {} more, printed as warnings by `wellgen import`",
                review.len() - shown
            ));
        }
    }
    let notes = Notes {
        header,
        capabilities: imported
            .doc
            .capabilities
            .iter()
            .zip(&imported.origins)
            .enumerate()
            .map(|(i, (c, origin))| {
                let (method, path) = source_operation(origin).unwrap_or_else(|| {
                    (
                        c.method.clone().unwrap_or_else(|| "GET".into()),
                        c.path.clone().unwrap_or_default(),
                    )
                });
                let mut parts = vec![format!("{method} {path}")];
                if let Some(Some(op_id)) = imported.operation_ids.get(i) {
                    parts.push(format!("(operationId {op_id})"));
                }
                parts.push(format!("— {}", place(origin)));
                // As many parts a line as fit after `# `; a part alone may be longer.
                let mut lines: Vec<String> = Vec::new();
                for part in parts {
                    match lines.last_mut() {
                        Some(line)
                            if line.chars().count() + 1 + part.chars().count() + 2 <= WIDTH =>
                        {
                            line.push(' ');
                            line.push_str(&part);
                        }
                        Some(_) => lines.push(format!("  {part}")),
                        None => lines.push(part),
                    }
                }
                lines
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

/// What a person should check in the written file, one line each: the values the import
/// derived, every warning it reported (the same finding at several places once, counted), and
/// the capability ids that differ from their operation's name.
fn review(
    imported: &Imported,
    reported: &Diagnostics,
    site_review: Option<String>,
    place: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(url) = &imported.doc.service.base_url {
        out.push(format!(
            "`base_url = \"{url}\"` is derived from the document's {}: check that agents should call it",
            if imported.version == super::Version::Swagger2 {
                "host, basePath and schemes"
            } else {
                "servers"
            }
        ));
    }
    out.extend(site_review);
    // (finding, places) in the order first reported.
    let mut findings: Vec<(String, Vec<String>)> = Vec::new();
    let deferred = imported.deferred.iter().map(|(key, d)| {
        let why = place(&d.message);
        if d.is_error() {
            format!("set `{key}`: {why}")
        } else {
            why
        }
    });
    let warnings = reported
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| match d.origin.as_deref() {
            Some(Origin::Document(at)) => place(&format!("{at}: {}", d.message)),
            _ => place(&d.message),
        });
    for message in warnings.chain(deferred) {
        // `file#/pointer: what`: the same `what` at several places is one finding.
        let (at, what) = match message.split_once(": ") {
            Some((at, what)) if at.contains('#') && !at.contains(' ') => {
                (Some(at.to_string()), what.to_string())
            }
            _ => (None, message.clone()),
        };
        match findings.iter_mut().find(|(w, _)| *w == what) {
            Some((_, places)) => places.extend(at),
            None => findings.push((what, at.into_iter().collect())),
        }
    }
    for (what, places) in findings {
        out.push(match places.as_slice() {
            [] => what,
            [one] => format!("{one}: {what}"),
            [first, ..] => format!("{what} ({} places, first {first})", places.len()),
        });
    }
    let renamed: Vec<String> = imported
        .doc
        .capabilities
        .iter()
        .zip(&imported.origins)
        .zip(&imported.operation_ids)
        .filter_map(|((c, origin), op_id)| {
            let id = c.id.as_deref()?;
            let name = match op_id {
                Some(op_id) => op_id.clone(),
                None => {
                    let (method, path) = source_operation(origin)?;
                    format!("{} {path}", method.to_ascii_lowercase())
                }
            };
            (capability_id(&name) != id).then(|| format!("`{id}` ({name})"))
        })
        .collect();
    if !renamed.is_empty() {
        let shown: Vec<&str> = renamed
            .iter()
            .take(RENAMED_SHOWN)
            .map(String::as_str)
            .collect();
        out.push(format!(
            "{} capability id{} differ{} from {} operation's name (taken already, or too long): {}{}",
            renamed.len(),
            if renamed.len() == 1 { "" } else { "s" },
            if renamed.len() == 1 { "s" } else { "" },
            if renamed.len() == 1 { "its" } else { "their" },
            shown.join(", "),
            if renamed.len() > shown.len() {
                format!(" and {} more", renamed.len() - shown.len())
            } else {
                String::new()
            }
        ));
    }
    out
}

/// The method and path of the operation at `origin` (`openapi.yaml#/paths/~1pets/get`), as the
/// document writes them; `None` for an operation reached through a `$ref` to another place.
fn source_operation(origin: &str) -> Option<(String, String)> {
    let (_, pointer) = origin.split_once("#/paths/")?;
    let (path, method) = pointer.rsplit_once('/')?;
    if path.contains('/') {
        return None;
    }
    Some((
        method.to_ascii_uppercase(),
        path.replace("~1", "/").replace("~0", "~"),
    ))
}

fn relative_to(path: &Path, dir: &Path) -> String {
    let p = path
        .strip_prefix(dir)
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf);
    p.display().to_string().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_names_the_operation_as_the_document_writes_it() {
        assert_eq!(
            source_operation("api/openapi.yaml#/paths/~1pets~1{petId}~1a~0b/get"),
            Some(("GET".into(), "/pets/{petId}/a~b".into()))
        );
        assert_eq!(source_operation("paths.yaml#/pets/get"), None);
    }
}
