//! Where the documents live: with `site_url` (or `--site-url`) on another origin than the API,
//! every link to a published document, in every built file, is on the site, and every API call
//! on the API; the flag wins over the file, is checked like the key, and `wellgen import`
//! writes `site_url` (listed for review when it is only the API's origin).

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::{build, files, root, run, wellgen};
use wellgen::emit::Target;

const SITE: &str = "https://docs.site.example";

/// Every `https://` URL in `text`, without the punctuation prose puts after one.
fn urls(text: &str) -> Vec<&str> {
    let stop = |c: char| c.is_whitespace() || "\"'<>()[]`\\,|".contains(c);
    text.match_indices("https://")
        .map(|(i, _)| {
            let rest = &text[i..];
            let end = rest.find(stop).unwrap_or(rest.len());
            rest[..end].trim_end_matches(['.', ':', ';'])
        })
        .collect()
}

/// `https://host[:port]` and the path without its query, of an absolute URL.
fn split(url: &str) -> (&str, &str) {
    let after = &url["https://".len()..];
    let end = after.find(['/', '?', '#']).map_or(url.len(), |i| i + 8);
    let path = &url[end..];
    (
        &url[..end],
        path.split(['?', '#']).next().unwrap_or_default(),
    )
}

/// How a build is checked: its arguments, the site, the API's origin, and whether the author
/// wrote links of their own on the site's origin (docs, terms, a logo).
struct Case<'a> {
    extra: &'a [&'a str],
    site: &'a str,
    api: &'a str,
    own_links_on_site: bool,
}

/// Every path a target may publish a single document at, whether this build has it or not.
fn declared() -> BTreeSet<&'static str> {
    Target::ALL
        .iter()
        .flat_map(|t| t.descriptor().documents)
        .filter(|d| d.family.is_none())
        .map(|d| d.path)
        .collect()
}

/// What a build of `source` links: how many URLs name a published file, how many are on the
/// API's origin, and every wrong one: a link to a published file off the site, a link to a
/// document this build does not publish, and (without links of the author's there) a URL on
/// the site that names no published file.
fn scan(source: &Path, case: &Case) -> (usize, usize, Vec<String>) {
    let out = build(source, case.extra);
    let built = files(out.path());
    let published: BTreeSet<String> = built.keys().map(|p| format!("/{p}")).collect();
    assert!(
        published.contains("/.well-known/agents.json"),
        "{published:#?}"
    );
    let declared = declared();
    let (mut documents, mut calls) = (0, 0);
    let mut wrong = Vec::new();
    for (file, bytes) in &built {
        let text = String::from_utf8_lossy(bytes);
        for url in urls(&text) {
            let (origin, path) = split(url);
            if published.contains(path) {
                documents += 1;
                if origin != case.site {
                    wrong.push(format!(
                        "{file}: {url} is a published document off the site"
                    ));
                }
            } else if origin == case.site && declared.contains(path) {
                wrong.push(format!(
                    "{file}: {url} is a document this build does not publish"
                ));
            } else if origin == case.site && !case.own_links_on_site && !path.is_empty() {
                wrong.push(format!(
                    "{file}: {url} is on the site but names no document"
                ));
            }
            if origin == case.api {
                calls += 1;
            }
        }
    }
    (documents, calls, wrong)
}

/// [`scan`], which must find nothing wrong: `(documents, calls)`.
fn links(source: &Path, case: &Case) -> (usize, usize) {
    let (documents, calls, wrong) = scan(source, case);
    assert!(wrong.is_empty(), "{}: {wrong:#?}", source.display());
    (documents, calls)
}

/// A site of its own (`--site-url` or the file's) on `SITE`, the API on `api`.
fn on_site<'a>(extra: &'a [&'a str], api: &'a str) -> Case<'a> {
    Case {
        extra,
        site: SITE,
        api,
        own_links_on_site: false,
    }
}

fn example(name: &str) -> std::path::PathBuf {
    root().join("examples").join(name).join("service.toml")
}

#[test]
fn every_link_to_a_document_is_on_the_site_and_every_call_on_the_api() {
    let work = tempfile::tempdir().unwrap();
    // The netlify fixture links `/api/discovery?format=openapi`; a split /.well-known/ai links
    // its parts.
    let ledger = root().join("tests/fixtures/rfc002-netlify-oauth/service.toml");
    let split = work.path().join("service.toml");
    let text = std::fs::read_to_string(&ledger).unwrap();
    std::fs::write(&split, format!("[source]\nsplit = \"tag\"\n\n{text}")).unwrap();
    let flag = ["--site-url", SITE];
    for (source, case) in [
        // `site_url` in the file, on the origin of the author's own pages.
        (
            ledger.clone(),
            Case {
                extra: &[],
                site: "https://ledgerdesk.example",
                api: "https://api.ledgerdesk.example",
                own_links_on_site: true,
            },
        ),
        // `--site-url` over the file's (api.bookshelf.example, the API's own origin).
        (
            example("bookshelf"),
            on_site(&flag, "https://api.bookshelf.example"),
        ),
        (split, on_site(&flag, "https://api.ledgerdesk.example")),
        // An OpenAPI document built as it is (it has no logo: no ai-plugin.json to link).
        (
            root().join("tests/fixtures/import-petstore30/openapi.yaml"),
            on_site(&flag, "https://eu.petstore.example.com"),
        ),
    ] {
        let (documents, calls) = links(&source, &case);
        // llms.txt and the API catalog alone link every document; agents.json, A2A and the
        // rest call the API.
        assert!(documents >= 20, "{}: {documents} links", source.display());
        assert!(calls >= 5, "{}: {calls} API URLs", source.display());
    }
}

#[test]
fn the_check_finds_a_document_linked_off_the_site() {
    // Without the flag, bookshelf's documents are on the API's origin: the same scan, told the
    // site is elsewhere, reports them.
    let case = on_site(&[], "https://api.bookshelf.example");
    let (_, _, wrong) = scan(&example("bookshelf"), &case);
    assert!(
        wrong
            .iter()
            .any(|w| w.contains("https://api.bookshelf.example/openapi.json")),
        "{wrong:#?}"
    );
    assert_eq!(
        urls("see https://a.example/x.json, or (https://b.example/y).\n"),
        ["https://a.example/x.json", "https://b.example/y"]
    );
    assert_eq!(
        split("https://a.example:8443/p/q?x=1"),
        ("https://a.example:8443", "/p/q")
    );
    assert_eq!(split("https://a.example"), ("https://a.example", ""));
}

#[test]
fn a_bad_site_url_is_a_usage_error_naming_the_flag() {
    let source = example("simplenotes");
    for (bad, why) in [
        ("http://docs.example", "must use https"),
        ("https://docs.example/site", "must be an origin"),
        ("https://docs.example?x=1", "query string"),
        ("docs.example", "https://"),
    ] {
        for command in ["build", "check", "import"] {
            let work = tempfile::tempdir().unwrap();
            let (code, stdout, stderr) = run(wellgen()
                .current_dir(work.path())
                .arg(command)
                .arg(&source)
                .args(["--site-url", bad]));
            assert!(files(work.path()).is_empty(), "{command} wrote something");
            assert_eq!(code, 2, "{command} --site-url {bad}: {stderr}");
            assert!(stdout.is_empty());
            assert!(
                stderr.contains("--site-url") && stderr.contains(why),
                "{command} --site-url {bad}: {stderr}"
            );
        }
    }
}

#[test]
fn a_diagnostic_about_the_flags_value_names_the_flag_not_the_files_line() {
    // bookshelf writes `site_url` on line 8: the error is about the flag's value, not that line.
    let (code, _, stderr) = run(wellgen()
        .arg("check")
        .arg(example("bookshelf"))
        .args(["--site-url", "https://localhost"]));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("error[E-local-url]"), "{stderr}");
    assert!(
        stderr.contains("= from: --site-url on the command line"),
        "{stderr}"
    );
    assert!(!stderr.contains("service.toml:8:"), "{stderr}");
    // A public site on an unrelated host: ADP's registry warning names the flag too.
    let (code, _, stderr) = run(wellgen().arg("check").arg(example("bookshelf")).args([
        "--site-url",
        SITE,
        "--target",
        "adp",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning[W-adp-detail-host]")
            && stderr.contains("= from: --site-url on the command line"),
        "{stderr}"
    );
}

/// `wellgen import` of the petstore with `extra` arguments: the written file.
fn import(extra: &[&str]) -> (String, tempfile::TempDir) {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("service.toml");
    let (code, _, stderr) = run(wellgen()
        .arg("import")
        .arg(root().join("tests/fixtures/import-petstore30/openapi.yaml"))
        .arg("-o")
        .arg(&out)
        .args(extra));
    assert_eq!(code, 0, "{stderr}");
    (std::fs::read_to_string(&out).unwrap(), work)
}

#[test]
fn import_writes_site_url_and_lists_a_defaulted_one_for_review() {
    let review = "`site_url = \"https://eu.petstore.example.com\"` is the base URL's origin";
    let (text, _work) = import(&[]);
    assert!(
        text.contains("\nsite_url = \"https://eu.petstore.example.com\"\n"),
        "{text}"
    );
    let header: String = text.lines().take_while(|l| l.starts_with('#')).collect();
    assert!(header.contains(review), "{header}");

    let (text, work) = import(&["--site-url", "https://docs.petstore.example/"]);
    assert!(
        text.contains("\nsite_url = \"https://docs.petstore.example\"\n"),
        "{text}"
    );
    assert!(!text.contains("is the base URL's origin"), "{text}");
    // The written file builds, its documents on the site it names.
    let source = work.path().join("service.toml");
    let case = Case {
        site: "https://docs.petstore.example",
        ..on_site(&[], "https://eu.petstore.example.com")
    };
    let (documents, calls) = links(&source, &case);
    assert!(documents >= 20 && calls >= 5);
}
