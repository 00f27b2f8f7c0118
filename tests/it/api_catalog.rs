//! /.well-known/api-catalog on every example and fixture: an RFC 9264 linkset (JSON form,
//! §4.2) meeting RFC 9727 (links to the API endpoints, the profile'd media type, the RFC 8631
//! description relations), and served with its Content-Type although it has no extension.

use crate::common::*;
use serde_json::Value;
use wellgen::diag::Diagnostics;
use wellgen::emit::{Artifact, Target};
use wellgen::model::Service;

const PATH: &str = "/.well-known/api-catalog";
const CONTENT_TYPE: &str =
    "application/linkset+json; profile=\"https://www.rfc-editor.org/info/rfc9727\"";

/// IANA link relations the catalog may use, each with where it is registered. Anything else
/// must be an extension relation, i.e. an absolute URI (RFC 8288 §2.1.2).
const REGISTERED: [(&str, &str); 9] = [
    ("item", "RFC 6573"),
    ("api-catalog", "RFC 9727"),
    ("service-desc", "RFC 8631"),
    ("service-doc", "RFC 8631"),
    ("service-meta", "RFC 8631"),
    ("status", "RFC 8631"),
    ("version-history", "RFC 5829"),
    ("terms-of-service", "RFC 6903"),
    ("privacy-policy", "RFC 6903"),
];

/// The documents the other targets publish for others to link to, as their descriptors say.
fn documents(service: &Service) -> Vec<&'static str> {
    wellgen::emit::targets::linked(service, &Target::ALL)
        .into_iter()
        .filter(|d| d.target != Target::ApiCatalog)
        .map(|d| d.path)
        .collect()
}

fn load(source: &std::path::Path) -> (Service, Vec<Artifact>) {
    let mut diags = Diagnostics::default();
    let service = wellgen::pipeline::load(source, &mut diags).unwrap();
    let artifacts = Target::ApiCatalog.emit(&service, &mut diags);
    assert!(!diags.has_errors(), "{}: {diags:?}", source.display());
    (service, artifacts)
}

fn is_absolute_https(s: &str) -> bool {
    s.starts_with("https://") && !s.contains(char::is_whitespace)
}

/// RFC 9264 §4.2: the JSON shape of a linkset. Returns every problem found.
fn linkset_errors(doc: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let Some(top) = doc.as_object() else {
        return vec!["not a JSON object".into()];
    };
    if top.keys().ne(["linkset"].iter()) {
        errors.push(format!(
            "top level must hold only `linkset`: {:?}",
            top.keys()
        ));
    }
    let Some(contexts) = top.get("linkset").and_then(Value::as_array) else {
        errors.push("`linkset` must be an array".into());
        return errors;
    };
    for (i, cx) in contexts.iter().enumerate() {
        let Some(cx) = cx.as_object() else {
            errors.push(format!("linkset.{i} is not an object"));
            continue;
        };
        match cx.get("anchor").and_then(Value::as_str) {
            Some(a) if is_absolute_https(a) => {}
            other => errors.push(format!("linkset.{i}.anchor: {other:?}")),
        }
        for (rel, targets) in cx.iter().filter(|(k, _)| *k != "anchor") {
            if !REGISTERED.iter().any(|(r, _)| r == rel) && !is_absolute_https(rel) {
                errors.push(format!(
                    "linkset.{i}: `{rel}` is neither registered nor a URI"
                ));
            }
            let Some(targets) = targets.as_array().filter(|t| !t.is_empty()) else {
                errors.push(format!("linkset.{i}.{rel}: must be a non-empty array"));
                continue;
            };
            for (j, t) in targets.iter().enumerate() {
                let at = format!("linkset.{i}.{rel}.{j}");
                let Some(t) = t.as_object() else {
                    errors.push(format!("{at}: not an object"));
                    continue;
                };
                match t.get("href").and_then(Value::as_str) {
                    Some(h) if is_absolute_https(h) => {}
                    other => errors.push(format!("{at}.href: {other:?}")),
                }
                for (attr, v) in t.iter().filter(|(k, _)| *k != "href") {
                    // §4.2.4.1: these are strings; §4.2.4.2-3: the rest are arrays.
                    let ok = match attr.as_str() {
                        "type" | "title" | "media" => v.is_string(),
                        _ => v.is_array(),
                    };
                    if !ok {
                        errors.push(format!("{at}.{attr}: wrong JSON type"));
                    }
                }
            }
        }
    }
    errors
}

fn hrefs<'a>(cx: &'a Value, rel: &str) -> Vec<&'a str> {
    cx.get(rel)
        .and_then(Value::as_array)
        .map(|ts| ts.iter().map(|t| t["href"].as_str().unwrap()).collect())
        .unwrap_or_default()
}

#[test]
fn the_linkset_check_refuses_malformed_sets() {
    let bad = serde_json::json!({
        "linkset": [{
            "anchor": "https://x.example",
            "made-up": [{"href": "https://x.example/a"}],
            "item": {"href": "https://x.example/b"},
            "service-doc": [{"href": "/relative", "hreflang": "en"}]
        }],
        "extra": 1
    });
    let errors = linkset_errors(&bad);
    assert_eq!(errors.len(), 5, "{errors:#?}");
}

#[test]
fn every_catalog_is_a_linkset_that_meets_rfc_9727() {
    for source in sources() {
        let (service, artifacts) = load(&source);
        let name = source.display();
        assert_eq!(artifacts.len(), 1, "{name}");
        let a = &artifacts[0];
        assert_eq!(a.path, PATH);
        assert!(a.needs_content_type());
        let serving = a.serving.as_ref().unwrap();
        assert_eq!(serving.content_type, CONTENT_TYPE);
        assert_eq!(serving.cache_control, "public, max-age=3600");

        let doc: Value = serde_json::from_slice(&a.body).unwrap();
        let errors = linkset_errors(&doc);
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        let contexts = doc["linkset"].as_array().unwrap();
        let site = service.site_url.as_str();

        // §4.1: hyperlinks to the API endpoints, as `item`s of the catalog.
        let catalog = contexts
            .iter()
            .find(|c| c["anchor"] == format!("{site}{PATH}"))
            .unwrap_or_else(|| panic!("{name}: no context anchored at the catalog"));
        let items = hrefs(catalog, "item");
        assert_eq!(items.first(), Some(&service.base_url.as_str()), "{name}");
        for c in &service.capabilities {
            let origin = c.host.as_ref().unwrap_or(&service.base_url);
            assert!(
                items.contains(&origin.as_str()),
                "{name}: {origin} not an item"
            );
        }

        // Appendix A.1: the API described with service-desc / service-doc / service-meta / status.
        let api = contexts
            .iter()
            .find(|c| c["anchor"] == service.base_url.as_str())
            .unwrap_or_else(|| panic!("{name}: no context anchored at the API"));
        assert_eq!(
            api["service-desc"][0]["href"],
            format!("{site}/openapi.json"),
            "{name}"
        );
        assert_eq!(
            api["service-desc"][0]["type"],
            "application/vnd.oai.openapi+json;version=3.1"
        );
        let mut linked: Vec<&str> = ["service-desc", "service-doc", "service-meta"]
            .iter()
            .flat_map(|r| hrefs(api, r))
            .collect();
        for path in documents(&service) {
            let url = format!("{site}{path}");
            let at = linked.iter().position(|l| *l == url);
            assert!(at.is_some(), "{name}: {url} not linked");
            linked.remove(at.unwrap());
        }
        for rel in ["service-desc", "service-meta"] {
            for t in api[rel].as_array().unwrap() {
                assert!(t["type"].is_string(), "{name}: {rel} without a type");
            }
        }
        // Only the documentation page is left once the documents are taken out.
        assert_eq!(
            linked,
            service
                .links
                .docs
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
            "{name}"
        );
        if let Some(docs) = &service.links.docs {
            assert_eq!(api["service-doc"][0]["href"], docs.as_str());
            assert_eq!(api["service-doc"][0]["type"], "text/html");
        }
        assert_eq!(
            hrefs(api, "status"),
            service
                .meta
                .status
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
        );
        assert_eq!(
            hrefs(api, "version-history"),
            service
                .meta
                .changelog
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
        );
        assert_eq!(
            hrefs(api, "terms-of-service"),
            service
                .links
                .terms
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_second_api_host_is_an_item_too() {
    let (_, artifacts) = load(&root().join("tests/fixtures/beyond-api-key/service.toml"));
    let doc: Value = serde_json::from_slice(&artifacts[0].body).unwrap();
    assert_eq!(
        hrefs(&doc["linkset"][0], "item"),
        [
            "https://api.parcels.example/v2",
            "https://labels.parcels.example"
        ]
    );
}

#[test]
fn the_built_site_serves_the_catalog_with_its_media_type() {
    let out = build(
        &root().join("examples/bookshelf/service.toml"),
        &["--target", "api-catalog"],
    );
    let body = std::fs::read(out.path().join(".well-known/api-catalog")).unwrap();
    assert!(body.ends_with(b"}\n"));
    let headers = std::fs::read_to_string(out.path().join("_headers")).unwrap();
    let rule = headers
        .split("\n\n")
        .find(|b| b.starts_with(PATH))
        .unwrap_or_else(|| panic!("no rule for {PATH}:\n{headers}"));
    assert!(
        rule.contains(&format!("Content-Type: {CONTENT_TYPE}")),
        "{rule}"
    );
}
