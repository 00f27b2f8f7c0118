//! /.well-known/mcp/server-card.json: every card valid against the SEP-2127 `v1` schema
//! (`ServerCard`) and carrying what 2026's scanners read (a top-level `endpoint`, `serverInfo`,
//! `transport`); written only for a service with `[mcp]`; `[mcp]`'s bad values each an error
//! at its field, all reported at once.

use std::path::Path;

use crate::common::*;
use serde_json::Value;
use wellgen::diag::Diagnostics;
use wellgen::emit::Target;
use wellgen::emit::targets::mcp_server_card::{MEDIA_TYPE, PATH};
use wellgen::model;

/// The schema has no root: cards are `#/$defs/ServerCard`.
fn validator() -> jsonschema::Validator {
    let mut schema = read_json(&root().join("tests/schemas/mcp-server-card/schema.json"));
    schema
        .as_object_mut()
        .unwrap()
        .insert("$ref".into(), "#/$defs/ServerCard".into());
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the server card schema compiles")
}

fn examples(kind: &str) -> Vec<(String, Value)> {
    let dir = root()
        .join("tests/schemas/mcp-server-card/examples")
        .join(kind);
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.display().to_string(), read_json(&p)))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "{}", dir.display());
    out
}

#[test]
fn the_schema_passes_its_valid_examples_and_fails_its_invalid_ones() {
    let v = validator();
    for (name, doc) in examples("valid") {
        assert_eq!(schema_errors(&v, &doc), Vec::<String>::new(), "{name}");
    }
    for (name, doc) in examples("invalid") {
        assert!(!schema_errors(&v, &doc).is_empty(), "{name} passed");
    }
}

/// What the Agent-Adoption Specification's `mcp-server-card` check and the scanners of the
/// agent-ready notes look for.
fn scanner_errors(card: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    for key in ["name", "version", "endpoint"] {
        if !card[key].is_string() {
            errors.push(format!("no top-level `{key}` string"));
        }
    }
    if !card["serverInfo"]["name"].is_string() {
        errors.push("no serverInfo.name".into());
    }
    if !card["transport"]["type"].is_string() || !card["transport"]["url"].is_string() {
        errors.push("no transport.type and transport.url".into());
    }
    errors
}

#[test]
fn every_card_is_valid_and_written_only_with_mcp() {
    let v = validator();
    let mut cards = 0;
    for source in sources() {
        let at = source.display();
        let mut diags = Diagnostics::default();
        let service = wellgen::pipeline::load(&source, &mut diags).unwrap();
        let artifacts = Target::McpServerCard.emit(&service, &mut diags);
        assert!(!diags.has_errors(), "{at}: {diags:?}");
        let Some(mcp) = &service.mcp else {
            assert!(artifacts.is_empty(), "{at}: a card without [mcp]");
            continue;
        };
        cards += 1;
        assert_eq!(artifacts.len(), 1, "{at}");
        let file = &artifacts[0];
        assert_eq!(file.path, PATH);
        assert_eq!(file.serving.as_ref().unwrap().content_type, MEDIA_TYPE);
        let card: Value = serde_json::from_slice(&file.body).unwrap();
        assert_eq!(schema_errors(&v, &card), Vec::<String>::new(), "{at}");
        assert_eq!(scanner_errors(&card), Vec::<String>::new(), "{at}");
        assert_eq!(card["remotes"][0]["url"], mcp.endpoint.as_str(), "{at}");
        assert_eq!(card["endpoint"], card["remotes"][0]["url"], "{at}");
        assert_eq!(
            card["transport"]["type"], card["remotes"][0]["type"],
            "{at}"
        );
        assert_eq!(card["version"], service.version.as_str(), "{at}");
    }
    assert!(cards > 0, "no example declares [mcp]");
}

const BASE: &str = r#"[service]
name = "Weather Now"
description = "Forecasts and current conditions for any place on Earth, by the hour, for agents planning a day outdoors."
base_url = "https://api.weather.example/v2"
categories = ["weather"]

[[capabilities]]
id = "forecast"
description = "The forecast for a place"
method = "GET"
path = "/forecast"

MCP
"#;

fn lower(mcp: &str) -> (Option<model::Service>, Diagnostics) {
    let text = BASE.replace("MCP", mcp);
    let raw = wellgen::source::parse_service_toml(&text).expect("parses");
    let mut diags = Diagnostics::default();
    (model::lower(raw, &mut diags), diags)
}

#[test]
fn a_minimal_table_gives_a_valid_card_with_derived_values_noted() {
    let (service, mut diags) = lower("[mcp]\nendpoint = \"https://api.weather.example/mcp\"");
    let service = service.expect("lowers");
    let mcp = service.mcp.as_ref().unwrap();
    assert_eq!(mcp.name, "example.weather.api/weather-now");
    assert_eq!(mcp.transport.as_str(), "streamable-http");
    let artifacts = Target::McpServerCard.emit(&service, &mut diags);
    let card: Value = serde_json::from_slice(&artifacts[0].body).unwrap();
    assert_eq!(schema_errors(&validator(), &card), Vec::<String>::new());
    assert!(card["description"].as_str().unwrap().chars().count() <= 100);
    let notes: Vec<_> = diags
        .iter()
        .filter(|d| d.code == wellgen::diag::Code::McpCardDerived)
        .map(|d| d.field.clone().unwrap_or_default())
        .collect();
    assert_eq!(notes, ["service.description", "mcp"]);
}

#[test]
fn templated_endpoints_and_headers_give_a_valid_card() {
    let (service, mut diags) = lower(
        r#"[mcp]
endpoint = "https://{tenant}.weather.example/mcp"
transport = "sse"
name = "example.weather/now"
protocol_versions = ["2025-11-25"]

[mcp.variables.tenant]
description = "Your tenant"
required = true
choices = ["eu", "us"]
default = "eu"

[[mcp.headers]]
name = "X-Api-Key"
required = true
secret = true
value = "{key}"

[mcp.headers.variables.key]
description = "Your API key"
secret = true
"#,
    );
    let service = service.unwrap_or_else(|| panic!("{diags:?}"));
    let artifacts = Target::McpServerCard.emit(&service, &mut diags);
    let card: Value = serde_json::from_slice(&artifacts[0].body).unwrap();
    assert_eq!(schema_errors(&validator(), &card), Vec::<String>::new());
    assert_eq!(card["remotes"][0]["variables"]["tenant"]["default"], "eu");
    assert_eq!(
        card["remotes"][0]["headers"][0]["variables"]["key"]["isSecret"],
        true
    );
    assert_eq!(card["transport"]["type"], "sse");
}

#[test]
fn bad_values_are_each_an_error_at_their_field() {
    let (service, diags) = lower(
        r#"[mcp]
endpoint = "http://{tenant}.weather.example/{region}"
transport = "websocket"
name = "weather"
protocol_versions = ["latest"]

[mcp.variables.tenant]
description = "Your tenant"

[mcp.variables.unused]
description = "Never in the endpoint"

[[mcp.headers]]
name = "Authorization"
secret = true
value = "Bearer abc"

[[mcp.headers]]
name = "Bad Header"
"#,
    );
    assert!(service.is_none());
    let fields: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.field.clone().unwrap_or_default())
        .collect();
    for field in [
        "mcp.endpoint",
        "mcp.variables.unused",
        "mcp.transport",
        "mcp.name",
        "mcp.protocol_versions.0",
        "mcp.headers.0.value",
        "mcp.headers.1.name",
    ] {
        assert!(
            fields.iter().any(|f| f == field),
            "{field} not in {fields:?}"
        );
    }
    // `{region}` is undeclared and the scheme is http: two errors at the endpoint.
    assert_eq!(
        fields.iter().filter(|f| *f == "mcp.endpoint").count(),
        2,
        "{fields:?}"
    );
    let (_, diags) = lower("[mcp]\ntransport = \"sse\"");
    assert!(
        diags
            .iter()
            .any(|d| d.is_error() && d.message.contains("`endpoint`"))
    );
}

#[test]
fn a_secret_header_value_is_refused_and_never_echoed() {
    let mcp = "[mcp]\nendpoint = \"https://mcp.weather.example\"\n\n[[mcp.headers]]\n\
               name = \"Authorization\"\nsecret = true\nvalue = \"Bearer wx_9f8e7d6c5b4a\"";
    let (_, diags) = lower(mcp);
    let err = diags
        .iter()
        .find(|d| d.field.as_deref() == Some("mcp.headers.0.value"))
        .expect("the literal secret is refused");
    assert!(err.is_error());
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("service.toml");
    std::fs::write(&source, BASE.replace("MCP", mcp)).unwrap();
    let (code, stdout, stderr) = run(wellgen().arg("check").arg(&source));
    assert_ne!(code, 0);
    assert!(
        stderr.contains("mcp.headers") || stderr.contains("secret header"),
        "{stderr}"
    );
    assert!(
        !format!("{stdout}{stderr}").contains("wx_9f8e7d6c5b4a"),
        "{stderr}"
    );
}

#[test]
fn bookshelf_reaches_every_agent_endpoint_check() {
    let out = build(
        Path::new(&root().join("examples/bookshelf/service.toml")),
        &[],
    );
    for path in [
        ".well-known/mcp/server-card.json",
        ".well-known/oauth-protected-resource",
        ".well-known/agent-card.json",
        ".well-known/api-catalog",
        ".well-known/ai-catalog.json",
    ] {
        assert!(out.path().join(path).is_file(), "{path}");
    }
}
