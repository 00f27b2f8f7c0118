//! `[source] split = "tag"`: a Stripe-sized OpenAPI document (generated here: 420 operations
//! over 14 tags, some untagged) builds a full `/.well-known/ai` plus one valid sub-service
//! document per tag and an index; every capability is in exactly one sub-service, nothing is
//! dropped, and `_headers` serves the new files.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::{run, schema_errors, schema_validator, wellgen};
use serde_json::{Value, json};

const OPERATIONS: usize = 420;
const TAGS: usize = 14;

/// An OpenAPI 3.0 document with `OPERATIONS` operations: every 30th untagged, the others spread
/// over `TAGS` tags (one with a name that needs a slug), long enough that the full document is
/// well over 64 KB.
fn big_openapi() -> Value {
    let mut paths = serde_json::Map::new();
    for i in 0..OPERATIONS {
        let tag = if i % 30 == 29 {
            None
        } else if i % TAGS == 0 {
            Some("Payment Intents".to_string())
        } else {
            Some(format!("resource{}", i % TAGS))
        };
        let mut op = json!({
            "operationId": format!("operation{i}"),
            "summary": format!("Operation number {i}, which reads or changes one resource of the API in some documented way"),
            "parameters": [
                { "name": "id", "in": "path", "required": true, "schema": { "type": "string" }, "description": "The id of the resource" },
                { "name": "expand", "in": "query", "schema": { "type": "array", "items": { "type": "string" } }, "description": "Related objects to expand in the response" }
            ],
            "responses": { "200": { "description": "OK", "content": { "application/json": { "schema": {
                "type": "object", "properties": { "id": { "type": "string" }, "object": { "type": "string" }, "created": { "type": "integer" } }
            } } } } }
        });
        if let Some(t) = tag {
            op["tags"] = json!([t]);
        }
        paths.insert(format!("/v1/things{i}/{{id}}"), json!({ "get": op }));
    }
    json!({
        "openapi": "3.0.0",
        "info": { "title": "Bigpay", "version": "2022-04-01", "description": "Payments API for tests." },
        "servers": [{ "url": "https://api.bigpay.example" }],
        "components": { "securitySchemes": { "key": { "type": "http", "scheme": "bearer" } } },
        "security": [{ "key": [] }],
        "paths": paths
    })
}

fn setup(split: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("openapi.json"),
        serde_json::to_vec(&big_openapi()).unwrap(),
    )
    .unwrap();
    let mut toml = String::from("[source]\nopenapi = \"openapi.json\"\n");
    if let Some(s) = split {
        toml.push_str(&format!("split = \"{s}\"\n"));
    }
    std::fs::write(dir.path().join("service.toml"), toml).unwrap();
    dir
}

fn build(dir: &Path) -> (i32, String) {
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(dir.join("service.toml"))
        .arg("-o")
        .arg(dir.join("dist"))
        .args(["--target", "ai"]));
    (code, stderr)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(
        &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

fn ids(doc: &Value) -> Vec<String> {
    doc["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_large_api_splits_into_valid_sub_services_with_nothing_dropped() {
    let dir = setup(Some("tag"));
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");
    let dist = dir.path().join("dist");
    let v = schema_validator("aiendpoint/schema.json");

    // The main document is whole, and still warned about.
    let main = read_json(&dist.join(".well-known/ai"));
    let all = ids(&main);
    assert_eq!(all.len(), OPERATIONS);
    assert!(stderr.contains("SHOULD NOT exceed 64 KB"), "{stderr}");
    assert!(schema_errors(&v, &main).is_empty());

    let index = read_json(&dist.join(".well-known/ai-services/index.json"));
    assert_eq!(index["main"], "/.well-known/ai");
    assert_eq!(index["split"], "tag");
    let entries = index["sub_services"].as_array().unwrap();
    assert_eq!(
        entries.len(),
        TAGS + 1,
        "{TAGS} tags and the untagged: {index:#}"
    );
    let tags: Vec<&str> = entries.iter().map(|e| e["tag"].as_str().unwrap()).collect();
    assert!(
        tags.contains(&"Payment Intents") && tags.contains(&"untagged"),
        "{tags:?}"
    );

    let mut seen: Vec<String> = Vec::new();
    let mut files = BTreeSet::new();
    for e in entries {
        let path = e["document"].as_str().unwrap();
        assert!(path.starts_with("/.well-known/ai-services/") && path.ends_with(".json"));
        let sub = read_json(&dist.join(path.trim_start_matches('/')));
        let errors = schema_errors(&v, &sub);
        assert!(errors.is_empty(), "{path}: {errors:#?}");
        let sub_ids = ids(&sub);
        assert_eq!(sub_ids.len() as u64, e["capabilities"].as_u64().unwrap());
        let bytes = std::fs::metadata(dist.join(path.trim_start_matches('/')))
            .unwrap()
            .len();
        assert!(bytes < 64 * 1024, "{path} is {bytes} bytes");
        // The same capability entries as in the full document.
        for c in sub["capabilities"].as_array().unwrap() {
            let full = main["capabilities"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["id"] == c["id"])
                .unwrap();
            assert_eq!(full, c);
        }
        assert_eq!(sub["auth"], main["auth"]);
        seen.extend(sub_ids);
        files.insert(path.to_string());
    }
    assert!(
        files.contains("/.well-known/ai-services/payment-intents.json"),
        "{files:?}"
    );
    // Every capability in exactly one sub-service.
    let mut sorted_seen = seen.clone();
    sorted_seen.sort();
    sorted_seen.dedup();
    assert_eq!(
        sorted_seen.len(),
        seen.len(),
        "a capability in two sub-services"
    );
    let mut sorted_all = all.clone();
    sorted_all.sort();
    assert_eq!(sorted_seen, sorted_all);

    // Served like /.well-known/ai: cached a day, CORS open.
    let headers = std::fs::read_to_string(dist.join("_headers")).unwrap();
    for f in files
        .iter()
        .chain([&"/.well-known/ai-services/index.json".to_string()])
    {
        let covered =
            headers.contains(&format!("{f}\n")) || headers.contains("/.well-known/ai-services/*\n");
        assert!(covered, "{f} has no _headers rule:\n{headers}");
    }
}

#[test]
fn without_the_key_nothing_is_split() {
    let dir = setup(None);
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(!dir.path().join("dist/.well-known/ai-services").exists());
    assert!(stderr.contains("SHOULD NOT exceed 64 KB"), "{stderr}");
}

#[test]
fn an_unknown_split_is_an_error_on_the_key() {
    let dir = setup(Some("path"));
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`path` is not a way to split /.well-known/ai"),
        "{stderr}"
    );
    assert!(
        stderr.contains("split = \"path\""),
        "the caret points at the key: {stderr}"
    );
}

#[test]
fn a_service_toml_without_tags_warns_that_the_split_gives_one_document() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("service.toml"),
        r#"[source]
split = "tag"

[service]
name = "Notes"
description = "Create and list notes."
base_url = "https://notes.example/api"

[auth]
type = "bearer"

[[capabilities]]
id = "list_notes"
description = "List notes"
method = "GET"
path = "/notes"
"#,
    )
    .unwrap();
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("gives 1 sub-service"), "{stderr}");
    let index = read_json(&dir.path().join("dist/.well-known/ai-services/index.json"));
    assert_eq!(
        index["sub_services"][0]["document"],
        "/.well-known/ai-services/untagged.json"
    );
}

/// Every target of the large API builds: 420 ADP detail documents would be 420 `_headers`
/// rules, over Cloudflare's 100; the folder's rules become one splat rule instead.
#[test]
fn a_large_api_builds_every_target_within_the_headers_limit() {
    let dir = setup(Some("tag"));
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(dir.path().join("service.toml"))
        .arg("-o")
        .arg(dir.path().join("dist")));
    assert_eq!(code, 0, "{stderr}");
    let dist = dir.path().join("dist");
    let headers = std::fs::read_to_string(dist.join("_headers")).unwrap();
    let rules = headers.lines().filter(|l| l.starts_with('/')).count();
    assert!(rules <= 100, "{rules} rules:\n{headers}");
    let block = headers
        .split("\n\n")
        .find(|b| b.contains("/api/capabilities/*"))
        .unwrap_or_else(|| panic!("no splat rule for the ADP details:\n{headers}"));
    assert!(block.contains("Content-Type: application/json"), "{block}");
    assert!(
        !headers.contains("/api/capabilities/operation1\n"),
        "{headers}"
    );
    let details = std::fs::read_dir(dist.join("api/capabilities"))
        .unwrap()
        .count();
    assert_eq!(details, OPERATIONS);
}

/// Tags become file names: hostile ones (path separators, `..`, the index's own name, an empty
/// tag, names that differ only in case or punctuation) give distinct, plain file names inside
/// the sub-service folder, and nothing is written anywhere else.
#[test]
fn hostile_tags_become_plain_distinct_file_names() {
    let tags = [
        "../../escape",
        "..",
        "/etc/passwd",
        "a\\b",
        "index",
        "",
        "Payment Intents",
        "payment-intents",
        "Ünïcode",
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut toml = String::from(
        "[source]\nsplit = \"tag\"\n\n[service]\nname = \"Notes\"\n\
         description = \"Create and list notes.\"\nbase_url = \"https://notes.example/api\"\n",
    );
    for (i, tag) in tags.iter().enumerate() {
        toml.push_str(&format!(
            "\n[[capabilities]]\nid = \"read_{i}\"\ndescription = \"Read thing {i}\"\n\
             path = \"/things{i}\"\ntags = [{}]\n",
            serde_json::to_string(tag).unwrap()
        ));
    }
    std::fs::write(dir.path().join("service.toml"), toml).unwrap();
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");

    let mut top: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    top.sort();
    assert_eq!(top, ["dist", "service.toml"], "written outside dist/");

    let dist = dir.path().join("dist");
    let index = read_json(&dist.join(".well-known/ai-services/index.json"));
    let entries = index["sub_services"].as_array().unwrap();
    assert_eq!(entries.len(), tags.len(), "{index:#}");
    let mut names = BTreeSet::new();
    for e in entries {
        let path = e["document"].as_str().unwrap();
        let name = path
            .strip_prefix("/.well-known/ai-services/")
            .and_then(|n| n.strip_suffix(".json"))
            .unwrap_or_else(|| panic!("{path} is not in the sub-service folder"));
        assert!(
            !name.is_empty()
                && name != "index"
                && name.bytes().all(|b| b.is_ascii_lowercase()
                    || b.is_ascii_digit()
                    || b == b'-'
                    || b == b'_'),
            "{path} is not a plain file name"
        );
        assert!(names.insert(name.to_string()), "{path} named twice");
        assert_eq!(
            ids(&read_json(&dist.join(path.trim_start_matches('/')))).len(),
            1
        );
    }
}

/// A sub-service over the draft's guidance (64 KB, 100 capabilities) is warned about with the
/// size of the file written; a small one is not.
#[test]
fn a_sub_service_over_the_guidance_is_warned_about_with_its_written_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut toml = String::from(
        "[source]\nsplit = \"tag\"\n\n[service]\nname = \"Notes\"\n\
         description = \"Create and list notes.\"\nbase_url = \"https://notes.example/api\"\n",
    );
    for i in 0..221 {
        let tag = if i == 0 { "small" } else { "big" };
        toml.push_str(&format!(
            "\n[[capabilities]]\nid = \"read_{i}\"\ndescription = \"Read thing {i}: {}\"\n\
             path = \"/things{i}\"\ntags = [\"{tag}\"]\n",
            "words ".repeat(30)
        ));
    }
    std::fs::write(dir.path().join("service.toml"), toml).unwrap();
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");
    let big = "/.well-known/ai-services/big.json";
    let bytes = std::fs::metadata(dir.path().join("dist").join(&big[1..]))
        .unwrap()
        .len();
    assert!(bytes > 64 * 1024, "{bytes} bytes");
    let says = format!("{big} is {} KB with 220 capabilities", bytes.div_ceil(1024));
    assert!(stderr.contains(&says), "no `{says}` in {stderr}");
    assert!(!stderr.contains("small.json"), "{stderr}");
}
