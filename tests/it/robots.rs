//! robots.txt: wellgen's section names the AI agents, allows the documents, and carries the
//! Content-Signal and Sitemap lines; the site's own lines survive byte for byte across builds
//! and host switches; a site rule that keeps a crawler from a document stops the build with
//! the edit to make.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{root, run, wellgen};
use wellgen::emit::hosts::section::{Placement, merge};

const SITE_ROBOTS: &str = "# the site's own\nUser-agent: *\nDisallow: /private/\n\nUser-agent: Bingbot\nCrawl-delay: 5\nDisallow: /tmp/\n";

/// A source: bookshelf without its `[robots]` tables, with `extra` appended, in `dir`.
fn source(dir: &Path, extra: &str) -> PathBuf {
    let text = fs::read_to_string(root().join("examples/bookshelf/service.toml")).unwrap();
    let start = text
        .find("[robots.content_signals]")
        .expect("bookshelf states its signals");
    let end = start
        + text[start..]
            .find("\n\n")
            .expect("a blank line after the table");
    let text = format!("{}{}", &text[..start], &text[end..]);
    let path = dir.join("service.toml");
    fs::write(&path, format!("{text}\n{extra}")).unwrap();
    path
}

fn build(source: &Path, out: &Path, host: &str) -> (i32, String) {
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(source)
        .arg("-o")
        .arg(out)
        .args(["--host", host]));
    (code, stderr)
}

/// The site's part of a robots.txt: wellgen's section taken out.
fn sites_part(text: &str) -> String {
    merge(text, "", Placement::Append).unwrap()
}

#[test]
fn the_sites_robots_txt_survives_builds_and_host_switches_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let src = source(dir.path(), "");
    let out = dir.path().join("site");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("robots.txt"), SITE_ROBOTS).unwrap();
    let mut first = None;
    for host in [
        "netlify",
        "cloudflare",
        "vercel",
        "github-pages",
        "generic",
        "netlify",
    ] {
        let (code, stderr) = build(&src, &out, host);
        assert_eq!(code, 0, "--host {host}: {stderr}");
        let now = fs::read_to_string(out.join("robots.txt")).unwrap();
        assert!(now.starts_with(SITE_ROBOTS), "--host {host}:\n{now}");
        assert_eq!(sites_part(&now).trim_end(), SITE_ROBOTS.trim_end());
        // The same on every host, and on every build: deterministic.
        assert_eq!(
            first.get_or_insert_with(|| now.clone()),
            &now,
            "--host {host}"
        );
    }
    let text = first.unwrap();
    // GPTBot has no group of the site's: its group repeats the site's `*` rules.
    let gpt = &text[text.find("User-agent: GPTBot").unwrap()..];
    let gpt = &gpt[..gpt.find("\n\n").unwrap_or(gpt.len())];
    assert!(gpt.contains("Allow: /.well-known/api-catalog\n"), "{gpt}");
    assert!(gpt.contains("Disallow: /private/"), "{gpt}");
    assert!(gpt.contains("Allow: /api/capabilities/\n"), "{gpt}");
    assert!(!text.contains("Content-Signal"), "none unless configured");
    assert!(
        !text.contains("Sitemap:"),
        "no sitemap.xml, none configured"
    );
    // Left out by `[build] skip`: the section goes, the site's file stays as it was.
    let skip = source(dir.path(), "[build]\nskip = [\"/robots.txt\"]\n");
    let (code, stderr) = build(&skip, &out, "netlify");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        fs::read_to_string(out.join("robots.txt"))
            .unwrap()
            .trim_end(),
        SITE_ROBOTS.trim_end()
    );
}

#[test]
fn without_a_robots_txt_wellgen_writes_one_with_the_configured_policy() {
    let dir = tempfile::tempdir().unwrap();
    let src = source(
        dir.path(),
        "[robots]\naccess = \"documents\"\n\n[robots.agents]\nCCBot = \"none\"\nExampleBot = \"site\"\n\n\
         [robots.content_signals]\nsearch = \"yes\"\nai-input = \"yes\"\nai-train = \"no\"\n",
    );
    let out = dir.path().join("site");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("sitemap.xml"), "<urlset/>\n").unwrap();
    let (code, stderr) = build(&src, &out, "netlify");
    assert_eq!(code, 0, "{stderr}");
    let text = fs::read_to_string(out.join("robots.txt")).unwrap();
    assert!(text.starts_with("# BEGIN wellgen\n") && text.ends_with("# END wellgen\n"));
    assert!(!text.contains("CCBot"), "{text}");
    assert_eq!(
        text.matches("Content-Signal: search=yes, ai-input=yes, ai-train=no\n")
            .count(),
        3,
        "one in each group: `*`, ExampleBot, the documents-only agents\n{text}"
    );
    let only = &text[text.find("User-agent: GPTBot").unwrap()..];
    assert!(only.contains("Allow: /llms.txt\n"), "{only}");
    assert!(only.contains("Disallow: /\n"), "{only}");
    assert!(text.contains("User-agent: ExampleBot\n"), "{text}");
    assert!(
        text.contains("\nSitemap: https://api.bookshelf.example/sitemap.xml\n"),
        "{text}"
    );
    // Taken out again, the file wellgen wrote alone goes.
    let skip = source(dir.path(), "[build]\nskip = [\"/robots.txt\"]\n");
    let (code, stderr) = build(&skip, &out, "netlify");
    assert_eq!(code, 0, "{stderr}");
    assert!(!out.join("robots.txt").exists());
}

#[test]
fn a_site_rule_keeping_crawlers_from_a_document_is_an_error_with_the_edit() {
    let dir = tempfile::tempdir().unwrap();
    let src = source(dir.path(), "");
    let out = dir.path().join("site");
    fs::create_dir_all(&out).unwrap();
    let cases = [
        (
            "User-agent: *\nDisallow: /.well-known/\n",
            "robots.txt:2: the site's `Disallow: /.well-known/` keeps *, GPTBot, OAI-SearchBot and",
            "add these lines right after it: `Allow: /.well-known/ai`",
        ),
        (
            "User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n",
            "robots.txt:6: the site's `Disallow: /` keeps GPTBot, ClaudeBot from /.well-known/ai",
            "add `GPTBot = \"none\"`, `ClaudeBot = \"none\"` under `[robots.agents]`",
        ),
    ];
    for (robots, message, help) in cases {
        fs::write(out.join("robots.txt"), robots).unwrap();
        let (code, stderr) = build(&src, &out, "netlify");
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("error[E-robots-contradiction]"), "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert!(stderr.contains(help), "{stderr}");
        assert_eq!(fs::read_to_string(out.join("robots.txt")).unwrap(), robots);
    }
    // The agents the site keeps out, named `none`, get no group: the build goes through.
    let none = source(
        dir.path(),
        "[robots.agents]\nGPTBot = \"none\"\nClaudeBot = \"none\"\n",
    );
    let (code, stderr) = build(&none, &out, "netlify");
    assert_eq!(code, 0, "{stderr}");
    let text = fs::read_to_string(out.join("robots.txt")).unwrap();
    assert!(text.starts_with(cases[1].0), "{text}");
    assert!(!text[cases[1].0.len()..].contains("GPTBot"), "{text}");
}

#[test]
fn a_bad_robots_table_is_refused_at_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let src = source(
        dir.path(),
        "[robots]\naccess = \"everything\"\nsitemap = \"/sitemap.xml\"\n\n[robots.agents]\n\"Bad Bot\" = \"site\"\n\n[robots.content_signals]\nai-train = \"maybe\"\n",
    );
    let (code, _, stderr) = run(wellgen().arg("check").arg(&src));
    assert_eq!(code, 1, "{stderr}");
    for part in [
        "`everything` is not one of: site, documents",
        "`/sitemap.xml` is not an absolute http(s) URL",
        "`Bad Bot` is not a robots.txt product token",
        "`maybe` is not one of: yes, no",
    ] {
        assert!(stderr.contains(part), "{part}\n{stderr}");
    }
}
