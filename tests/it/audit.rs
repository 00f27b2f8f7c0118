//! `wellgen audit`: a folder made for each level is graded to exactly that level (in folder
//! mode, and over HTTP against `wellgen serve`), a soft 404 is caught, `--format json` is valid
//! against the Agent-Adoption Specification's output schema, `--min-level` fails CI below it,
//! plain http off loopback is refused, and `build` ends with the level.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Stdio};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common::{run, schema_errors, schema_validator, wellgen};

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const SKILL: &str = "---\nname: search-books\ndescription: Find books.\n---\n# Search books\n";

/// A folder that reaches exactly `level` of wellgen's ladder (0 to 5), each level adding what
/// its requirements ask.
fn site(dir: &Path, level: u8) {
    let mut robots = String::from("User-agent: *\nAllow: /\n");
    if level >= 2 {
        robots = format!(
            "User-agent: GPTBot\nUser-agent: ClaudeBot\nAllow: /\n\n{robots}Content-Signal: search=yes, ai-train=no\n"
        );
    }
    if level >= 1 {
        robots.push_str("Sitemap: /sitemap.xml\n");
        write(dir, "robots.txt", &robots);
        write(
            dir,
            "sitemap.xml",
            "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>/</loc></url></urlset>\n",
        );
    }
    let mut headers = String::new();
    if level >= 3 {
        // The home page is Markdown for every client: what negotiation on `Accept` gives an agent.
        write(
            dir,
            "index.html",
            "# Books\n\nA [catalog](/books) of books.\n",
        );
        headers.push_str("/\n  Content-Type: text/markdown; charset=utf-8\n");
    } else {
        write(
            dir,
            "index.html",
            "<!doctype html><html><body><h1>Books</h1><p>A catalog of books.</p></body></html>\n",
        );
    }
    if level >= 4 {
        headers.push_str("  Link: </.well-known/api-catalog>; rel=\"api-catalog\"\n");
        headers.push_str("/.well-known/api-catalog\n  Content-Type: application/linkset+json\n");
        let hex: String = Sha256::digest(SKILL.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let digest = format!("sha256:{hex}");
        write(dir, ".well-known/agent-skills/search-books/SKILL.md", SKILL);
        write(
            dir,
            ".well-known/agent-skills/index.json",
            &json!({"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json", "skills": [
                {"name": "search-books", "type": "skill-md", "description": "Find books.",
                 "url": "/.well-known/agent-skills/search-books/SKILL.md", "digest": digest}]})
            .to_string(),
        );
        let mut linkset = json!({"linkset": [{"anchor": "https://books.example/api"}]});
        if level >= 5 {
            linkset["linkset"][0]["service-desc"] =
                json!([{"href": "/openapi.json", "type": "application/json"}]);
            write(
                dir,
                "openapi.json",
                r#"{"openapi": "3.1.0", "info": {"title": "Books", "version": "1"}, "paths": {}}"#,
            );
        }
        write(dir, ".well-known/api-catalog", &linkset.to_string());
    }
    if level >= 5 {
        headers
            .push_str("/.well-known/oauth-protected-resource\n  Content-Type: application/json\n");
        write(
            dir,
            ".well-known/oauth-protected-resource",
            r#"{"resource": "https://books.example/api", "authorization_servers": ["https://auth.books.example"]}"#,
        );
        write(
            dir,
            ".well-known/mcp/server-card.json",
            &json!({"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server-card.schema.json",
                "name": "example/books", "version": "1.0.0", "description": "Books over MCP.",
                "remotes": [{"type": "streamable-http", "url": "https://books.example/mcp"}],
                "serverInfo": {"name": "books"}, "transport": {"type": "streamable-http", "url": "https://books.example/mcp"}})
            .to_string(),
        );
        write(
            dir,
            ".well-known/agent-card.json",
            &json!({"name": "Books", "description": "Finds books.", "url": "https://books.example/a2a",
                "capabilities": {}, "skills": []})
            .to_string(),
        );
    }
    if !headers.is_empty() {
        write(dir, "_headers", &headers);
    }
}

fn audit(args: &[&str]) -> (i32, String, String) {
    run(wellgen().arg("audit").args(args))
}

fn json_of(args: &[&str]) -> Value {
    let (code, out, err) = audit(&[args, &["--format", "json"]].concat());
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn each_folder_reaches_exactly_its_level() {
    let validator = schema_validator("agent-adoption/output-v1.schema.json");
    for level in 0..=5u8 {
        let tmp = tempfile::tempdir().unwrap();
        site(tmp.path(), level);
        let dir = tmp.path().to_str().unwrap();
        let report = json_of(&[dir, "--host", "generic"]);
        let errors = schema_errors(&validator, &report);
        assert!(errors.is_empty(), "level {level}: {errors:#?}");
        assert_eq!(
            report["meta"]["ladder"]["level"], level,
            "level {level}: {:#}",
            report["meta"]["ladder"]
        );
        let (code, text, _) = audit(&[dir, "--host", "generic"]);
        assert_eq!(code, 0);
        assert!(text.contains(&format!("level {level} of 5")), "{text}");
        // Each failed requirement says why and what to do.
        let failed = text.lines().filter(|l| l.starts_with("  level ")).count();
        let fixes = text.lines().filter(|l| l.starts_with("    fix: ")).count();
        assert!(fixes >= failed, "{text}");
        assert_eq!(level == 5, failed == 0, "{text}");
    }
}

#[test]
fn the_specifications_levels_follow_its_gates() {
    let tmp = tempfile::tempdir().unwrap();
    site(tmp.path(), 1);
    let one = json_of(&[tmp.path().to_str().unwrap(), "--host", "generic"]);
    assert_eq!(one["level"], 1);
    assert_eq!(one["nextLevel"]["requirements"], json!(["content-signals"]));
    let tmp = tempfile::tempdir().unwrap();
    site(tmp.path(), 3);
    let three = json_of(&[tmp.path().to_str().unwrap(), "--host", "generic"]);
    assert_eq!(three["level"], 3, "{three:#}");
    assert!(three.get("nextLevel").is_none());
    let checks: Vec<&Value> = three["categoryReports"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["checks"].as_array().unwrap())
        .collect();
    assert_eq!(checks.len(), 25);
    assert!(
        checks
            .iter()
            .all(|c| c.get("details").is_none_or(|d| d.get("body").is_none()))
    );
}

#[test]
fn a_soft_404_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    site(tmp.path(), 2);
    // Every missing path answered with the home page and 200.
    write(tmp.path(), "_redirects", "/* /index.html 200\n");
    let dir = tmp.path().to_str().unwrap();
    let report = json_of(&[dir, "--host", "netlify"]);
    let soft = report["categoryReports"][2]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "http-status-codes")
        .unwrap();
    assert_eq!(soft["status"], "fail", "{soft:#}");
    assert_eq!(report["meta"]["ladder"]["level"], 0);
    let (_, text, _) = audit(&[dir, "--host", "netlify"]);
    assert!(
        text.contains("soft 404") && text.contains("404.html"),
        "{text}"
    );
}

#[test]
fn min_level_fails_ci_below_it() {
    let tmp = tempfile::tempdir().unwrap();
    site(tmp.path(), 2);
    let dir = tmp.path().to_str().unwrap();
    assert_eq!(audit(&[dir, "--host", "generic", "--min-level", "2"]).0, 0);
    let (code, _, err) = audit(&[dir, "--host", "generic", "--min-level", "3"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("below --min-level 3"), "{err}");
    assert_eq!(audit(&[dir, "--min-level", "6"]).0, 2);
}

#[test]
fn plain_http_off_loopback_is_refused_before_any_request() {
    for url in [
        "http://example.com/",
        "http://192.0.2.1:8080/",
        "ftp://example.com/",
    ] {
        let (code, out, err) = audit(&[url]);
        assert_eq!(code, 2, "{url}: {err}");
        assert!(out.is_empty());
        assert!(
            err.contains("not audited") || err.contains("loopback"),
            "{err}"
        );
    }
    assert_eq!(audit(&["/no/such/folder"]).0, 2);
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `wellgen serve DIR` on a free loopback port: the server and its base URL.
fn serve(dir: &Path) -> (Server, String) {
    let mut child = wellgen()
        .args(["serve", "--port", "0", "--host", "generic"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("wellgen serve starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let base = first
        .trim()
        .rsplit_once(" at ")
        .map(|(_, url)| url.trim_end_matches('/').to_string())
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
    });
    (Server(child), base)
}

#[test]
fn a_served_site_is_graded_as_its_folder() {
    let validator = schema_validator("agent-adoption/output-v1.schema.json");
    for level in [2u8, 5] {
        let tmp = tempfile::tempdir().unwrap();
        site(tmp.path(), level);
        let (_server, base) = serve(tmp.path());
        assert!(base.starts_with("http://127.0.0.1:"), "{base}");
        let report = json_of(&[&base]);
        assert!(schema_errors(&validator, &report).is_empty());
        assert_eq!(
            report["meta"]["ladder"]["level"], level,
            "{:#}",
            report["meta"]["ladder"]
        );
        assert_eq!(report["domain"], "127.0.0.1");
        let folder = json_of(&[tmp.path().to_str().unwrap(), "--host", "generic"]);
        assert_eq!(report["score"], folder["score"]);
    }
}

#[test]
fn an_unreachable_site_is_an_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (code, out, err) = audit(&[&format!("http://127.0.0.1:{port}/")]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty() && err.starts_with("error: "), "{err}");
}

#[test]
fn text_from_the_site_is_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    site(tmp.path(), 1);
    write(
        tmp.path(),
        "robots.txt",
        "User-agent: *\nAllow: /\nContent-Signal: \u{1b}[31mred=maybe\n",
    );
    let (_, text, _) = audit(&[tmp.path().to_str().unwrap(), "--host", "generic"]);
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("\\u{1b}"), "{text}");
}

#[test]
fn a_build_ends_with_its_level() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let (code, _, err) = run(wellgen()
        .args([
            "build",
            "examples/bookshelf/service.toml",
            "--host",
            "generic",
            "-o",
        ])
        .arg(&out)
        .current_dir(crate::common::root()));
    assert_eq!(code, 0, "{err}");
    let last = err
        .lines()
        .rfind(|l| l.starts_with("level "))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        last.contains(" of 5 (") && last.contains("as generic answers it"),
        "{last}"
    );
}
