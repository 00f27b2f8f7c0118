//! Host files: what each host needs beside the documents to serve them right. Each host is
//! one module with its [`HostDescriptor`] (its build environment, files and how each merges
//! with the site's own, what it routes) and its own checks and files; `Host::descriptor` ties
//! each `model::Host` (named once, by the model's `hosts!` list) to it, and everything that
//! lists hosts or asks a host fact reads the descriptors. Netlify gets `_headers` and a
//! `_redirects` query rule; Cloudflare Pages `_headers`, a `_worker.js` (or, without one, a
//! `_redirects` that keeps the manifest unserved), `_routes.json` beside the site's own worker,
//! and a `404.html`; Vercel a merged `vercel.json`; GitHub Pages `.nojekyll` and `.json` twins;
//! a generic host `_headers`, an nginx snippet and an Apache `.htaccess`. Every host gets
//! wellgen's section of robots.txt and `index.md`.

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

use super::Choice;
use super::targets::rfc002;
use super::{Artifact, Build, Target};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::{Host, Service};
use section::Placement;

pub use github_pages::NOJEKYLL_PATH;

/// The writer's record of what it wrote (`write::MANIFEST`): in the output folder, never to be
/// published, so the host files keep it hidden where a host would serve it.
pub const MANIFEST_PATH: &str = "/.wellgen-manifest";

/// What a host is, for everything that lists hosts or asks a host fact.
#[derive(Debug)]
pub struct HostDescriptor {
    /// How messages name it.
    pub called: &'static str,
    /// What it gets, one line: `--host`'s help.
    pub help: &'static str,
    /// The variable its build image sets, with the value there (`NETLIFY=true`): a build run
    /// by the host is for the host (`pipeline::host_from_env`). `None` where the host has no
    /// build image of its own.
    pub env: Option<&'static str>,
    /// Every file it may write beside the documents, each with how
    /// it merges with the site's own. robots.txt and `index.md` are every host's
    /// ([`EVERY_HOST`]).
    pub files: &'static [HostFile],
    /// The file of `files` that routes the query route ([`rfc002::QUERY`]), where a rule or a
    /// worker can: documents link to the route there, elsewhere to the file it serves.
    pub route: Option<&'static str>,
    /// How it reads `_headers`, for the hosts that do.
    pub headers: Option<headers::Dialect>,
    /// Files of `files` that, in a build's manifest, say the build was for this host (with
    /// every host file of the build one of its `files`): [`Host::of_build`].
    pub marks: &'static [&'static str],
    /// How it answers requests beyond `_headers`, for `wellgen serve`.
    pub answers: Answers,
    /// The host's own checks, run after those every host shares (its `_headers`) and before
    /// robots.txt's, filling its part of [`Lowered`].
    pub lower: fn(&Context, &mut Lowered, &mut Diagnostics),
    /// Its own files, from the documents and what `lower` decided; pure.
    pub render: fn(&[Artifact], &Lowered) -> Vec<Artifact>,
}

/// How a host answers requests, where hosts differ beyond their `_headers` dialect: what
/// `wellgen serve` imitates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answers {
    /// A page is found without its `.html` (`/about` is about.html or about/index.html).
    pub pretty_urls: bool,
    /// Any file or folder whose name starts with `.` (but `/.well-known`) answers 404.
    pub hides_dotfiles: bool,
    /// It reads `_headers`, `_redirects` and `_worker.js` its own way (paths as patterns, its
    /// own limits and order): the preview answers through `serve::cloudflare`.
    pub own_rules: bool,
}

impl Answers {
    /// A server that answers with the files as they are.
    pub const PLAIN: Self = Self {
        pretty_urls: false,
        hides_dotfiles: false,
        own_rules: false,
    };
}

/// A file a host writes beside the documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostFile {
    /// Its URL path, as `[build] skip` names it.
    pub path: &'static str,
    /// How the writer combines it with the site's own file at that path.
    pub merge: Merge,
    /// Configuration for a web server the user runs (the nginx snippet): written beside the
    /// output, where the user says (`--server-config`), never into the published folder, and
    /// not a file `[build] skip` leaves out.
    pub server_config: bool,
    /// The host reads it as its configuration and never serves it (`_headers`, `vercel.json`):
    /// `wellgen serve` answers it with 404 on every host.
    pub hidden: bool,
}

impl HostFile {
    /// A file in the published folder, served as it is.
    pub const fn published(path: &'static str, merge: Merge) -> Self {
        Self {
            path,
            merge,
            server_config: false,
            hidden: false,
        }
    }

    /// The host's configuration in the published folder, which it reads and never serves.
    pub const fn config(path: &'static str, merge: Merge) -> Self {
        Self {
            hidden: true,
            ..Self::published(path, merge)
        }
    }

    /// Server configuration, written beside the output.
    pub const fn server_config(path: &'static str) -> Self {
        Self {
            path,
            merge: Merge::Owned,
            server_config: true,
            hidden: true,
        }
    }
}

/// The files every host gets: wellgen's section of robots.txt and the Markdown twin of `/`.
pub const EVERY_HOST: [HostFile; 2] = [robots::FILE, markdown::INDEX];

impl Host {
    /// Everything wellgen knows of the host; one module each, beside this one.
    pub fn descriptor(self) -> &'static HostDescriptor {
        match self {
            Host::Netlify => &netlify::DESCRIPTOR,
            Host::Cloudflare => &cloudflare::DESCRIPTOR,
            Host::Vercel => &vercel::DESCRIPTOR,
            Host::GithubPages => &github_pages::DESCRIPTOR,
            Host::Generic => &generic::DESCRIPTOR,
        }
    }

    /// Whether wellgen can make the query route ([`rfc002::QUERY`]) work on this host (a rule
    /// or a worker answers the query); elsewhere documents link to the file it serves.
    pub fn routes_query(self) -> bool {
        self.descriptor().route.is_some()
    }

    /// The host a build was for, from the host files its manifest lists (`paths`): the first
    /// whose files include every host file listed and one of its marks (`_worker.js` or
    /// `404.html` is Cloudflare's, `_redirects` alone Netlify's, `vercel.json` Vercel's,
    /// `.nojekyll` GitHub Pages'); otherwise generic.
    pub fn of_build(paths: &[String]) -> Self {
        let listed: Vec<&str> = paths
            .iter()
            .map(String::as_str)
            .filter(|p| is_host_file(p) && !EVERY_HOST.iter().any(|f| f.path == *p))
            .collect();
        Self::ALL
            .into_iter()
            .find(|h| {
                let d = h.descriptor();
                d.marks.iter().any(|m| listed.contains(m))
                    && listed.iter().all(|p| d.files.iter().any(|f| f.path == *p))
            })
            .unwrap_or_default()
    }
}

impl clap::ValueEnum for Host {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.descriptor().help))
    }
}

/// Every host file wellgen can write, each once: every host's, then every host's own.
fn all_files() -> impl Iterator<Item = &'static HostFile> {
    Host::ALL
        .into_iter()
        .flat_map(|h| h.descriptor().files)
        .chain(&EVERY_HOST)
}

/// Whether `path` is a file no host serves: a host's configuration ([`HostFile::hidden`]) or
/// the writer's manifest. `path` is a URL path, its leading `/` optional.
pub fn is_hidden(path: &str) -> bool {
    let name = path.trim_start_matches('/');
    std::iter::once(MANIFEST_PATH)
        .chain(all_files().filter(|f| f.hidden).map(|f| f.path))
        .any(|p| p.trim_start_matches('/') == name)
}

/// Whether wellgen writes a host file at `path` on some host.
pub fn is_host_file(path: &str) -> bool {
    all_files().any(|f| f.path == path && !f.server_config)
}

/// Every host file wellgen can write into the output folder, as `[build] skip` names them: in
/// host order, then those of every host.
pub fn files() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for f in all_files().filter(|f| !f.server_config) {
        if !out.contains(&f.path) {
            out.push(f.path);
        }
    }
    out
}

/// Whether this build leaves the query route ([`rfc002::QUERY`]) unrouted on a host that could
/// route it: the build leaves out the file that does it, or the site has its own (a
/// Cloudflare adapter's `_worker.js`, `SiteFiles::own_routers`), which wellgen never replaces. Decided
/// before any document is lowered: agents.json links to the route or, without it, to the
/// file it serves ([`Build::route_left_out`]).
pub fn route_left_out(service: &Service, build: &Build, diags: &mut Diagnostics) -> bool {
    let Some(file) = build.host(service).descriptor().route else {
        return false;
    };
    if build.skips(file) {
        return true;
    }
    let linked = build.targets().contains(&Target::Rfc002);
    if build.site.routes_itself(file) {
        if linked {
            diags.push(
                Diagnostic::new(
                    Code::HostWorkerKept,
                    format!(
                        "the output folder has the site's own {f} (an Astro, SvelteKit or Nuxt \
                     Cloudflare adapter writes one): wellgen keeps it and writes none, so \
                     {q} is not routed; agents.json and ai-plugin.json link to \
                     {o} instead, and `{r}` sends wellgen's documents past the worker so \
                     `_headers` applies to them",
                        f = file.trim_start_matches('/'),
                        q = rfc002::QUERY.url(),
                        o = rfc002::QUERY.serves,
                        r = cloudflare::ROUTES_PATH.trim_start_matches('/'),
                    ),
                )
                .help(format!(
                    "nothing to fix; to record the choice and silence this, add \"{file}\" \
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

/// How the writer combines the file at `url_path` with the site's own: as the host file
/// there says, else as a document of wellgen's own.
pub fn merge_of(url_path: &str) -> Merge {
    all_files()
        .find(|f| f.path == url_path)
        .map_or(Merge::Owned, |f| f.merge)
}

/// What the host layer decided for a build's documents, once every host check was made.
#[derive(Debug, Default)]
pub struct Lowered {
    /// The host the files are for.
    host: Host,
    /// Whether the query route ([`rfc002::QUERY`]) is routed on this host.
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

impl Lowered {
    /// Whether the build leaves out the host file at `path`.
    fn skips(&self, path: &str) -> bool {
        self.skip.iter().any(|f| f == path)
    }

    /// The `_headers` file, when the host reads one and a document needs a header.
    fn headers_file(&self) -> Option<Artifact> {
        self.headers.as_deref().map(headers::render)
    }

    /// Whether `/` answers `Accept: text/markdown` with wellgen's `index.md`.
    fn markdown(&self, documents: &[Artifact]) -> bool {
        markdown::index(documents).is_some() && !self.skips(markdown::INDEX_PATH)
    }
}

/// What a host's own checks read.
pub struct Context<'a> {
    pub service: &'a Service,
    /// The build's documents (their paths and serving; bodies are not read).
    pub documents: &'a [Artifact],
    pub choice: &'a Choice,
    /// The site's own files in the output folder.
    pub site: &'a crate::model::SiteFiles,
    /// The home page's links.
    pub home_links: &'a [links::HomeLink],
}

/// A host's `lower` where it has no checks of its own.
fn no_checks(_: &Context, _: &mut Lowered, _: &mut Diagnostics) {}

/// Every check of the host files for the build's host, given the documents built (their paths
/// and serving; bodies are not read): run after the documents are rendered, before anything
/// is written.
pub fn lower(
    service: &Service,
    documents: &[Artifact],
    build: &Build,
    diags: &mut Diagnostics,
) -> Lowered {
    let choice = build.choice;
    let host = build.host(service).descriptor();
    let route = query_route(service, build, documents, diags);
    let mut home_links = links::home(service, documents);
    if markdown::index(documents).is_some() && !choice.skips(markdown::INDEX_PATH) {
        home_links.push(links::HomeLink {
            href: markdown::INDEX_PATH.into(),
            rel: "alternate",
            media_type: Some(markdown::MEDIA_TYPE),
        });
    }
    let home = links::header_value(&home_links);
    let headers = host
        .headers
        .filter(|_| !choice.skips(headers::PATH))
        .and_then(|dialect| headers::lower(&dialect, documents, home.as_deref(), diags));
    let mut lowered = Lowered {
        host: build.host(service),
        route,
        headers,
        home,
        skip: files()
            .into_iter()
            .filter(|f| choice.skips(f))
            .map(|f| f.to_string())
            .collect(),
        ..Lowered::default()
    };
    let context = Context {
        service,
        documents,
        choice,
        site: build.site,
        home_links: &home_links,
    };
    (host.lower)(&context, &mut lowered, diags);
    lowered.robots = (!choice.skips(robots::PATH))
        .then(|| {
            robots::lower(
                service,
                documents,
                build.site.robots.as_deref(),
                build.site.sitemap,
                diags,
            )
        })
        .flatten();
    lowered
}

/// Every host file for the build's host: the host's own, then robots.txt and `index.md`; pure.
pub fn render(documents: &[Artifact], lowered: &Lowered) -> Vec<Artifact> {
    let mut out = (lowered.host.descriptor().render)(documents, lowered);
    out.extend(lowered.robots.as_deref().map(robots::render));
    out.extend(markdown::index(documents));
    out.retain(|a| !lowered.skip.contains(&a.path));
    out
}

/// Whether the host file at `path` configures the web server rather than being published:
/// the writer puts it beside the output, where the user says (`--server-config`), never into
/// the folder the server publishes.
pub fn is_server_config(path: &str) -> bool {
    all_files().any(|f| f.path == path && f.server_config)
}

/// `lower` then `render`, every host file, nothing known of the site: the host files, their
/// diagnostics into `diags`.
pub fn emit(service: &Service, documents: &[Artifact], diags: &mut Diagnostics) -> Vec<Artifact> {
    let choice = Choice::all(&[]);
    let lowered = lower(service, documents, &Build::of(&choice), diags);
    render(documents, &lowered)
}

/// The hosts whose files route the query route, as messages name them: `Netlify, Cloudflare
/// Pages or Vercel`.
fn hosts_that_route() -> String {
    let called: Vec<&str> = Host::ALL
        .into_iter()
        .filter(|h| h.routes_query())
        .map(|h| h.descriptor().called)
        .collect();
    match called.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Whether the build writes both ends of the query route: the document it is asked of and the
/// one it serves.
fn has_query_pair(artifacts: &[Artifact]) -> bool {
    let has = |path: &str| artifacts.iter().any(|a| a.path == path);
    has(rfc002::QUERY.path) && has(rfc002::QUERY.serves)
}

/// Whether this build routes the query route, warning where the host cannot.
fn query_route(
    service: &Service,
    build: &Build,
    artifacts: &[Artifact],
    diags: &mut Diagnostics,
) -> bool {
    let host = build.host(service);
    let query = rfc002::QUERY;
    let has = |path: &str| artifacts.iter().any(|a| a.path == path);
    if !has(query.path) {
        return false;
    }
    if !has(query.serves) {
        diags.push(
            Diagnostic::new(Code::HostMissingTarget, format!(
                "{} and agents.json link to the OpenAPI document, but the `openapi` target is not built",
                rfc002::DISCOVERY_PATH
            ))
            .help("build `--target rfc002,openapi` (or every target) so the links resolve"),
        );
        return false;
    }
    if build.routes_query(service) {
        return true;
    }
    if host.routes_query() {
        // The build leaves the routing file out, or the site has its own: said where decided.
        return false;
    }
    diags.push(
        Diagnostic::new(
            Code::LinkSubstituted,
            format!(
                "{} cannot answer {}: agents.json and ai-plugin.json link to {} instead",
                host.descriptor().called,
                query.url(),
                query.serves
            ),
        )
        .at("deploy.host")
        .help(format!(
            "on {} set `[deploy] host` (or --host) and wellgen routes it; on your own Apache \
             the generic host's .htaccess, and on nginx the snippet `--server-config DIR` \
             writes, route {} to {}",
            hosts_that_route(),
            query.url(),
            query.serves
        )),
    );
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_read_back() {
        let mut names = BTreeSet::new();
        for (host, name) in Host::ALL.into_iter().zip(Host::NAMES) {
            assert_eq!(host.name(), name);
            assert!(names.insert(name), "{name} named twice");
            assert_eq!(Host::parse(name), Some(host));
        }
        assert_eq!(Host::parse("github_pages"), None);
    }

    #[test]
    fn the_hosts_that_route_are_named_from_their_descriptors() {
        assert_eq!(hosts_that_route(), "Netlify, Cloudflare Pages or Vercel");
    }

    #[test]
    fn host_configuration_is_hidden_and_what_agents_read_is_not() {
        for hidden in [
            "/_headers",
            "_redirects",
            "/_worker.js",
            "/_routes.json",
            "/.wellgen-manifest",
            "/.htaccess",
            "/.nojekyll",
            "/wellgen-nginx.conf",
            "vercel.json",
        ] {
            assert!(is_hidden(hidden), "{hidden}");
        }
        for served in [
            "/robots.txt",
            "/index.md",
            "/404.html",
            "/.well-known/ai",
            "/x/_headers",
        ] {
            assert!(!is_hidden(served), "{served}");
        }
    }

    #[test]
    fn each_fact_names_a_file_of_the_host() {
        for host in Host::ALL {
            let d = host.descriptor();
            let has = |path: &str| d.files.iter().any(|f| f.path == path);
            assert!(d.route.is_none_or(has), "{}", host.name());
            assert!(d.marks.iter().all(|m| has(m)), "{}", host.name());
            assert_eq!(d.headers.is_some(), has(headers::PATH), "{}", host.name());
            if let Some(by) = d.env {
                let (name, value) = by.split_once('=').expect("NAME=value");
                assert!(!name.is_empty() && !value.is_empty(), "{by}");
            }
        }
    }

    #[test]
    fn a_file_several_hosts_write_merges_one_way() {
        for f in all_files() {
            assert_eq!(merge_of(f.path), f.merge, "{}", f.path);
            assert!(f.path.starts_with('/'), "{}", f.path);
        }
        assert_eq!(merge_of("/.well-known/ai"), Merge::Owned);
        assert!(is_server_config(generic::NGINX_PATH));
        assert!(!files().contains(&generic::NGINX_PATH));
    }

    #[test]
    fn a_build_is_recognised_by_its_host_files() {
        let of = |paths: &[&str]| {
            Host::of_build(&paths.iter().map(|p| p.to_string()).collect::<Vec<_>>())
        };
        let cases: [(&[&str], Host); 9] = [
            (&["/_redirects", "/_headers", "/robots.txt"], Host::Netlify),
            (&["/_worker.js", "/404.html", "/_headers"], Host::Cloudflare),
            (&["/_redirects", "/404.html", "/_headers"], Host::Cloudflare),
            (&["/vercel.json", "/index.md"], Host::Vercel),
            (&["/.nojekyll"], Host::GithubPages),
            (&["/_headers", "/.htaccess"], Host::Generic),
            (&["/_headers"], Host::Generic),
            (&["/.well-known/ai"], Host::Generic),
            (&[], Host::Generic),
        ];
        for (paths, host) in cases {
            assert_eq!(of(paths), host, "{paths:?}");
        }
    }

    #[test]
    fn the_query_route_joins_two_documents() {
        let docs = |t: Target| t.descriptor().documents.iter().map(|d| d.path);
        let query = rfc002::QUERY;
        assert!(docs(Target::Rfc002).any(|p| p == query.path));
        assert!(docs(Target::OpenApi).any(|p| p == query.serves));
        assert_eq!(query.url(), "/api/discovery?format=openapi");
    }
}
