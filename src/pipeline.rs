//! The one pipeline every caller shares (the CLI, the fuzz targets, the benches): a source's
//! text → its raw form (service.toml, or OpenAPI imported into one) → the model (lowering
//! validates and applies defaults) → the checks → each target's artifacts. Nothing here prints,
//! exits or touches the output folder.

use std::path::Path;

use crate::check;
use crate::diag::Diagnostics;
use crate::emit::targets::Shared;
use crate::emit::{self, Artifact, Target, hosts};
use crate::model::{self, Host, Service};
use crate::source::openapi::{self, Provenance};
use crate::source::service_toml::ServiceToml;

/// What to compile: a source file's path and text. `openapi` is an OpenAPI document that the
/// source completes and overrides (`--openapi`); the source alone may be either kind.
#[derive(Debug, Clone, Copy)]
pub struct Sources<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub openapi: Option<&'a Path>,
}

/// How to compile.
#[derive(Debug, Clone)]
pub struct Options {
    /// The targets to emit, in target order (`Target::ALL` by default).
    pub targets: Vec<Target>,
    /// Overrides `[deploy] host`.
    pub host: Option<Host>,
    pub policy: check::Policy,
    pub import: openapi::Options,
    /// Codes silenced by `--allow`, added to service.toml's `[check] allow`.
    pub allow: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            targets: Target::ALL.to_vec(),
            host: None,
            policy: check::Policy::default(),
            import: openapi::Options::default(),
            allow: Vec::new(),
        }
    }
}

/// A compile's result. `artifacts` is empty unless `diags` has no error.
#[derive(Debug, Default)]
pub struct Compiled {
    pub service: Option<Service>,
    pub artifacts: Vec<Artifact>,
    pub diags: Diagnostics,
}

impl Compiled {
    pub fn succeeded(&self) -> bool {
        self.service.is_some() && !self.diags.has_errors()
    }
}

/// Reads `sources` (an OpenAPI document is imported, `$ref`s resolved) and compiles them.
/// The provenance maps diagnostics back to where the OpenAPI document said each thing.
pub fn compile(sources: Sources, options: &Options) -> (Compiled, Provenance) {
    let mut diags = Diagnostics::default();
    let (raw, provenance) = openapi::read_source(
        sources.path,
        sources.text,
        sources.openapi,
        &options.import,
        &mut diags,
    );
    let allow = raw
        .as_ref()
        .and_then(|r| r.check.as_ref())
        .map(|c| c.allow.clone());
    let mut compiled = match raw {
        Some(raw) => compile_raw(raw, options, diags),
        None => Compiled {
            diags,
            ..Compiled::default()
        },
    };
    provenance.annotate(&mut compiled.diags);
    crate::diag::allow(
        &options.allow,
        allow.as_deref().unwrap_or_default(),
        &mut compiled.diags,
    );
    (compiled, provenance)
}

/// Reads the source at `path` (a service.toml, with or without `[source]`, or an OpenAPI
/// document) and lowers it into the model, as a build does before its checks.
pub fn load(path: &Path, diags: &mut Diagnostics) -> Option<Service> {
    let text = crate::source::read(path).map_err(|d| diags.push(d)).ok()?;
    let (raw, _) = openapi::read_source(path, &text, None, &openapi::Options::default(), diags);
    model::lower(raw?, diags)
}

/// The stages after reading: lower `raw` into the model, check it, lower every chosen target
/// (each one's checks), then, only if nothing was an error, render the documents, check and
/// render the host files that serve them.
pub fn compile_raw(raw: ServiceToml, options: &Options, mut diags: Diagnostics) -> Compiled {
    let Some(mut service) = model::lower(raw, &mut diags) else {
        return Compiled {
            diags,
            ..Compiled::default()
        };
    };
    if let Some(host) = options.host {
        service.host = host;
    }
    check::run(&service, &options.policy, &mut diags);
    let artifacts = emit(&service, &options.targets, &mut diags);
    Compiled {
        artifacts,
        service: Some(service),
        diags,
    }
}

/// Every artifact of `targets` and of the host, or none if a check found an error. Every
/// target is lowered (and so reports) even after an error, so one run shows every problem.
pub fn emit(service: &Service, targets: &[Target], diags: &mut Diagnostics) -> Vec<Artifact> {
    let shared = Shared::default();
    let lowered = emit::lower(service, targets, &shared, None, diags);
    if diags.has_errors() {
        return Vec::new();
    }
    let mut artifacts = lowered.render();
    let host = hosts::lower(service, &artifacts, diags);
    if diags.has_errors() {
        return Vec::new();
    }
    let host_files = hosts::render(service, &artifacts, &host);
    artifacts.extend(host_files);
    artifacts
}
