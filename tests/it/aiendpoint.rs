//! /.well-known/ai on every example and fixture: the draft's JSON Schema, the rules the schema
//! cannot express, the /ai alias, and the draft's own §8 examples reproduced.

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
