//! `wellgen serve` over real HTTP on 127.0.0.1: every generated document of every example is
//! requested from the running binary and checked for status, Content-Type, Cache-Control, CORS
//! and its exact bytes; host files stay unpublished, the Netlify query rule routes, a missing
//! path is a 404, and `--watch` rebuilds. A site's own pages are answered as Cloudflare Pages
//! answers them (what `wrangler pages dev` 4.86.0 answered; scripts/check-wrangler compares
//! every path with it) and as Netlify's docs say.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{root, wellgen};
use wellgen::diag::Diagnostics;
use wellgen::emit::{Artifact, Target};
use wellgen::model::Host;
use wellgen::pipeline::emit as emit_all;

/// A running `wellgen serve`, killed when dropped.
struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str], stderr: &Path) -> Server {
    let mut cmd: Command = wellgen();
    let mut child = cmd
        .arg("serve")
        .args(args)
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(stderr).unwrap())
        .spawn()
        .expect("wellgen serve starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let base = first
        .trim()
        .rsplit_once(" at ")
        .map(|(_, url)| url.trim_end_matches('/').to_string())
        .unwrap_or_else(|| {
            panic!(
                "unexpected first line {first:?}; stderr:\n{}",
                std::fs::read_to_string(stderr).unwrap_or_default()
            )
        });
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    // The document URLs follow; drain them so the server never blocks on a full pipe.
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
    });
    Server { child, base }
}

struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One GET over a fresh connection (HTTP/1.1, `Connection: close`).
fn get(base: &str, path: &str) -> Response {
    request(base, "GET", path)
}

/// One request over a fresh connection (HTTP/1.1, `Connection: close`); an `OPTIONS` carries
/// a CORS preflight's headers.
fn request(base: &str, method: &str, path: &str) -> Response {
    let addr = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let preflight = if method == "OPTIONS" {
        "Origin: https://agent.example\r\nAccess-Control-Request-Method: GET\r\n"
    } else {
        ""
    };
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{preflight}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reads the response");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8(raw[..split].to_vec()).unwrap();
    let body = raw[split + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let r = Response {
        status,
        headers,
        body,
    };
    if let Some(len) = r.header("content-length")
        && method != "HEAD"
    {
        assert_eq!(len.parse::<usize>().unwrap(), r.body.len(), "{path}");
    }
    r
}

/// The documents a build of `source` for `host` publishes, as the model says.
fn documents(source: &Path, host: Host) -> Vec<Artifact> {
    let mut diags = Diagnostics::default();
    let mut service = wellgen::pipeline::load(source, &mut diags).expect("source loads");
    service.host = host;
    emit_all(&service, &Target::ALL, &mut diags)
        .into_iter()
        .filter(|a| a.serving.is_some())
        .collect()
}

fn examples() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path().join("service.toml"))
        .filter(|p| p.exists())
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no examples/*/service.toml");
    out
}

/// Every document answers 200 with its bytes and the headers its spec asks for.
fn check_documents(server: &Server, dist: &Path, docs: &[Artifact]) -> usize {
    for a in docs {
        let s = a.serving.as_ref().unwrap();
        let r = get(&server.base, &a.path);
        let at = &a.path;
        assert_eq!(r.status, 200, "{at}");
        let ct = r.header("content-type").unwrap_or_default();
        if a.needs_content_type() {
            assert_eq!(ct, s.content_type, "{at}");
        } else {
            // Inferred from the extension: the same media type, parameters may differ.
            let media = |t: &str| t.split(';').next().unwrap_or_default().trim().to_string();
            assert_eq!(media(ct), media(s.content_type), "{at}");
        }
        assert_eq!(r.header("cache-control"), Some(s.cache_control), "{at}");
        assert_eq!(
            r.header("access-control-allow-origin"),
            s.cors.then_some("*"),
            "{at}"
        );
        let file = std::fs::read(dist.join(a.path.trim_start_matches('/'))).unwrap();
        assert_eq!(r.body, file, "{at}: served bytes differ from the file");
    }
    docs.len()
}

#[test]
fn every_example_is_served_with_its_headers_over_http() {
    let (mut requested, mut routed_queries) = (0, 0);
    for (source, host) in examples()
        .into_iter()
        .flat_map(|s| [(s.clone(), Host::Netlify), (s, Host::Cloudflare)])
    {
        let dist = tempfile::tempdir().unwrap();
        let log = dist.path().join("serve.log");
        let out = dist.path().join("dist");
        let (code, _, stderr) = crate::common::run(
            wellgen()
                .arg("build")
                .arg(&source)
                .arg("-o")
                .arg(&out)
                .args(["--host", host.name(), "-q"]),
        );
        assert_eq!(code, 0, "{stderr}");
        let server = serve(&[out.to_str().unwrap(), "-q"], &log);
        let docs = documents(&source, host);
        assert!(!docs.is_empty());
        requested += check_documents(&server, &out, &docs);
        // Host files are configuration, never documents.
        for hidden in [
            "/_headers",
            "/_redirects",
            "/_worker.js",
            "/.wellgen-manifest",
        ] {
            assert_eq!(get(&server.base, hidden).status, 404, "{hidden}");
        }
        let missing = get(&server.base, "/.well-known/no-such-manifest");
        assert_eq!(missing.status, 404);
        if host == Host::Cloudflare {
            // Cloudflare builds carry a 404.html: the preview answers with it, as Pages does.
            assert!(String::from_utf8_lossy(&missing.body).contains("404 Not Found"));
            assert!(
                missing
                    .header("content-type")
                    .unwrap()
                    .starts_with("text/html")
            );
        }
        if host == Host::Netlify && out.join("_redirects").exists() {
            let routed = get(&server.base, "/api/discovery?format=openapi&x=1");
            assert_eq!(routed.status, 200);
            assert_eq!(
                routed.body,
                std::fs::read(out.join("api/discovery.openapi.json")).unwrap()
            );
            routed_queries += 1;
            let plain = get(&server.base, "/api/discovery?format=yaml");
            assert_eq!(
                plain.body,
                std::fs::read(out.join("api/discovery")).unwrap()
            );
        }
        drop(server);
    }
    assert!(requested > 50, "only {requested} documents requested");
    assert!(routed_queries > 0, "no example exercised the query rule");
}

#[test]
fn it_prints_every_document_url_and_refuses_a_missing_folder() {
    let dist = crate::common::build(&root().join("examples/exampleshop/service.toml"), &[]);
    let mut child = wellgen()
        .args(["serve", "--port", "0"])
        .arg(dist.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    let docs = documents(
        &root().join("examples/exampleshop/service.toml"),
        Host::Generic,
    );
    for _ in 0..=docs.len() {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        lines.push(line.trim_end().to_string());
    }
    let _ = child.kill();
    let _ = child.wait();
    let base = lines[0]
        .rsplit_once(" at ")
        .unwrap()
        .1
        .trim_end_matches('/');
    let mut printed: Vec<&str> = lines[1..].iter().map(|l| l.trim()).collect();
    printed.sort();
    let mut expected: Vec<String> = docs.iter().map(|a| format!("{base}{}", a.path)).collect();
    expected.sort();
    assert_eq!(printed, expected);

    let (code, _, stderr) =
        crate::common::run(wellgen().args(["serve", "--port", "0", "/no/such/dir"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("is not a folder"), "{stderr}");
}

#[test]
fn watch_rebuilds_when_the_source_changes() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    let original =
        std::fs::read_to_string(root().join("examples/exampleshop/service.toml")).unwrap();
    std::fs::write(&source, &original).unwrap();
    let out = work.path().join("dist");
    let server = serve(
        &[
            out.to_str().unwrap(),
            "--source",
            source.to_str().unwrap(),
            "--watch",
            "--host",
            "netlify",
        ],
        &work.path().join("serve.log"),
    );
    let before = get(&server.base, "/.well-known/ai");
    assert_eq!(before.status, 200);
    assert!(out.join("_redirects").exists() || !out.join("api/discovery").exists());
    let changed = original.replacen("description = \"", "description = \"Freshly rebuilt. ", 1);
    assert_ne!(changed, original, "the example has a description to change");
    // Modification times can be coarse: make sure the new one differs.
    std::thread::sleep(Duration::from_millis(1100));
    std::fs::write(&source, &changed).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let r = get(&server.base, "/.well-known/ai");
        if String::from_utf8_lossy(&r.body).contains("Freshly rebuilt.") {
            assert_eq!(r.status, 200);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no rebuild within 30 s; log:\n{}",
            std::fs::read_to_string(work.path().join("serve.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn the_request_log_escapes_control_characters() {
    let dist = crate::common::build(&root().join("examples/exampleshop/service.toml"), &[]);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("serve.log");
    let server = serve(&[dist.path().to_str().unwrap()], &log);
    // A client's request target reaches the log line: ESC [2J would clear the terminal.
    assert_eq!(get(&server.base, "/a\u{1b}[2Jb").status, 404);
    drop(server);
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(!logged.contains('\u{1b}'), "{logged:?}");
    assert!(logged.contains("GET /a\\u{1b}[2Jb -> 404"), "{logged:?}");
}

/// Every value a response carries for `name` (repeated lines kept).
fn values<'a>(r: &'a Response, name: &str) -> Vec<&'a str> {
    r.headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
        .collect()
}

/// A site whose own `_headers` has a `/*` block, with bookshelf built into it for `host`.
fn site_with_star_block(host: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<p>home</p>\n").unwrap();
    std::fs::write(
        dir.path().join("_headers"),
        "/*\n  Cache-Control: public, max-age=0, must-revalidate\n  \
         Access-Control-Allow-Origin: https://mysite.example\n  X-Site: kept\n",
    )
    .unwrap();
    let source = root().join("examples/bookshelf/service.toml");
    let (code, _, stderr) = crate::common::run(wellgen().args([
        "build",
        "-q",
        source.to_str().unwrap(),
        "-o",
        dir.path().to_str().unwrap(),
        "--host",
        host,
    ]));
    assert_eq!(code, 0, "{stderr}");
    dir
}

#[test]
fn serve_composes_a_sites_star_block_as_each_host_does() {
    // wrangler 4.86.0 answers exactly these (scripts/check-wrangler compares them header for
    // header); Netlify's `netlify dev` lets the later block replace.
    for (build_host, serve_host) in [("cloudflare", "cloudflare"), ("netlify", "netlify")] {
        let site = site_with_star_block(build_host);
        let log = site.path().join("serve.log");
        let dir = site.path().to_str().unwrap().to_string();
        let server = serve(&[&dir, "--host", serve_host], &log);
        for path in ["/.well-known/ai", "/api/discovery"] {
            let r = get(&server.base, path);
            assert_eq!(r.status, 200, "{serve_host} {path}");
            assert_eq!(
                values(&r, "access-control-allow-origin"),
                ["*"],
                "{serve_host} {path}"
            );
            let cache = values(&r, "cache-control");
            assert_eq!(cache.len(), 1, "{serve_host} {path}: {cache:?}");
            assert!(cache[0].starts_with("public, max-age="), "{cache:?}");
            assert!(
                !cache[0].contains("must-revalidate"),
                "{serve_host} {path}: {cache:?}"
            );
            assert_eq!(values(&r, "x-site"), ["kept"]);
        }
        let home = get(&server.base, "/");
        assert_eq!(
            values(&home, "access-control-allow-origin"),
            ["https://mysite.example"]
        );
        assert_eq!(
            values(&home, "cache-control"),
            ["public, max-age=0, must-revalidate"]
        );
        // A CORS preflight: what wrangler answers, 405 with the path's rules and no body.
        let pre = request(&server.base, "OPTIONS", "/.well-known/ai");
        assert_eq!(pre.status, 405, "{serve_host}");
        assert_eq!(values(&pre, "access-control-allow-origin"), ["*"]);
        assert!(pre.body.is_empty());
    }
}

#[test]
fn serve_runs_wellgens_worker_route_and_headers_on_cloudflare() {
    let site = site_with_star_block("cloudflare");
    let log = site.path().join("serve.log");
    let dir = site.path().to_str().unwrap().to_string();
    let server = serve(&[&dir], &log);
    let routed = get(&server.base, "/api/discovery?format=openapi");
    let openapi = std::fs::read(site.path().join("api/discovery.openapi.json")).unwrap();
    assert_eq!(
        (routed.status, routed.body.as_slice()),
        (200, openapi.as_slice())
    );
    // The worker sends the Content-Type `_headers` gives `.json` files (hosts send it so).
    assert_eq!(
        values(&get(&server.base, "/openapi.json"), "content-type"),
        ["application/json"]
    );
    drop(server);
    let stderr = std::fs::read_to_string(&log).unwrap();
    assert!(!stderr.contains("_worker.js is not run here"), "{stderr}");
}

#[test]
fn a_generic_build_shows_the_joined_values_and_names_the_rule() {
    let site = site_with_star_block("generic");
    let log = site.path().join("serve.log");
    let dir = site.path().to_str().unwrap().to_string();
    let server = serve(&[&dir], &log);
    let r = get(&server.base, "/.well-known/ai");
    assert_eq!(
        values(&r, "access-control-allow-origin"),
        ["https://mysite.example, *"]
    );
    drop(server);
    let stderr = std::fs::read_to_string(&log).unwrap();
    assert!(
        stderr.contains("warning: _headers:1: `/*` also sets Access-Control-Allow-Origin"),
        "{stderr}"
    );
}

/// Threads of the process `pid` (Linux), to see the server does not grow with its clients.
fn threads(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
}

/// One client pipelining requests without reading, many idle connections and a huge request
/// line neither stall the others nor grow the server.
#[test]
fn one_client_cannot_stall_or_bloat_the_server() {
    let dist = crate::common::build(&root().join("examples/bookshelf/service.toml"), &["-q"]);
    let dir = tempfile::tempdir().unwrap();
    let server = serve(
        &[dist.path().to_str().unwrap(), "-q"],
        &dir.path().join("log"),
    );
    let addr = server.base.trim_start_matches("http://").to_string();
    // Pipelines 3,000 requests and never reads: its answers fill the socket buffers.
    let mut greedy = TcpStream::connect(&addr).unwrap();
    let many = "GET /.well-known/ai HTTP/1.1\r\nHost: x\r\n\r\n".repeat(3000);
    greedy
        .set_write_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let _ = greedy.write_all(many.as_bytes());
    let start = Instant::now();
    assert_eq!(get(&server.base, "/.well-known/ai").status, 200);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    // 300 connections that send half a request line and wait: the server keeps a fixed number
    // of threads (the others wait in a bounded queue or are told 503), and frees a worker as
    // soon as its client hangs up.
    let idle: Vec<TcpStream> = (0..300)
        .filter_map(|_| {
            let mut s = TcpStream::connect(&addr).ok()?;
            s.write_all(b"GET /ai").ok()?;
            Some(s)
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    if let Some(n) = threads(server.child.id()) {
        assert!(n <= 24, "{n} threads");
    }
    drop(idle);
    drop(greedy);
    // A request line longer than the limit is refused without being buffered.
    let mut huge = TcpStream::connect(&addr).unwrap();
    huge.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = write!(huge, "GET /{} HTTP/1.1\r\n\r\n", "a".repeat(100_000));
    let mut answer = String::new();
    let _ = huge.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 414"), "{answer:.60}");
    // And the server still answers.
    let deadline = Instant::now() + Duration::from_secs(12);
    while get(&server.base, "/.well-known/ai").status != 200 {
        assert!(Instant::now() < deadline, "the server never recovered");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Netlify publishes no dotfile or dot-folder but `/.well-known/`: the preview hides them too.
#[test]
fn netlify_preview_hides_dotfiles_but_well_known() {
    let dist = crate::common::build(&root().join("examples/bookshelf/service.toml"), &["-q"]);
    std::fs::write(dist.path().join(".env"), "SECRET=1\n").unwrap();
    std::fs::write(dist.path().join(".htpasswd"), "u:p\n").unwrap();
    std::fs::create_dir_all(dist.path().join(".git")).unwrap();
    std::fs::write(dist.path().join(".git/config"), "[core]\n").unwrap();
    std::fs::create_dir_all(dist.path().join("a/.hidden")).unwrap();
    std::fs::write(dist.path().join("a/.hidden/x.txt"), "x\n").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let path = dist.path().to_str().unwrap();
    let server = serve(&[path, "--host", "netlify"], &log);
    for hidden in ["/.env", "/.htpasswd", "/.git/config", "/a/.hidden/x.txt"] {
        assert_eq!(get(&server.base, hidden).status, 404, "{hidden}");
    }
    assert_eq!(get(&server.base, "/.well-known/ai").status, 200);
}

/// A site folder of `(path, text)` files.
fn site_folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let file = dir.path().join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    dir
}

/// A site's own pages, with a `_headers` `/*` block and a `_redirects`.
const SITE: &[(&str, &str)] = &[
    ("index.html", "<p>home</p>\n"),
    ("about.html", "<p>about</p>\n"),
    ("docs/index.html", "<p>docs</p>\n"),
    ("404.html", "<p>not found</p>\n"),
    ("blog/404.html", "<p>no such post</p>\n"),
    ("style.css", "p {}\n"),
    (
        "_headers",
        "/*\n  Cache-Control: public, max-age=120\n  X-Site: kept\n/style.css\n  ! X-Site\n",
    ),
    (
        "_redirects",
        "/old /about\n/moved /about 301\n/style.css /docs/\n/forced /about 200!\n",
    ),
];

fn serve_site(files: &[(&str, &str)], host: &str) -> (tempfile::TempDir, Server) {
    let site = site_folder(files);
    let log = tempfile::NamedTempFile::new().unwrap();
    let server = serve(&[site.path().to_str().unwrap(), "--host", host], log.path());
    (site, server)
}

#[test]
fn cloudflare_adds_what_pages_adds_to_every_answer() {
    let (_site, server) = serve_site(&SITE[..6], "cloudflare");
    let page = get(&server.base, "/about");
    assert_eq!(
        (page.status, page.body.as_slice()),
        (200, b"<p>about</p>\n".as_slice())
    );
    assert_eq!(values(&page, "access-control-allow-origin"), ["*"]);
    assert_eq!(
        values(&page, "referrer-policy"),
        ["strict-origin-when-cross-origin"]
    );
    assert_eq!(values(&page, "x-content-type-options"), ["nosniff"]);
    assert_eq!(
        values(&page, "cache-control"),
        ["public, max-age=0, must-revalidate"]
    );
    assert_eq!(values(&page, "content-type"), ["text/html; charset=utf-8"]);
    // The same on HEAD, without the body; a preflight's 405 gets the two headers only.
    let head = request(&server.base, "HEAD", "/about");
    assert_eq!((head.status, head.body.len()), (200, 0));
    assert_eq!(
        values(&head, "cache-control"),
        values(&page, "cache-control")
    );
    let pre = request(&server.base, "OPTIONS", "/about");
    assert_eq!(pre.status, 405);
    assert_eq!(values(&pre, "access-control-allow-origin"), ["*"]);
    assert_eq!(
        values(&pre, "referrer-policy"),
        ["strict-origin-when-cross-origin"]
    );
    assert!(values(&pre, "x-content-type-options").is_empty());
    assert!(values(&pre, "cache-control").is_empty());
    // Pages' media types, not a plain server's.
    assert_eq!(
        values(&get(&server.base, "/style.css"), "content-type"),
        ["text/css; charset=utf-8"]
    );
}

#[test]
fn cloudflare_moves_a_page_to_its_canonical_path_with_308() {
    let (_site, server) = serve_site(&SITE[..6], "cloudflare");
    for (path, location) in [
        ("/about/", "/about"),
        ("/about.html", "/about"),
        ("/about.html?x=1", "/about?x=1"),
        ("/index.html", "/"),
        ("/404.html", "/404"),
        ("/docs", "/docs/"),
        ("/docs/index.html", "/docs/"),
        ("/docs/index", "/docs/"),
    ] {
        let r = get(&server.base, path);
        assert_eq!(r.status, 308, "{path}");
        assert_eq!(values(&r, "location"), [location], "{path}");
        assert!(r.body.is_empty(), "{path}");
        assert_eq!(values(&r, "access-control-allow-origin"), ["*"], "{path}");
        assert!(values(&r, "cache-control").is_empty(), "{path}");
        assert!(values(&r, "content-type").is_empty(), "{path}");
    }
    // The canonical paths answer; `/404` is the page itself, with 200.
    for (path, body) in [("/docs/", "<p>docs</p>\n"), ("/404", "<p>not found</p>\n")] {
        let r = get(&server.base, path);
        assert_eq!(
            (r.status, r.body.as_slice()),
            (200, body.as_bytes()),
            "{path}"
        );
    }
}

#[test]
fn cloudflare_404_is_the_nearest_page_with_the_sites_rules_and_no_store() {
    let (_site, server) = serve_site(SITE, "cloudflare");
    for (path, body) in [
        ("/nope", "<p>not found</p>\n"),
        ("/blog/nope", "<p>no such post</p>\n"),
        ("/blog/a/b/c", "<p>no such post</p>\n"),
        // Below a file: Pages has nothing there (`wrangler pages dev` fails with 502).
        ("/about.html/", "<p>not found</p>\n"),
    ] {
        let r = get(&server.base, path);
        assert_eq!(
            (r.status, r.body.as_slice()),
            (404, body.as_bytes()),
            "{path}"
        );
        assert_eq!(values(&r, "cache-control"), ["no-store"], "{path}");
        assert_eq!(values(&r, "x-site"), ["kept"], "{path}");
        assert_eq!(values(&r, "access-control-allow-origin"), ["*"], "{path}");
        assert_eq!(values(&r, "x-content-type-options"), ["nosniff"], "{path}");
    }
    // A page gets the site's rule over Pages' own Cache-Control.
    let home = get(&server.base, "/");
    assert_eq!(values(&home, "cache-control"), ["public, max-age=120"]);
    assert_eq!(values(&home, "x-site"), ["kept"]);
}

#[test]
fn cloudflare_reads_redirects_as_pages_does() {
    let (_site, server) = serve_site(SITE, "cloudflare");
    // 302 by default (Netlify's is 301), the request's query carried over.
    let r = get(&server.base, "/old?x=1");
    assert_eq!(r.status, 302);
    assert_eq!(values(&r, "location"), ["/about?x=1"]);
    assert_eq!(r.body, b"Redirecting to /about?x=1");
    assert_eq!(values(&r, "x-site"), ["kept"]);
    assert_eq!(get(&server.base, "/moved").status, 301);
    // A rule applies even where a file exists, and `200!` is not Pages' syntax: skipped.
    assert_eq!(get(&server.base, "/style.css").status, 302);
    assert_eq!(get(&server.base, "/forced").status, 404);
}

#[test]
fn cloudflare_without_a_404_page_answers_as_a_single_page_app() {
    let (_site, server) = serve_site(&[("index.html", "<p>app</p>\n")], "cloudflare");
    let r = get(&server.base, "/some/route");
    assert_eq!(
        (r.status, r.body.as_slice()),
        (200, b"<p>app</p>\n".as_slice())
    );
    assert_eq!(
        values(&r, "cache-control"),
        ["public, max-age=0, must-revalidate"]
    );
}

#[test]
fn cloudflare_answers_the_manifest_as_wellgens_worker_or_redirects_do() {
    let source = root().join("examples/bookshelf/service.toml");
    let with_worker = crate::common::build(&source, &["--host", "cloudflare", "-q"]);
    let without = crate::common::build(
        &source,
        &["--host", "cloudflare", "--target", "ai,ia-json", "-q"],
    );
    assert!(with_worker.path().join("_worker.js").exists());
    assert!(!without.path().join("_worker.js").exists());
    let log = tempfile::NamedTempFile::new().unwrap();
    let server = serve(&[with_worker.path().to_str().unwrap()], log.path());
    // The worker's own answer: its text, its one header, nothing Pages adds.
    let r = get(&server.base, "/.wellgen-manifest");
    assert_eq!(
        (r.status, r.body.as_slice()),
        (404, b"404 Not Found\n".as_slice())
    );
    let names: Vec<String> = r
        .headers
        .iter()
        .map(|(n, _)| n.to_ascii_lowercase())
        .filter(|n| n != "content-length" && n != "connection")
        .collect();
    assert_eq!(names, ["content-type"]);
    assert_eq!(values(&r, "content-type"), ["text/plain; charset=utf-8"]);
    drop(server);
    let server = serve(&[without.path().to_str().unwrap()], log.path());
    // Without it, wellgen's `_redirects` rule sends it where nothing is published.
    let r = get(&server.base, "/.wellgen-manifest");
    assert_eq!(r.status, 302);
    let to = values(&r, "location")[0].to_string();
    assert_eq!(get(&server.base, &to).status, 404);
}

#[test]
fn netlify_serves_pages_without_html_and_its_404_page() {
    let (_site, server) = serve_site(
        &[
            ("index.html", "<p>home</p>\n"),
            ("about.html", "<p>about</p>\n"),
            ("team/index.html", "<p>team</p>\n"),
            ("404.html", "<p>not found</p>\n"),
            (".env", "SECRET=1\n"),
        ],
        "netlify",
    );
    for (path, body) in [
        ("/about", "<p>about</p>\n"),
        ("/about.html", "<p>about</p>\n"),
        ("/team", "<p>team</p>\n"),
        ("/team/", "<p>team</p>\n"),
    ] {
        let r = get(&server.base, path);
        assert_eq!(
            (r.status, r.body.as_slice()),
            (200, body.as_bytes()),
            "{path}"
        );
    }
    for path in ["/nope", "/.env"] {
        let r = get(&server.base, path);
        assert_eq!(
            (r.status, r.body.as_slice()),
            (404, b"<p>not found</p>\n".as_slice()),
            "{path}"
        );
    }
}
