//! Every auth scheme × every target: each builds, each document stays valid against its spec's
//! schema or checker, and a target whose vocabulary cannot say the scheme gives exactly one
//! warning (never an error, never `none`). Then `[auth]`'s bad values (errors at their field),
//! and the import of real specs with these schemes (tests/fixtures/auth, sources in its README).

use serde_json::Value;
use wellgen::diag::{Code, Diagnostics, Severity};
use wellgen::emit::Target;
use wellgen::emit::targets::{a2a, adp, ai, ai_plugin, ia_json, llms_txt, mcp, openapi, rfc002};
use wellgen::model;

use crate::common::{iajson_validator, mcp_validator, root, schema_errors, schema_validator};
use crate::support_rfc002::{Built, build_targets};

const BASE: &str = r#"[service]
name = "Ledger"
description = "Ledger entries for accounting agents"
base_url = "https://api.ledger.example"
categories = ["data"]
tags = ["ledger"]
logo_url = "https://ledger.example/logo.png"

[service.contact]
email = "agents@ledger.example"

AUTH

[[capabilities]]
id = "list_entries"
description = "List ledger entries"
method = "GET"
path = "/entries"
returns = "entries[] {id, amount}"

[capabilities.params]
q = "string, optional -- search words"

[[capabilities]]
id = "add_entry"
description = "Add a ledger entry"
method = "POST"
path = "/entries"
returns = "entry {id}"

[capabilities.params]
amount = "number, required -- the amount"
"#;

/// Targets that say a scheme only approximately, by the name their warning starts with.
const AI: &str = "/.well-known/ai";
const IA: &str = "ia.json";
const PLUGIN: &str = "ai-plugin.json";
const ADP: &str = "ADP";
const A2A: &str = "A2A";
const NAMED: [&str; 5] = [AI, IA, PLUGIN, ADP, A2A];

/// (case, `[auth]` table, the targets that cannot say it exactly). /.well-known/ai says none
/// of them approximately: a scheme its vocabulary cannot name is `apikey` with no header and a
/// pointer into the OpenAPI document, with a note (checked below).
const CASES: &[(&str, &str, &[&str])] = &[
    (
        "api_key header",
        "[auth]\ntype = \"api_key\"\nheader = \"X-API-Key\"",
        &[],
    ),
    (
        "api_key query",
        "[auth]\ntype = \"api_key\"\nin = \"query\"\nname = \"api-key\"\ndocs_url = \"https://ledger.example/docs/auth\"",
        &[IA, PLUGIN, ADP],
    ),
    (
        "api_key cookie",
        "[auth]\ntype = \"api_key\"\nin = \"cookie\"\nname = \"session\"",
        &[IA, PLUGIN, ADP],
    ),
    ("basic", "[auth]\ntype = \"basic\"", &[IA, ADP]),
    ("digest", "[auth]\ntype = \"digest\"", &[IA, PLUGIN, ADP]),
    (
        "bearer",
        "[auth]\ntype = \"bearer\"\ntoken_url = \"https://ledger.example/token\"",
        &[],
    ),
    (
        "oauth2 authorization code",
        "[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://ledger.example/authorize\"\ntoken_url = \"https://ledger.example/token\"\nscopes = { read = \"Read entries\" }",
        &[],
    ),
    (
        "oauth2 every flow",
        "[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://ledger.example/authorize\"\ntoken_url = \"https://ledger.example/token\"\ngrant_types = [\"authorization_code\", \"client_credentials\", \"implicit\", \"password\"]\nscopes = { read = \"Read entries\" }",
        &[],
    ),
    (
        "oauth2 implicit",
        "[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://login.ledger.example/authorize\"\ngrant_types = [\"implicit\"]\nscopes = { user_impersonation = \"Act as the user\" }",
        &[IA, PLUGIN, ADP],
    ),
    (
        "oauth2 password",
        "[auth]\ntype = \"oauth2\"\ntoken_url = \"https://ledger.example/token\"\ngrant_types = [\"password\"]\nscopes = { read = \"Read entries\" }",
        &[IA, PLUGIN, ADP],
    ),
    (
        "oauth2 without scopes",
        "[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://ledger.example/authorize\"\ntoken_url = \"https://ledger.example/token\"",
        &[IA],
    ),
    (
        "openid",
        "[auth]\ntype = \"openid\"\ndiscovery_url = \"https://ledger.example/.well-known/openid-configuration\"",
        &[IA, PLUGIN, ADP],
    ),
    (
        "mutual_tls",
        "[auth]\ntype = \"mutual_tls\"",
        &[IA, PLUGIN, ADP],
    ),
    (
        "other",
        "[auth]\ntype = \"other\"\ndescription = \"AWS Signature Version 4\"\ndocs_url = \"https://docs.aws.amazon.com/general/latest/gr/signature-version-4.html\"",
        &[IA, PLUGIN, ADP, A2A],
    ),
    (
        "signed_key",
        "[auth]\ntype = \"signed_key\"\nkey_url = \"https://ledger.example/agents/register\"",
        &[],
    ),
];

fn build(auth: &str) -> Built {
    build_targets(&BASE.replace("AUTH", auth), &Target::ALL)
}

fn approximations<'a>(b: &'a Built, target: &str) -> Vec<&'a str> {
    said(b, target, Code::AuthSchemeLost)
        .into_iter()
        .filter(|_| Code::AuthSchemeLost.info().severity == Severity::Warning)
        .collect()
}

/// The messages of `code` in which `target` says what it cannot say.
fn said<'a>(b: &'a Built, target: &str, code: Code) -> Vec<&'a str> {
    b.diags
        .iter()
        .filter(|d| d.code == code && d.message.starts_with(&format!("{target} cannot say")))
        .map(|d| d.message.as_str())
        .collect()
}

/// Every document of `b` against its spec's schema or checker.
fn invalid(b: &Built) -> Vec<String> {
    let mut out = Vec::new();
    let ai_doc = b.json(ai::PATHS[0]);
    for e in schema_errors(&schema_validator("aiendpoint/schema.json"), &ai_doc) {
        out.push(format!("ai: {e}"));
    }
    assert_ne!(ai_doc["auth"]["type"], "none", "never `none`");
    let ia = b.json(ia_json::PATHS[0]);
    for e in schema_errors(&iajson_validator(true), &ia) {
        out.push(format!("ia.json: {e}"));
    }
    assert!(ia.get("auth").is_some(), "ia.json keeps an auth object");
    let agents = b.json(rfc002::AGENTS_PATH);
    let schema = crate::common::agents_schema(agents.get("$schema").is_some());
    let v = jsonschema::options().build(&schema).unwrap();
    for e in schema_errors(&v, &agents) {
        out.push(format!("agents.json: {e}"));
    }
    // Written only when the service has a logo and a contact e-mail.
    if b.artifact(ai_plugin::PATH).is_some() {
        let plugin = b.json(ai_plugin::PATH);
        assert_ne!(plugin["auth"]["type"], "none", "never `none`");
    }
    let openapi_text = b.text(openapi::PATHS[0]);
    if let Err(e) = oas3::from_json(&openapi_text) {
        out.push(format!("openapi: {e}"));
    }
    let openapi_doc: Value = serde_json::from_str(&openapi_text).unwrap();
    let schemes = openapi_doc["components"]["securitySchemes"].as_object();
    assert!(
        schemes.is_some_and(|s| !s.is_empty()),
        "openapi keeps a scheme"
    );
    for p in crate::support_adp::check_manifest(&b.json(adp::MANIFEST_PATH)) {
        out.push(format!("adp: {p}"));
    }
    for v in crate::support_agis::validate(&b.json(wellgen::emit::targets::agis::JSON_PATH)) {
        out.push(format!("agis: {} {}", v.field, v.rule));
    }
    for e in schema_errors(&mcp_validator("ListToolsResult"), &b.json(mcp::PATH)) {
        out.push(format!("mcp: {e}"));
    }
    let card = b.json(a2a::PATH);
    let a2a_schemes = card["securitySchemes"].as_object();
    assert!(
        a2a_schemes.is_some_and(|s| !s.is_empty()),
        "A2A keeps a scheme"
    );
    for scheme in a2a_schemes.unwrap().values() {
        let members = scheme.as_object().unwrap();
        assert_eq!(members.len(), 1, "a oneof: {scheme}");
        let (kind, body) = members.iter().next().unwrap();
        let required: &[&str] = match kind.as_str() {
            "apiKeySecurityScheme" => &["location", "name"],
            "httpAuthSecurityScheme" => &["scheme"],
            "oauth2SecurityScheme" => &["flows"],
            "openIdConnectSecurityScheme" => &["openIdConnectUrl"],
            "mtlsSecurityScheme" => &[],
            other => panic!("not an A2A scheme: {other}"),
        };
        for r in required {
            assert!(body.get(*r).is_some(), "{kind} needs {r}: {body}");
        }
    }
    assert!(!b.text(llms_txt::PATH).is_empty());
    out
}

#[test]
fn every_scheme_builds_valid_documents_for_every_target_with_one_warning_where_unsaid() {
    for (case, auth, approximated) in CASES {
        let b = build(auth);
        assert!(b.errors().is_empty(), "{case}: {:#?}", b.errors());
        let problems = invalid(&b);
        assert!(problems.is_empty(), "{case}: {problems:#?}");
        // The OpenAPI document built beside them states the scheme exactly: a note.
        for target in NAMED {
            let got = said(&b, target, Code::AuthApproximated);
            let want = usize::from(approximated.contains(&target));
            assert_eq!(got.len(), want, "{case}, {target}: {got:#?}");
            assert!(approximations(&b, target).is_empty(), "{case}, {target}");
        }
        // Without it, nothing on the site does: a warning to act on (`/.well-known/ai` then
        // has no pointer, and its own rule decides).
        let alone: Vec<Target> = Target::ALL
            .into_iter()
            .filter(|t| *t != Target::OpenApi)
            .collect();
        let without = build_targets(&BASE.replace("AUTH", auth), &alone);
        for target in NAMED.into_iter().filter(|t| *t != AI) {
            let got = approximations(&without, target);
            let want = usize::from(approximated.contains(&target));
            assert_eq!(
                got.len(),
                want,
                "{case}, {target} without OpenAPI: {got:#?}"
            );
        }
        let auth = &b.json(ai::PATHS[0])["auth"];
        let pointed = auth["type"] == "apikey" && auth.get("header").is_none();
        let noted = b
            .diags
            .iter()
            .filter(|d| d.code == Code::AiAuthPointer)
            .count();
        assert_eq!(noted, usize::from(pointed), "{case}: {auth}");
        if pointed {
            let docs = auth["docs"].as_str().unwrap();
            let fragment = docs.split_once('#').unwrap().1;
            let openapi: Value = serde_json::from_str(&b.text(openapi::PATHS[0])).unwrap();
            assert!(openapi.pointer(fragment).is_some(), "{case}: {docs}");
        }
    }
}

#[test]
fn openapi_and_a2a_say_every_scheme_exactly() {
    let openapi_of = |auth: &str| -> Value {
        let b = build(auth);
        let doc: Value = serde_json::from_str(&b.text(openapi::PATHS[0])).unwrap();
        doc["components"]["securitySchemes"].clone()
    };
    let s = openapi_of(CASES[1].1);
    assert_eq!(
        s["apiKeyQuery"],
        serde_json::json!({"type": "apiKey", "in": "query", "name": "api-key", "description": "See https://ledger.example/docs/auth"})
    );
    assert_eq!(openapi_of(CASES[3].1)["basicAuth"]["scheme"], "basic");
    assert_eq!(openapi_of(CASES[4].1)["digestAuth"]["scheme"], "digest");
    let flows = &openapi_of(CASES[7].1)["oauth2"]["flows"];
    for f in [
        "authorizationCode",
        "clientCredentials",
        "implicit",
        "password",
    ] {
        assert!(flows.get(f).is_some(), "{f}: {flows}");
    }
    assert_eq!(
        flows["implicit"]["authorizationUrl"],
        "https://ledger.example/authorize"
    );
    assert_eq!(
        openapi_of(CASES[11].1)["openIdConnect"]["openIdConnectUrl"],
        "https://ledger.example/.well-known/openid-configuration"
    );
    assert_eq!(openapi_of(CASES[12].1)["mutualTLS"]["type"], "mutualTLS");
    let card = build(CASES[8].1).json(a2a::PATH);
    assert_eq!(
        card["securitySchemes"]["oauth2_implicit"]["oauth2SecurityScheme"]["flows"]["implicit"]["authorizationUrl"],
        "https://login.ledger.example/authorize"
    );
}

#[test]
fn alternatives_are_listed_where_a_target_can_list_them() {
    let auth = "[auth]\ntype = \"api_key\"\nheader = \"X-API-Key\"\n\n[[auth.also]]\ntype = \"api_key\"\nin = \"query\"\nname = \"api_key\"\n\n[[auth.also]]\ntype = \"basic\"";
    let b = build(auth);
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    assert!(invalid(&b).is_empty(), "{:#?}", invalid(&b));
    let doc: Value = serde_json::from_str(&b.text(openapi::PATHS[0])).unwrap();
    let names: Vec<&str> = doc["components"]["securitySchemes"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(names, ["apiKey", "apiKeyQuery", "basicAuth"]);
    assert_eq!(doc["security"].as_array().unwrap().len(), 3);
    let card = b.json(a2a::PATH);
    assert_eq!(card["securitySchemes"].as_object().unwrap().len(), 3);
    assert_eq!(card["securityRequirements"].as_array().unwrap().len(), 3);
    // The primary is exact everywhere, so no target warns.
    for target in NAMED {
        assert!(approximations(&b, target).is_empty(), "{target}");
    }
    assert!(b.text(llms_txt::PATH).contains("Also accepted instead"));
}

#[test]
fn schemes_sent_together_are_one_requirement_in_every_target_that_lists_requirements() {
    let auth = "[auth]\ntype = \"api_key\"\nheader = \"X-Key\"\n\n[[auth.with]]\ntype = \"api_key\"\nin = \"query\"\nname = \"client\"\n\n[[auth.also]]\ntype = \"basic\"";
    let b = build(auth);
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    assert!(invalid(&b).is_empty(), "{:#?}", invalid(&b));
    let doc: Value = serde_json::from_str(&b.text(openapi::PATHS[0])).unwrap();
    assert_eq!(
        doc["security"],
        serde_json::json!([{"apiKey": [], "apiKeyQuery": []}, {"basicAuth": []}])
    );
    // /.well-known/ai has room for one scheme: `docs` points at the requirement that names both.
    let ai_doc = b.json(ai::PATHS[0]);
    assert_eq!(ai_doc["auth"]["type"], "apikey");
    assert!(ai_doc["auth"].get("header").is_none());
    let docs = ai_doc["auth"]["docs"].as_str().unwrap();
    let pointer = docs.split_once('#').unwrap().1;
    assert_eq!(doc.pointer(pointer).unwrap(), &doc["security"][0]);
    // Every MCP tool's binding: both schemes under `allOf`, then the alternative.
    let schema: Value =
        serde_json::from_str(include_str!("../schemas/mcp-http/schema.json")).unwrap();
    let binding_schema = jsonschema::options().build(&schema).unwrap();
    let tools = b.json(mcp::PATH);
    for tool in tools["tools"].as_array().unwrap() {
        let http = &tool["_meta"]["dev.wellgen/http"];
        assert!(schema_errors(&binding_schema, http).is_empty(), "{http}");
        let all = http["security"][0]["allOf"].as_array().unwrap();
        assert_eq!(all[0]["name"], "X-Key");
        assert_eq!(
            (&all[1]["in"], &all[1]["name"]),
            (&"query".into(), &"client".into())
        );
        assert_eq!(http["security"][1]["scheme"], "basic");
    }
    let card = b.json(a2a::PATH);
    let requirements = card["securityRequirements"].as_array().unwrap();
    assert_eq!(requirements.len(), 2);
    assert_eq!(requirements[0]["schemes"].as_object().unwrap().len(), 2);
    // Prose says both; the single-scheme targets say what they leave out, as a note.
    assert!(
        b.text(rfc002::AGENTS_PATH)
            .contains("together with an API key in the `client` query parameter")
    );
    assert!(
        b.text(llms_txt::PATH)
            .contains("Each request also carries an API key in the `client` query parameter.")
    );
    let left_out: Vec<&str> = b
        .diags
        .iter()
        .filter(|d| d.code == Code::AuthWithLost)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(left_out.len(), 3, "{left_out:#?}");
    assert!(
        left_out
            .iter()
            .all(|m| m.ends_with("also carry an API key in the `client` query parameter"))
    );
    assert!(b.diags.iter().any(|d| d.code == Code::AiAuthPointer));
}

/// The field of each error of lowering `auth`.
fn lowering_errors(auth: &str) -> Vec<(String, String)> {
    let raw = wellgen::source::parse_service_toml(&BASE.replace("AUTH", auth)).expect("parses");
    let mut diags = Diagnostics::default();
    let _ = model::lower(raw, &mut diags);
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.field.clone().unwrap_or_default(), d.message.clone()))
        .collect()
}

#[test]
fn bad_auth_values_are_errors_at_their_field() {
    let cases = [
        (
            "[auth]\ntype = \"api_key\"\nin = \"body\"\nname = \"k\"",
            "auth.in",
        ),
        (
            "[auth]\ntype = \"api_key\"\nin = \"query\"\nheader = \"X-Key\"",
            "auth.header",
        ),
        ("[auth]\ntype = \"api_key\"\nin = \"query\"", "auth"),
        (
            "[auth]\ntype = \"api_key\"\nheader = \"X-Key\"\nname = \"k\"",
            "auth.name",
        ),
        ("[auth]\ntype = \"openid\"", "auth"),
        (
            "[auth]\ntype = \"openid\"\ndiscovery_url = \"http://ledger.example/oidc\"",
            "auth.discovery_url",
        ),
        ("[auth]\ntype = \"other\"", "auth"),
        (
            "[auth]\ntype = \"oauth2\"\ngrant_types = [\"implicit\"]\nscopes = { a = \"b\" }",
            "auth",
        ),
        (
            "[auth]\ntype = \"basic\"\nheader = \"X-Key\"",
            "auth.header",
        ),
        (
            "[auth]\ntype = \"basic\"\n\n[[auth.also]]\ntype = \"oauth2\"\nauthorization_url = \"https://a.example/a\"\ntoken_url = \"https://a.example/t\"\ngrant_types = [\"device\"]",
            "auth.also.0.grant_types.0",
        ),
        (
            "[auth]\ntype = \"basic\"\n\n[[auth.also]]\ntype = \"none\"",
            "auth.also.0.type",
        ),
        (
            "[auth]\ntype = \"none\"\n\n[[auth.also]]\ntype = \"basic\"",
            "auth.type",
        ),
        (
            "[auth]\ntype = \"basic\"\n\n[[auth.also]]\ntype = \"api_key\"\nin = \"cookie\"\nname = \"a b\"",
            "auth.also.0.name",
        ),
        (
            "[auth]\ntype = \"basic\"\n\n[[auth.with]]\ntype = \"none\"",
            "auth.with.0.type",
        ),
        (
            "[auth]\ntype = \"none\"\n\n[[auth.with]]\ntype = \"basic\"",
            "auth.type",
        ),
        (
            "[auth]\ntype = \"basic\"\n\n[[auth.with]]\ntype = \"api_key\"\nheader = \"X-Id\"\n\n[[auth.with.also]]\ntype = \"bearer\"",
            "auth.with.0.also",
        ),
        (
            "[auth]\ntype = \"basic\"\n\n[[auth.also]]\ntype = \"api_key\"\nheader = \"X-Id\"\n\n[[auth.also.with]]\ntype = \"bearer\"",
            "auth.also.0.with",
        ),
    ];
    for (auth, field) in cases {
        let errors = lowering_errors(auth);
        assert!(
            errors.iter().any(|(f, _)| f == field),
            "{auth}: want an error at {field}, got {errors:#?}"
        );
    }
    // The kinds that were always there still lower exactly as before.
    for (_, auth, _) in CASES {
        assert!(lowering_errors(auth).is_empty(), "{auth}");
    }
}

/// `wellgen import` on a real spec: exit 0, the `[auth]` it writes, and a build of it.
fn import(rel: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let spec = root().join("tests/fixtures/auth").join(rel);
    let out_path = dir.path().join("service.toml");
    let out = crate::common::wellgen()
        .arg("import")
        .arg(&spec)
        .arg("-o")
        .arg(&out_path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(0), "{rel}: {stderr}");
    assert!(!stderr.contains("can be published"), "{rel}: {stderr}");
    let text = std::fs::read_to_string(&out_path).unwrap();
    // Built from the written service.toml, and straight from the spec with the same outcome.
    crate::common::build(&out_path, &["-q"]);
    crate::common::build(&spec, &["-q"]);
    (text, stderr)
}

#[test]
fn real_specs_with_every_kind_of_scheme_import_and_build() {
    let (text, _) = import("azure-implicit.yaml");
    assert!(text.contains("type = \"oauth2\""), "{text}");
    assert!(text.contains("grant_types = [\"implicit\"]"), "{text}");
    let (text, _) = import("twilio-basic.yaml");
    assert!(text.contains("\n[auth]\ntype = \"basic\"\n"), "{text}");
    // NYT and AWS list an http server (the servers work is not this file's): imported through
    // the library, given their https base URL, written back and built with every target.
    let written = import_with_base(
        "nytimes-query-key.yaml",
        "https://api.nytimes.com/svc/topstories/v2",
    );
    assert!(
        written.contains("\n[auth]\ntype = \"api_key\"\nin = \"query\"\nname = \"api-key\"\n"),
        "{written}"
    );
    let written = import_with_base(
        "aws-sigv4.yaml",
        "https://mobileanalytics.us-east-1.amazonaws.com",
    );
    assert!(
        written.contains("\n[auth]\ntype = \"other\"\n"),
        "{written}"
    );
    assert!(written.contains("Signature"), "{written}");
}

/// The spec imported through the library with `base_url` set, written back as service.toml,
/// then built with every target: no error, every document valid.
fn import_with_base(rel: &str, base_url: &str) -> String {
    let text = std::fs::read_to_string(root().join("tests/fixtures/auth").join(rel)).unwrap();
    let mut diags = Diagnostics::default();
    let options = wellgen::source::openapi::Options::default();
    let imported =
        wellgen::source::openapi::import_text(None, &text, &options, &mut diags).unwrap();
    let mut doc = wellgen::source::openapi::finish(imported, &mut diags);
    doc.service.base_url = Some(base_url.into());
    let written = wellgen::source::toml_out::render(&doc, &Default::default());
    let b = build_targets(&written, &Target::ALL);
    assert!(b.errors().is_empty(), "{rel}: {:#?}", b.errors());
    let problems = invalid(&b);
    assert!(problems.is_empty(), "{rel}: {problems:#?}");
    written
}
#[test]
fn a_malformed_scheme_is_one_warning_and_never_public() {
    let spec = r#"openapi: 3.0.3
info: {title: Ledger, version: "1", description: Ledger entries for accounting agents}
servers: [{url: "https://api.ledger.example/v1"}]
components:
  securitySchemes:
    key: {type: apiKey, in: body, name: token}
security: [{key: []}]
paths:
  /entries:
    get:
      operationId: listEntries
      summary: List ledger entries
      responses: {"200": {description: ok}}
"#;
    let mut diags = Diagnostics::default();
    let options = wellgen::source::openapi::Options::default();
    let imported = wellgen::source::openapi::import_text(None, spec, &options, &mut diags).unwrap();
    let doc = wellgen::source::openapi::finish(imported, &mut diags);
    let auth = doc.auth.expect("the scheme is carried");
    assert_eq!(auth.kind.as_deref(), Some("other"));
    assert!(auth.description.unwrap().contains("An API key"));
    let malformed: Vec<_> = diags
        .iter()
        .filter(|d| d.message.contains("is malformed"))
        .collect();
    assert_eq!(malformed.len(), 1, "{malformed:#?}");
    assert_eq!(doc.capabilities[0].access.as_deref(), Some("protected"));
}

#[test]
fn an_undeclared_scheme_is_described_not_dropped() {
    let spec = r#"openapi: 3.0.3
info: {title: Ledger, version: "1", description: Ledger entries for accounting agents}
servers: [{url: "https://api.ledger.example/v1"}]
security: [{ghost: []}]
paths:
  /entries:
    get:
      operationId: listEntries
      summary: List ledger entries
      responses: {"200": {description: ok}}
"#;
    let mut diags = Diagnostics::default();
    let options = wellgen::source::openapi::Options::default();
    let imported = wellgen::source::openapi::import_text(None, spec, &options, &mut diags).unwrap();
    let doc = wellgen::source::openapi::finish(imported, &mut diags);
    assert_eq!(diags.error_count(), 0, "{diags:#?}");
    let auth = doc.auth.expect("described");
    assert_eq!(auth.kind.as_deref(), Some("other"));
    assert!(auth.description.unwrap().contains("`ghost`"));
}

#[test]
fn import_writes_alternatives_as_auth_also_tables_that_read_back() {
    let spec = r#"openapi: 3.0.3
info: {title: Ledger, version: "1", description: Ledger entries for accounting agents}
servers: [{url: "https://api.ledger.example/v1"}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
    query: {type: apiKey, in: query, name: key}
    basic: {type: http, scheme: basic}
    oidc: {type: openIdConnect, openIdConnectUrl: "https://id.ledger.example/.well-known/openid-configuration"}
    unused: {type: http, scheme: digest}
security: [{basic: []}, {key: []}]
paths:
  /entries:
    get:
      operationId: listEntries
      summary: List ledger entries
      security: [{query: []}, {oidc: []}]
      responses: {"200": {description: ok}}
    post:
      operationId: addEntry
      summary: Add a ledger entry
      responses: {"200": {description: ok}}
"#;
    let mut diags = Diagnostics::default();
    let options = wellgen::source::openapi::Options::default();
    let imported = wellgen::source::openapi::import_text(None, spec, &options, &mut diags).unwrap();
    let doc = wellgen::source::openapi::finish(imported, &mut diags);
    let written = wellgen::source::toml_out::render(&doc, &Default::default());
    // The header key is the primary (every target says it); the other required schemes follow
    // in the document's order; the digest scheme nothing requires is left out.
    let at = written.find("\n[auth]\n").expect("[auth]");
    let auth_part = &written[at..written[at..]
        .find("\n[[capabilities]]")
        .map_or(written.len(), |e| at + e)];
    assert_eq!(
        auth_part.trim_end(),
        "\n[auth]\ntype = \"api_key\"\nheader = \"X-Key\"\n\n[[auth.also]]\ntype = \"basic\"\n\n[[auth.also]]\ntype = \"api_key\"\nin = \"query\"\nname = \"key\"\n\n[[auth.also]]\ntype = \"openid\"\ndiscovery_url = \"https://id.ledger.example/.well-known/openid-configuration\"",
        "{written}"
    );
    let back = wellgen::source::parse_service_toml(&written).expect("reads back");
    assert_eq!(back.auth.unwrap().also.unwrap().len(), 3);
    let b = build_targets(&written, &Target::ALL);
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    assert_eq!(b.service.auth_also.len(), 3);
}

#[test]
fn import_writes_schemes_required_together_as_auth_with() {
    // A key and a client id in one requirement (as apisetu.gov.in's APIs ask); two OAuth 2
    // schemes in one requirement (as Google's do) are met by one token and stay alternatives.
    let spec = r#"openapi: 3.0.3
info: {title: Ledger, version: "1", description: Ledger entries for accounting agents}
servers: [{url: "https://api.ledger.example/v1"}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
    client: {type: apiKey, in: header, name: X-Client-Id}
    code: {type: oauth2, flows: {authorizationCode: {authorizationUrl: "https://a.example/a", tokenUrl: "https://a.example/t", scopes: {}}}}
    implicit: {type: oauth2, flows: {implicit: {authorizationUrl: "https://a.example/a", scopes: {}}}}
paths:
  /entries:
    get:
      operationId: listEntries
      summary: List ledger entries
      security: [{code: [], implicit: []}, {key: [], client: []}]
      responses: {"200": {description: ok}}
"#;
    let mut diags = Diagnostics::default();
    let options = wellgen::source::openapi::Options::default();
    let imported = wellgen::source::openapi::import_text(None, spec, &options, &mut diags).unwrap();
    let doc = wellgen::source::openapi::finish(imported, &mut diags);
    let auth = doc.auth.as_ref().expect("[auth]");
    assert_eq!(auth.header.as_deref(), Some("X-Key"));
    let with = auth.with.as_ref().expect("[[auth.with]]");
    assert_eq!(with.len(), 1);
    assert_eq!(with[0].header.as_deref(), Some("X-Client-Id"));
    let also: Vec<_> = auth
        .also
        .iter()
        .flatten()
        .map(|a| a.kind.as_deref())
        .collect();
    assert_eq!(also, [Some("oauth2"), Some("oauth2")]);
    assert!(
        !diags
            .iter()
            .any(|d| d.is_error() || d.severity == Severity::Warning),
        "{diags:#?}"
    );
    let written = wellgen::source::toml_out::render(&doc, &Default::default());
    assert!(
        written.contains("\n[[auth.with]]\ntype = \"api_key\"\nheader = \"X-Client-Id\"\n"),
        "{written}"
    );
    let b = build_targets(&written, &Target::ALL);
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    assert_eq!(b.service.auth_with.len(), 1);
}
