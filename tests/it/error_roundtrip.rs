//! Named errors survive build → import of the emitted `/openapi.json` → build: the same names,
//! statuses and descriptions, and a second trip gives the same bytes (a fixed point). Error
//! responses the OpenAPI document does not name (5xx above 504) import under names AGIS accepts.

use std::path::Path;

use serde_json::Value;
use wellgen::diag::Diagnostics;
use wellgen::emit::{Artifact, Target};
use wellgen::source::{self, openapi};
use wellgen::{check, model};

const SOURCE: &str = r#"
[service]
name = "Bookshelf"
description = "Search a catalogue of books."
base_url = "https://api.bookshelf.example"

[[capabilities]]
id = "search_books"
description = "Search books by title"
method = "GET"
path = "/books"

[capabilities.params.q]
type = "string"
required = true

[[capabilities.errors]]
name = "query_too_short"
status = 400
description = "The query has fewer than two characters; `q` needs two: see docs."

[[capabilities.errors]]
name = "quota_exhausted"
status = 400

[[capabilities.errors]]
name = "upstream_timeout"
status = 505
description = "The catalogue did not answer."

[[capabilities.errors]]
name = "already_on_list"
description = "No status."

[[capabilities.errors]]
name = "book_not_on_shelf"
status = 599
"#;

fn error_messages(diags: &Diagnostics) -> Vec<String> {
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.field.as_deref().unwrap_or(""), d.message))
        .collect()
}

fn build(raw: source::service_toml::ServiceToml) -> (model::Service, Vec<Artifact>) {
    let mut diags = Diagnostics::default();
    let service = model::lower(raw, &mut diags)
        .unwrap_or_else(|| panic!("lower: {:#?}", error_messages(&diags)));
    check::run(&service, &check::Policy::default(), &mut diags);
    let artifacts = wellgen::pipeline::emit(&service, &Target::ALL, &mut diags);
    assert!(!diags.has_errors(), "{:#?}", error_messages(&diags));
    (service, artifacts)
}

/// Imports an OpenAPI text and renders the service.toml `wellgen import` writes.
fn import(text: &str) -> String {
    let mut diags = Diagnostics::default();
    let imported = openapi::import_text(None, text, &openapi::Options::default(), &mut diags)
        .unwrap_or_else(|| panic!("import: {:#?}", error_messages(&diags)));
    assert!(!diags.has_errors(), "{:#?}", error_messages(&diags));
    openapi::service_file::render(
        &imported,
        Path::new("openapi.json"),
        Path::new("service.toml"),
    )
}

fn openapi_text(artifacts: &[Artifact]) -> String {
    let a = artifacts
        .iter()
        .find(|a| a.path == "/openapi.json")
        .expect("/openapi.json is emitted");
    String::from_utf8(a.body.to_vec()).unwrap()
}

/// build → import → build: the rendered service.toml, its model and artifacts.
fn trip(artifacts: &[Artifact]) -> (String, model::Service, Vec<Artifact>) {
    let rendered = import(&openapi_text(artifacts));
    let raw = source::parse_service_toml(&rendered).unwrap_or_else(|d| panic!("{}", d.message));
    let (service, built) = build(raw);
    (rendered, service, built)
}

/// The errors of the first capability, sorted by name: (name, status, description).
fn errors(s: &model::Service) -> Vec<(String, Option<u16>, Option<String>)> {
    let mut out: Vec<_> = s.capabilities[0]
        .errors
        .iter()
        .map(|e| (e.name.clone(), e.status, e.description.clone()))
        .collect();
    out.sort();
    out
}

#[test]
fn named_errors_survive_the_openapi_round_trip_and_reach_a_fixed_point() {
    let (service, built) = build(source::parse_service_toml(SOURCE).unwrap());
    let (rendered, first, first_built) = trip(&built);
    assert_eq!(errors(&first), errors(&service), "{rendered}");
    let (second_rendered, _, second_built) = trip(&first_built);
    assert_eq!(rendered, second_rendered);
    assert_eq!(first_built.len(), second_built.len());
    for (a, b) in first_built.iter().zip(&second_built) {
        assert_eq!(a.path, b.path);
        assert!(a.body == b.body, "{} differs after a second trip", a.path);
    }
}

#[test]
fn the_emitted_error_responses_name_each_error() {
    let (_, built) = build(source::parse_service_toml(SOURCE).unwrap());
    let doc: Value = serde_json::from_str(&openapi_text(&built)).unwrap();
    let responses = &doc["paths"]["/books"]["get"]["responses"];
    assert_eq!(
        responses["400"]["x-errors"],
        serde_json::json!([
            {"name": "query_too_short", "description": "The query has fewer than two characters; `q` needs two: see docs."},
            {"name": "quota_exhausted"},
        ])
    );
    assert_eq!(
        responses["default"]["x-errors"],
        serde_json::json!([{"name": "already_on_list", "description": "No status."}])
    );
}

/// A document without `x-errors` (any other producer): 5xx statuses above 504 get names AGIS
/// accepts, not the generic `server_error`, and the import builds.
#[test]
fn unlisted_5xx_statuses_import_under_specific_names() {
    let text = r#"{
      "openapi": "3.1.0",
      "info": {"title": "Shelf", "version": "1", "description": "A shelf of books."},
      "servers": [{"url": "https://api.shelf.example"}],
      "paths": {"/books": {"get": {
        "summary": "List books",
        "responses": {
          "200": {"description": "OK"},
          "505": {"description": "Old HTTP"},
          "507": {"description": "Full"},
          "509": {"description": "Over bandwidth"},
          "599": {"description": "Timed out upstream"}
        }
      }}}
    }"#;
    let rendered = import(text);
    let raw = source::parse_service_toml(&rendered).unwrap_or_else(|d| panic!("{}", d.message));
    let (service, _) = build(raw);
    let names: Vec<(String, Option<u16>)> = service.capabilities[0]
        .errors
        .iter()
        .map(|e| (e.name.clone(), e.status))
        .collect();
    assert_eq!(
        names,
        [
            ("http_version_not_supported".to_string(), Some(505)),
            ("insufficient_storage".to_string(), Some(507)),
            ("server_error_509".to_string(), Some(509)),
            ("server_error_599".to_string(), Some(599)),
        ]
    );
}
