//! Host files: what each host needs beside the documents to serve them right. Netlify gets
//! `_headers` and a `_redirects` query rule; Cloudflare Pages `_headers`, a `_worker.js` and a
//! `404.html`; Vercel a merged `vercel.json`; GitHub Pages `.nojekyll` and `.json` twins; a
//! generic host `_headers`, an nginx snippet and an Apache `.htaccess`.

pub mod cloudflare;
pub mod generic;
pub mod github_pages;
pub mod headers;
pub mod headers_file;
pub mod links;
pub mod markdown;
pub mod netlify;
pub mod pattern;
pub mod robots;
pub mod section;
pub mod vercel;

use std::collections::BTreeSet;

use super::Artifact;
use super::Target;
use super::publish::Choice;
use super::targets::{openapi, rfc002};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::{Host, Service};
use cloudflare::{NOT_FOUND_PATH, ROUTES_PATH, WORKER_PATH};
use netlify::REDIRECTS_PATH;
use section::Placement;

pub const NOJEKYLL_PATH: &str = "/.nojekyll";
/// The writer's record of what it wrote (`write::MANIFEST`): in the output folder, never to be
/// published, so the host files keep it hidden where a host would serve it.
pub const MANIFEST_PATH: &str = "/.wellgen-manifest";

/// Every host file wellgen can write into the output folder, as `[build] skip` names them.
pub const FILES: [&str; 10] = [
    headers::PATH,
    REDIRECTS_PATH,
    WORKER_PATH,
    NOT_FOUND_PATH,
    vercel::PATH,
    NOJEKYLL_PATH,
    generic::HTACCESS_PATH,
    ROUTES_PATH,
    robots::PATH,
    markdown::INDEX_PATH,
];

/// The host file that routes `/api/discovery?format=openapi` on `host`, where one can.
pub fn route_file(host: Host) -> Option<&'static str> {
    match host {
        Host::Netlify => Some(REDIRECTS_PATH),
        Host::Cloudflare => Some(WORKER_PATH),
        Host::Vercel => Some(vercel::PATH),
        Host::GithubPages | Host::Generic => None,
    }
}

/// Whether this build leaves `/api/discovery?format=openapi` unrouted on a host that could
/// route it: the build leaves out the file that does it, or, on Cloudflare Pages, the site
/// has a `_worker.js` of its own (`site_worker`), which wellgen never replaces. Decided before
/// any document is lowered: agents.json links to the route or, without it, to the OpenAPI file.
pub fn route_left_out(
    service: &Service,
    choice: &Choice,
    site_worker: bool,
    diags: &mut Diagnostics,
) -> bool {
    let Some(file) = route_file(service.host) else {
        return false;
    };
    if choice.skips(file) {
        return true;
    }
    let linked = choice.targets.contains(&Target::Rfc002);
    if service.host == Host::Cloudflare && site_worker {
        if linked {
            diags.push(
                Diagnostic::new(
                    Code::HostHeaders,
                    format!(
                        "the output folder has the site's own {f} (an Astro, SvelteKit or Nuxt \
                     Cloudflare adapter writes one): wellgen keeps it and writes none, so \
                     {d}?format=openapi is not routed; agents.json and ai-plugin.json link to \
                     {o} instead, and `{r}` sends wellgen's documents past the worker so \
                     `_headers` applies to them",
                        f = WORKER_PATH.trim_start_matches('/'),
                        d = rfc002::DISCOVERY_PATH,
                        o = openapi::DISCOVERY_PATH,
                        r = ROUTES_PATH.trim_start_matches('/'),
                    ),
                )
                .help(format!(
                    "nothing to fix; to record the choice and silence this, add \"{WORKER_PATH}\" \
                     to `[build] skip` in service.toml"
                )),
            );
        }
        return true;
    }
    false
}

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
    /// wellgen's `exclude` rules inside the site's `_routes.json` (Cloudflare Pages).
    RoutesJson,
    /// A default that the site's own file of that name replaces: any `404.html` stops
    /// Cloudflare's fallback to the index page, any `.nojekyll` stops Jekyll.
    Default,
}

/// A host file of entries as a merge leaves it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Its text; empty when nothing of it is left (the file goes).
    pub text: String,
    /// The members of the file wellgen created in it (a `vercel.json` list, its `$schema`):
    /// the writer records them, and a later merge takes out only those. Names without `/`,
    /// `~` or spaces, so the manifest can write each as a JSON Pointer (`/vercel.json#/headers`).
    pub created: BTreeSet<String>,
}

/// Merges wellgen's entries (`ours`; empty to take them out) into a host file of the site's
/// that holds entries of both (`Merge::VercelJson`, `Merge::RoutesJson`). `owned` are the
/// paths the previous build wrote: its entries are those for them; `created` the members the
/// previous build recorded creating ([`Merged::created`]).
pub fn merge_entries(
    merge: Merge,
    existing: &str,
    ours: &str,
    owned: &BTreeSet<String>,
    created: &BTreeSet<String>,
) -> Result<Merged, String> {
    match merge {
        Merge::VercelJson => vercel::merge(existing, ours, owned, created),
        Merge::RoutesJson => cloudflare::merge_routes(existing, ours, owned).map(|text| Merged {
            text,
            created: BTreeSet::new(),
        }),
        _ => Err("internal error: not a file of entries".into()),
    }
}

pub fn merge_of(url_path: &str) -> Merge {
    match url_path {
        // Every matching `_headers` block applies, so order does not matter: append. Groups
        // of robots.txt that name the same agent are combined wherever they stand.
        headers::PATH | robots::PATH => Merge::Section(Placement::Append),
        // The first matching rule wins (`_redirects`; mod_rewrite in order): ours go before
        // the site's catch-alls.
        REDIRECTS_PATH | generic::HTACCESS_PATH => Merge::Section(Placement::Prepend),
        vercel::PATH => Merge::VercelJson,
        ROUTES_PATH => Merge::RoutesJson,
        NOT_FOUND_PATH | NOJEKYLL_PATH | markdown::INDEX_PATH => Merge::Default,
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
    /// Cloudflare Pages with the site's own `_worker.js`: the paths `_routes.json` keeps away
    /// from that worker, so Pages serves them as files with `_headers` applied.
    routes: Option<Vec<String>>,
    /// wellgen's section of robots.txt, on every host.
    robots: Option<String>,
    /// The home page's `Link` header value.
    home: Option<String>,
    /// The host files the build leaves out (`[build] skip`).
    skip: Vec<String>,
}

/// Every check of the host files for `service.host`, given the documents built (their paths
/// and serving; bodies are not read): run after the documents are rendered, before anything
/// is written. `site_worker`: the output folder holds the site's own `_worker.js`.
pub fn lower(
    service: &Service,
    documents: &[Artifact],
    choice: &Choice,
    site_worker: bool,
    diags: &mut Diagnostics,
) -> Lowered {
    let route = query_route(service, documents, diags);
    let mut home_links = links::home(service, documents);
    if markdown::index(documents).is_some() && !choice.skips(markdown::INDEX_PATH) {
        home_links.push(links::HomeLink {
            href: markdown::INDEX_PATH.into(),
            rel: "alternate",
            media_type: Some(markdown::MEDIA_TYPE),
        });
    }
    let home = links::header_value(&home_links);
    let headers = match service.host {
        Host::Netlify | Host::Cloudflare | Host::Generic if !choice.skips(headers::PATH) => {
            headers::lower(service.host, documents, home.as_deref(), diags)
        }
        _ => None,
    };
    if service.host == Host::GithubPages && !home_links.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::HostHeaders,
                format!(
                    "GitHub Pages sets no `Link` header on the home page ({}), where agents look \
                     for the API catalog, the API description and llms.txt",
                    links::HOME
                ),
            )
            .at("deploy.host")
            .help(format!(
                "add these lines to the <head> of the site's home page: {}",
                links::html(&home_links).trim_end().replace('\n', " ")
            )),
        );
    }
    let mut twins = match service.host {
        Host::GithubPages => github_pages::lower(documents, diags),
        _ => Vec::new(),
    };
    twins.retain(|t| !choice.skips(&format!("{t}.json")));
    let routes = (service.host == Host::Cloudflare && site_worker && !choice.skips(ROUTES_PATH))
        .then(|| cloudflare::lower_routes(documents, diags));
    let robots = (!choice.skips(robots::PATH))
        .then(|| {
            robots::lower(
                service,
                documents,
                service.site.robots.as_deref(),
                service.site.sitemap,
                diags,
            )
        })
        .flatten();
    Lowered {
        route,
        headers,
        twins,
        routes,
        robots,
        home,
        skip: FILES
            .iter()
            .filter(|f| choice.skips(f))
            .map(|f| f.to_string())
            .collect(),
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
            // wellgen's worker where it routes the query or answers `/` with index.md, unless
            // the site has its own (`routes`) or the build skips it.
            let needed = route || markdown::index(documents).is_some();
            let worker = needed
                && lowered.routes.is_none()
                && !lowered.skip.iter().any(|f| f == WORKER_PATH);
            if worker {
                out.push(Artifact {
                    path: WORKER_PATH.into(),
                    body: cloudflare::worker(documents, route).into_bytes().into(),
                    serving: None,
                });
            } else {
                out.push(Artifact {
                    path: REDIRECTS_PATH.into(),
                    body: cloudflare::redirects().into_bytes().into(),
                    serving: None,
                });
            }
            if let Some(routes) = &lowered.routes {
                out.push(cloudflare::routes(routes));
            }
            out.push(Artifact {
                path: NOT_FOUND_PATH.into(),
                body: cloudflare::NOT_FOUND_PAGE.as_bytes().to_vec().into(),
                serving: None,
            });
            out.extend(headers);
        }
        Host::Vercel => {
            let markdown = markdown::index(documents).is_some()
                && !lowered.skip.iter().any(|f| f == markdown::INDEX_PATH);
            out.push(vercel::emit(
                documents,
                route,
                lowered.home.as_deref(),
                markdown,
            ));
        }
        Host::GithubPages => out.extend(github_pages::render(documents, &lowered.twins)),
        Host::Generic => {
            // The `.htaccess` and nginx routes work; only the documents' links cannot count on them.
            let serve_route = has_query_pair(documents);
            out.extend(headers);
            let home = lowered.home.as_deref();
            let markdown = markdown::index(documents).is_some()
                && !lowered.skip.iter().any(|f| f == markdown::INDEX_PATH);
            out.push(generic::nginx(documents, serve_route, home, markdown));
            out.push(generic::htaccess(documents, serve_route, home, markdown));
        }
    }
    out.extend(lowered.robots.as_deref().map(robots::render));
    out.extend(markdown::index(documents));
    out.retain(|a| !lowered.skip.contains(&a.path));
    out
}

/// Whether the host file at `path` configures the web server rather than being published:
/// the writer puts it beside the output, where the user says (`--server-config`), never into
/// the folder the server publishes.
pub fn is_server_config(path: &str) -> bool {
    path == generic::NGINX_PATH
}

/// `lower` then `render`, every host file, nothing known of the site: the host files, their
/// diagnostics into `diags`.
pub fn emit(service: &Service, documents: &[Artifact], diags: &mut Diagnostics) -> Vec<Artifact> {
    let lowered = lower(service, documents, &Choice::all(&[]), false, diags);
    render(service, documents, &lowered)
}

fn has_query_pair(artifacts: &[Artifact]) -> bool {
    let has = |path: &str| artifacts.iter().any(|a| a.path == path);
    has(rfc002::DISCOVERY_PATH) && has(openapi::DISCOVERY_PATH)
}

/// Whether this build routes `/api/discovery?format=openapi`, warning where the host cannot.
fn query_route(service: &Service, artifacts: &[Artifact], diags: &mut Diagnostics) -> bool {
    let host = service.host;
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
    if service.routes_query() {
        return true;
    }
    if host.routes_query() {
        // The build leaves the routing file out, or the site has its own: said where decided.
        return false;
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
             routes it; on your own Apache the generic host's .htaccess, and on nginx the \
             snippet `--server-config DIR` writes, route {}?format=openapi to {}",
            rfc002::DISCOVERY_PATH,
            openapi::DISCOVERY_PATH
        )),
    );
    false
}
