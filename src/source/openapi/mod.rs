//! The OpenAPI front end: Swagger 2.0, OpenAPI 3.0 and 3.1 (JSON or YAML) lowered into the same
//! raw service.toml mirror the TOML front end produces, so every target works from either.
//!
//! A service.toml may complete an OpenAPI document (`[source] openapi = "openapi.yaml"`): the
//! import comes first and the service.toml's values win, key by key, capabilities matched by id.

pub mod fit;
pub mod load;
pub mod lower;
mod merge;
pub mod naming;
mod operation;
pub mod refs;
pub mod schema;
mod security;
pub mod service_file;
mod yaml_depth;

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic, Diagnostics, Locate};
use crate::source::service_toml::ServiceToml;
use crate::source::{TomlLocator, parse_service_toml};
pub use load::{Version, looks_like_openapi};
pub use lower::{Filter, Imported};
pub use merge::{Merged, merge};

#[derive(Debug, Clone)]
pub struct Options {
    pub filter: Filter,
    /// The most bytes read for one import: the document and every file its refs reach.
    pub max_input_size: u64,
    /// `--ref-root`: the folder whose files `$ref`s may reach; `None`: the default root (see
    /// `confine::RefRoot::default_for`).
    pub ref_root: Option<PathBuf>,
    /// `--base-url`: the base URL, over the document's servers and `[service] base_url`.
    pub base_url: Option<String>,
    /// The command being run (`build`, `check`, `import`), for helps that name it.
    pub command: &'static str,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            filter: Filter::default(),
            max_input_size: crate::source::DEFAULT_MAX_INPUT_SIZE,
            ref_root: None,
            base_url: None,
            command: "build",
        }
    }
}

/// Imports an OpenAPI document from a file. Errors (each naming the file and a JSON pointer)
/// go to `diags`; `None` when any was found.
pub fn import_file(path: &Path, options: &Options, diags: &mut Diagnostics) -> Option<Imported> {
    let text = match crate::source::read_limited(path, options.max_input_size) {
        Ok(t) => t,
        Err(d) => {
            diags.push(d);
            return None;
        }
    };
    import_text(Some(path), &text, options, diags)
}

/// Imports an OpenAPI document already read; `path` (when known) anchors relative file refs.
pub fn import_text(
    path: Option<&Path>,
    text: &str,
    options: &Options,
    diags: &mut Diagnostics,
) -> Option<Imported> {
    let name = path.map_or_else(|| "openapi".to_string(), |p| p.display().to_string());
    if let Err(d) = options.filter.check() {
        diags.push(d);
        return None;
    }
    let doc = match load::parse_text(text, &name) {
        Ok(d) => d,
        Err(d) => {
            diags.push(d);
            return None;
        }
    };
    let version = match load::detect_version(&doc, &name) {
        Ok(v) => v,
        Err(d) => {
            diags.push(d);
            return None;
        }
    };
    let mut docs =
        refs::Documents::new(path, &name, doc).with_limits(options.max_input_size, text.len());
    if let Some(dir) = &options.ref_root {
        match crate::confine::RefRoot::given(dir) {
            Ok(root) => docs = docs.with_ref_root(root),
            Err(d) => {
                diags.push(d);
                return None;
            }
        }
    }
    let mut imported = lower::lower(&mut docs, version, options, diags);
    if let Some(i) = &mut imported {
        i.doc.source_bytes = Some(text.len());
    }
    if text.len() >= DROP_ASIDE_FROM {
        crate::parallel::drop_aside(docs.into_values());
    }
    imported
}

/// Documents from this size up are dropped on a thread of their own after the import (GitHub's
/// 13 MB description takes about 50 ms of CPU to free), even by a command that ends after its
/// build: what they free is what the targets then allocate, which took GitHub's peak RSS from
/// about 250 to 205 MB and Stripe's from 195 to 180 MB (docs/PERFORMANCE.md).
const DROP_ASIDE_FROM: usize = 1 << 20;

/// The import on its own: problems only a service.toml could fix are reported.
pub fn finish(imported: Imported, diags: &mut Diagnostics) -> ServiceToml {
    for (_, d) in imported.deferred {
        diags.push(d);
    }
    imported.doc
}

/// Where the capabilities of a build came from, for pointing diagnostics at the right file.
#[derive(Debug, Default)]
pub struct Provenance {
    /// The build's source is the OpenAPI file itself: no TOML to point into.
    pub openapi_only: bool,
    pub overlay_index: Vec<Option<usize>>,
    pub origins: Vec<Option<String>>,
    /// For each imported named schema, the place of its component.
    pub schema_origins: HashMap<String, String>,
}

impl Provenance {
    /// Adds the operation a capability came from to every diagnostic about that capability,
    /// and the component a named schema came from to every diagnostic about that schema.
    pub fn annotate(&self, diags: &mut Diagnostics) {
        if self.origins.iter().all(Option::is_none) && self.schema_origins.is_empty() {
            return;
        }
        let origin = |field: &str| match capability_index(field) {
            Some(i) => self.origins.get(i).cloned().flatten(),
            None => match crate::diag::field_steps(field).as_slice() {
                [top, name, ..] if top == "schemas" => {
                    self.schema_origins.get(name.as_ref()).cloned()
                }
                _ => None,
            },
        };
        let items = std::mem::take(diags).into_sorted();
        for mut d in items {
            if let Some(origin) = d.field.as_deref().and_then(origin) {
                d.message =
                    crate::diag::printable(format!("{} (imported from {origin})", d.message));
            }
            diags.push(d);
        }
    }
}

fn capability_index(field: &str) -> Option<usize> {
    field
        .strip_prefix("capabilities.")?
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// Finds fields in the service.toml of a merged build: capability indices are mapped back to
/// the service.toml's own, and nothing is located for an OpenAPI-only build.
pub struct SourceLocator<'a> {
    toml: TomlLocator<'a>,
    provenance: &'a Provenance,
}

impl<'a> SourceLocator<'a> {
    pub fn new(text: &'a str, provenance: &'a Provenance) -> Self {
        // An OpenAPI-only build locates nothing: its text is not parsed as TOML at all.
        let toml_text = if provenance.openapi_only { "" } else { text };
        Self {
            toml: TomlLocator::new(toml_text),
            provenance,
        }
    }
}

impl Locate for SourceLocator<'_> {
    fn locate(&self, field: &str) -> Option<Range<usize>> {
        if self.provenance.openapi_only {
            return None;
        }
        if self.provenance.overlay_index.is_empty() {
            return self.toml.locate(field);
        }
        match capability_index(field) {
            None => self.toml.locate(field),
            Some(i) => {
                let j = self.provenance.overlay_index.get(i).copied().flatten()?;
                let rest = field
                    .strip_prefix(&format!("capabilities.{i}"))
                    .unwrap_or_default();
                self.toml.locate(&format!("capabilities.{j}{rest}"))
            }
        }
    }
}

/// Whether `path` names an OpenAPI document rather than a service.toml: by extension, else
/// by content.
pub fn is_openapi_path(path: &Path, text: &str) -> bool {
    is_openapi_by_name(path)
        .unwrap_or_else(|| looks_like_openapi(text) && parse_service_toml(text).is_err())
}

/// What the extension alone says: an OpenAPI document (`.json`, `.yaml`, `.yml`), a
/// service.toml (`.toml`), or nothing.
pub fn is_openapi_by_name(path: &Path) -> Option<bool> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json" | "yaml" | "yml") => Some(true),
        Some("toml") => Some(false),
        _ => None,
    }
}

/// What a build reads: an OpenAPI file, a service.toml, or a service.toml completing an
/// OpenAPI file (`[source] openapi` or `--openapi`). Diagnostics go to `diags`.
pub fn read_source(
    path: &Path,
    text: &str,
    openapi: Option<&Path>,
    options: &Options,
    diags: &mut Diagnostics,
) -> (Option<ServiceToml>, Provenance) {
    if openapi.is_none() && is_openapi_path(path, text) {
        return match import_text(Some(path), text, options, diags) {
            Some(imported) => {
                let p = Provenance {
                    openapi_only: true,
                    overlay_index: Vec::new(),
                    origins: imported.origins.iter().cloned().map(Some).collect(),
                    schema_origins: imported.schema_origins.clone(),
                };
                let doc = finish(imported, diags);
                // Problems only a service.toml can fix stop here, before the model repeats them.
                (Some(doc).filter(|_| !diags.has_errors()), p)
            }
            None => (
                None,
                Provenance {
                    openapi_only: true,
                    ..Provenance::default()
                },
            ),
        };
    }
    let overlay = match parse_service_toml(text) {
        Ok(o) => o,
        Err(d) => {
            diags.push(d);
            return (None, Provenance::default());
        }
    };
    let source = overlay.source.as_ref();
    let named = source
        .and_then(|s| s.openapi.as_ref())
        .filter(|_| openapi.is_none());
    let wanted: Option<PathBuf> = match named {
        // A path the service.toml names is held to the same folder as `$ref`s.
        Some(rel) => match crate::confine::service_path(
            path,
            "[source] openapi",
            Path::new(rel),
            options.ref_root.as_deref(),
            false,
        ) {
            Ok(p) => Some(p),
            Err((message, help)) => {
                diags.push(
                    Diagnostic::new(Code::SourceUnreadable, message)
                        .at("source.openapi")
                        .help(help),
                );
                return (None, Provenance::default());
            }
        },
        None => openapi.map(Path::to_path_buf),
    };
    // The merge goes through JSON, where a `nan` or `inf` of the service.toml would become
    // `null` (dropped, or refused with no field named): refuse each one here, where it was written.
    if wanted.is_some()
        && let Ok(table) = toml::from_str::<toml::Table>(text)
    {
        let bad = crate::source::service_toml::non_finite_all(&toml::Value::Table(table));
        for (f, at) in &bad {
            diags.push(crate::source::service_toml::non_finite_error(
                *f,
                at.clone(),
            ));
        }
        if !bad.is_empty() {
            return (None, Provenance::default());
        }
    }
    let Some(openapi_path) = wanted else {
        if source.is_some_and(|s| s.include.is_some() || s.exclude.is_some()) {
            diags.push(
                Diagnostic::new(
                    Code::ImportFiltered,
                    "`include`/`exclude` apply only with `openapi`",
                )
                .at("source"),
            );
        }
        let mut overlay = overlay;
        if let Some(url) = &options.base_url {
            overlay.service.base_url = Some(url.clone());
        }
        return (Some(overlay), Provenance::default());
    };
    let mut options = options.clone();
    if let Some(s) = source {
        options
            .filter
            .include
            .extend(s.include.clone().unwrap_or_default());
        options
            .filter
            .exclude
            .extend(s.exclude.clone().unwrap_or_default());
    }
    // Diagnostics are rendered against the service.toml: the OpenAPI file's messages name
    // that file and a JSON pointer, and a span into it (a parse error) becomes its
    // `file:line:col` in the message.
    let mut import_diags = Diagnostics::default();
    let text = crate::source::read_limited(&openapi_path, options.max_input_size);
    let imported = match &text {
        Ok(text) => import_text(Some(&openapi_path), text, &options, &mut import_diags),
        Err(d) => {
            import_diags.push(d.clone());
            None
        }
    };
    diags.extend(import_diags.into_sorted().into_iter().map(|mut d| {
        if let (Some(span), Ok(text)) = (d.span.take(), &text) {
            d.message = format!(
                "{}: {}",
                crate::diag::place(&openapi_path, text, span.start),
                d.message
            );
        }
        d
    }));
    drop(text);
    let Some(imported) = imported else {
        return (None, Provenance::default());
    };
    let base_path = imported.base_path.clone();
    match merge(imported, overlay, diags) {
        Some(mut m) => {
            // A base path the document gives without a host is joined to the base URL the
            // service.toml (or `--base-url`) gives.
            let base = options.base_url.clone().or(m.doc.service.base_url.take());
            m.doc.service.base_url = base.map(|b| lower::join_base_path(&b, base_path.as_deref()));
            (
                Some(m.doc),
                Provenance {
                    openapi_only: false,
                    overlay_index: m.overlay_index,
                    origins: m.origins,
                    schema_origins: m.schema_origins,
                },
            )
        }
        None => (None, Provenance::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_about_a_named_schema_names_its_component_whatever_its_name() {
        let provenance = Provenance {
            schema_origins: HashMap::from([
                (
                    "Pet".to_string(),
                    "api.yaml#/components/schemas/Pet".to_string(),
                ),
                (
                    "io.k8s.Pod".to_string(),
                    "k8s.json#/definitions/io.k8s.Pod".to_string(),
                ),
            ]),
            ..Provenance::default()
        };
        let mut diags = Diagnostics::default();
        for field in [
            "schemas.Pet.description",
            "schemas.\"io.k8s.Pod\".properties.a",
            "schemas.Other.title",
            "service.name",
        ] {
            diags.push(Diagnostic::new(Code::InvalidValue, "found").at(field));
        }
        provenance.annotate(&mut diags);
        assert_eq!(diags.iter().count(), 4);
        let said: Vec<(&str, &str)> = diags
            .iter()
            .map(|d| (d.field.as_deref().unwrap_or_default(), d.message.as_str()))
            .collect();
        for (field, message) in said {
            let expected = match field {
                "schemas.Pet.description" => {
                    "found (imported from api.yaml#/components/schemas/Pet)"
                }
                "schemas.\"io.k8s.Pod\".properties.a" => {
                    "found (imported from k8s.json#/definitions/io.k8s.Pod)"
                }
                _ => "found",
            };
            assert_eq!(message, expected, "{field}");
        }
    }
}
