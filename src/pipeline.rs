//! The one pipeline every caller shares (the CLI, the fuzz targets, the benches): a source's
//! text → its raw form (service.toml, or OpenAPI imported into one) → the model (lowering
//! validates and applies defaults) → the checks → each target's artifacts. Nothing here prints,
//! exits or touches the output folder.

use std::path::Path;

use crate::check;
use crate::diag::{Diagnostics, Origin};
use crate::emit::publish;
use crate::emit::targets::Shared;
use crate::emit::{self, Artifact, Build, Choice, Target, hosts};
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
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The targets chosen on the command line (`--target`), with those they require; they
    /// replace `[build] targets` and `exclude`. `None`: `[build]` decides (by default, every
    /// target).
    pub targets: Option<Vec<Target>>,
    /// Overrides `[deploy] host`.
    pub host: Option<Host>,
    /// The host whose build environment this is (`host_from_env`): used when neither `host`
    /// nor `[deploy] host` says.
    pub env_host: Option<EnvHost>,
    pub policy: check::Policy,
    pub import: openapi::Options,
    /// The site's own files in the output folder that documents list or host files merge with.
    pub site_files: model::SiteFiles,
    /// `--site-url`: the origin the documents are published at, over `[service] site_url`.
    pub site_url: Option<String>,
    /// Codes silenced by `--allow`, added to service.toml's `[check] allow`.
    pub allow: Vec<String>,
    /// `SOURCE_DATE_EPOCH` of the build environment: /api/discovery's date where the source
    /// gives none.
    pub source_date_epoch: Option<String>,
}

/// A compile's result. `artifacts` is empty unless `diags` has no error.
#[derive(Debug, Default)]
pub struct Compiled {
    pub service: Option<Service>,
    pub artifacts: Vec<Artifact>,
    pub diags: Diagnostics,
    /// Set when the host came from the build environment (`Options::env_host`).
    pub env_host: Option<EnvHost>,
}

/// A host recognised by the variable its build environment sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvHost {
    pub host: Host,
    /// The variable and value that gave it away, as `NETLIFY=true`.
    pub by: &'static str,
}

/// The host whose own build this is, from the variable each documents for its build image
/// (`HostDescriptor::env`: Netlify `NETLIFY=true`, Cloudflare Pages `CF_PAGES=1`, Vercel
/// `VERCEL=1`; GitHub Pages and a generic host have none). `var` reads one variable
/// (`std::env::var` in the CLI; a map in tests).
pub fn host_from_env(var: impl Fn(&str) -> Option<String>) -> Option<EnvHost> {
    Host::ALL.into_iter().find_map(|host| {
        let by = host.descriptor().env?;
        let (name, value) = by.split_once('=')?;
        (var(name).as_deref() == Some(value)).then_some(EnvHost { host, by })
    })
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
    let (mut raw, provenance) = openapi::read_source(
        sources.path,
        sources.text,
        sources.openapi,
        &options.import,
        &mut diags,
    );
    if let (Some(raw), Some(url)) = (raw.as_mut(), &options.site_url) {
        raw.service.site_url = Some(url.clone());
    }
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
    on_flags(options, compiled.env_host, &mut compiled.diags);
    crate::diag::allow(
        &options.allow,
        allow.as_deref().unwrap_or_default(),
        &mut compiled.diags,
    );
    (compiled, provenance)
}

/// A diagnostic about a value given on the command line (`--base-url`, `--site-url`, `--host`)
/// or taken from the build environment (`NETLIFY=true`) carries that origin: the source file's
/// line, if it has one, holds the value the flag replaced, or nothing of it.
fn on_flags(options: &Options, env_host: Option<EnvHost>, diags: &mut Diagnostics) {
    let host = match (options.host, env_host) {
        (Some(_), _) => Some(Origin::Flag("--host")),
        (None, Some(env)) => Some(Origin::Env(env.by)),
        (None, None) => None,
    };
    let given = [
        (
            "service.base_url",
            options
                .import
                .base_url
                .as_ref()
                .map(|_| Origin::Flag("--base-url")),
        ),
        (
            "service.site_url",
            options
                .site_url
                .as_ref()
                .map(|_| Origin::Flag("--site-url")),
        ),
        ("deploy.host", host),
    ];
    if given.iter().all(|(_, origin)| origin.is_none()) {
        return;
    }
    for d in diags.iter_mut() {
        let Some(field) = d.field.as_deref() else {
            continue;
        };
        let about =
            |key: &str| field == key || field.strip_prefix(key).is_some_and(|r| r.starts_with('.'));
        if let Some((_, Some(origin))) = given.iter().find(|(key, _)| about(key)) {
            d.origin = Some(Box::new(origin.clone()));
        }
    }
}

/// Reads the source at `path` (a service.toml, with or without `[source]`, or an OpenAPI
/// document) and lowers it into the model, as a build does before its checks.
pub fn load(path: &Path, diags: &mut Diagnostics) -> Option<Service> {
    let text = crate::source::read(path).map_err(|d| diags.push(d)).ok()?;
    let (raw, _) = openapi::read_source(path, &text, None, &openapi::Options::default(), diags);
    model::lower(raw?, diags)
}

/// The stages after reading: resolve what the build publishes (`[build]`, `--target`), lower
/// `raw` into the model, check it, lower every chosen target (each one's checks), then, only
/// if nothing was an error, render the documents, check and render the host files that serve
/// them.
pub fn compile_raw(mut raw: ServiceToml, options: &Options, mut diags: Diagnostics) -> Compiled {
    let asked = publish::asked_for(&raw);
    let choice = publish::resolve(
        raw.build.take().as_ref(),
        &asked,
        options.targets.as_deref(),
        &mut diags,
    );
    let toml_host = raw.deploy.as_ref().is_some_and(|d| d.host.is_some());
    let Some(service) = model::lower(raw, &mut diags) else {
        return Compiled {
            diags,
            ..Compiled::default()
        };
    };
    let env_host = options
        .env_host
        .filter(|_| options.host.is_none() && !toml_host);
    let mut build = Build {
        host: options.host.or(env_host.map(|e| e.host)),
        site: &options.site_files,
        source_date_epoch: options.source_date_epoch.as_deref(),
        ..Build::of(&choice)
    };
    build.route_left_out = hosts::route_left_out(&service, &build, &mut diags);
    let artifacts = if diags.has_errors() || !emit::is_large(&service) {
        check::run(&service, &options.policy, &mut diags);
        emit_chosen(&service, &build, &mut diags)
    } else {
        // The checks and the targets read the model and nothing else: a large service's checks
        // run beside its targets, and an error they find drops the documents, as it would have
        // stopped them. Diagnostics keep their order: the checks' before the targets'.
        let (mut checked, mut emitted) = (Diagnostics::default(), Diagnostics::default());
        let documents = std::thread::scope(|s| {
            s.spawn(|| check::run(&service, &options.policy, &mut checked));
            emit_targets(&service, &build, &mut emitted)
        });
        diags.append(checked);
        diags.append(emitted);
        match documents {
            Some(documents) if !diags.has_errors() => {
                emit_hosts(&service, &build, documents, &mut diags)
            }
            _ => Vec::new(),
        }
    };
    Compiled {
        artifacts,
        service: Some(service),
        diags,
        env_host,
    }
}

/// Every artifact of `targets` and of the host, or none if a check found an error. Every
/// target is lowered (and so reports) even after an error, so one run shows every problem.
pub fn emit(service: &Service, targets: &[Target], diags: &mut Diagnostics) -> Vec<Artifact> {
    let choice = Choice::all(targets);
    emit_chosen(service, &Build::of(&choice), diags)
}

/// [`emit`] for a `build`: its targets, without the documents and host files it skips.
pub fn emit_chosen(service: &Service, build: &Build, diags: &mut Diagnostics) -> Vec<Artifact> {
    match emit_targets(service, build, diags) {
        Some(documents) => emit_hosts(service, build, documents, diags),
        None => Vec::new(),
    }
}

/// The documents of the build's targets, or `None` if a check found an error.
fn emit_targets(
    service: &Service,
    build: &Build,
    diags: &mut Diagnostics,
) -> Option<Vec<Artifact>> {
    // What the targets derive alike borrows the model for as long as the model lives.
    let mut slot = None;
    let shared: &Shared = crate::parallel::for_the_command(&mut slot);
    let mut artifacts = emit::lower_and_render(service, *build, shared, None, diags)?;
    artifacts.retain(|a| !build.skips(&a.path));
    Some(artifacts)
}

/// `artifacts` with the host files that serve them, or none if a host check found an error.
fn emit_hosts(
    service: &Service,
    build: &Build,
    mut artifacts: Vec<Artifact>,
    diags: &mut Diagnostics,
) -> Vec<Artifact> {
    let host = hosts::lower(service, &artifacts, build, diags);
    if diags.has_errors() {
        return Vec::new();
    }
    let host_files = hosts::render(&artifacts, &host);
    artifacts.extend(host_files);
    artifacts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Code, Diagnostic};

    fn at_host() -> Diagnostics {
        let mut diags = Diagnostics::default();
        diags.push(Diagnostic::new(Code::HostHeaders, "x").at("deploy.host"));
        diags.push(Diagnostic::new(Code::HostHeaders, "y").at("deploy.hostname"));
        diags
    }

    #[test]
    fn a_value_from_a_flag_or_the_environment_carries_its_origin() {
        let origins = |options: &Options, env: Option<EnvHost>| {
            let mut diags = at_host();
            on_flags(options, env, &mut diags);
            diags
                .iter()
                .map(|d| d.origin.as_deref().cloned())
                .collect::<Vec<_>>()
        };
        let env = Some(EnvHost {
            host: Host::Netlify,
            by: "NETLIFY=true",
        });
        let flag = Options {
            host: Some(Host::GithubPages),
            ..Options::default()
        };
        assert_eq!(origins(&flag, env), [Some(Origin::Flag("--host")), None]);
        assert_eq!(
            origins(&Options::default(), env),
            [Some(Origin::Env("NETLIFY=true")), None]
        );
        assert_eq!(origins(&Options::default(), None), [None, None]);
    }
}
