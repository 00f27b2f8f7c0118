//! Cloudflare Pages' answer to a request on a published folder: wellgen's `_worker.js` in front
//! (read as data, `worker`), then Pages' static asset server. The rules below are what
//! `wrangler pages dev` 4.86.0 (workerd 1.20260426.1) answered, measured path by path on site
//! folders (`scripts/check-wrangler` keeps comparing them), and read in the asset server it
//! bundles, which Cloudflare shares between Pages and wrangler (`pages-shared/asset-server`).
//!
//! Cloudflare's "Serving Pages" docs agree: a page is served without `.html` and
//! `/about/index.html` moves to `/about/`; the nearest `404.html` up the folder tree answers a
//! missing path with 404; without a top-level `404.html` the site is taken for a single-page
//! app and a missing path gets `/index.html` with 200. Where the docs are silent, wrangler is
//! the reference: the 308s, the headers it adds, `Cache-Control: no-store` on a 404.
//!
//! Where `wrangler pages dev` differs from Pages itself, the preview answers as Pages does:
//! a path below a file (`/data.json/`, `/_headers`) is answered as any missing path, where the
//! dev server fails with 502 (its file lookup meets ENOTDIR); files `wrangler pages deploy`
//! does not upload (`IGNORED_AT_TOP`, `IGNORED_ANYWHERE`) are missing here, where the dev
//! server serves `_routes.json` or `functions/`. Not reproduced: ETags and `304 Not Modified`,
//! `x-server-env: dev`, the `Cache-Control` Pages leaves out when a request carries
//! `Authorization` or `Range`, and `_headers` rules for a whole origin (`rules`).

mod media_type;
pub mod rules;
pub mod worker;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use self::rules::Rules;
use self::worker::Worker;
use super::Reply;
use crate::emit::hosts::{cloudflare, headers, netlify};
use crate::emit::targets::rfc002::QUERY;

/// What every answer of the asset server gets (a worker's own answers and a 5xx excepted),
/// before `_headers` applies: `_headers` may replace or detach them.
const ALLOW_ORIGIN: &str = "*";
const REFERRER_POLICY: &str = "strict-origin-when-cross-origin";
/// On a file's answer, unless `_headers` says otherwise.
const FILE_CACHE: &str = "public, max-age=0, must-revalidate";
/// On every 404, whatever `_headers` says.
const NOT_FOUND_CACHE: &str = "no-store";

/// Paths `wrangler pages deploy` does not upload, so Pages never serves: these names at the
/// top of the folder...
const IGNORED_AT_TOP: [&str; 6] = [
    "_worker.js",
    "_redirects",
    "_headers",
    "_routes.json",
    "functions",
    ".wrangler",
];
/// ...and these at any depth.
const IGNORED_ANYWHERE: [&str; 3] = [".DS_Store", "node_modules", ".git"];

/// The rules last read from a folder's `_headers` and `_redirects`, kept while the files' text
/// stays the same: the files are read on every request (a rebuild shows at once), their rules
/// parsed and their patterns compiled only when they change.
#[derive(Debug, Default)]
pub struct RulesCache(Mutex<Option<(String, String, Arc<Rules>)>>);

impl RulesCache {
    fn rules(&self, root: &Path) -> Arc<Rules> {
        let read = |path: &str| {
            std::fs::read_to_string(root.join(path.trim_start_matches('/'))).unwrap_or_default()
        };
        let (headers, redirects) = (read(headers::PATH), read(netlify::REDIRECTS_PATH));
        let mut cached = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((h, r, rules)) = cached.as_ref()
            && *h == headers
            && *r == redirects
        {
            return Arc::clone(rules);
        }
        let rules = Arc::new(Rules::parse(&headers, &redirects));
        *cached = Some((headers, redirects, Arc::clone(&rules)));
        rules
    }
}

/// Answers `method target` (the request line's target: a path and an optional query) with
/// this `Accept` header, as Pages answers it for the folder at `root`.
pub fn respond(root: &Path, cache: &RulesCache, method: &str, target: &str, accept: &str) -> Reply {
    let Some(url) = request_url(target) else {
        return Reply {
            status: 400,
            headers: Vec::new(),
            body: Vec::new(),
        };
    };
    let worker =
        std::fs::read_to_string(root.join(cloudflare::WORKER_PATH.trim_start_matches('/')))
            .ok()
            .and_then(|text| Worker::parse(&text));
    let assets = Assets {
        root,
        rules: cache.rules(root),
    };
    let Some(worker) = worker else {
        return assets.respond(method, &url);
    };
    // What wellgen's worker does: its own 404 for the manifest, a page's Markdown twin for
    // `Accept: text/markdown`, the query route (`QUERY`) to the OpenAPI file (as a request
    // without the query), `Vary: Accept` on HTML, and its headers on a 2xx answer.
    let mut path = url.path().to_string();
    if worker.private.as_deref() == Some(path.as_str()) {
        return Reply {
            status: 404,
            headers: vec![("content-type".into(), Worker::NOT_FOUND_TYPE.into())],
            body: Worker::NOT_FOUND.into(),
        };
    }
    if let Some(markdown) = &worker.markdown
        && (method == "GET" || method == "HEAD")
        && worker::wants_markdown(accept)
    {
        for twin in worker::markdown_twins(&path) {
            let Ok(twin_url) = url.join(&twin) else {
                continue;
            };
            let mut reply = assets.respond(method, &twin_url);
            let html = reply
                .header("content-type")
                .is_some_and(|t| t.starts_with("text/html"));
            if (200..300).contains(&reply.status) && !html {
                let mut headers = Headers(std::mem::take(&mut reply.headers));
                headers.set("content-type", markdown);
                headers.append("vary", "Accept");
                reply.headers = headers.0;
                return reply;
            }
        }
    }
    let routed = worker.route
        && path == worker.discovery
        && url
            .query_pairs()
            .find(|(k, _)| k == QUERY.param)
            .is_some_and(|(_, v)| v == QUERY.value);
    let mut reply = if routed {
        path = worker.openapi.clone();
        match url.join(&worker.openapi) {
            Ok(openapi) => assets.respond(method, &openapi),
            Err(_) => assets.respond(method, &url),
        }
    } else {
        assets.respond(method, &url)
    };
    if reply
        .header("content-type")
        .is_some_and(|t| t.starts_with("text/html"))
    {
        // A page may have a Markdown twin: caches keep the two answers apart.
        let mut headers = Headers(std::mem::take(&mut reply.headers));
        headers.append("vary", "Accept");
        reply.headers = headers.0;
    }
    if let Some(set) = worker.headers.get(&path)
        && (200..300).contains(&reply.status)
    {
        let mut headers = Headers(std::mem::take(&mut reply.headers));
        for (name, value) in set {
            headers.set(name, value);
        }
        reply.headers = headers.0;
    }
    reply
}

/// What Pages' rules read from the folder, and why it skips a rule (its `_headers` and
/// `_redirects` parsers' findings).
pub fn problems(root: &Path) -> Vec<String> {
    RulesCache::default().rules(root).problems.clone()
}

/// The request's URL as the runtime builds it from the request line: dot segments resolved,
/// the path percent-encoded where needed but not decoded.
fn request_url(target: &str) -> Option<url::Url> {
    url::Url::parse(&format!("http://localhost{target}")).ok()
}

/// Response headers as a JavaScript `Headers` object holds them: lower-case names, one value
/// each (a value appended to is joined with `, `).
struct Headers(Vec<(String, String)>);

impl Headers {
    fn set(&mut self, name: &str, value: &str) {
        let name = name.to_ascii_lowercase();
        self.0.retain(|(n, _)| *n != name);
        self.0.push((name, value.to_string()));
    }

    fn append(&mut self, name: &str, value: &str) {
        let name = name.to_ascii_lowercase();
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some((_, existing)) => {
                existing.push_str(", ");
                existing.push_str(value);
            }
            None => self.0.push((name, value.to_string())),
        }
    }

    fn delete(&mut self, name: &str) {
        self.0.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    }

    fn has(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
    }
}

/// Pages' static asset server over one folder.
struct Assets<'a> {
    root: &'a Path,
    rules: Arc<Rules>,
}

impl Assets<'_> {
    fn respond(&self, method: &str, url: &url::Url) -> Reply {
        let reply = self.generate(method, url);
        if reply.status >= 500 {
            return reply;
        }
        let mut headers = Headers(reply.headers);
        headers.set("access-control-allow-origin", ALLOW_ORIGIN);
        headers.set("referrer-policy", REFERRER_POLICY);
        if headers.has("content-type") {
            headers.set("x-content-type-options", "nosniff");
        }
        // Every matching block in file order, matched on the path as requested (a rewrite's
        // destination gets the rules of the path it was asked for): `! Name` deletes, a name's
        // first value replaces what the response had, a later block's value is appended.
        let mut named = std::collections::BTreeSet::new();
        for block in self.rules.headers(url.path()) {
            for name in &block.unset {
                headers.delete(name);
            }
            for (name, value) in &block.set {
                if named.insert(name.clone()) {
                    headers.set(name, value);
                } else {
                    headers.append(name, value);
                }
            }
        }
        if reply.status == 404 {
            headers.set("cache-control", NOT_FOUND_CACHE);
        }
        Reply {
            status: reply.status,
            headers: headers.0,
            body: reply.body,
        }
    }

    /// The answer before the headers every answer gets: `_redirects`, then the method, then the
    /// file, with Pages' handling of `.html` and `/index`.
    fn generate(&self, method: &str, url: &url::Url) -> Reply {
        let search = match url.query() {
            Some(q) if !q.is_empty() => format!("?{q}"),
            _ => String::new(),
        };
        let mut pathname = url.path().to_string();
        if let Some(rule) = self.rules.redirect(&pathname) {
            let Ok(to) = url.join(&rule.to) else {
                return self.not_found(&pathname);
            };
            if rule.status != 200 {
                return redirect(rule.status, &location(url, &to, &search));
            }
            pathname = to.path().to_string();
        }
        if !method.eq_ignore_ascii_case("GET") && !method.eq_ignore_ascii_case("HEAD") {
            return Reply {
                status: 405,
                headers: Vec::new(),
                body: Vec::new(),
            };
        }
        // Decoded for the file lookup; left as it was where it does not decode (JavaScript's
        // `decodeURIComponent` throws on a bad escape).
        let path = super::site::percent_decode(&pathname).unwrap_or(pathname);
        let moved = |to: String| permanent(&to);
        if let Some(dir) = path.strip_suffix('/') {
            if let Some(file) = self.find(&format!("{path}index.html")) {
                return self.file(&file);
            }
            if let Some(above) = path.strip_suffix("/index/") {
                return moved(format!("{above}/{search}"));
            }
            if self.find(&format!("{dir}.html")).is_some() {
                return moved(format!("/{}{search}", dir.get(1..).unwrap_or("")));
            }
            return self.not_found(&path);
        }
        if let Some(file) = self.find(&path) {
            let Some(stem) = path.strip_suffix(".html") else {
                return self.file(&file);
            };
            if let Some(dir) = stem.strip_suffix("/index") {
                return moved(format!("{dir}/{search}"));
            }
            if self.find(stem).is_some() || stem == "/" {
                return self.file(&file);
            }
            return moved(format!("{stem}{search}"));
        }
        if let Some(dir) = path.strip_suffix("/index") {
            return moved(format!("{dir}/{search}"));
        }
        if let Some(file) = self.find(&format!("{path}.html")) {
            return self.file(&file);
        }
        if self.find(&format!("{path}/index.html")).is_some() {
            return moved(format!("{path}/{search}"));
        }
        self.not_found(&path)
    }

    /// The file Pages publishes at a decoded path: one the deploy uploads, resolved as Node's
    /// `path.join` resolves it, never outside the folder.
    fn find(&self, path: &str) -> Option<PathBuf> {
        let mut parts: Vec<&str> = Vec::new();
        for part in path.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                part => parts.push(part),
            }
        }
        let ignored = parts.first().is_some_and(|p| IGNORED_AT_TOP.contains(p))
            || parts.iter().any(|p| IGNORED_ANYWHERE.contains(p));
        if parts.is_empty() || ignored {
            return None;
        }
        let file = parts.iter().fold(self.root.to_path_buf(), |f, p| f.join(p));
        let real = file.canonicalize().ok()?;
        let root = self.root.canonicalize().ok()?;
        (real.starts_with(&root) && real.is_file()).then_some(real)
    }

    fn file(&self, file: &Path) -> Reply {
        let Ok(body) = std::fs::read(file) else {
            return Reply {
                status: 500,
                headers: Vec::new(),
                body: Vec::new(),
            };
        };
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        Reply {
            status: 200,
            headers: vec![
                ("content-type".into(), media_type::content_type(name)),
                ("cache-control".into(), FILE_CACHE.into()),
            ],
            body,
        }
    }

    /// The nearest `404.html` up the folder tree with status 404; without one, `/index.html`
    /// as a page (a single-page app), else an empty 404.
    fn not_found(&self, path: &str) -> Reply {
        let mut dir = path;
        while !dir.is_empty() {
            dir = &dir[..dir.rfind('/').unwrap_or(dir.len() - 1)];
            if let Some(page) = self.find(&format!("{dir}/404.html")) {
                let mut reply = self.file(&page);
                if reply.status == 200 {
                    reply.status = 404;
                    reply.headers.retain(|(n, _)| n == "content-type");
                }
                return reply;
            }
        }
        match self.find("/index.html") {
            Some(index) => self.file(&index),
            None => Reply {
                status: 404,
                headers: Vec::new(),
                body: Vec::new(),
            },
        }
    }
}

/// A `_redirects` redirect's `Location`: the destination's path (or whole URL, for another
/// origin) with its own query, else the request's, and its fragment.
fn location(request: &url::Url, to: &url::Url, search: &str) -> String {
    let query = match to.query() {
        Some(q) if !q.is_empty() => format!("?{q}"),
        _ => search.to_string(),
    };
    let fragment = to
        .fragment()
        .filter(|f| !f.is_empty())
        .map(|f| format!("#{f}"))
        .unwrap_or_default();
    if to.origin() == request.origin() {
        format!("{}{query}{fragment}", to.path())
    } else {
        let mut bare = to.clone();
        bare.set_query(None);
        bare.set_fragment(None);
        format!("{bare}{query}{fragment}")
    }
}

/// A `_redirects` redirect: 308 without a body, the others with `Redirecting to …` as text.
fn redirect(status: u16, location: &str) -> Reply {
    if status == 308 {
        return Reply {
            status,
            headers: vec![("location".into(), location.into())],
            body: Vec::new(),
        };
    }
    Reply {
        status,
        headers: vec![
            ("location".into(), location.into()),
            ("content-type".into(), "text/plain;charset=UTF-8".into()),
        ],
        body: format!("Redirecting to {location}").into_bytes(),
    }
}

/// Pages' own 308 to a page's canonical path, with leading slashes (and their escapes) folded
/// into one so the `Location` cannot name another host.
fn permanent(location: &str) -> Reply {
    let mut rest = location;
    loop {
        let next = ["/", "\\", "%2F", "%2f", "%5C", "%5c", "%09"]
            .iter()
            .find_map(|p| rest.strip_prefix(p))
            .or_else(|| rest.strip_prefix(char::is_whitespace));
        match next {
            Some(after) => rest = after,
            None => break,
        }
    }
    let location = if rest.len() < location.len() {
        format!("/{rest}")
    } else {
        location.to_string()
    };
    Reply {
        status: 308,
        headers: vec![("location".into(), location)],
        body: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn site(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let file = dir.path().join(path);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(file, text).unwrap();
        }
        dir
    }

    #[test]
    fn pages_are_served_at_their_canonical_path_and_moved_there() {
        let d = site(&[
            ("index.html", "home"),
            ("file.html", "file"),
            ("folder/index.html", "folder"),
            ("both.html", "both"),
            ("both/index.html", "both/"),
            ("404.html", "gone"),
        ]);
        let get = |t: &str| respond(d.path(), &RulesCache::default(), "GET", t, "");
        for (target, status, location, body) in [
            ("/", 200, None, "home"),
            ("/index.html", 308, Some("/"), ""),
            ("/index", 308, Some("/"), ""),
            ("/file", 200, None, "file"),
            ("/file/", 308, Some("/file"), ""),
            ("/file.html?x=1", 308, Some("/file?x=1"), ""),
            ("/folder", 308, Some("/folder/"), ""),
            ("/folder/", 200, None, "folder"),
            ("/folder/index.html", 308, Some("/folder/"), ""),
            ("/folder/index", 308, Some("/folder/"), ""),
            ("/both", 200, None, "both"),
            ("/both/", 200, None, "both/"),
            ("/404.html", 308, Some("/404"), ""),
            ("/404", 200, None, "gone"),
            ("//folder", 308, Some("/folder/"), ""),
            ("/fi%6ce", 200, None, "file"),
        ] {
            let r = get(target);
            assert_eq!(r.status, status, "{target}");
            assert_eq!(r.header("location"), location, "{target}");
            assert_eq!(r.body, body.as_bytes(), "{target}");
        }
    }

    #[test]
    fn every_answer_gets_the_servers_headers_and_a_404_no_store() {
        let d = site(&[("index.html", "home"), ("404.html", "gone")]);
        let r = respond(d.path(), &RulesCache::default(), "GET", "/", "");
        assert_eq!(r.header("access-control-allow-origin"), Some("*"));
        assert_eq!(
            r.header("referrer-policy"),
            Some("strict-origin-when-cross-origin")
        );
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(r.header("cache-control"), Some(FILE_CACHE));
        let moved = respond(d.path(), &RulesCache::default(), "GET", "/index.html", "");
        assert_eq!(moved.header("x-content-type-options"), None);
        assert_eq!(moved.header("cache-control"), None);
        let missing = respond(d.path(), &RulesCache::default(), "GET", "/nope", "");
        assert_eq!(missing.status, 404);
        assert_eq!(missing.header("cache-control"), Some("no-store"));
        assert_eq!(
            missing.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        let options = respond(d.path(), &RulesCache::default(), "OPTIONS", "/", "");
        assert_eq!((options.status, options.body.len()), (405, 0));
        assert_eq!(options.header("access-control-allow-origin"), Some("*"));
        assert_eq!(options.header("x-content-type-options"), None);
    }

    #[test]
    fn the_nearest_404_page_answers_else_the_index_as_a_single_page_app() {
        let d = site(&[
            ("index.html", "home"),
            ("404.html", "top"),
            ("blog/404.html", "blog"),
        ]);
        assert_eq!(
            respond(d.path(), &RulesCache::default(), "GET", "/blog/a/b", "").body,
            b"blog"
        );
        assert_eq!(
            respond(d.path(), &RulesCache::default(), "GET", "/blog/", "").body,
            b"blog"
        );
        assert_eq!(
            respond(d.path(), &RulesCache::default(), "GET", "/docs/x", "").body,
            b"top"
        );
        let spa = site(&[("index.html", "home")]);
        let r = respond(spa.path(), &RulesCache::default(), "GET", "/anything", "");
        assert_eq!((r.status, r.body.as_slice()), (200, b"home".as_slice()));
        let empty = site(&[("a.txt", "a")]);
        let r = respond(empty.path(), &RulesCache::default(), "GET", "/nope", "");
        assert_eq!((r.status, r.body.len()), (404, 0));
        assert_eq!(r.header("content-type"), None);
    }

    #[test]
    fn site_headers_replace_detach_and_404_keeps_no_store() {
        let d = site(&[
            ("index.html", "home"),
            ("404.html", "gone"),
            (
                "_headers",
                "/*\n  Cache-Control: public, max-age=60\n  Access-Control-Allow-Origin: https://a.example\n  \
                 ! Referrer-Policy\n/missing\n  X-Missing: yes\n",
            ),
        ]);
        let r = respond(d.path(), &RulesCache::default(), "GET", "/", "");
        assert_eq!(r.header("cache-control"), Some("public, max-age=60"));
        assert_eq!(
            r.header("access-control-allow-origin"),
            Some("https://a.example")
        );
        assert_eq!(r.header("referrer-policy"), None);
        let missing = respond(d.path(), &RulesCache::default(), "GET", "/missing", "");
        assert_eq!(missing.header("cache-control"), Some("no-store"));
        assert_eq!(missing.header("x-missing"), Some("yes"));
    }

    #[test]
    fn redirects_come_first_and_carry_the_query() {
        let d = site(&[
            ("file.html", "file"),
            ("data.json", "{}"),
            ("shadowed.txt", "s"),
            (
                "_redirects",
                "/shadowed.txt /file\n/r301 /file 301\n/r308 /file 308\n/q /file?a=1\n/rw /data.json 200\n\
                 /rw-html /file.html 200\n/out https://example.com/x 302\n",
            ),
        ]);
        let get = |t: &str| respond(d.path(), &RulesCache::default(), "GET", t, "");
        let r = get("/shadowed.txt");
        assert_eq!((r.status, r.header("location")), (302, Some("/file")));
        assert_eq!(r.body, b"Redirecting to /file");
        assert_eq!(r.header("content-type"), Some("text/plain;charset=UTF-8"));
        assert_eq!(get("/r301?x=1").header("location"), Some("/file?x=1"));
        let r308 = get("/r308");
        assert_eq!((r308.status, r308.body.len()), (308, 0));
        assert_eq!(r308.header("content-type"), None);
        assert_eq!(get("/q?b=2").header("location"), Some("/file?a=1"));
        assert_eq!(get("/rw").body, b"{}");
        assert_eq!(get("/rw-html").header("location"), Some("/file"));
        assert_eq!(
            get("/out?y=2").header("location"),
            Some("https://example.com/x?y=2")
        );
        // Before the method: a preflight to a redirected path is redirected too.
        assert_eq!(
            respond(d.path(), &RulesCache::default(), "OPTIONS", "/r301", "").status,
            301
        );
    }

    #[test]
    fn host_files_and_paths_below_files_are_not_published() {
        let d = site(&[
            ("index.html", "home"),
            ("404.html", "gone"),
            ("data.json", "{}"),
            ("_headers", "/x\n  X: 1\n"),
            ("_routes.json", "{}"),
            ("functions/api.js", "x"),
            ("node_modules/a/b.js", "x"),
            (".env", "SECRET=1"),
            (".wellgen-manifest", "# x"),
        ]);
        for hidden in [
            "/_headers",
            "/_routes.json",
            "/functions/api.js",
            "/node_modules/a/b.js",
            "/data.json/",
            "/../etc/passwd",
        ] {
            assert_eq!(
                respond(d.path(), &RulesCache::default(), "GET", hidden, "").status,
                404,
                "{hidden}"
            );
        }
        // Pages publishes every other file, dotfiles too.
        assert_eq!(
            respond(d.path(), &RulesCache::default(), "GET", "/.env", "").status,
            200
        );
        assert_eq!(
            respond(
                d.path(),
                &RulesCache::default(),
                "GET",
                "/.wellgen-manifest",
                "",
            )
            .status,
            200
        );
    }
}
