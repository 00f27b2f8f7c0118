//! Host files: what each host needs beside the documents to serve them right. Netlify gets
//! `_headers` and a `_redirects` query rule; Cloudflare Pages `_headers`, a `_worker.js` and a
//! `404.html`; Vercel a merged `vercel.json`; GitHub Pages `.nojekyll` and `.json` twins; a
//! generic host `_headers`, an nginx snippet and an Apache `.htaccess`.

pub mod cloudflare;
pub mod generic;
pub mod github_pages;
pub mod headers;
pub mod netlify;
pub mod section;
pub mod vercel;

use super::Artifact;
use super::targets::{openapi, rfc002};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::{Host, Service};
use cloudflare::{NOT_FOUND_PATH, WORKER_PATH};
use netlify::REDIRECTS_PATH;
use section::Placement;

pub const NOJEKYLL_PATH: &str = "/.nojekyll";

/// How the writer combines a file wellgen writes with what is already at its path. Decided
/// here, by the host layer that writes the files, so the writer knows no file names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merge {
    /// wellgen's own file: replaced or removed only if the manifest says wellgen wrote exactly it.
    Owned,
    /// wellgen's marked section inside a file the user may also edit.
    Section(Placement),
    /// wellgen's entries inside the user's `vercel.json`.
    VercelJson,
    /// A default that the site's own file of that name replaces: any `404.html` stops
    /// Cloudflare's fallback to the index page, any `.nojekyll` stops Jekyll.
    Default,
}

pub fn merge_of(url_path: &str) -> Merge {
    match url_path {
        // Every matching `_headers` block applies, so order does not matter: append.
        headers::PATH => Merge::Section(Placement::Append),
        // The first matching rule wins (`_redirects`; mod_rewrite in order): ours go before
        // the site's catch-alls.
        REDIRECTS_PATH | generic::HTACCESS_PATH => Merge::Section(Placement::Prepend),
        vercel::PATH => Merge::VercelJson,
        NOT_FOUND_PATH | NOJEKYLL_PATH => Merge::Default,
        _ => Merge::Owned,
    }
}

/// What the host layer decided for a build's documents, once every host check was made.
pub struct Lowered {
    /// Whether `/api/discovery?format=openapi` is routed on this host.
    route: bool,
    /// wellgen's section of `_headers`, for the hosts that read it.
    headers: Option<String>,
    /// GitHub Pages: the `.json` twins to add, by the path of the document each copies.
    twins: Vec<String>,
}

/// Every check of the host files for `service.host`, given the documents built (their paths
/// and serving; bodies are not read): run after the documents are rendered, before anything
/// is written.
pub fn lower(service: &Service, documents: &[Artifact], diags: &mut Diagnostics) -> Lowered {
    let route = query_route(service.host, documents, diags);
    let headers = match service.host {
        Host::Netlify | Host::Cloudflare | Host::Generic => {
            headers::lower(service.host, documents, diags)
        }
        Host::Vercel | Host::GithubPages => None,
    };
    let twins = match service.host {
        Host::GithubPages => github_pages::lower(documents, diags),
        _ => Vec::new(),
    };
    Lowered {
        route,
        headers,
        twins,
    }
}

/// Every host file for `service.host`; pure.
pub fn render(service: &Service, documents: &[Artifact], lowered: &Lowered) -> Vec<Artifact> {
    let route = lowered.route;
    let headers = lowered.headers.as_deref().map(headers::render);
    let mut out = Vec::new();
    match service.host {
        Host::Netlify => {
            if route {
                out.push(Artifact {
                    path: REDIRECTS_PATH.into(),
                    body: netlify::redirects().into_bytes().into(),
                    serving: None,
                });
            }
            out.extend(headers);
        }
        Host::Cloudflare => {
            if route {
                out.push(Artifact {
                    path: WORKER_PATH.into(),
                    body: cloudflare::worker(documents).into_bytes().into(),
                    serving: None,
                });
            }
            out.push(Artifact {
                path: NOT_FOUND_PATH.into(),
                body: cloudflare::NOT_FOUND_PAGE.as_bytes().to_vec().into(),
                serving: None,
            });
            out.extend(headers);
        }
        Host::Vercel => out.push(vercel::emit(documents, route)),
        Host::GithubPages => out.extend(github_pages::render(documents, &lowered.twins)),
        Host::Generic => {
            // The `.htaccess` and nginx routes work; only the documents' links cannot count on them.
            let serve_route = has_query_pair(documents);
            out.extend(headers);
            out.push(generic::nginx(documents, serve_route));
            out.push(generic::htaccess(documents, serve_route));
        }
    }
    out
}

/// `lower` then `render`: the host files, their diagnostics into `diags`.
pub fn emit(service: &Service, documents: &[Artifact], diags: &mut Diagnostics) -> Vec<Artifact> {
    let lowered = lower(service, documents, diags);
    render(service, documents, &lowered)
}

fn has_query_pair(artifacts: &[Artifact]) -> bool {
    let has = |path: &str| artifacts.iter().any(|a| a.path == path);
    has(rfc002::DISCOVERY_PATH) && has(openapi::DISCOVERY_PATH)
}

/// Whether this build routes `/api/discovery?format=openapi`, warning where it cannot.
fn query_route(host: Host, artifacts: &[Artifact], diags: &mut Diagnostics) -> bool {
    let has = |path: &str| artifacts.iter().any(|a| a.path == path);
    if !has(rfc002::DISCOVERY_PATH) {
        return false;
    }
    if !has(openapi::DISCOVERY_PATH) {
        diags.push(
            Diagnostic::new(Code::HostMissingTarget, format!(
                "{} and agents.json link to the OpenAPI document, but the `openapi` target is not built",
                rfc002::DISCOVERY_PATH
            ))
            .help("build `--target rfc002,openapi` (or every target) so the links resolve"),
        );
        return false;
    }
    if host.routes_query() {
        return true;
    }
    let which = match host {
        Host::GithubPages => "GitHub Pages",
        _ => "a generic static host",
    };
    diags.push(
        Diagnostic::new(Code::LinkSubstituted, format!(
            "{which} cannot answer {}?format=openapi: agents.json and ai-plugin.json link to {} instead",
            rfc002::DISCOVERY_PATH,
            openapi::DISCOVERY_PATH
        ))
        .at("deploy.host")
        .help(format!(
            "on Netlify, Cloudflare Pages or Vercel set `[deploy] host` (or --host) and wellgen \
             routes it; on your own nginx or Apache, the generic host's wellgen-nginx.conf and \
             .htaccess route {}?format=openapi to {}",
            rfc002::DISCOVERY_PATH,
            openapi::DISCOVERY_PATH
        )),
    );
    false
}
