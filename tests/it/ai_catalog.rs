//! /.well-known/ai-catalog.json on every example and fixture: the AI Catalog's MUSTs (the spec
//! publishes no JSON Schema; its example passes the same checks), one entry per AI artifact the
//! build writes, as the descriptors say, each at its URL on the site with its media type.

use crate::common::*;
use serde_json::Value;
use wellgen::diag::Diagnostics;
use wellgen::emit::targets::{Relation, ai_catalog, mcp_server_card};
use wellgen::emit::{Artifact, Target};
use wellgen::model::Service;

const PATH: &str = "/.well-known/ai-catalog.json";

/// The AI Catalog's MUSTs on a document: `specVersion` "Major.Minor", `entries` an array, each
/// entry's required members and exactly one of `url` and `data`, `identifier` (with `version`)
/// unique, a Host Info's `displayName`. Returns every problem found.
fn catalog_errors(doc: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let major_minor = |v: &str| {
        v.split_once('.').is_some_and(|(a, b)| {
            [a, b]
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
        })
    };
    match doc["specVersion"].as_str() {
        Some(v) if major_minor(v) => {}
        other => errors.push(format!("specVersion: {other:?}")),
    }
    if let Some(host) = doc.get("host")
        && !host["displayName"].is_string()
    {
        errors.push("host.displayName is required".into());
    }
    let Some(entries) = doc["entries"].as_array() else {
        errors.push("entries must be an array".into());
        return errors;
    };
    let mut seen = std::collections::BTreeSet::new();
    for (i, e) in entries.iter().enumerate() {
        for key in ["identifier", "displayName", "mediaType"] {
            if !e[key].is_string() {
                errors.push(format!("entries.{i}.{key} must be a string"));
            }
        }
        if e.get("url").is_some() == e.get("data").is_some() {
            errors.push(format!("entries.{i}: exactly one of url and data"));
        }
        if let Some(url) = e.get("url")
            && !url.is_string()
        {
            errors.push(format!("entries.{i}.url must be a string"));
        }
        let key = (
            e["identifier"].to_string(),
            e.get("version").map(Value::to_string),
        );
        if !seen.insert(key) {
            errors.push(format!("entries.{i}: identifier and version repeated"));
        }
    }
    errors
}

fn load(source: &std::path::Path) -> (Service, Vec<Artifact>) {
    let mut diags = Diagnostics::default();
    let service = wellgen::pipeline::load(source, &mut diags)
        .unwrap_or_else(|| panic!("{} lowers: {diags:?}", source.display()));
    let artifacts = wellgen::pipeline::emit(&service, &Target::ALL, &mut diags);
    assert!(!diags.has_errors(), "{}: {diags:?}", source.display());
    (service, artifacts)
}

#[test]
fn the_specs_example_passes_the_checks() {
    let example = read_json(&root().join("tests/schemas/ai-catalog/example.json"));
    assert_eq!(catalog_errors(&example), Vec::<String>::new());
    let mut broken = example.clone();
    broken["entries"][0]["data"] = serde_json::json!({});
    broken["specVersion"] = "1".into();
    assert_eq!(
        catalog_errors(&broken).len(),
        2,
        "{:?}",
        catalog_errors(&broken)
    );
}

#[test]
fn every_catalog_lists_the_ai_artifacts_written_at_their_urls() {
    for source in sources() {
        let (service, artifacts) = load(&source);
        let at = source.display();
        let file = artifacts
            .iter()
            .find(|a| a.path == PATH)
            .unwrap_or_else(|| panic!("{at}: no AI catalog"));
        let serving = file.serving.as_ref().unwrap();
        assert_eq!(serving.content_type, "application/ai-catalog+json", "{at}");
        let doc: Value = serde_json::from_slice(&file.body).unwrap();
        assert_eq!(catalog_errors(&doc), Vec::<String>::new(), "{at}");
        assert_eq!(doc["specVersion"], ai_catalog::SPEC_VERSION);

        // What the descriptors say the catalog lists, of the documents this service has written.
        let mut expected: Vec<(String, &str)> = Vec::new();
        for t in Target::ALL {
            for d in t.descriptor().documents {
                if let (Some(link), true) = (d.link, (d.written)(&service))
                    && let Some(media_type) = link.ai_catalog
                {
                    expected.push((service.site_url.join(d.path), media_type));
                }
            }
        }
        let mut listed: Vec<(String, &str)> = doc["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["url"].as_str().unwrap().to_string(),
                    e["mediaType"].as_str().unwrap(),
                )
            })
            .collect();
        expected.sort();
        listed.sort();
        assert_eq!(listed, expected, "{at}");
        for (url, _) in &listed {
            let path = url.strip_prefix(service.site_url.as_str()).unwrap();
            assert!(
                artifacts.iter().any(|a| a.path == path),
                "{at}: {url} is listed but not written"
            );
        }
        // The artifacts the catalog exists for: the agent card, the MCP tools list, the OpenAPI
        // description, /.well-known/ai and llms.txt, and the server card when there is one.
        let types: Vec<&str> = listed.iter().map(|(_, t)| *t).collect();
        assert!(types.contains(&"application/a2a-agent-card+json"), "{at}");
        assert_eq!(
            types.contains(&mcp_server_card::MEDIA_TYPE),
            service.mcp.is_some(),
            "{at}"
        );
        for e in doc["entries"].as_array().unwrap() {
            let id = e["identifier"].as_str().unwrap();
            assert!(id.starts_with("urn:air:"), "{at}: {id}");
        }
    }
}

#[test]
fn the_catalog_is_linked_from_the_api_catalog_and_llms_txt() {
    let d = Target::AiCatalog.descriptor();
    let link = d.documents[0].link.expect("the AI catalog is linked");
    assert_eq!(link.relation, Relation::ServiceMeta);
    let out = build(&root().join("examples/bookshelf/service.toml"), &[]);
    let site = "https://api.bookshelf.example";
    let api_catalog = std::fs::read_to_string(out.path().join(".well-known/api-catalog")).unwrap();
    assert!(api_catalog.contains(&format!("{site}{PATH}")));
    let llms = std::fs::read_to_string(out.path().join("llms.txt")).unwrap();
    assert!(llms.contains(&format!("]({site}{PATH})")), "{llms}");
}

#[test]
fn a_build_of_some_targets_lists_only_theirs() {
    let source = root().join("examples/bookshelf/service.toml");
    let out = build(&source, &["--target", "ai-catalog", "--target", "a2a"]);
    let doc = read_json(&out.path().join(".well-known/ai-catalog.json"));
    let entries = doc["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{doc:#}");
    assert_eq!(entries[0]["mediaType"], "application/a2a-agent-card+json");
}
