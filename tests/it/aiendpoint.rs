//! /.well-known/ai on every example and fixture: the draft's JSON Schema, the rules the schema
//! cannot express, the /ai alias, and the draft's own §8 examples reproduced.

use std::path::PathBuf;

use crate::common::*;

#[test]
fn the_validator_accepts_the_drafts_examples_and_rejects_a_broken_one() {
    let v = schema_validator("aiendpoint/schema.json");
    for name in [
        "8.1-minimal.json",
        "8.2-full-featured.json",
        "8.3-no-auth.json",
    ] {
        let doc = read_json(
            &root()
                .join("tests/schemas/aiendpoint/draft-examples")
                .join(name),
        );
        assert!(schema_errors(&v, &doc).is_empty(), "{name}");
    }
    let bad = serde_json::json!({
        "aiendpoint": "1.0",
        "service": {"name": "x", "description": "y"},
        "capabilities": [{"id": "Bad-Id", "description": "d", "endpoint": "/x", "method": "GET"}],
        "extra": true
    });
    let errors = schema_errors(&v, &bad);
    assert!(errors.iter().any(|e| e.contains("Bad-Id")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("extra")), "{errors:?}");
}

#[test]
fn every_document_passes_the_schema_and_the_rules_beyond_it() {
    let v = schema_validator("aiendpoint/schema.json");
    for source in sources() {
        let out = build(&source, &["--target", "ai"]);
        let well_known = std::fs::read(out.path().join(".well-known/ai")).unwrap();
        let alias = std::fs::read(out.path().join("ai")).unwrap();
        assert_eq!(
            well_known,
            alias,
            "{}: /ai differs from /.well-known/ai",
            source.display()
        );
        assert!(
            well_known.ends_with(b"}\n"),
            "pretty JSON with one trailing newline"
        );

        let doc: serde_json::Value = serde_json::from_slice(&well_known).unwrap();
        let errors = schema_errors(&v, &doc);
        assert!(errors.is_empty(), "{}: {errors:#?}", source.display());

        let ids: Vec<&str> = doc["capabilities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(
            ids.len(),
            unique.len(),
            "{}: duplicate capability ids",
            source.display()
        );

        // §6.2: auth type "none" never fronts a write.
        if doc["auth"]["type"] == "none" {
            for c in doc["capabilities"].as_array().unwrap() {
                assert_eq!(
                    c["method"],
                    "GET",
                    "{}: {} is a write with auth none",
                    source.display(),
                    c["id"]
                );
            }
        }
    }
}

#[test]
fn the_examples_reproduce_the_drafts_section_8() {
    for (example, draft) in [
        ("simplenotes", "8.1-minimal.json"),
        ("exampleshop", "8.2-full-featured.json"),
        ("worldweather", "8.3-no-auth.json"),
    ] {
        let out = build(
            &root().join("examples").join(example).join("service.toml"),
            &[],
        );
        let ours = read_json(&out.path().join(".well-known/ai"));
        let theirs = read_json(
            &root()
                .join("tests/schemas/aiendpoint/draft-examples")
                .join(draft),
        );
        assert_eq!(ours, theirs, "{example} differs from the draft's {draft}");
    }
}

#[test]
fn keys_keep_the_authors_order() {
    let out = build(&root().join("examples/exampleshop/service.toml"), &[]);
    let text = std::fs::read_to_string(out.path().join(".well-known/ai")).unwrap();
    assert!(text.find("search_products") < text.find("get_product"));
    let params = &text[text.find("\"params\"").unwrap()..];
    let at = |key: &str| {
        params
            .find(&format!("\"{key}\":"))
            .unwrap_or_else(|| panic!("{key}"))
    };
    assert!(at("q") < at("category") && at("category") < at("max_price"));
    assert!(at("max_price") < at("sort") && at("sort") < at("limit"));
}

/// §4.5's size guidance is met by splitting (ai_split.rs has the details): a service of 250 or
/// 1,000 capabilities gives documents of at most 64 KB and no warning about their size.
#[test]
fn the_size_guidance_is_met_by_splitting() {
    for capabilities in [250, 1000] {
        let dir = tempfile::tempdir().unwrap();
        let mut toml = String::from(
            "[service]\nname = \"Notes\"\ndescription = \"Create and list notes.\"\n\
             base_url = \"https://notes.example/api\"\n\n[auth]\ntype = \"bearer\"\n",
        );
        for i in 0..capabilities {
            toml.push_str(&format!(
                "\n[[capabilities]]\nid = \"read_{i}\"\ndescription = \"Read thing {i}: {}\"\n\
                 path = \"/things{i}\"\n",
                "words ".repeat(30)
            ));
        }
        let source = dir.path().join("service.toml");
        std::fs::write(&source, toml).unwrap();
        let out = dir.path().join("dist");
        let (code, _, stderr) = run(wellgen()
            .arg("build")
            .arg(&source)
            .arg("-o")
            .arg(&out)
            .args(["--target", "ai"]));
        assert_eq!(code, 0, "{stderr}");
        assert!(!stderr.contains("64 KB"), "{stderr}");
        let mut documents = vec![out.join(".well-known/ai")];
        for e in std::fs::read_dir(out.join(".well-known/ai-services")).unwrap() {
            documents.push(e.unwrap().path());
        }
        assert!(documents.len() > capabilities / 100, "{documents:?}");
        for d in documents {
            let bytes = std::fs::metadata(&d).unwrap().len();
            assert!(bytes <= 64 * 1024, "{} is {bytes} bytes", d.display());
        }
    }
}

/// Every `/.well-known/ai` document and part held as an expected output (the examples' and
/// the fixtures', real imported specs among them), and of the built folders listed in
/// `WELLGEN_AI_READBACK_DIRS`, with its path.
fn expected_documents() -> Vec<(PathBuf, serde_json::Value)> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("tests/golden"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for e in std::fs::read_dir(root().join("tests/fixtures")).unwrap() {
        dirs.push(e.unwrap().path().join("expected"));
    }
    dirs.sort();
    // Built folders of more APIs (the big ones of ../shared/corpus), when given.
    if let Some(more) = std::env::var_os("WELLGEN_AI_READBACK_DIRS") {
        dirs.extend(std::env::split_paths(&more));
    }
    for dir in dirs {
        let mut files = vec![dir.join(".well-known/ai")];
        if let Ok(parts) = std::fs::read_dir(dir.join(".well-known/ai-services")) {
            files.extend(parts.map(|e| e.unwrap().path()));
        }
        for f in files.into_iter().filter(|f| f.is_file()) {
            out.push((f.clone(), read_json(&f)));
        }
    }
    out
}

/// wellgen reads back every compact string it wrote: none of the expected documents holds one
/// its own reader refuses.
#[test]
fn every_compact_string_written_reads_back() {
    let mut count = 0;
    let mut refused = Vec::new();
    for (path, doc) in expected_documents() {
        for c in doc["capabilities"].as_array().into_iter().flatten() {
            for (name, text) in c["params"].as_object().into_iter().flatten() {
                count += 1;
                let text = text.as_str().unwrap();
                if let Err(e) = wellgen::values::param::parse_compact(text) {
                    refused.push(format!("{}: {name}: {text}: {e}", path.display()));
                }
            }
        }
    }
    assert!(count > 100, "only {count} parameters found");
    assert!(refused.is_empty(), "{refused:#?}");
}

/// A capability's parameters state what a call needs: a place other than the default, a
/// format, an array's items, an object's required fields, every allowed value; a non-JSON body
/// is said at the end of the description.
#[test]
fn parameters_state_their_place_format_items_and_fields() {
    let dir = tempfile::tempdir().unwrap();
    let long_values: Vec<String> = (0..20).map(|i| format!("\"value number {i}\"")).collect();
    let toml = format!(
        r#"[service]
name = "Places"
description = "Where parameters go."
base_url = "https://places.example"

[auth]
type = "bearer"

[[capabilities]]
id = "create_trip"
description = "Create a trip."
method = "POST"
path = "/trips"

[capabilities.params.audit]
type = "string"
required = true
in = "query"
schema = {{ format = "ipv4" }}

[capabilities.params.X-Request-Id]
type = "string"
required = true
in = "header"
schema = {{ format = "uuid" }}

[capabilities.params.ids]
type = "array"
items = "integer"
required = true

[capabilities.params.origin]
type = "object"
required = true
schema = {{ properties = {{ lat = {{ type = "number" }}, lng = {{ type = "number" }} }}, required = ["lat", "lng"] }}

[capabilities.params.mode]
type = "string"
enum = [{}]

[[capabilities]]
id = "delete_trip"
description = "Delete a trip."
method = "DELETE"
path = "/trips/{{id}}"
content_type = "application/x-www-form-urlencoded"

[capabilities.params.reason]
type = "string"
in = "body"

[capabilities.params.audit]
type = "string"
required = true
"#,
        long_values.join(", ")
    );
    let source = dir.path().join("service.toml");
    std::fs::write(&source, toml).unwrap();
    let out = build(&source, &["--target", "ai"]);
    let doc = read_json(&out.path().join(".well-known/ai"));
    let create = &doc["capabilities"][0]["params"];
    assert_eq!(create["audit"], "string, required, in query, format ipv4");
    assert_eq!(
        create["X-Request-Id"],
        "string, required, in header, format uuid"
    );
    assert_eq!(create["ids"], "array, required, items integer");
    assert_eq!(
        create["origin"],
        "object, required, fields {lat: number, lng: number}"
    );
    let mode = create["mode"].as_str().unwrap();
    assert!(mode.ends_with("|value number 19"), "{mode}");
    let read = wellgen::values::param::parse_compact(mode).unwrap();
    assert_eq!(read.allowed.len(), 20);
    let delete = &doc["capabilities"][1];
    assert_eq!(delete["params"]["audit"], "string, required");
    assert_eq!(delete["params"]["reason"], "string, optional, in body");
    assert_eq!(
        delete["description"],
        "Delete a trip. Request body: application/x-www-form-urlencoded."
    );
}

/// A scheme the draft cannot name (a key in the query, HTTP Basic) is `apikey` with no header,
/// and `auth.docs` points at the scheme in the published OpenAPI document, which names it; a
/// note says so. Without the OpenAPI document and a docs URL, a warning.
#[test]
fn an_unnamed_scheme_points_at_its_openapi_security_scheme() {
    for (auth, want) in [
        (
            "type = \"api_key\"\nin = \"query\"\nname = \"api_key\"",
            serde_json::json!({"type": "apiKey", "in": "query", "name": "api_key"}),
        ),
        (
            "type = \"basic\"",
            serde_json::json!({"type": "http", "scheme": "basic"}),
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("service.toml");
        std::fs::write(
            &source,
            format!(
                "[service]\nname = \"Keys\"\ndescription = \"Keyed.\"\n\
                 base_url = \"https://api.keys.example/v1\"\n\n[auth]\n{auth}\n\n\
                 [[capabilities]]\nid = \"list_keys\"\ndescription = \"List keys.\"\npath = \"/keys\"\n"
            ),
        )
        .unwrap();
        let out = tempfile::tempdir().unwrap();
        let (code, _, stderr) = run(wellgen()
            .arg("build")
            .arg(&source)
            .arg("-o")
            .arg(out.path())
            .args(["--notes", "--target", "ai,openapi"]));
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("N-ai-auth-pointer"), "{stderr}");
        assert!(!stderr.contains("W-auth-scheme-lost"), "{stderr}");
        let doc = read_json(&out.path().join(".well-known/ai"));
        assert_eq!(doc["auth"]["type"], "apikey", "{auth}");
        assert!(doc["auth"].get("header").is_none(), "{auth}");
        let docs = doc["auth"]["docs"].as_str().unwrap();
        let (url, fragment) = docs.split_once('#').unwrap();
        assert_eq!(url, "https://api.keys.example/openapi.json");
        let openapi = read_json(&out.path().join("openapi.json"));
        let scheme = openapi
            .pointer(fragment)
            .unwrap_or_else(|| panic!("{docs}"));
        for (key, value) in want.as_object().unwrap() {
            assert_eq!(&scheme[key], value, "{docs}: {scheme}");
        }

        // Without the OpenAPI document or a docs URL, nothing says the scheme: a warning.
        let (code, _, stderr) = run(wellgen()
            .arg("build")
            .arg(&source)
            .arg("-o")
            .arg(dir.path().join("alone"))
            .args(["--target", "ai"]));
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("W-auth-scheme-lost"), "{stderr}");
        let alone = read_json(&dir.path().join("alone/.well-known/ai"));
        assert_eq!(alone["auth"], serde_json::json!({"type": "apikey"}));
    }
}
