//! /.well-known/oauth-protected-resource: RFC 9728 metadata for every example, fixture and
//! imported real API with an OAuth 2 or OpenID Connect scheme (and none without one), checked
//! against §2's members and §3's rules; the authorization servers named or derived (with a
//! note); what is inconsistent refused at its field.

use crate::common::*;
use serde_json::Value;
use wellgen::diag::{Code, Diagnostics};
use wellgen::emit::Target;
use wellgen::emit::targets::oauth_resource::PATH;
use wellgen::model::{self, Auth, Service};

/// An RFC 8414 issuer identifier: https, a host, no query or fragment.
fn is_issuer(s: &str) -> bool {
    s.strip_prefix("https://")
        .is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'))
        && !s.contains(['?', '#'])
        && url::Url::parse(s).is_ok()
}

/// RFC 9728 §2 on a metadata document: every problem found.
fn metadata_errors(doc: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    match doc["resource"].as_str() {
        Some(r) if r.starts_with("https://") && !r.contains('#') && url::Url::parse(r).is_ok() => {}
        other => errors.push(format!("resource: {other:?}")),
    }
    match doc["authorization_servers"].as_array() {
        Some(list) if !list.is_empty() => {
            for s in list {
                if !s.as_str().is_some_and(is_issuer) {
                    errors.push(format!("authorization_servers: {s}"));
                }
            }
        }
        other => errors.push(format!("authorization_servers: {other:?}")),
    }
    for key in ["scopes_supported", "bearer_methods_supported"] {
        if let Some(v) = doc.get(key)
            && !v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
        {
            errors.push(format!("{key} must be an array of strings"));
        }
    }
    for m in doc["bearer_methods_supported"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if !["header", "body", "query"].contains(&m.as_str().unwrap_or_default()) {
            errors.push(format!("bearer method {m}"));
        }
    }
    for key in [
        "resource_documentation",
        "resource_policy_uri",
        "resource_tos_uri",
    ] {
        if let Some(v) = doc.get(key)
            && v.as_str().is_none_or(|u| url::Url::parse(u).is_err())
        {
            errors.push(format!("{key}: {v}"));
        }
    }
    errors
}

fn has_oauth(service: &Service) -> bool {
    service
        .auth
        .iter()
        .chain(&service.auth_with)
        .chain(&service.auth_also)
        .any(|a| matches!(a, Auth::OAuth2 { .. } | Auth::OpenIdConnect { .. }))
}

fn check_source(source: &std::path::Path) -> Option<Value> {
    let at = source.display();
    let mut diags = Diagnostics::default();
    let service = wellgen::pipeline::load(source, &mut diags)
        .unwrap_or_else(|| panic!("{at} lowers: {diags:?}"));
    let artifacts = Target::OAuthResource.emit(&service, &mut diags);
    assert!(!diags.has_errors(), "{at}: {diags:?}");
    if !has_oauth(&service) {
        assert!(artifacts.is_empty(), "{at}: metadata without OAuth");
        return None;
    }
    assert_eq!(artifacts.len(), 1, "{at}");
    assert_eq!(artifacts[0].path, PATH);
    assert!(artifacts[0].needs_content_type(), "an extensionless path");
    let doc: Value = serde_json::from_slice(&artifacts[0].body).unwrap();
    assert_eq!(metadata_errors(&doc), Vec::<String>::new(), "{at}");
    assert_eq!(doc["resource"], service.base_url.as_str(), "{at}");
    assert_eq!(
        doc["bearer_methods_supported"],
        serde_json::json!(["header"])
    );
    let scopes: Vec<&str> = service
        .auth
        .iter()
        .chain(&service.auth_with)
        .chain(&service.auth_also)
        .filter_map(Auth::scopes)
        .flat_map(|s| s.keys().map(String::as_str))
        .collect();
    for s in scopes {
        assert!(
            doc["scopes_supported"]
                .as_array()
                .unwrap()
                .iter()
                .any(|v| v == s),
            "{at}: {s}"
        );
    }
    Some(doc)
}

#[test]
fn every_oauth_service_gets_valid_metadata_and_no_other_does() {
    let mut written = 0;
    for source in sources() {
        written += usize::from(check_source(&source).is_some());
    }
    assert!(written >= 3, "only {written} sources with OAuth");
}

#[test]
fn imported_real_apis_with_oauth_get_valid_metadata() {
    let dir = root().join("tests/fixtures/import-roundtrip-corpus");
    let mut checked = Vec::new();
    for name in [
        "apisguru-googleapis-cloudprofiler-v2.yaml",
        "apisguru-gov.bc.ca-bcdc-3.0.1.yaml",
    ] {
        if let Some(doc) = check_source(&dir.join(name)) {
            checked.push(doc);
        }
    }
    let google = &checked[0];
    assert_eq!(
        google["authorization_servers"],
        serde_json::json!(["https://accounts.google.com"])
    );
    let azure = check_source(&root().join("tests/fixtures/auth/azure-implicit.yaml"))
        .expect("an implicit-grant API has metadata");
    assert_eq!(metadata_errors(&azure), Vec::<String>::new());
}

const BASE: &str = r#"[service]
name = "Ledger"
description = "Ledger entries for accounting agents"
base_url = "https://api.ledger.example"
categories = ["data"]

AUTH

[[capabilities]]
id = "list_entries"
description = "List ledger entries"
method = "GET"
path = "/entries"
"#;

fn lower(auth: &str) -> (Option<Service>, Diagnostics) {
    let raw = wellgen::source::parse_service_toml(&BASE.replace("AUTH", auth)).expect("parses");
    let mut diags = Diagnostics::default();
    (model::lower(raw, &mut diags), diags)
}

fn metadata(auth: &str) -> (Value, Diagnostics) {
    let (service, mut diags) = lower(auth);
    let service = service.unwrap_or_else(|| panic!("{diags:?}"));
    let artifacts = Target::OAuthResource.emit(&service, &mut diags);
    assert!(!diags.has_errors(), "{diags:?}");
    (serde_json::from_slice(&artifacts[0].body).unwrap(), diags)
}

#[test]
fn the_authorization_server_is_derived_with_a_note_unless_named() {
    let (doc, diags) = metadata(
        "[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://login.ledger.example/authorize\"\n\
         token_url = \"https://tokens.ledger.example/token\"\nscopes = { read = \"Read\" }",
    );
    assert_eq!(
        doc["authorization_servers"],
        serde_json::json!(["https://login.ledger.example"])
    );
    let note = diags
        .iter()
        .find(|d| d.code == Code::PrmDerived)
        .expect("a note");
    assert!(
        note.message.contains("auth.authorization_url"),
        "{}",
        note.message
    );
    assert_eq!(doc["scopes_supported"], serde_json::json!(["read"]));
    // The API is the site's origin: clients that start from it find the document here.
    assert!(!diags.iter().any(|d| d.code == Code::PrmLocation));

    let (doc, diags) = metadata(
        "[auth]\ntype = \"oauth2\"\ngrant_types = [\"client_credentials\"]\n\
         token_url = \"https://tokens.ledger.example/token\"\n\
         authorization_servers = [\"https://id.ledger.example/realms/api\"]",
    );
    assert_eq!(
        doc["authorization_servers"],
        serde_json::json!(["https://id.ledger.example/realms/api"])
    );
    assert!(!diags.iter().any(|d| d.code == Code::PrmDerived));

    let (doc, _) = metadata(
        "[auth]\ntype = \"openid\"\n\
         discovery_url = \"https://id.ledger.example/tenant/.well-known/openid-configuration\"",
    );
    assert_eq!(
        doc["authorization_servers"],
        serde_json::json!(["https://id.ledger.example/tenant"])
    );
}

#[test]
fn every_oauth_scheme_counts_once() {
    let (doc, _) = metadata(
        "[auth]\ntype = \"api_key\"\nheader = \"X-Key\"\n\n[[auth.also]]\ntype = \"oauth2\"\n\
         grant_types = [\"client_credentials\"]\ntoken_url = \"https://auth.ledger.example/t\"\n\
         scopes = { read = \"Read\" }\n\n[[auth.also]]\ntype = \"oauth2\"\n\
         authorization_url = \"https://auth.ledger.example/a\"\n\
         token_url = \"https://auth.ledger.example/t\"\nscopes = { read = \"Read\", write = \"Write\" }",
    );
    assert_eq!(
        doc["authorization_servers"],
        serde_json::json!(["https://auth.ledger.example"])
    );
    assert_eq!(
        doc["scopes_supported"],
        serde_json::json!(["read", "write"])
    );
}

#[test]
fn inconsistent_authorization_servers_are_refused_at_their_field() {
    for (auth, field, words) in [
        (
            "authorization_servers = []",
            "auth.authorization_servers",
            "no authorization server",
        ),
        (
            "authorization_servers = [\"http://auth.ledger.example\"]",
            "auth.authorization_servers.0",
            "https",
        ),
        (
            "authorization_servers = [\"https://auth.ledger.example/?tenant=1\"]",
            "auth.authorization_servers.0",
            "query or fragment",
        ),
        (
            "authorization_servers = [\"https://a.example\", \"https://a.example\"]",
            "auth.authorization_servers.1",
            "twice",
        ),
    ] {
        let (service, diags) = lower(&format!(
            "[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://a.example/authorize\"\n\
             token_url = \"https://a.example/token\"\n{auth}"
        ));
        assert!(service.is_none(), "{auth}");
        let err = diags
            .iter()
            .find(|d| d.is_error())
            .unwrap_or_else(|| panic!("{auth}: no error"));
        assert_eq!(err.field.as_deref(), Some(field), "{auth}");
        assert!(err.message.contains(words), "{auth}: {}", err.message);
    }
    let (service, diags) = lower(
        "[auth]\ntype = \"api_key\"\nheader = \"X-Key\"\nauthorization_servers = [\"https://a.example\"]",
    );
    assert!(service.is_none());
    assert!(diags.iter().any(|d| d.is_error()
        && d.field.as_deref() == Some("auth.authorization_servers")
        && d.message.contains("does not apply")));
}

#[test]
fn a_resource_below_the_site_says_where_rfc_9728_clients_look() {
    let out = build(&root().join("examples/bookshelf/service.toml"), &[]);
    let doc = read_json(&out.path().join(".well-known/oauth-protected-resource"));
    assert_eq!(doc["resource"], "https://api.bookshelf.example/v1");
    let (service, mut diags) = {
        let mut diags = Diagnostics::default();
        let s =
            wellgen::pipeline::load(&root().join("examples/bookshelf/service.toml"), &mut diags);
        (s.unwrap(), diags)
    };
    Target::OAuthResource.emit(&service, &mut diags);
    let note = diags
        .iter()
        .find(|d| d.code == Code::PrmLocation)
        .expect("a note");
    assert!(
        note.message
            .contains("https://api.bookshelf.example/.well-known/oauth-protected-resource/v1"),
        "{}",
        note.message
    );
}
