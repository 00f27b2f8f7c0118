//! The home page for agents: its `Link` header (RFC 8288) on each host, the Markdown answer to
//! `Accept: text/markdown` (`index.md`, the worker, the server configs), and a site's own
//! `index.md` kept.

use std::fs;
use std::path::Path;

use crate::common::{root, run, wellgen};

const BOOKSHELF: &str = "examples/bookshelf/service.toml";

fn build(out: &Path, extra: &[&str]) -> String {
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(root().join(BOOKSHELF))
        .arg("-o")
        .arg(out)
        .args(extra));
    assert_eq!(code, 0, "{stderr}");
    stderr
}

/// Bookshelf built for the generic host into `dir`: its `.htaccess` and nginx snippet.
fn generic_files(dir: &Path) -> (String, String) {
    let out = dir.join("generic");
    let config = dir.join("config");
    build(
        &out,
        &[
            "--host",
            "generic",
            "--server-config",
            config.to_str().unwrap(),
        ],
    );
    (
        fs::read_to_string(out.join(".htaccess")).unwrap(),
        fs::read_to_string(config.join("wellgen-nginx.conf")).unwrap(),
    )
}

/// Bookshelf built for Vercel into `dir`: the folder and its vercel.json.
fn vercel_build(dir: &Path) -> (std::path::PathBuf, serde_json::Value) {
    let out = dir.join("vercel");
    build(&out, &["--host", "vercel"]);
    let json = serde_json::from_slice(&fs::read(out.join("vercel.json")).unwrap()).unwrap();
    (out, json)
}

const LINKS: [&str; 5] = [
    "</.well-known/api-catalog>; rel=\"api-catalog\"; type=\"application/linkset+json\"",
    "</openapi.json>; rel=\"service-desc\"; type=\"application/vnd.oai.openapi+json;version=3.1\"",
    "<https://bookshelf.example/docs>; rel=\"service-doc\"; type=\"text/html\"",
    "</llms.txt>; rel=\"describedby\"; type=\"text/plain\"",
    "</index.md>; rel=\"alternate\"; type=\"text/markdown\"",
];

#[test]
fn the_home_page_links_what_the_build_writes_on_every_host() {
    let dir = tempfile::tempdir().unwrap();
    let value = LINKS.join(", ");
    for host in ["netlify", "cloudflare"] {
        let out = dir.path().join(host);
        build(&out, &["--host", host]);
        let headers = fs::read_to_string(out.join("_headers")).unwrap();
        assert!(
            headers.contains(&format!("\n/\n  Link: {value}\n")),
            "{host}:\n{headers}"
        );
    }
    let (htaccess, nginx) = generic_files(dir.path());
    assert!(htaccess.contains("  <If \"%{REQUEST_URI} =~ m#^/(index\\.html)?$#\">\n    Header always merge Link \"</.well-known/api-catalog>; rel=\\\"api-catalog\\\""), "{htaccess}");
    assert!(
        nginx.contains(&format!(
            "location = /index.html {{\n    add_header Link '{value}' always;\n    add_header Vary Accept always;\n}}"
        )),
        "{nginx}"
    );
    // Vercel: an entry of wellgen's own for `/` and `/index.html` in vercel.json.
    let (_, vercel) = vercel_build(dir.path());
    let home = vercel["headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["source"] == "/{index.html}?")
        .unwrap_or_else(|| panic!("no home entry: {vercel}"));
    assert_eq!(home["headers"][0]["key"], "Link");
    assert_eq!(home["headers"][0]["value"], value.as_str());
    // GitHub Pages sets no headers: the lines for the page's <head>, in a warning.
    let stderr = build(&dir.path().join("pages"), &["--host", "github-pages"]);
    assert!(
        stderr.contains(
            "<link rel=\"api-catalog\" href=\"/.well-known/api-catalog\" type=\"application/linkset+json\"> \
             <link rel=\"service-desc\" href=\"/openapi.json\""
        ),
        "{stderr}"
    );
    // Only what the build writes: no catalog, no OpenAPI, no llms.txt, no index.md: no links.
    let out = dir.path().join("ai-only");
    build(&out, &["--host", "netlify", "--target", "ai"]);
    let headers = fs::read_to_string(out.join("_headers")).unwrap();
    assert!(!headers.contains("Link:"), "{headers}");
    assert!(!out.join("index.md").exists());
}

#[test]
fn markdown_for_agents_is_index_md_and_each_hosts_negotiation() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cf");
    build(&out, &["--host", "cloudflare"]);
    assert_eq!(
        fs::read(out.join("index.md")).unwrap(),
        fs::read(out.join("llms.txt")).unwrap()
    );
    let worker = fs::read_to_string(out.join("_worker.js")).unwrap();
    for part in [
        "const MARKDOWN = \"text/markdown; charset=utf-8\";",
        "const ROUTE = true;",
        "if (path.endsWith(\"/\")) return [path + \"index.md\"];",
        "response.headers.append(\"Vary\", \"Accept\");",
    ] {
        assert!(worker.contains(part), "{part}\n{worker}");
    }
    // Without rfc002 the worker still negotiates, and routes nothing.
    let out = dir.path().join("cf-no-route");
    build(&out, &["--host", "cloudflare", "--target", "llms-txt"]);
    let worker = fs::read_to_string(out.join("_worker.js")).unwrap();
    assert!(worker.contains("const ROUTE = false;"), "{worker}");

    // Vercel redirects a Markdown request for the home page to index.md, before its files.
    let (out, vercel) = vercel_build(dir.path());
    let markdown = &vercel["redirects"][0];
    assert_eq!(markdown["source"], "/{index.html}?", "{vercel}");
    assert_eq!(
        markdown["has"],
        serde_json::json!([{"type": "header", "key": "accept", "value": "(.*)text/markdown(.*)"}])
    );
    assert_eq!(markdown["destination"], "/index.md");
    assert!(out.join("index.md").is_file());

    let (htaccess, nginx) = generic_files(dir.path());
    assert!(
        htaccess.contains(
            "    RewriteCond %{HTTP:Accept} text/markdown [NC]\n    RewriteRule ^$ /index.md [END]\n"
        ),
        "{htaccess}"
    );
    assert!(htaccess.contains("  <If \"%{REQUEST_URI} == '/index.md'\">\n    ForceType \"text/markdown; charset=utf-8\"\n    Header always merge Vary Accept\n"), "{htaccess}");
    assert!(
        nginx.contains(
            "location = / {\n    if ($http_accept ~* \"text/markdown\") {\n        rewrite ^ /index.md last;\n    }\n}"
        ),
        "{nginx}"
    );
    assert!(nginx.contains("location = /index.md {\n    types { }\n    default_type 'text/markdown; charset=utf-8';\n    add_header Vary Accept always;\n}"), "{nginx}");
}

#[test]
fn a_sites_own_index_md_is_the_twin_of_its_home_page() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    fs::create_dir_all(&out).unwrap();
    let own = "# My site\n\nWhat we do.\n";
    fs::write(out.join("index.md"), own).unwrap();
    for host in ["cloudflare", "netlify", "cloudflare"] {
        let stderr = build(&out, &["--host", host, "--notes"]);
        assert_eq!(fs::read_to_string(out.join("index.md")).unwrap(), own);
        assert!(stderr.contains("`/index.md` is the site's own"), "{stderr}");
    }
}

#[test]
fn wellgen_serve_answers_markdown_as_the_cloudflare_worker_does() {
    use wellgen::serve::site::Site;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cf");
    fs::create_dir_all(out.join("about")).unwrap();
    fs::write(out.join("index.html"), "<p>home</p>\n").unwrap();
    fs::write(out.join("about.md"), "# About\n").unwrap();
    fs::write(out.join("about/index.html"), "<p>about</p>\n").unwrap();
    build(&out, &["--host", "cloudflare"]);
    let site = Site::new(&out);
    let header = |r: &wellgen::serve::site::Reply, name: &str| -> Vec<String> {
        r.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .collect()
    };
    let md = site.respond_accepting("GET", "/", "text/markdown, text/html;q=0.9");
    assert_eq!(md.status, 200);
    assert_eq!(
        header(&md, "Content-Type"),
        ["text/markdown; charset=utf-8"]
    );
    assert_eq!(header(&md, "Vary"), ["Accept"]);
    assert_eq!(md.body, fs::read(out.join("index.md")).unwrap());
    let about = site.respond_accepting("GET", "/about", "text/markdown");
    assert_eq!(about.body, b"# About\n");
    // Refused with q=0, or not asked for: the page, which varies by Accept.
    for accept in ["text/markdown;q=0, text/html", "text/html"] {
        let page = site.respond_accepting("GET", "/", accept);
        assert_eq!(page.body, b"<p>home</p>\n", "{accept}");
        assert_eq!(header(&page, "Vary"), ["Accept"], "{accept}");
        assert!(header(&page, "Link")[0].contains("rel=\"api-catalog\""));
    }
    // No twin: the page as it is.
    let none = site.respond_accepting("GET", "/nothing", "text/markdown");
    assert_eq!(none.status, 404);
}
