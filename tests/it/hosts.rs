//! Host presets: each `--host` (and `[deploy] host`) writes exactly the files its host reads,
//! with the same headers as `_headers`; vercel.json is merged into the user's; a user's own
//! 404.html, .nojekyll and .htaccess survive; Cloudflare's limits are enforced.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{root, run, wellgen};
use serde_json::Value;
use wellgen::diag::Diagnostics;
use wellgen::emit::hosts::headers::document_headers;
use wellgen::emit::{Artifact, Target};
use wellgen::model::Host;
use wellgen::pipeline::emit as emit_all;

const BOOKSHELF: &str = "examples/bookshelf/service.toml";

fn build(source: &Path, out: &Path, extra: &[&str]) -> (i32, String) {
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(source)
        .arg("-o")
        .arg(out)
        .args(extra));
    (code, stderr)
}

fn built(host: &str) -> (tempfile::TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dist");
    let (code, stderr) = build(
        &root().join(BOOKSHELF),
        &out,
        &["--host", host, "--verbose", "--notes"],
    );
    assert_eq!(code, 0, "{stderr}");
    (dir, out, stderr)
}

fn documents(host: Host) -> Vec<Artifact> {
    let mut diags = Diagnostics::default();
    let mut service = wellgen::pipeline::load(&root().join(BOOKSHELF), &mut diags).unwrap();
    service.host = host;
    emit_all(&service, &Target::ALL, &mut diags)
        .into_iter()
        .filter(|a| a.serving.is_some())
        .collect()
}

/// The host files in a build, by name (documents left out).
fn host_files(out: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.starts_with('_')
                || (n.starts_with('.') && n != ".well-known")
                || ["404.html", "vercel.json", "wellgen-nginx.conf"].contains(&n.as_str())
        })
        .collect();
    names.sort();
    names
}

#[test]
fn each_host_gets_exactly_its_files() {
    let cases: [(&str, &[&str]); 5] = [
        ("netlify", &[".wellgen-manifest", "_headers", "_redirects"]),
        (
            "cloudflare",
            &[".wellgen-manifest", "404.html", "_headers", "_worker.js"],
        ),
        ("vercel", &[".wellgen-manifest", "vercel.json"]),
        ("github-pages", &[".nojekyll", ".wellgen-manifest"]),
        // The nginx snippet is configuration, not for publishing: only with --server-config.
        ("generic", &[".htaccess", ".wellgen-manifest", "_headers"]),
    ];
    for (host, expected) in cases {
        let (_d, out, _) = built(host);
        assert_eq!(host_files(&out), *expected, "--host {host}");
    }
}

#[test]
fn deploy_host_in_the_source_accepts_every_preset_and_suggests_on_a_typo() {
    let text = fs::read_to_string(root().join(BOOKSHELF)).unwrap();
    assert!(text.contains("host = \"netlify\""));
    let dir = tempfile::tempdir().unwrap();
    for host in Host::NAMES {
        let src = dir.path().join(format!("{host}.toml"));
        fs::write(
            &src,
            text.replace("host = \"netlify\"", &format!("host = \"{host}\"")),
        )
        .unwrap();
        let (code, _, stderr) = run(wellgen().arg("check").arg(&src));
        assert_eq!(code, 0, "{host}: {stderr}");
    }
    let src = dir.path().join("typo.toml");
    fs::write(
        &src,
        text.replace("host = \"netlify\"", "host = \"github_pages\""),
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen().arg("check").arg(&src));
    assert_eq!(code, 1);
    assert!(stderr.contains("did you mean `github-pages`?"), "{stderr}");
}

#[test]
fn vercel_json_carries_every_documents_headers_and_the_query_redirect() {
    let (_d, out, _) = built("vercel");
    let v = crate::common::read_json(&out.join("vercel.json"));
    assert_eq!(v["$schema"], "https://openapi.vercel.sh/vercel.json");
    let entries = v["headers"].as_array().unwrap();
    let docs = documents(Host::Vercel);
    // One entry per document, and the home page's (its `Link` header: tests/it/home.rs).
    assert_eq!(entries.len(), docs.len() + 1);
    assert_eq!(entries.last().unwrap()["source"], "/{index.html}?");
    for a in &docs {
        let entry = entries
            .iter()
            .find(|e| e["source"] == a.path.as_str())
            .unwrap_or_else(|| panic!("no headers entry for {}", a.path));
        let got: Vec<(String, String)> = entry["headers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["key"].as_str().unwrap().into(),
                    h["value"].as_str().unwrap().into(),
                )
            })
            .collect();
        let want: Vec<(String, String)> = document_headers(a)
            .unwrap()
            .into_iter()
            .map(|h| (h.name.to_string(), h.value))
            .collect();
        assert_eq!(got, want, "{}", a.path);
    }
    // After the home page's Markdown redirect (tests/it/home.rs).
    let redirect = &v["redirects"][1];
    assert_eq!(redirect["source"], "/api/discovery");
    assert_eq!(redirect["destination"], "/api/discovery.openapi.json");
    assert_eq!(
        redirect["has"],
        serde_json::json!([{ "type": "query", "key": "format", "value": "openapi" }])
    );
    assert_eq!(redirect["permanent"], false);
    let agents = crate::common::read_json(&out.join(".well-known/agents.json"));
    assert!(
        agents["discovery"]["openapi"]
            .as_str()
            .unwrap()
            .ends_with("/api/discovery?format=openapi")
    );
}

#[test]
fn vercel_json_is_merged_into_the_users_and_taken_out_again() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    fs::create_dir_all(&out).unwrap();
    let user = serde_json::json!({
        "cleanUrls": true,
        "headers": [{ "source": "/(.*)", "headers": [{ "key": "X-Frame-Options", "value": "DENY" }] }],
        "rewrites": [{ "source": "/(.*)", "destination": "/index.html" }]
    });
    fs::write(
        out.join("vercel.json"),
        serde_json::to_string_pretty(&user).unwrap(),
    )
    .unwrap();
    let src = root().join(BOOKSHELF);
    let (code, stderr) = build(&src, &out, &["--host", "vercel"]);
    assert_eq!(code, 0, "{stderr}");
    let first = fs::read_to_string(out.join("vercel.json")).unwrap();
    let v: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["cleanUrls"], true);
    assert_eq!(v["rewrites"], user["rewrites"]);
    assert_eq!(v["headers"][0], user["headers"][0]);
    // The user's entry, one per document, and the home page's.
    assert_eq!(
        v["headers"].as_array().unwrap().len(),
        2 + documents(Host::Vercel).len()
    );
    // A second build changes nothing; fewer targets drop exactly wellgen's stale entries.
    let (code, stderr) = build(&src, &out, &["--host", "vercel"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(fs::read_to_string(out.join("vercel.json")).unwrap(), first);
    let (code, stderr) = build(&src, &out, &["--host", "vercel", "--target", "ai"]);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = crate::common::read_json(&out.join("vercel.json"));
    let sources: Vec<&str> = v["headers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["/(.*)", "/.well-known/ai", "/ai"]);
    assert!(v.get("redirects").is_none());
    // Another host: wellgen's entries leave, the user's file stays as it was.
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        fs::read_to_string(out.join("vercel.json")).unwrap(),
        serde_json::to_string_pretty(&user).unwrap()
    );
}

/// Merging never re-serialises the user's vercel.json: a number past `f64`, a repeated key,
/// `\u` escapes and odd whitespace come back byte for byte once wellgen's entries leave.
#[test]
fn vercel_json_keeps_the_users_text_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    fs::create_dir_all(&out).unwrap();
    let user = "{ \"build\":{\"env\":{\"ID\":12345678901234567890123}},\t\"trailingSlash\": false,\r\n\
                \"trailingSlash\": true,\n  \"headers\" : [ {\"source\":\"/caf\\u00e9\",\"headers\":[]} ]\n}\n";
    fs::write(out.join("vercel.json"), user).unwrap();
    let src = root().join(BOOKSHELF);
    let (code, stderr) = build(&src, &out, &["--host", "vercel"]);
    assert_eq!(code, 0, "{stderr}");
    let merged = fs::read_to_string(out.join("vercel.json")).unwrap();
    assert!(
        merged.starts_with(
            "{ \"build\":{\"env\":{\"ID\":12345678901234567890123}},\t\"trailingSlash\": false,\r\n\
             \"trailingSlash\": true,\n  \"headers\" : [ {\"source\":\"/caf\\u00e9\",\"headers\":[]}"
        ),
        "{merged}"
    );
    let v: Value = serde_json::from_str(&merged).unwrap();
    // The user's entry, one per document, and the home page's.
    assert_eq!(
        v["headers"].as_array().unwrap().len(),
        2 + documents(Host::Vercel).len()
    );
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(fs::read_to_string(out.join("vercel.json")).unwrap(), user);
}

#[test]
fn a_users_vercel_entry_for_a_wellgen_path_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    fs::create_dir_all(&out).unwrap();
    let user = r#"{ "headers": [{ "source": "/.well-known/ai", "headers": [] }] }"#;
    fs::write(out.join("vercel.json"), user).unwrap();
    let (code, stderr) = build(&root().join(BOOKSHELF), &out, &["--host", "vercel"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("already has an entry for `/.well-known/ai`"),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(out.join("vercel.json")).unwrap(), user);
}

/// A site folder holding `files` (name, text).
fn site(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    fs::create_dir_all(&out).unwrap();
    for (name, text) in files {
        fs::write(out.join(name), text).unwrap();
    }
    (dir, out)
}

/// The members of the site's vercel.json that the manifest says wellgen created.
fn created_members(out: &Path) -> Vec<String> {
    fs::read_to_string(out.join(".wellgen-manifest"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("/vercel.json#/"))
        .filter_map(|l| l.strip_suffix(" member"))
        .map(str::to_string)
        .collect()
}

fn build_ok(out: &Path, host: &str) {
    let (code, stderr) = build(&root().join(BOOKSHELF), out, &["--host", host]);
    assert_eq!(code, 0, "--host {host}: {stderr}");
}

/// A list the site wrote into vercel.json (`headers`, `redirects`, `rewrites`), even an empty
/// one, is the site's: wellgen puts its entries in and takes them out, and the list stays with
/// the very bytes it had, however often the host changes.
#[test]
fn a_sites_own_vercel_lists_stay_byte_for_byte_even_empty() {
    let users = [
        "{\n  \"cleanUrls\": true,\n  \"headers\": [ ],\n  \"redirects\": [],\n  \"rewrites\": []\n}\n",
        "{\n    \"headers\": [\n    ],\n    \"redirects\": [\n\n    ]\n}",
        "{\"headers\":[],\"redirects\":[ ],\"trailingSlash\":false}",
        "{\n  \"headers\": [\n    { \"source\": \"/(.*)\", \"headers\": [{ \"key\": \"X-Frame-Options\", \"value\": \"DENY\" }] }\n  ],\n  \"redirects\": [\t]\n}\n",
    ];
    let documents = documents(Host::Vercel).len();
    for user in users {
        let (_d, out) = site(&[("vercel.json", user)]);
        for _ in 0..2 {
            build_ok(&out, "vercel");
            let merged = fs::read_to_string(out.join("vercel.json")).unwrap();
            let v: Value = serde_json::from_str(&merged).unwrap();
            let ours = v["headers"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["source"] != "/(.*)")
                .count();
            assert_eq!(ours, documents + 1, "{merged}");
            assert_eq!(v["redirects"][0]["source"], "/{index.html}?", "{merged}");
            assert_eq!(v["redirects"][1]["source"], "/api/discovery", "{merged}");
            assert!(created_members(&out).is_empty(), "{user}");
            build_ok(&out, "vercel");
            assert_eq!(
                fs::read_to_string(out.join("vercel.json")).unwrap(),
                merged,
                "a second build changes nothing"
            );
            build_ok(&out, "netlify");
            assert_eq!(fs::read_to_string(out.join("vercel.json")).unwrap(), user);
        }
    }
}

/// A vercel.json with none of the lists gets them from wellgen, which records that it created
/// them and takes them out again: the file returns to its exact bytes, even `{}`.
#[test]
fn lists_wellgen_adds_to_a_sites_vercel_json_leave_with_its_entries() {
    let users = [
        "{}",
        "{ }\n",
        "{\n  \"cleanUrls\": true\n}\n",
        "{\"cleanUrls\":true,\"rewrites\":[{\"source\":\"/(.*)\",\"destination\":\"/\"}]}",
        "{\n  \"$schema\": \"https://openapi.vercel.sh/vercel.json\"\n}\n",
    ];
    for user in users {
        let (_d, out) = site(&[("vercel.json", user)]);
        for _ in 0..2 {
            build_ok(&out, "vercel");
            assert_eq!(created_members(&out), ["headers", "redirects"], "{user}");
            let v = crate::common::read_json(&out.join("vercel.json"));
            assert!(v["headers"].as_array().is_some_and(|h| !h.is_empty()));
            build_ok(&out, "netlify");
            assert_eq!(fs::read_to_string(out.join("vercel.json")).unwrap(), user);
        }
    }
    // wellgen's own vercel.json, `$schema` and all, goes whole.
    let (_d, out) = site(&[]);
    build_ok(&out, "vercel");
    assert_eq!(created_members(&out), ["$schema", "headers", "redirects"]);
    build_ok(&out, "netlify");
    assert!(!out.join("vercel.json").exists());
}

/// A list wellgen created that the site has since emptied by hand (or replaced by a `[]` of
/// its own) cannot be told from one the site wrote: it stays, as does one the site added its
/// own entry to.
#[test]
fn a_list_wellgen_created_and_the_site_changed_is_kept() {
    let user = "{\n  \"cleanUrls\": true\n}\n";
    let (_d, out) = site(&[("vercel.json", user)]);
    build_ok(&out, "vercel");
    let mut v = crate::common::read_json(&out.join("vercel.json"));
    v["headers"] = serde_json::json!([]);
    v["redirects"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({ "source": "/old", "destination": "/new" }));
    let edited = serde_json::to_string_pretty(&v).unwrap();
    fs::write(out.join("vercel.json"), &edited).unwrap();
    build_ok(&out, "netlify");
    let left = fs::read_to_string(out.join("vercel.json")).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&left).unwrap(),
        serde_json::json!({
            "cleanUrls": true,
            "headers": [],
            "redirects": [{ "source": "/old", "destination": "/new" }]
        })
    );
    assert!(left.contains("\"headers\": [],"), "{left}");
    // From now on both lists are the site's.
    build_ok(&out, "vercel");
    assert!(created_members(&out).is_empty());
    build_ok(&out, "netlify");
    assert_eq!(fs::read_to_string(out.join("vercel.json")).unwrap(), left);
}

/// Netlify, Vercel, Netlify, Vercel, then a generic host into one site folder: every file of
/// the site's is, at every step, what the site wrote plus at most wellgen's part, and ends as
/// the site wrote it.
#[test]
fn switching_hosts_back_and_forth_keeps_every_site_file() {
    let vercel = "{\n  \"headers\": [ ],\n  \"rewrites\": [\n    { \"source\": \"/(.*)\", \"destination\": \"/index.html\" }\n  ]\n}\n";
    let headers = "/*\n  X-Frame-Options: DENY\n";
    let redirects = "/old /new 301\n";
    let htaccess = "Options -Indexes\n";
    let page = "<h1>my site</h1>\n";
    let own = [
        ("vercel.json", vercel),
        ("_headers", headers),
        ("_redirects", redirects),
        (".htaccess", htaccess),
        ("index.html", page),
    ];
    let (_d, out) = site(&own);
    // The site's files each host merges its part into.
    let merged: [(&str, &[&str]); 3] = [
        ("netlify", &["_headers", "_redirects"]),
        ("vercel", &["vercel.json"]),
        ("generic", &["_headers", ".htaccess"]),
    ];
    for host in ["netlify", "vercel", "netlify", "vercel", "generic"] {
        build_ok(&out, host);
        let touched = merged.iter().find(|(h, _)| *h == host).unwrap().1;
        for (name, text) in own {
            let now = fs::read_to_string(out.join(name)).unwrap();
            if !touched.contains(&name) {
                assert_eq!(now, text, "{name} after --host {host}");
            } else if name == "vercel.json" {
                assert!(now.contains("\"source\": \"/ai\""), "{now}");
            } else {
                let placement = if name == "_headers" {
                    wellgen::emit::hosts::section::Placement::Append
                } else {
                    wellgen::emit::hosts::section::Placement::Prepend
                };
                let rest = wellgen::emit::hosts::section::merge(&now, "", placement).unwrap();
                assert_eq!(
                    format!("{}\n", rest.trim_matches('\n')),
                    text,
                    "{name} after --host {host}"
                );
            }
        }
    }
    assert!(
        fs::read_to_string(out.join("_headers"))
            .unwrap()
            .starts_with(&format!("{headers}\n# BEGIN wellgen\n"))
    );
}

/// A manifest written before wellgen recorded the members it creates says nothing of them:
/// every list is then taken for the site's and kept (an empty list configures nothing on
/// Vercel; a list of the site's, once deleted, is gone).
#[test]
fn a_manifest_without_member_records_keeps_every_list() {
    let (_d, out) = site(&[]);
    build_ok(&out, "vercel");
    let manifest = out.join(".wellgen-manifest");
    let old: String = fs::read_to_string(&manifest)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("#/") && !l.starts_with("# Members"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&manifest, old).unwrap();
    build_ok(&out, "netlify");
    assert_eq!(
        fs::read_to_string(out.join("vercel.json")).unwrap(),
        "{\n  \"$schema\": \"https://openapi.vercel.sh/vercel.json\",\n  \"headers\": [],\n  \
         \"redirects\": []\n}\n"
    );
}

#[test]
fn github_pages_warns_per_octet_stream_document_and_twins_adp_details() {
    let (_d, out, stderr) = built("github-pages");
    assert!(!out.join("_headers").exists() && !out.join("_redirects").exists());
    assert_eq!(fs::read(out.join(".nojekyll")).unwrap(), b"");
    let docs = documents(Host::GithubPages);
    let extensionless: Vec<&Artifact> = docs
        .iter()
        .filter(|a| a.needs_content_type() && !a.path.ends_with(".json"))
        .collect();
    assert!(extensionless.iter().any(|a| a.path == "/.well-known/ai"));
    // Pages sends `.md` as text/markdown, the type a SKILL.md declares: no warning for it.
    let (markdown, extensionless): (Vec<&Artifact>, Vec<&Artifact>) = extensionless
        .into_iter()
        .partition(|a| a.path.ends_with(".md"));
    assert!(!markdown.is_empty());
    for a in &markdown {
        assert!(
            !stderr.contains(&format!("serve {} as", a.path)),
            "{stderr}"
        );
    }
    for a in &extensionless {
        let line = format!(
            "GitHub Pages will serve {} as application/octet-stream",
            a.path
        );
        assert!(
            stderr.contains(&line),
            "no warning for {}:\n{stderr}",
            a.path
        );
    }
    // A `.json` file it serves as JSON, though not with the document's own `+json` type.
    let typed_json: Vec<&Artifact> = docs
        .iter()
        .filter(|a| a.needs_content_type() && a.path.ends_with(".json"))
        .collect();
    assert!(
        typed_json
            .iter()
            .any(|a| a.path == "/.well-known/ai-catalog.json")
    );
    for a in &typed_json {
        let line = format!(
            "GitHub Pages will serve {} as application/json, not",
            a.path
        );
        assert!(
            stderr.contains(&line),
            "no warning for {}:\n{stderr}",
            a.path
        );
    }
    let details: Vec<&&Artifact> = extensionless
        .iter()
        .filter(|a| a.path.starts_with("/api/capabilities/"))
        .collect();
    assert!(!details.is_empty());
    for a in details {
        let twin = out.join(format!("{}.json", a.path.trim_start_matches('/')));
        assert_eq!(fs::read(&twin).unwrap(), &a.body[..], "{}", twin.display());
    }
    assert!(
        !out.join(".well-known/ai.json").exists(),
        "fixed paths get no twin"
    );
    assert!(stderr.contains("GitHub Pages cannot answer /api/discovery?format=openapi"));
}

#[test]
fn cloudflare_404_page_and_a_users_own_files_are_kept() {
    let (_d, out, _) = built("cloudflare");
    let page = fs::read_to_string(out.join("404.html")).unwrap();
    assert!(page.contains("<title>404 Not Found</title>"));
    // A site's own 404.html and .htaccess stay; wellgen's .htaccess rules join the user's.
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    fs::create_dir_all(&site).unwrap();
    fs::write(site.join("404.html"), "mine").unwrap();
    fs::write(site.join(".htaccess"), "Options -Indexes\n").unwrap();
    let src = root().join(BOOKSHELF);
    for host in ["cloudflare", "generic", "cloudflare"] {
        let (code, stderr) = build(&src, &site, &["--host", host]);
        assert_eq!(code, 0, "{host}: {stderr}");
        assert_eq!(fs::read_to_string(site.join("404.html")).unwrap(), "mine");
    }
    let manifest = fs::read_to_string(site.join(".wellgen-manifest")).unwrap();
    assert!(
        !manifest.contains("/404.html"),
        "the user's 404.html is not wellgen's"
    );
    assert_eq!(
        fs::read_to_string(site.join(".htaccess")).unwrap(),
        "Options -Indexes\n",
        "leaving the generic host takes wellgen's section out"
    );
    let (code, _) = build(&src, &site, &["--host", "generic"]);
    assert_eq!(code, 0);
    let htaccess = fs::read_to_string(site.join(".htaccess")).unwrap();
    assert!(
        htaccess.starts_with("# BEGIN wellgen\n"),
        "ours go first:\n{htaccess}"
    );
    assert!(
        htaccess.ends_with("# END wellgen\n\nOptions -Indexes\n"),
        "{htaccess}"
    );
}

/// Keeping a site's own 404.html is the right outcome: no warning, and with `--notes` a note
/// naming the `[build] skip` entry that records the choice.
#[test]
fn a_sites_own_404_page_is_a_note_naming_the_skip_that_records_it() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    fs::create_dir_all(&site).unwrap();
    fs::write(site.join("404.html"), "mine").unwrap();
    let src = root().join(BOOKSHELF);
    let (code, stderr) = build(&src, &site, &["--host", "cloudflare"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    assert!(stderr.contains("; no problems)"), "{stderr}");
    let (code, stderr) = build(&src, &site, &["--host", "cloudflare", "--notes"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "note[N-output-site-file]: `/404.html` is the site's own, which is kept; wellgen's \
             default is not written\n  = help: nothing to do; to record the choice, add \
             \"/404.html\" to `[build] skip` in service.toml"
        ),
        "{stderr}"
    );
    // Recorded, nothing is said.
    let with_skip = dir.path().join("service.toml");
    let text = fs::read_to_string(&src).unwrap();
    fs::write(
        &with_skip,
        format!("{text}\n[build]\nskip = [\"/404.html\"]\n"),
    )
    .unwrap();
    let (code, stderr) = build(&with_skip, &site, &["--host", "cloudflare", "--notes"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("404.html"), "{stderr}");
    assert_eq!(fs::read_to_string(site.join("404.html")).unwrap(), "mine");
}

#[test]
fn generic_server_configs_set_the_same_headers_as_headers_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dist");
    let conf = dir.path().join("conf");
    let (code, stderr) = build(
        &root().join(BOOKSHELF),
        &out,
        &[
            "--host",
            "generic",
            "--server-config",
            conf.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(!out.join("wellgen-nginx.conf").exists());
    let nginx = fs::read_to_string(conf.join("wellgen-nginx.conf")).unwrap();
    let apache = fs::read_to_string(out.join(".htaccess")).unwrap();
    for a in documents(Host::Generic) {
        let start = nginx
            .find(&format!("location = {} {{", a.path))
            .unwrap_or_else(|| panic!("no nginx location for {}", a.path));
        let block = &nginx[start..start + nginx[start..].find("\n}\n").unwrap()];
        let ablock = &apache[apache
            .find(&format!("%{{REQUEST_URI}} == '{}'", a.path))
            .unwrap()..];
        let ablock = &ablock[..ablock.find("</If>").unwrap()];
        for h in document_headers(&a).unwrap() {
            if h.name == "Content-Type" {
                assert!(
                    block.contains(&format!("default_type '{}';", h.value)),
                    "{block}"
                );
                let quoted = h.value.replace('"', "\\\"");
                assert!(
                    ablock.contains(&format!("ForceType \"{quoted}\"")),
                    "{ablock}"
                );
            } else {
                assert!(
                    block.contains(&format!("add_header {} '{}' always;", h.name, h.value)),
                    "{block}"
                );
                assert!(
                    ablock.contains(&format!("Header always set {} \"{}\"", h.name, h.value)),
                    "{ablock}"
                );
            }
        }
    }
    assert!(nginx.contains(
        "if ($arg_format = \"openapi\") {\n        rewrite ^ /api/discovery.openapi.json last;"
    ));
    assert!(nginx.contains("location = /wellgen-nginx.conf {\n    return 404;"));
}

/// A service with `n` capabilities: ADP writes one detail document (one `_headers` rule) each.
fn many_capabilities(n: usize) -> String {
    let mut text = String::from(
        "[service]\nname = \"Many\"\ndescription = \"A service with many operations.\"\n\
         base_url = \"https://many.example\"\n",
    );
    for i in 0..n {
        text.push_str(&format!(
            "\n[[capabilities]]\nid = \"op_{i}\"\ndescription = \"Operation {i}\"\n\
             method = \"GET\"\npath = \"/api/op{i}\"\n"
        ));
    }
    text
}

#[test]
fn many_capability_documents_collapse_under_cloudflares_rule_limit() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("service.toml");
    fs::write(&src, many_capabilities(100)).unwrap();
    let out = dir.path().join("dist");
    let (code, stderr) = build(&src, &out, &["--host", "cloudflare"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("accepts at most"), "{stderr}");
    let headers = fs::read_to_string(out.join("_headers")).unwrap();
    let rules = headers
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with([' ', '#']))
        .count();
    assert!(rules <= 100, "{rules} rules");
    assert!(headers.contains("\n/api/capabilities/*\n"), "{headers}");
    assert!(wellgen::emit::hosts::headers::cloudflare_limits(&headers).is_empty());
    // The limits themselves, on a file collapsing cannot shrink.
    let over: String = (0..101).map(|i| format!("/doc{i}\n  X: y\n")).collect();
    let problems = wellgen::emit::hosts::headers::cloudflare_limits(&over);
    assert_eq!(
        problems,
        ["101 header rules: Cloudflare Pages accepts at most 100 in _headers"]
    );
    let long = format!("/a\n  X: {}\n", "y".repeat(2001));
    assert!(
        wellgen::emit::hosts::headers::cloudflare_limits(&long)[0]
            .contains("Cloudflare Pages accepts at most 2000")
    );
}

/// A `_headers` with two wellgen sections is refused whatever the host: replacing one section
/// would take the site's own rules between them for wellgen's.
#[test]
fn a_headers_file_with_two_wellgen_sections_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("_headers"), "/y\n  Y: 2\n").unwrap();
    let src = root().join(BOOKSHELF);
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 0, "{stderr}");
    let built = fs::read_to_string(out.join("_headers")).unwrap();
    let doubled = format!("{built}{}", &built[built.find("# BEGIN").unwrap()..]);
    fs::write(out.join("_headers"), &doubled).unwrap();
    // Netlify writes `_headers`: the build stops. Vercel takes wellgen's section out of the
    // last build's `_headers`: the file is kept, with a warning.
    for (host, code_wanted, said) in [("vercel", 0, true), ("netlify", 2, true)] {
        let (code, stderr) = build(&src, &out, &["--host", host]);
        assert_eq!(code, code_wanted, "--host {host}: {stderr}");
        let message = "more than one `# BEGIN wellgen` / `# END wellgen` section";
        assert_eq!(stderr.contains(message), said, "--host {host}: {stderr}");
        assert_eq!(fs::read_to_string(out.join("_headers")).unwrap(), doubled);
    }
}

/// `--host` wins over the file's `[deploy] host`: its warnings say the value came from the
/// command line, and point no caret at the file's `host = "netlify"`, which is not the host
/// they are about.
#[test]
fn a_host_given_on_the_command_line_is_named_not_the_files_line() {
    let (code, _, stderr) = run(wellgen().arg("check").arg(root().join(BOOKSHELF)).args([
        "--host",
        "github-pages",
        "--verbose",
    ]));
    assert_eq!(code, 0, "{stderr}");
    let types = stderr.matches("warning[W-host-headers]").count();
    assert!(types >= 5, "{stderr}");
    let warnings = types + stderr.matches("warning[W-host-link-header]").count();
    assert!(!stderr.contains("host = \"netlify\""), "{stderr}");
    assert_eq!(
        stderr
            .matches("  = from: --host on the command line\n")
            .count(),
        warnings,
        "{stderr}"
    );
    let (_, stdout, _) = run(wellgen().arg("check").arg(root().join(BOOKSHELF)).args([
        "--host",
        "github-pages",
        "--format",
        "json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for d in report["diagnostics"].as_array().unwrap() {
        if d["field"] == "deploy.host" {
            assert_eq!(d["origin"], "--host on the command line", "{d}");
            assert_eq!(d["line"], serde_json::Value::Null, "{d}");
        }
    }
    // From the file, the caret points at the file's value.
    let work = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(root().join(BOOKSHELF)).unwrap();
    let source = work.path().join("service.toml");
    fs::write(
        &source,
        text.replace("host = \"netlify\"", "host = \"github-pages\""),
    )
    .unwrap();
    let (_, _, stderr) = run(wellgen().arg("check").arg(&source));
    assert!(stderr.contains("host = \"github-pages\"\n"), "{stderr}");
    assert!(!stderr.contains("= from:"), "{stderr}");
}
