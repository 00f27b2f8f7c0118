//! Entry points shared by the fuzz targets (`fuzz/`) and the regression tests
//! (`tests/it/regressions.rs`): each runs one front end on arbitrary input through every later
//! stage. They return nothing and must never panic; a panic is the bug they look for.

use std::path::Path;

use crate::diag::report::{self, Format};
use crate::diag::{Diagnostics, Locate, SourceText};
use crate::emit::hosts::headers_file::{Composition, HeadersFile};
use crate::emit::{self, hosts::section};
use crate::pipeline;
use crate::serve::{redirects_file::RedirectsFile, site};
use crate::source::{self, openapi, service_toml::ServiceToml};

/// service.toml text: parse, lower, check, emit every target, and print the diagnostics.
pub fn service_toml(text: &str) {
    let mut diags = Diagnostics::default();
    // Not `read_source`: a fuzzed `[source] openapi = "…"` must not read the fuzzer's disk.
    match source::parse_service_toml(text) {
        Ok(raw) => lower_and_emit(raw, &mut diags),
        Err(d) => diags.push(d),
    }
    let locator = source::TomlLocator::new(text);
    render(text, Some(&locator), &diags);
}

/// An OpenAPI document (JSON or YAML): import, render the service.toml `wellgen import` would
/// write (which must read back), then lower, check, emit every target, and print the diagnostics.
pub fn openapi(text: &str) {
    // The importer's JSON reader sizes objects its own way: it must read what serde_json reads,
    // in the same order, and fail where serde_json fails, with the same error.
    if text.trim_start().starts_with('{') {
        let ours = openapi::load::json(text).map(|v| v.to_string());
        let theirs = serde_json::from_str::<serde_json::Value>(text);
        let is_object = theirs.as_ref().is_ok_and(serde_json::Value::is_object);
        let theirs = theirs.map(|v| v.to_string()).map_err(|e| e.to_string());
        assert_eq!(
            ours.map_err(|e| e.to_string()),
            theirs,
            "the importer's JSON reader and serde_json disagree"
        );
        // A large document is read in two halves, cut near a place aimed at: wherever that
        // is, they read what serde_json reads, and give up on nothing else a valid object.
        for aim in [text.len() / 3, text.len() / 2, text.len() / 5 * 4] {
            match openapi::load::json_in_halves(text, aim) {
                Some(v) => assert_eq!(
                    Ok(v.to_string()),
                    theirs,
                    "the JSON read in halves (cut at {aim}) and serde_json disagree"
                ),
                None => assert!(
                    !is_object,
                    "a valid object not read in halves (cut at {aim})"
                ),
            }
        }
    }
    let mut diags = Diagnostics::default();
    let Some(imported) = openapi::import_text(None, text, &openapi::Options::default(), &mut diags)
    else {
        render(text, None, &diags);
        return;
    };
    let rendered = openapi::service_file::render(
        &imported,
        Path::new("openapi.json"),
        Path::new("service.toml"),
    );
    if let Err(d) = source::parse_service_toml(&rendered) {
        panic!(
            "`wellgen import` wrote a service.toml it cannot read back: {}\n{rendered}",
            d.message
        );
    }
    let raw = openapi::finish(imported, &mut diags);
    lower_and_emit(raw, &mut diags);
    // As `wellgen check openapi.json` prints them: an OpenAPI-only build locates no field.
    render(text, None, &diags);
}

/// YAML text through the importer's YAML reader alone (`load::parse_text`; text starting with
/// `{` is JSON, left to [`openapi`]), many times faster than the whole import: it must not
/// panic, a refusal must point into the text, and what it reads must be what serde_norway (the
/// same libyaml parser, which wellgen read YAML with before) reads, wherever serde_norway reads
/// the text and the two are meant to agree.
pub fn openapi_yaml_read(text: &str) {
    if text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
    {
        return;
    }
    let ours = openapi::load::parse_text(text, "fuzz.yaml");
    let ours = match ours {
        Ok(value) => value,
        Err(d) => {
            let span = d.span.expect("a YAML refusal points into the text");
            assert!(
                span.start <= text.len(),
                "a refusal past the end: {span:?} of {}",
                text.len()
            );
            return;
        }
    };
    if anchors_defined_once(text)
        && let Ok(theirs) = serde_norway::from_str::<serde_json::Value>(text)
    {
        assert!(
            read_alike(&ours, &theirs),
            "the YAML reader and serde_norway read the text differently:\n{ours}\n{theirs}"
        );
    }
}

/// Whether no anchor name is defined twice in `text`, counting every `&name` wherever it is
/// (more than the anchors, never fewer): serde_norway numbers anchors by how many names it has
/// seen, and mixes up an alias to a name defined again, which the YAML reader does not.
fn anchors_defined_once(text: &str) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        rest = &rest[at + 1..];
        let end = rest
            .find(|c: char| c.is_whitespace() || ",[]{}".contains(c))
            .unwrap_or(rest.len());
        if !seen.insert(&rest[..end]) {
            return false;
        }
    }
    true
}

/// `ours` and `theirs` alike, but for the keys that YAML reads as numbers, booleans or null:
/// the YAML reader keys by their JSON text (`0x1F:` is `"31"`), serde_norway by the text as
/// written.
fn read_alike(ours: &serde_json::Value, theirs: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter().zip(b).all(|((ka, va), (kb, vb))| {
                    let typed = !matches!(
                        serde_json::from_str::<Value>(ka),
                        Ok(Value::String(_)) | Err(_)
                    );
                    (ka == kb || typed) && read_alike(va, vb)
                })
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| read_alike(x, y))
        }
        _ => ours == theirs,
    }
}

/// A host file merge: the first byte picks `_headers` (append) or `_redirects` (prepend); the
/// rest is the existing file and wellgen's section, split at the first NUL byte.
pub fn headers_merge(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let placement = if pick % 2 == 0 {
        section::Placement::Append
    } else {
        section::Placement::Prepend
    };
    let split = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    let existing = String::from_utf8_lossy(&rest[..split]);
    let body = String::from_utf8_lossy(rest.get(split + 1..).unwrap_or_default());
    // wellgen's own sections are marked; the merge also runs with an empty one (a removal).
    let ours = format!("{}\n{body}\n{}\n", section::BEGIN, section::END);
    if let Ok(merged) = section::merge(&existing, &ours, placement) {
        let _ = section::merge(&merged, "", placement);
        let _ = section::merge(&merged, &ours, placement);
    }
    let _ = section::merge(&existing, "", placement);
}

/// `wellgen serve`'s reading of host files and requests, Netlify's and Cloudflare's: a
/// `_headers` file, a `_redirects` file and a request URL, split at NUL bytes. Every rule is matched against the request, both with
/// and without a file published at its path (so forced and unforced redirects both run).
pub fn serve_rules(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\0');
    let headers_text = parts.next().unwrap_or_default();
    let redirects_text = parts.next().unwrap_or_default();
    let url = parts.next().unwrap_or("/");
    let headers = HeadersFile::parse(headers_text);
    let _ = emit::hosts::headers::cloudflare_limits(headers_text);
    let _ = emit::hosts::headers::overlaps(headers_text);
    let redirects = RedirectsFile::parse(redirects_text);
    let _ = redirects.cloudflare_limits(redirects_text);
    let pages = crate::serve::cloudflare::rules::Rules::parse(headers_text, redirects_text);
    let _ = pages.redirect(url);
    let _ = pages.headers(url);
    if let Some((path, query)) = site::parse_request(url) {
        for composition in [Composition::Join, Composition::Replace] {
            let _ = headers.headers_for(&path, composition);
        }
        for exists in [false, true] {
            let _ = redirects.resolve(&path, &query, |_| exists);
        }
    }
}

/// Every diagnostic in every `--format`, as `wellgen check` prints them: spans and field paths
/// from arbitrary input meet the source text (lines, columns, carets, masking) here.
fn render(text: &str, locator: Option<&dyn Locate>, diags: &Diagnostics) {
    let src = SourceText {
        path: Path::new("service.toml"),
        text,
        locator,
    };
    let shown = report::in_order(diags);
    for format in [Format::Human, Format::Json, Format::Github, Format::Sarif] {
        let _ = format.render(&src, &shown, false);
    }
}

fn lower_and_emit(raw: ServiceToml, diags: &mut Diagnostics) {
    let compiled = pipeline::compile_raw(raw, &pipeline::Options::default(), std::mem::take(diags));
    *diags = compiled.diags;
}
