//! Splitting `/.well-known/ai`: a Stripe-sized OpenAPI document (generated here: 420
//! operations over 14 tags, some untagged) is over the draft's guidance, so `/.well-known/ai`
//! becomes an index of valid parts of at most 64 KB, with nothing dropped; `[source] split =
//! "tag"` also splits a small service by tag beside its whole document.

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
            "summary": format!("Operation number {i} reads or changes one resource. It does so in some documented way"),
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

/// The parts of a split `/.well-known/ai`: each index entry's file, read from `dist`.
fn parts(dist: &Path, index: &Value) -> Vec<(String, Value, u64)> {
    index["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(c["method"], "GET", "{c}");
            let url = c["endpoint"].as_str().unwrap();
            let path = url
                .strip_prefix("https://api.bigpay.example")
                .unwrap_or_else(|| panic!("{url} is not on the site"));
            assert!(path.starts_with("/.well-known/ai-services/"), "{path}");
            let file = dist.join(&path[1..]);
            let bytes = std::fs::metadata(&file).unwrap().len();
            (path.to_string(), read_json(&file), bytes)
        })
        .collect()
}

/// Over the draft's guidance, `/.well-known/ai` becomes an index of parts, whether or not
/// `[source] split` asks for it: every document valid and within 64 KB and 100 capabilities,
/// every operation in exactly one part with its required parameter, and `_headers` serving
/// the parts like the index.
#[test]
fn a_large_api_is_split_into_an_index_and_valid_parts_with_nothing_dropped() {
    let mut built = Vec::new();
    for split in [None, Some("tag")] {
        let dir = setup(split);
        let (code, stderr) = build(dir.path());
        assert_eq!(code, 0, "{stderr}");
        assert!(!stderr.contains("64 KB"), "{stderr}");
        let dist = dir.path().join("dist");
        let v = schema_validator("aiendpoint/schema.json");

        let index = read_json(&dist.join(".well-known/ai"));
        assert_eq!(
            std::fs::read(dist.join("ai")).unwrap(),
            std::fs::read(dist.join(".well-known/ai")).unwrap()
        );
        assert!(schema_errors(&v, &index).is_empty(), "{index:#}");
        let size = std::fs::metadata(dist.join(".well-known/ai"))
            .unwrap()
            .len();
        assert!(size <= 64 * 1024, "the index is {size} bytes");
        assert!(index.get("auth").is_none(), "no credential for a document");

        let mut seen: Vec<String> = Vec::new();
        let mut paths = BTreeSet::new();
        let entries = index["capabilities"].as_array().unwrap();
        for (n, (path, part, bytes)) in parts(&dist, &index).into_iter().enumerate() {
            // The index entry names every group its part holds: an agent finds the part for a
            // task from the index alone.
            let entry = entries[n]["description"].as_str().unwrap();
            assert!(entry.chars().count() <= 200, "{entry}");
            for id in ids(&part) {
                let group = group_of(&id);
                assert!(
                    entry.contains(&group),
                    "{path}: `{entry}` does not name {group}"
                );
            }
            let errors = schema_errors(&v, &part);
            assert!(errors.is_empty(), "{path}: {errors:#?}");
            assert!(bytes <= 64 * 1024, "{path} is {bytes} bytes");
            let caps = part["capabilities"].as_array().unwrap();
            assert!(!caps.is_empty() && caps.len() <= 100, "{path}");
            assert_eq!(part["auth"]["type"], "bearer", "{path}");
            for c in caps {
                assert_eq!(
                    c["params"]["id"]
                        .as_str()
                        .unwrap()
                        .split(" -- ")
                        .next()
                        .unwrap(),
                    "string, required",
                    "{c}"
                );
            }
            // Each part says the description of `id` once, at its first capability: a part
            // stands alone.
            let described: Vec<usize> = caps
                .iter()
                .enumerate()
                .filter(|(_, c)| c["params"]["id"].as_str().unwrap().contains(" -- "))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(described, [0], "{path}");
            assert_eq!(
                caps[0]["params"]["id"], "string, required -- The id of the resource",
                "{path}"
            );
            seen.extend(ids(&part));
            paths.insert(path);
        }
        assert!(
            paths.contains("/.well-known/ai-services/payment-intents.json"),
            "{paths:?}"
        );
        // Whole tags are packed into parts: fewer documents than tags.
        assert!(paths.len() < TAGS, "{paths:?}");
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), seen.len(), "a capability in two parts");
        let mut all: Vec<String> = (0..OPERATIONS).map(|i| format!("operation{i}")).collect();
        all.sort();
        assert_eq!(sorted, all);

        let headers = std::fs::read_to_string(dist.join("_headers")).unwrap();
        for p in &paths {
            let covered = headers.contains(&format!("{p}\n"))
                || headers.contains("/.well-known/ai-services/*\n");
            assert!(covered, "{p} has no _headers rule:\n{headers}");
        }
        built.push(common_files(&dist));
    }
    assert_eq!(built[0], built[1], "`split = \"tag\"` changes nothing");
}

/// The group `big_openapi` puts an operation in: its tag, or the resource of its path.
fn group_of(id: &str) -> String {
    let i: usize = id.trim_start_matches("operation").parse().unwrap();
    if i % 30 == 29 {
        format!("things{i}")
    } else if i.is_multiple_of(TAGS) {
        "Payment Intents".to_string()
    } else {
        format!("resource{}", i % TAGS)
    }
}

fn common_files(dist: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    crate::common::files(dist)
}

/// `[source] compact = false` keeps every description whole in the parts.
#[test]
fn compact_false_keeps_the_full_form_in_the_parts() {
    let dir = tempfile::tempdir().unwrap();
    let mut toml = String::from(
        "[source]\ncompact = false\n\n[service]\nname = \"Notes\"\n\
         description = \"Create and list notes.\"\nbase_url = \"https://api.bigpay.example\"\n\n\
         [auth]\ntype = \"bearer\"\n",
    );
    for i in 0..120 {
        toml.push_str(&format!(
            "\n[[capabilities]]\nid = \"read_{i}\"\ndescription = \"Reads thing {i}. Then says so.\"\n\
             path = \"/things/{i}\"\n[capabilities.params]\nq = \"string, optional -- The query. In full.\"\n"
        ));
    }
    std::fs::write(dir.path().join("service.toml"), toml).unwrap();
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");
    let dist = dir.path().join("dist");
    let index = read_json(&dist.join(".well-known/ai"));
    let parts = parts(&dist, &index);
    assert_eq!(
        parts.len(),
        2,
        "120 capabilities are two parts of at most 100"
    );
    let c = &parts[0].1["capabilities"][0];
    assert_eq!(c["description"], "Reads thing 0. Then says so.");
    // Every capability takes `q`, yet the full form lists it in each.
    assert_eq!(c["params"]["q"], "string, optional -- The query. In full.");
    for (path, part, _) in &parts {
        let description = part["service"]["description"].as_str().unwrap();
        assert!(!description.contains("Every capability"), "{path}");
        for c in part["capabilities"].as_array().unwrap() {
            assert!(c["params"].get("q").is_some(), "{path}: {c}");
        }
    }
}

/// `[source] compact` written beside `[source] openapi` is the author's choice for the import
/// too: `false` keeps a large import's full form, `true` compacts a small one.
#[test]
fn compact_beside_an_openapi_source_is_kept() {
    let dir = setup(None);
    let toml = dir.path().join("service.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("[source]\n", "[source]\ncompact = false\n"),
    )
    .unwrap();
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");
    let dist = dir.path().join("dist");
    let index = read_json(&dist.join(".well-known/ai"));
    let (_, part, _) = &parts(&dist, &index)[0];
    let c = &part["capabilities"][0];
    // The full form: the whole summary, and the optional parameter with its description.
    assert!(
        c["description"]
            .as_str()
            .unwrap()
            .ends_with("in some documented way"),
        "{c}"
    );
    assert!(
        c["params"]["expand"]
            .as_str()
            .unwrap()
            .contains("Related objects"),
        "{c}"
    );

    let small = tempfile::tempdir().unwrap();
    let mut one = big_openapi();
    let paths = one["paths"].as_object_mut().unwrap();
    let first = paths.keys().next().unwrap().clone();
    paths.retain(|k, _| *k == first);
    std::fs::write(
        small.path().join("openapi.json"),
        serde_json::to_vec(&one).unwrap(),
    )
    .unwrap();
    std::fs::write(
        small.path().join("service.toml"),
        "[source]\nopenapi = \"openapi.json\"\ncompact = true\n",
    )
    .unwrap();
    let (code, stderr) = build(small.path());
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(small.path().join("dist/.well-known/ai")).unwrap();
    assert_eq!(text.lines().count(), 1, "compact JSON: {text}");
    assert!(
        text.contains("\"Operation number 0 reads or changes one resource.\""),
        "{text}"
    );
}

/// A service with few capabilities but long prose: over 64 KB in full, one compact document
/// within it: first sentences, optional parameters by name and type, a parameter described
/// alike everywhere described once, compact JSON.
#[test]
fn a_long_document_that_fits_when_compact_stays_one_document() {
    let dir = tempfile::tempdir().unwrap();
    let mut toml = String::from(
        "[service]\nname = \"Notes\"\ndescription = \"Create and list notes.\"\n\
         base_url = \"https://notes.example/api\"\n\n[auth]\ntype = \"bearer\"\n",
    );
    let prose = "It does what it says. ".to_string() + &"More words follow here. ".repeat(6);
    for i in 0..60 {
        toml.push_str(&format!(
            "\n[[capabilities]]\nid = \"read_{i}\"\ndescription = \"<p>Reads thing {i}.</p> {}\"\n\
             path = \"/things{i}\"\n[capabilities.params]\nq = \"string, required -- The query. {prose}\"\n",
            &prose[..120]
        ));
        for j in 0..20 {
            toml.push_str(&format!("opt{j} = \"integer, optional -- {prose}\"\n"));
        }
    }
    std::fs::write(dir.path().join("service.toml"), toml).unwrap();
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");
    let dist = dir.path().join("dist");
    assert!(!dist.join(".well-known/ai-services").exists());
    let bytes = std::fs::read(dist.join(".well-known/ai")).unwrap();
    assert!(bytes.len() <= 64 * 1024, "{} bytes", bytes.len());
    assert_eq!(
        bytes.iter().filter(|&&b| b == b'\n').count(),
        1,
        "compact JSON"
    );
    let doc: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(schema_errors(&schema_validator("aiendpoint/schema.json"), &doc).is_empty());
    let c = &doc["capabilities"][7];
    assert_eq!(c["description"], "Reads thing 7.");
    // The same description of the same parameter is said once, at its first capability.
    assert_eq!(
        doc["capabilities"][0]["params"]["q"],
        "string, required -- The query."
    );
    assert_eq!(c["params"]["q"], "string, required");
    assert_eq!(doc["capabilities"].as_array().unwrap().len(), 60);
    // Every capability takes opt0…opt19: all are named once in the description (as many as its
    // 300 characters hold; the unit tests in compact.rs fill them), none in a capability.
    let description = doc["service"]["description"].as_str().unwrap();
    assert!(
        description.starts_with(
            "Create and list notes. Every capability also takes optional parameters: integer "
        ),
        "{description}"
    );
    assert!(description.chars().count() <= 300, "{description}");
    let list = description
        .split_once(": integer ")
        .and_then(|(_, l)| l.strip_suffix('.'))
        .unwrap();
    let list: Vec<&str> = list.split(", ").collect();
    let mut named = 0;
    for j in 0..20 {
        let said = list.contains(&format!("opt{j}").as_str());
        named += usize::from(said);
        for c in doc["capabilities"].as_array().unwrap() {
            let listed = c["params"].get(format!("opt{j}"));
            assert_eq!(listed.is_none(), said, "opt{j} in {c}");
            if let Some(v) = listed {
                assert_eq!(v, "integer, optional");
            }
        }
    }
    assert_eq!(named, 20, "{description}");
}

/// An optional parameter every capability of a part takes (`expand`) is named once in the
/// part's description and left out of each capability; the required `id` stays in each.
#[test]
fn optional_parameters_every_capability_takes_are_named_once_per_part() {
    let dir = setup(None);
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");
    let dist = dir.path().join("dist");
    let v = schema_validator("aiendpoint/schema.json");
    let index = read_json(&dist.join(".well-known/ai"));
    assert!(
        !index["service"]["description"]
            .as_str()
            .unwrap()
            .contains("Every capability")
    );
    let parts = parts(&dist, &index);
    assert!(parts.len() > 1);
    for (path, part, _) in parts {
        assert!(schema_errors(&v, &part).is_empty(), "{path}");
        let description = part["service"]["description"].as_str().unwrap();
        assert!(
            description.ends_with(
                " Every capability also takes optional parameters: array expand (items string)."
            ),
            "{path}: {description}"
        );
        for c in part["capabilities"].as_array().unwrap() {
            let params = c["params"].as_object().unwrap();
            assert!(!params.contains_key("expand"), "{path}: {c}");
            assert!(
                params["id"]
                    .as_str()
                    .unwrap()
                    .starts_with("string, required")
            );
        }
    }
}

/// One capability larger than 64 KB even compact cannot be split: its part is warned about.
#[test]
fn a_part_still_over_the_guidance_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let toml = String::from(
        "[service]\nname = \"Notes\"\ndescription = \"Create and list notes.\"\n\
         base_url = \"https://notes.example/api\"\n\n[auth]\ntype = \"bearer\"\n\n\
         [[capabilities]]\nid = \"read_all\"\ndescription = \"Reads.\"\npath = \"/all\"\n\
         [capabilities.params]\n",
    );
    for (options, refused) in [(3000, false), (12000, true)] {
        let mut toml = toml.clone();
        for j in 0..options {
            toml.push_str(&format!("option_number_{j} = \"integer, optional\"\n"));
        }
        std::fs::write(dir.path().join("service.toml"), toml).unwrap();
        let (code, stderr) = build(dir.path());
        assert_eq!(code, 0, "{stderr}");
        let part = "/.well-known/ai-services/all.json";
        let bytes = std::fs::metadata(dir.path().join("dist").join(&part[1..]))
            .unwrap()
            .len();
        let says = format!(
            "{part} is {} KB; aiendpoint says a document SHOULD NOT exceed 64 KB",
            bytes.div_ceil(1024)
        );
        assert!(stderr.contains(&says), "no `{says}` in {stderr}");
        assert_eq!(
            stderr.contains("agents MAY refuse it over 256 KB"),
            refused,
            "{bytes} bytes: {stderr}"
        );
    }
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
    let (code, stdout, stderr) = run(wellgen()
        .arg("build")
        .arg(dir.path().join("service.toml"))
        .arg("-o")
        .arg(dir.path().join("dist")));
    assert_eq!(code, 0, "{stderr}");
    // Hundreds of files and diagnostics, yet the default output is a page: under 40 lines.
    let lines = stdout.lines().count() + stderr.lines().count();
    assert!(lines < 40, "{lines} lines:\n{stderr}\n{stdout}");
    assert!(stdout.contains("more (--verbose lists them)"), "{stdout}");
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

/// The site paths a build's SKILL.md links to, on `site` (`https://host`).
fn skill_links(dist: &Path, site: &str) -> Vec<String> {
    let skills = dist.join(".well-known/agent-skills");
    let skill = std::fs::read_dir(&skills)
        .unwrap()
        .map(|e| e.unwrap().path().join("SKILL.md"))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("no SKILL.md in {}", skills.display()));
    let text = std::fs::read_to_string(skill).unwrap();
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')'))
        .filter_map(|(url, _)| url.strip_prefix(site))
        .map(str::to_string)
        .collect()
}

/// SKILL.md links the sub-service index of `[source] split` only where it is written: a
/// service too large for one document is split into parts instead, and has none.
#[test]
fn the_skill_links_the_split_index_only_where_it_is_written() {
    let large = setup(Some("tag"));
    let small = tempfile::tempdir().unwrap();
    std::fs::write(
        small.path().join("service.toml"),
        "[source]\nsplit = \"tag\"\n\n[service]\nname = \"Notes\"\n\
         description = \"Create and list notes.\"\nbase_url = \"https://notes.example/api\"\n\n\
         [auth]\ntype = \"bearer\"\n\n\
         [[capabilities]]\nid = \"list_notes\"\ndescription = \"List notes\"\npath = \"/notes\"\n\
         tags = [\"notes\"]\n\n\
         [[capabilities]]\nid = \"list_tags\"\ndescription = \"List tags\"\npath = \"/tags\"\n\
         tags = [\"tags\"]\n",
    )
    .unwrap();
    for (dir, site, index) in [
        (large.path(), "https://api.bigpay.example", false),
        (small.path(), "https://notes.example", true),
    ] {
        let (code, _, stderr) = run(wellgen()
            .arg("build")
            .arg(dir.join("service.toml"))
            .arg("-o")
            .arg(dir.join("dist"))
            .args(["--target", "ai,agent-skills"]));
        assert_eq!(code, 0, "{stderr}");
        let dist = dir.join("dist");
        let links = skill_links(&dist, site);
        assert!(links.iter().any(|l| l == "/.well-known/ai"), "{links:?}");
        for link in &links {
            assert!(
                dist.join(link.trim_start_matches('/')).exists(),
                "SKILL.md links {link}, which is not written"
            );
        }
        assert_eq!(
            links
                .iter()
                .any(|l| l == "/.well-known/ai-services/index.json"),
            index,
            "{links:?}"
        );
    }
}

/// A split by tag that gives one sub-service is warned about whatever the service's size: a
/// service of over 100 capabilities, published in parts, is told too, by `check` as by
/// `build`.
#[test]
fn a_split_without_tags_is_warned_about_even_when_published_in_parts() {
    let dir = tempfile::tempdir().unwrap();
    let mut toml = String::from(
        "[source]\nsplit = \"tag\"\n\n[service]\nname = \"Notes\"\n\
         description = \"Create and list notes.\"\nbase_url = \"https://notes.example/api\"\n\n\
         [auth]\ntype = \"bearer\"\n",
    );
    for i in 0..101 {
        toml.push_str(&format!(
            "\n[[capabilities]]\nid = \"read_{i}\"\ndescription = \"Read thing {i}\"\n\
             path = \"/things{i}\"\n"
        ));
    }
    std::fs::write(dir.path().join("service.toml"), toml).unwrap();
    let (code, stderr) = build(dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("gives 1 sub-service"), "{stderr}");
    assert!(
        !dir.path()
            .join("dist/.well-known/ai-services/index.json")
            .exists()
    );
    let (code, _, stderr) = run(wellgen()
        .arg("check")
        .arg(dir.path().join("service.toml"))
        .args(["--target", "ai"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("gives 1 sub-service"), "{stderr}");
}
