//! The answer to one request on a published folder, as the host it was built for answers it:
//! Cloudflare Pages in `super::cloudflare`; Netlify and the hosts that do not read `_headers`
//! here (redirects, then the file, then `404.html`). Pure over the folder's current contents
//! (re-read per request, so rebuilds show at once); the HTTP server only carries the `Reply`.

use std::fs;
use std::path::{Component, Path, PathBuf};

use super::redirects_file::RedirectsFile;
use crate::emit::hosts::cloudflare::WORKER_PATH as WORKER;
use crate::emit::hosts::headers::PATH as HEADERS;
use crate::emit::hosts::headers_file::{Composition, HeadersFile};
use crate::emit::hosts::netlify::REDIRECTS_PATH as REDIRECTS;
use crate::model::Host;

/// A published folder, answered the way `host` answers it.
#[derive(Debug, Clone)]
pub struct Site {
    root: PathBuf,
    host: Host,
    /// Cloudflare's reading of the host files, kept between requests.
    pages: std::sync::Arc<super::cloudflare::RulesCache>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    /// The value of the header `name` (any case), as a client reads it.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl Site {
    /// The folder answered as the host its last build was for (`host_of_build`).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let host = host_of_build(&root);
        Self {
            root,
            host,
            pages: Default::default(),
        }
    }

    /// The folder answered as `host` answers it.
    pub fn with_host(mut self, host: Host) -> Self {
        self.host = host;
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn host(&self) -> Host {
        self.host
    }

    /// How this host combines a header several `_headers` blocks set. Hosts that do not read
    /// `_headers` (Vercel, GitHub Pages) get Cloudflare's joining: the reading under which an
    /// overlap shows.
    fn composition(&self) -> Composition {
        self.host
            .descriptor()
            .headers
            .map_or(Composition::Join, |h| h.composition)
    }

    /// The URL paths of the documents the last build wrote (from `.wellgen-manifest`), host
    /// files left out.
    pub fn documents(&self) -> Vec<String> {
        crate::write::manifest_paths(&self.root)
            .into_iter()
            .filter(|l| !is_hidden(l) && !crate::emit::hosts::is_host_file(l))
            .collect()
    }

    /// What the host files say is wrong, for the preview to print (Cloudflare's limits too).
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let headers = self.read(HEADERS);
        if self.answers().own_rules {
            out.extend(super::cloudflare::problems(&self.root));
            if let Some(text) = &headers {
                out.extend(crate::emit::hosts::headers::overlaps(text));
            }
        } else {
            if let Some(text) = &headers {
                out.extend(HeadersFile::parse(text).problems);
                out.extend(crate::emit::hosts::headers::cloudflare_limits(text));
                out.extend(crate::emit::hosts::headers::overlaps(text));
            }
            if let Some(text) = self.read(REDIRECTS) {
                let file = RedirectsFile::parse(&text);
                out.extend(
                    file.cloudflare_limits(&text)
                        .into_iter()
                        .map(|p| format!("{p} (fine on Netlify)")),
                );
                out.extend(file.problems);
            }
        }
        let worker = self.read(WORKER);
        if self.answers().own_rules
            && let Some(text) = worker
            && super::cloudflare::worker::Worker::parse(&text).is_none()
        {
            out.push(
                "_worker.js is not run here: its routes are missing from this preview; \
                 `npx wrangler pages dev` runs it (see docs/hosting.md)"
                    .into(),
            );
        }
        out
    }

    /// Answers `method url` (a request target: a path and an optional query). On Cloudflare,
    /// what Pages answers (`super::cloudflare`). Elsewhere GET and HEAD get the file; any other
    /// method (a CORS preflight's `OPTIONS` too) gets what `wrangler pages dev` answers: 405
    /// with the `_headers` rules of the path and no body. Netlify's answer is not established
    /// (docs/hosting.md).
    pub fn respond_to(&self, method: &str, url: &str) -> Reply {
        self.respond_accepting(method, url, "")
    }

    /// [`Self::respond_to`] for a request with this `Accept` header: on Cloudflare, wellgen's
    /// worker answers `text/markdown` with a page's Markdown twin.
    pub fn respond_accepting(&self, method: &str, url: &str, accept: &str) -> Reply {
        if self.answers().own_rules {
            return super::cloudflare::respond(&self.root, &self.pages, method, url, accept);
        }
        let Some((path, query)) = parse_request(url) else {
            return text_reply(400, "400 Bad Request\n");
        };
        if method != "GET" && method != "HEAD" {
            let headers = match self.read(HEADERS) {
                Some(text) if !self.hides(&path) => {
                    HeadersFile::parse(&text).headers_for(&path, self.composition())
                }
                _ => Vec::new(),
            };
            return Reply {
                status: 405,
                headers,
                body: Vec::new(),
            };
        }
        if self.hides(&path) {
            return self.not_found();
        }
        self.respond_static(&path, &query)
    }

    /// Answers `GET url`.
    pub fn respond(&self, url: &str) -> Reply {
        self.respond_to("GET", url)
    }

    /// The answer of the static files and their `_headers` and `_redirects`.
    fn respond_static(&self, path: &str, query: &[(String, String)]) -> Reply {
        let headers = self.read(HEADERS).map(|t| HeadersFile::parse(&t));
        let redirects = self.read(REDIRECTS).map(|t| RedirectsFile::parse(&t));
        let rule_headers = |p: &str| {
            headers
                .as_ref()
                .map(|h| h.headers_for(p, self.composition()))
                .unwrap_or_default()
        };
        let exists = |p: &str| self.file_for(p).is_some();
        if let Some(r) = redirects.and_then(|r| r.resolve(path, query, exists)) {
            if (300..400).contains(&r.status) {
                let mut reply = text_reply(r.status, "");
                reply.headers.push(("Location".into(), r.to));
                return reply;
            }
            let target = r.to.split_once('?').map_or(r.to.as_str(), |(p, _)| p);
            if target.contains("://") {
                return text_reply(502, "502: proxying to another site is not previewed\n");
            }
            return match self.file_for(target) {
                Some(file) => self.file_reply(r.status, &file, rule_headers(path)),
                None => self.not_found(),
            };
        }
        match self.file_for(path) {
            Some(file) => self.file_reply(200, &file, rule_headers(path)),
            None => self.not_found(),
        }
    }

    /// The text of the file at the URL `path` (a host file: `/_headers`), if it can be read.
    fn read(&self, path: &str) -> Option<String> {
        fs::read_to_string(self.root.join(path.trim_start_matches('/'))).ok()
    }

    /// The file published at a URL path: the file itself, or a folder's `index.html`, and on
    /// Netlify a page without its `.html` (its "pretty URLs": `/about` is about.html or
    /// about/index.html; where both exist, about.html, as `netlify dev` looks them up); never
    /// outside the folder (no `..`, no symlink out).
    fn file_for(&self, path: &str) -> Option<PathBuf> {
        let rel = Path::new(path.trim_start_matches('/'));
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return None;
        }
        let file = self.root.join(rel);
        let page = (self.answers().pretty_urls && !path.ends_with('/') && !file.is_file())
            .then(|| {
                self.root
                    .join(format!("{}.html", path.trim_start_matches('/')))
            })
            .filter(|page| page.is_file());
        let file = match page {
            Some(page) => page,
            None if path.ends_with('/') || file.is_dir() => file.join("index.html"),
            None => file,
        };
        let real = file.canonicalize().ok()?;
        let root = self.root.canonicalize().ok()?;
        (real.starts_with(&root) && real.is_file()).then_some(real)
    }

    fn file_reply(&self, status: u16, file: &Path, rules: Vec<(String, String)>) -> Reply {
        let Ok(body) = fs::read(file) else {
            return text_reply(500, "500: the file cannot be read\n");
        };
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let mut headers = Vec::new();
        if !rules
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
        {
            headers.push(("Content-Type".into(), content_type(name).into()));
        }
        headers.extend(rules);
        Reply {
            status,
            headers,
            body,
        }
    }

    fn not_found(&self) -> Reply {
        match self.file_for("/404.html") {
            Some(file) => self.file_reply(404, &file, Vec::new()),
            None => text_reply(404, "404 Not Found\n"),
        }
    }
}

/// The host the folder's last build was for, from the host files its manifest lists
/// ([`Host::of_build`]).
pub fn host_of_build(root: &Path) -> Host {
    Host::of_build(&crate::write::manifest_paths(root))
}

/// Host files a host reads but never publishes, and the writer's manifest: the preview
/// answers them with 404 too (on Cloudflare, the files its deploy leaves out instead:
/// `super::cloudflare`).
fn is_hidden(path: &str) -> bool {
    crate::emit::hosts::is_hidden(path)
}

/// Whether a name of `path` starts with `.`, `/.well-known/` aside: Netlify publishes no
/// such file or folder (`.env`, `.git/config`, `.htpasswd`).
fn is_dotfile(path: &str) -> bool {
    path.split('/')
        .enumerate()
        .any(|(i, name)| name.starts_with('.') && !(i == 1 && name == ".well-known"))
}

impl Site {
    /// Whether this host answers `path` with a 404 whatever the folder holds.
    fn hides(&self, path: &str) -> bool {
        is_hidden(path) || (self.answers().hides_dotfiles && is_dotfile(path))
    }

    /// How the host answers beyond `_headers`.
    fn answers(&self) -> crate::emit::hosts::Answers {
        self.host.descriptor().answers
    }
}

fn text_reply(status: u16, text: &str) -> Reply {
    Reply {
        status,
        headers: vec![("Content-Type".into(), "text/plain; charset=utf-8".into())],
        body: text.as_bytes().to_vec(),
    }
}

/// The media type static hosts give a file by its extension; unknown ones (and none) get
/// application/octet-stream, which is why `_headers` names the type of extensionless files.
pub fn content_type(name: &str) -> &'static str {
    match name
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
    {
        Some(ext) => match ext.as_str() {
            "json" => "application/json",
            "md" => "text/markdown; charset=utf-8",
            "txt" => "text/plain; charset=utf-8",
            "html" | "htm" => "text/html; charset=utf-8",
            "js" | "mjs" => "text/javascript; charset=utf-8",
            "css" => "text/css; charset=utf-8",
            "xml" => "application/xml",
            "svg" => "image/svg+xml",
            "png" => "image/png",
            "jpg" | "jpeg" => "image/jpeg",
            "ico" => "image/x-icon",
            "webp" => "image/webp",
            "pdf" => "application/pdf",
            "wasm" => "application/wasm",
            _ => "application/octet-stream",
        },
        None => "application/octet-stream",
    }
}

/// A request target's decoded path and query pairs; `None` if the path is not absolute or has a
/// bad escape (a query pair with one is dropped).
pub(crate) fn parse_request(url: &str) -> Option<(String, Vec<(String, String)>)> {
    let (raw_path, raw_query) = url.split_once('?').unwrap_or((url, ""));
    let path = percent_decode(raw_path).filter(|p| p.starts_with('/'))?;
    let query = raw_query
        .split('&')
        .filter(|p| !p.is_empty())
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            Some((
                percent_decode(&k.replace('+', " "))?,
                percent_decode(&v.replace('+', " "))?,
            ))
        })
        .collect();
    Some((path, query))
}

/// Decodes `%XX` escapes; `None` for a bad escape or bytes that are not UTF-8.
pub(super) fn percent_decode(s: &str) -> Option<String> {
    // The crate passes a `%` without two hex digits through; a request with one is refused.
    let bad = s.match_indices('%').any(|(i, _)| {
        !s.get(i + 1..i + 3)
            .is_some_and(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    if bad {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(s).decode_utf8().ok()?;
    Some(decoded.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> (tempfile::TempDir, Site) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join(".well-known")).unwrap();
        fs::create_dir_all(root.join("api")).unwrap();
        fs::write(root.join(".well-known/ai"), "{\"a\":1}\n").unwrap();
        fs::write(root.join("api/discovery"), "{\"d\":1}\n").unwrap();
        fs::write(root.join("api/discovery.openapi.json"), "{\"o\":1}\n").unwrap();
        fs::write(root.join("index.html"), "<p>home</p>").unwrap();
        fs::write(
            root.join("_headers"),
            "/.well-known/ai\n  Content-Type: application/json; charset=utf-8\n  Access-Control-Allow-Origin: *\n",
        )
        .unwrap();
        fs::write(
            root.join("_redirects"),
            "/api/discovery format=openapi /api/discovery.openapi.json 200!\n/old /.well-known/ai 301\n",
        )
        .unwrap();
        fs::write(
            root.join(".wellgen-manifest"),
            "# x\n/.well-known/ai\n/_headers\n",
        )
        .unwrap();
        let site = Site::new(root);
        (dir, site)
    }

    #[test]
    fn files_get_their_rules_and_a_type_by_extension() {
        let (_d, site) = site();
        let r = site.respond("/.well-known/ai");
        assert_eq!(r.status, 200);
        assert_eq!(
            r.header("content-type"),
            Some("application/json; charset=utf-8")
        );
        assert_eq!(r.header("access-control-allow-origin"), Some("*"));
        assert_eq!(r.body, b"{\"a\":1}\n");
        let d = site.respond("/api/discovery");
        assert_eq!(d.header("content-type"), Some("application/octet-stream"));
        assert_eq!(site.respond("/").body, b"<p>home</p>");
        assert_eq!(site.documents(), vec!["/.well-known/ai"]);
    }

    #[test]
    fn query_rules_rewrite_and_redirects_redirect() {
        let (_d, site) = site();
        let r = site.respond("/api/discovery?format=openapi");
        assert_eq!(
            (r.status, r.body.as_slice()),
            (200, b"{\"o\":1}\n".as_slice())
        );
        assert_eq!(site.respond("/api/discovery?format=x").body, b"{\"d\":1}\n");
        let moved = site.respond("/old");
        assert_eq!(moved.status, 301);
        assert_eq!(moved.header("location"), Some("/.well-known/ai"));
    }

    #[test]
    fn host_files_escapes_and_missing_paths_are_404() {
        let (d, site) = site();
        for path in [
            "/_headers",
            "/_redirects",
            "/.wellgen-manifest",
            "/nope",
            "/../etc/passwd",
            "/%2e%2e/x",
        ] {
            assert_eq!(site.respond(path).status, 404, "{path}");
        }
        for bad in ["/%zz", "/%+1", "/%-f", "/%4", "/%e9", "x"] {
            assert_eq!(site.respond(bad).status, 400, "{bad}");
        }
        fs::write(d.path().join("404.html"), "gone").unwrap();
        let r = site.respond("/nope");
        assert_eq!((r.status, r.body.as_slice()), (404, b"gone".as_slice()));
    }
}
