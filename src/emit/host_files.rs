//! Host files: what each host needs beside the documents to serve them right. Netlify gets
//! `_headers` and a `_redirects` query rule; Cloudflare Pages `_headers`, a `_worker.js` and a
//! `404.html`; Vercel a merged `vercel.json`; GitHub Pages `.nojekyll` and `.json` twins; a
//! generic host `_headers`, an nginx snippet and an Apache `.htaccess`.

use std::collections::BTreeMap;

use super::section::Placement;
use super::{Artifact, adp, headers, openapi, rfc002, server_config, vercel};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Host, Service};

pub const REDIRECTS_PATH: &str = "/_redirects";
pub const WORKER_PATH: &str = "/_worker.js";
pub const NOT_FOUND_PATH: &str = "/404.html";
pub const NOJEKYLL_PATH: &str = "/.nojekyll";
/// The same markers as `_headers`, so the writer merges `_redirects` the same way.
pub use super::section::{BEGIN, END};

/// Whether wellgen can make `?format=openapi` work on this host.
pub fn routes_query(host: Host) -> bool {
    match host {
        Host::Netlify | Host::Cloudflare | Host::Vercel => true,
        Host::GithubPages | Host::Generic => false,
    }
}

/// Host files that may already exist as the user's own and then are kept as they are: any
/// `404.html` stops Cloudflare's fallback to the index page, any `.nojekyll` stops Jekyll.
pub fn keeps_users_file(url_path: &str) -> bool {
    matches!(url_path, NOT_FOUND_PATH | NOJEKYLL_PATH)
}

/// Host files merged as a marked section beyond `_headers` and `_redirects`.
pub fn placement(url_path: &str) -> Option<Placement> {
    // mod_rewrite applies rules in order: ours go before a site's catch-all.
    (url_path == server_config::HTACCESS_PATH).then_some(Placement::Prepend)
}

/// Every host file for `service.host`, given the documents built.
pub fn emit(service: &Service, artifacts: &[Artifact], diags: &mut Diagnostics) -> Vec<Artifact> {
    let route = query_route(service.host, artifacts, diags);
    let mut out = Vec::new();
    match service.host {
        Host::Netlify => {
            if route {
                out.push(Artifact {
                    path: REDIRECTS_PATH.into(),
                    body: netlify_redirects().into_bytes().into(),
                    serving: None,
                });
            }
            out.extend(headers::emit(service.host, artifacts, diags));
        }
        Host::Cloudflare => {
            if route {
                out.push(Artifact {
                    path: WORKER_PATH.into(),
                    body: cloudflare_worker(artifacts).into_bytes().into(),
                    serving: None,
                });
            }
            out.push(Artifact {
                path: NOT_FOUND_PATH.into(),
                body: NOT_FOUND_PAGE.as_bytes().to_vec().into(),
                serving: None,
            });
            out.extend(headers::emit(service.host, artifacts, diags));
        }
        Host::Vercel => out.push(vercel::emit(artifacts, route)),
        Host::GithubPages => out.extend(github_pages(artifacts, diags)),
        Host::Generic => {
            // The `.htaccess` and nginx routes work; only the documents' links cannot count on them.
            let serve_route = has_query_pair(artifacts);
            out.extend(headers::emit(service.host, artifacts, diags));
            out.push(server_config::nginx(artifacts, serve_route));
            out.push(server_config::htaccess(artifacts, serve_route));
        }
    }
    out
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
            Diagnostic::warning(format!(
                "{} and agents.json link to the OpenAPI document, but the `openapi` target is not built",
                rfc002::DISCOVERY_PATH
            ))
            .help("build `--target rfc002,openapi` (or every target) so the links resolve"),
        );
        return false;
    }
    if routes_query(host) {
        return true;
    }
    let which = match host {
        Host::GithubPages => "GitHub Pages",
        _ => "a generic static host",
    };
    diags.push(
        Diagnostic::warning(format!(
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

/// GitHub Pages sets no custom headers and guesses the media type from the extension: every
/// extensionless document is sent as application/octet-stream. `.nojekyll` keeps Jekyll from
/// dropping `/.well-known/` (it skips dot folders). A `.json` twin is added where a document's
/// URL is the publisher's choice (ADP detail files, reached through the index's `detail_url`);
/// the fixed well-known paths cannot move, so each gets a warning instead.
fn github_pages(artifacts: &[Artifact], diags: &mut Diagnostics) -> Vec<Artifact> {
    let mut out = vec![Artifact {
        path: NOJEKYLL_PATH.into(),
        body: Vec::new().into(),
        serving: None,
    }];
    let has = |path: &str| artifacts.iter().any(|a| a.path == path);
    for a in artifacts.iter().filter(|a| a.needs_content_type()) {
        let Some(serving) = &a.serving else {
            continue;
        };
        let twin = format!("{}.json", a.path);
        let json = serving.content_type.starts_with("application/json");
        let movable = a.path.starts_with(adp::DETAIL_PREFIX);
        let mut d = Diagnostic::warning(format!(
            "GitHub Pages will serve {} as application/octet-stream, not {}: it cannot set headers",
            a.path, serving.content_type
        ))
        .at("deploy.host");
        if json && movable && !has(&twin) {
            out.push(Artifact::document(
                twin.clone(),
                a.body.clone(),
                serving.clone(),
            ));
            d = d.help(format!(
                "{twin} holds the same bytes and is served as application/json; agents reach {} \
                 at its fixed URL, so host on Netlify, Cloudflare Pages or Vercel if they must \
                 see the right type",
                a.path
            ));
        } else {
            d = d.help(
                "the spec fixes this URL, so it cannot be renamed; agents that check the media \
                 type need a host that sets headers (Netlify, Cloudflare Pages, Vercel)",
            );
        }
        diags.push(d);
    }
    out
}

/// Cloudflare Pages answers a missing path with the root `index.html` and status 200 (its
/// single-page-app fallback) unless a top-level `404.html` exists: this one turns a missing
/// manifest into a real 404.
pub const NOT_FOUND_PAGE: &str = "<!doctype html>
<!-- Generated by wellgen: with this file Cloudflare Pages answers a missing path with 404
     instead of the site's index page. Replace it with your own 404.html at any time. -->
<html lang=\"en\">
<meta charset=\"utf-8\">
<title>404 Not Found</title>
<h1>404 Not Found</h1>
<p>Nothing is published at this address.</p>
</html>
";

/// wellgen's section of `_redirects`. `200!` rewrites (not redirects) and applies even though
/// `/api/discovery` exists as a file; the rule matches only when `format=openapi` is present.
pub fn netlify_redirects() -> String {
    format!(
        "{BEGIN}\n# Generated by wellgen: edits inside this section are replaced on the next build.\n\
         {path} format=openapi {target} 200!\n{END}\n",
        path = rfc002::DISCOVERY_PATH,
        target = openapi::DISCOVERY_PATH,
    )
}

/// An advanced-mode Pages worker. Cloudflare's `_redirects` ignores query strings (a rule for
/// `/api/discovery?format=openapi` would take over the bare path), so the worker picks the file,
/// and sets the documents' headers itself because `_headers` does not reach worker responses.
pub fn cloudflare_worker(artifacts: &[Artifact]) -> String {
    let headers: BTreeMap<&str, BTreeMap<&str, &str>> = artifacts
        .iter()
        .filter_map(|a| {
            let s = a.serving.as_ref()?;
            let mut h = BTreeMap::new();
            h.insert("Content-Type", s.content_type);
            h.insert("Cache-Control", s.cache_control);
            if s.cors {
                h.insert("Access-Control-Allow-Origin", "*");
            }
            Some((a.path.as_str(), h))
        })
        .collect();
    let table = serde_json::to_string_pretty(&headers).unwrap_or_else(|_| "{}".into());
    WORKER_TEMPLATE
        .replace("__DISCOVERY__", &js_string(rfc002::DISCOVERY_PATH))
        .replace("__OPENAPI__", &js_string(openapi::DISCOVERY_PATH))
        .replace("__HEADERS__", &table)
}

fn js_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

const WORKER_TEMPLATE: &str = r#"// Generated by wellgen for Cloudflare Pages (advanced mode); replaced on every build.
// Routes /api/discovery?format=openapi to the OpenAPI file (Pages' _redirects cannot match a
// query string) and sets the headers of wellgen's documents. Everything else goes to the
// static assets unchanged.
const DISCOVERY = __DISCOVERY__;
const OPENAPI = __OPENAPI__;
const HEADERS = __HEADERS__;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    let path = url.pathname;
    let response;
    if (path === DISCOVERY && url.searchParams.get("format") === "openapi") {
      path = OPENAPI;
      response = await env.ASSETS.fetch(new Request(new URL(OPENAPI, url), request));
    } else {
      response = await env.ASSETS.fetch(request);
    }
    const headers = Object.hasOwn(HEADERS, path) ? HEADERS[path] : null;
    if (headers === null || !response.ok) {
      return response;
    }
    response = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) {
      response.headers.set(name, value);
    }
    return response;
  },
};
"#;
