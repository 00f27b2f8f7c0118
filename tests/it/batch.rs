//! `wellgen build DIR`: every service.toml below a folder, each into its own output folder,
//! skipping hidden, build and output folders; one failure does not stop the others.

use std::fs;
use std::path::Path;

use crate::common::*;

const GOOD: &str = r#"[service]
name = "Shop"
description = "Search the products of a small example shop by keyword."
base_url = "https://api.shop.example.com"

[[capabilities]]
id = "search_products"
description = "Search products by keyword"
method = "GET"
path = "/products/search"

[capabilities.params]
q = "string, required -- search keyword"
"#;

fn put(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn batch(root: &Path, extra: &[&str]) -> (i32, String, String) {
    run(wellgen().arg("build").arg(root).args(extra))
}

#[test]
fn builds_each_service_beside_it_and_skips_hidden_build_and_output_folders() {
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    put(root, "service.toml", GOOD);
    put(root, "a/service.toml", GOOD);
    put(root, "a/b/service.toml", GOOD);
    for skipped in [".git", "target", "node_modules", "x/.hidden"] {
        put(root, &format!("{skipped}/service.toml"), "not toml [");
    }
    // A folder wellgen wrote before (it holds a manifest) is output, not input.
    put(
        root,
        "old/.wellgen-manifest",
        "# Files written by wellgen\n",
    );
    put(root, "old/service.toml", "not toml [");

    let (code, stdout, stderr) = batch(root, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("built 3 of 3 services"), "{stderr}");
    for dir in ["", "a", "a/b"] {
        let dist = root.join(dir).join("dist");
        assert!(dist.join(".well-known/ai").is_file(), "{}", dist.display());
        assert!(dist.join(".wellgen-manifest").is_file());
    }
    // The same documents as a single build of the same file.
    let single = build(&root.join("a/service.toml"), &[]);
    assert_eq!(files(single.path()), files(&root.join("a/dist")));

    // Run again: the dist folders just written are skipped, not built as sources.
    let (code, _, stderr) = batch(root, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("built 3 of 3 services"), "{stderr}");
}

#[test]
fn out_mirrors_the_source_folders() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("services");
    put(&src, "billing/service.toml", GOOD);
    put(&src, "search/eu/service.toml", GOOD);
    let out = work.path().join("site");
    let (code, _, stderr) = batch(&src, &["--out", out.to_str().unwrap(), "--jobs", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.join("billing/.well-known/ai").is_file());
    assert!(out.join("search/eu/.well-known/ai").is_file());
    assert!(!src.join("billing/dist").exists());
}

#[test]
fn one_failure_does_not_stop_the_others_and_every_error_names_its_file() {
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    for i in 0..6 {
        put(root, &format!("ok{i}/service.toml"), GOOD);
    }
    put(root, "bad1/service.toml", "[service]\nnmae = \"x\"\n");
    put(
        root,
        "bad2/service.toml",
        &GOOD.replace("https://", "ftp://"),
    );
    let (code, _, stderr) = batch(root, &["--jobs", "3"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("built 6 of 8 services"), "{stderr}");
    assert!(stderr.contains("2 failed"), "{stderr}");
    for bad in ["bad1", "bad2"] {
        let file = root.join(bad).join("service.toml").display().to_string();
        assert!(
            stderr.contains(&format!("{file}: error: build failed")),
            "{bad}:\n{stderr}"
        );
        assert!(!root.join(bad).join("dist").exists());
    }
    for i in 0..6 {
        assert!(root.join(format!("ok{i}/dist/.well-known/ai")).is_file());
    }
    // Deterministic: the same run prints the same report.
    let (_, _, again) = batch(root, &["--jobs", "1"]);
    assert_eq!(stderr, again);
}

#[test]
fn json_summary_lists_every_service_and_tokens_on_request() {
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    put(root, "a/service.toml", GOOD);
    put(root, "b/service.toml", GOOD);
    let (code, stdout, stderr) = batch(root, &["--json", "--tokens"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON on stdout");
    assert_eq!(v["built"], 2);
    assert_eq!(v["failed"], 0);
    let services = v["services"].as_array().unwrap();
    assert_eq!(services.len(), 2);
    assert!(
        services[0]["source"]
            .as_str()
            .unwrap()
            .ends_with("a/service.toml")
    );
    let one = services[0]["tokens"]["o200k_base"].as_u64().unwrap();
    assert!(one > 100, "{stdout}");
    assert_eq!(v["total"]["o200k_base"].as_u64().unwrap(), 2 * one);

    // Without --tokens, no counting (the encodings are not even loaded).
    let (_, stdout, _) = batch(root, &["--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(v.get("total").is_none() && v["services"][0].get("tokens").is_none());
    // --quiet: nothing on stdout, nothing on stderr when all is well.
    let (code, stdout, stderr) = batch(root, &["--quiet", "--json", "--tokens"]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
}

#[test]
fn a_folder_without_services_is_a_usage_error() {
    let work = tempfile::tempdir().unwrap();
    put(work.path(), "readme.txt", "nothing here");
    let (code, _, stderr) = batch(work.path(), &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no service.toml found"), "{stderr}");
}

/// Each service of a batch ends with the line of values its build derived, as a single build
/// does, naming its file; `--quiet` leaves it out.
#[test]
fn each_service_says_what_values_were_derived() {
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    put(root, "a/service.toml", GOOD);
    put(root, "b/service.toml", GOOD);
    let (code, _, stderr) = batch(root, &[]);
    assert_eq!(code, 0, "{stderr}");
    for dir in ["a", "b"] {
        let source = root.join(dir).join("service.toml");
        let line = stderr
            .lines()
            .find(|l| {
                l.starts_with(&format!("{}: ", source.display())) && l.contains("derived for")
            })
            .unwrap_or_else(|| panic!("no notes line for {dir}:\n{stderr}"));
        assert!(line.contains("wellgen check --notes"), "{line}");
    }
    let (code, _, stderr) = batch(root, &["--quiet"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("derived for"), "{stderr}");
}
