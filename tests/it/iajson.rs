//! ia.json 1.0.0: every example and fixture builds a document the upstream JSON Schema accepts
//! (formats asserted, as the upstream AJV validator does), and the rules the schema cannot check
//! are reported on the right service.toml field.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use wellgen::diag::{Diagnostic, Diagnostics, Severity};
use wellgen::emit::{Artifact, targets::ia_json};
use wellgen::model::Service;

const SCHEMA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas/iajson");

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn validator() -> jsonschema::Validator {
    crate::common::iajson_validator(true)
}

fn schema_errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn lower(text: &str) -> (Option<Service>, Diagnostics) {
    let mut diags = Diagnostics::default();
    let raw = wellgen::source::parse_service_toml(text).expect("service.toml parses");
    let service = wellgen::model::lower(raw, &mut diags);
    (service, diags)
}

/// ia.json's `lower`, size pass and `render`, checking on the way that the size the size pass
/// measured (and reports in its §3.6 warnings) is the size of what `render` writes.
fn emit_text(text: &str) -> (Vec<Artifact>, Diagnostics) {
    let (service, mut diags) = lower(text);
    let service = service.unwrap_or_else(|| panic!("lowering failed: {diags:#?}"));
    let mut lowered = ia_json::lower(&service, &mut diags);
    ia_json::fit(&service, &mut lowered, &mut diags);
    let artifacts = ia_json::render(&service, &lowered);
    assert_eq!(
        lowered.size(),
        artifacts[0].body.len(),
        "the size the size pass measured"
    );
    (artifacts, diags)
}

fn document(artifacts: &[Artifact]) -> Value {
    let a = artifacts
        .iter()
        .find(|a| a.path == "/ia.json")
        .expect("/ia.json is emitted");
    serde_json::from_slice(&a.body).expect("ia.json is JSON")
}

/// Every case wellgen ships or keeps as a fixture of its own.
fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["examples", "tests/fixtures"] {
        let entries = std::fs::read_dir(root.join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let toml = e.path().join("service.toml");
            if (dir == "examples" || name.starts_with("iajson-")) && toml.is_file() {
                out.push(toml);
            }
        }
    }
    out.sort();
    out
}

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .join("service.toml");
    let (artifacts, diags) = emit_text(&std::fs::read_to_string(path).unwrap());
    assert!(diags.is_empty(), "{name}: {diags:#?}");
    document(&artifacts)
}

// ---- the validator set-up itself ----------------------------------------------------------

#[test]
fn upstream_examples_validate() {
    let v = validator();
    let dir = Path::new(SCHEMA_DIR).join("examples");
    let mut seen = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let doc = read_json(&e.path());
        let errors = schema_errors(&v, &doc);
        assert!(errors.is_empty(), "{}: {errors:#?}", e.path().display());
        seen += 1;
    }
    assert_eq!(seen, 6, "blog, ecommerce, minimal, oauth, readonly, saas");
}

#[test]
fn upstream_validator_cases_agree_with_the_schema() {
    let v = validator();
    let cases = read_json(&Path::new(SCHEMA_DIR).join("validator-test-cases.extracted.json"));
    let cases = cases["cases"].as_array().unwrap();
    assert!(cases.len() >= 13);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let valid = v.is_valid(&case["input"]);
        assert_eq!(valid, case["expect_valid"] == json!(true), "{name}");
    }
}

#[test]
fn known_bad_documents_are_rejected() {
    let v = validator();
    let good = json!({
        "version": "1.0.0",
        "site": { "name": "T", "type": "other" },
        "api": { "base_url": "https://example.com/api",
                 "public": { "ping": { "method": "GET", "path": "/ping", "description": "Ping" } } }
    });
    assert!(v.is_valid(&good));
    let mut cases: Vec<(&str, Value)> = Vec::new();
    let mut c = good.clone();
    c["metadata"] = json!({ "created": "2026-01-15" });
    cases.push(("date-only created (needs format assertion)", c));
    let mut c = good.clone();
    c["site"]["contact"] = json!("not an email");
    cases.push(("bad contact email (needs format assertion)", c));
    let mut c = good.clone();
    c["api"]["protected"] = json!({});
    cases.push(("empty endpoint group", c));
    let mut c = good.clone();
    c["api"]["public"]["ping"]["parameters"] = json!({ "q": { "type": "string" } });
    cases.push(("parameter without required", c));
    let mut c = good.clone();
    c["api"]["public"]["ping"]["parameters"] =
        json!({ "q": { "type": "string", "required": true, "in": "query" } });
    cases.push(("parameter with an extra key", c));
    let mut c = good.clone();
    c["api"]["base_url"] = json!("http://example.com/api");
    cases.push(("plain-http base_url", c));
    // The first two fail only because formats are asserted: proof the set-up asserts them.
    let lax = crate::common::iajson_validator(false);
    assert!(lax.is_valid(&cases[0].1) && lax.is_valid(&cases[1].1));
    for (why, doc) in cases {
        assert!(!v.is_valid(&doc), "accepted: {why}");
    }
}

// ---- every example and fixture -----------------------------------------------------------

#[test]
fn every_example_and_fixture_is_schema_valid_and_served_twice() {
    let v = validator();
    let inputs = inputs();
    assert!(
        inputs.len() >= 6,
        "3 examples and 3 iajson fixtures: {inputs:?}"
    );
    for path in inputs {
        let text = std::fs::read_to_string(&path).unwrap();
        let (artifacts, diags) = emit_text(&text);
        assert!(!diags.has_errors(), "{}: {diags:#?}", path.display());
        let paths: Vec<&str> = artifacts.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(
            paths,
            ["/ia.json", "/.well-known/ia.json"],
            "{}",
            path.display()
        );
        assert_eq!(
            artifacts[0].body, artifacts[1].body,
            "byte-identical copies"
        );
        for a in &artifacts {
            let s = a.serving.as_ref().expect("served as a document");
            assert_eq!(s.content_type, "application/json; charset=utf-8");
            assert_eq!(s.cache_control, "public, max-age=3600");
            assert!(a.body.ends_with(b"}\n"));
        }
        let doc = document(&artifacts);
        let errors = schema_errors(&v, &doc);
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        assert_eq!(doc["version"], "1.0.0");
        assert_eq!(doc["metadata"]["spec_version"], "1.0.0");
        assert_eq!(doc["metadata"]["generator"], "wellgen");
        // Determinism: a second run gives the same bytes.
        let (again, _) = emit_text(&text);
        assert_eq!(again[0].body, artifacts[0].body, "{}", path.display());
    }
}

/// The outputs checked in for every golden and fixture (the golden test proves they are what a
/// build writes today), the imported OpenAPI documents among them.
#[test]
fn every_checked_in_ia_json_is_schema_valid() {
    let v = validator();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders = Vec::new();
    for (dir, below) in [("tests/golden", ""), ("tests/fixtures", "expected")] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            folders.push(e.path().join(below));
        }
    }
    folders.sort();
    let mut seen = Vec::new();
    for folder in folders {
        let Ok(bytes) = std::fs::read(folder.join("ia.json")) else {
            continue;
        };
        let twin = std::fs::read(folder.join(".well-known/ia.json")).unwrap();
        assert_eq!(bytes, twin, "{}: byte-identical copies", folder.display());
        let doc: Value = serde_json::from_slice(&bytes).unwrap();
        let errors = schema_errors(&v, &doc);
        assert!(errors.is_empty(), "{}: {errors:#?}", folder.display());
        seen.push(folder);
    }
    let imports = seen
        .iter()
        .filter(|f| f.to_string_lossy().contains("/import-"))
        .count();
    assert!(seen.len() >= 24 && imports >= 10, "{seen:#?}");
}

#[test]
fn oauth_fixture_groups_by_access_and_keeps_scopes() {
    let doc = fixture("iajson-oauth");
    let api = &doc["api"];
    assert_eq!(api["base_url"], "https://clouddrive.example.com/api/v2");
    assert!(api.get("protected").is_none(), "empty groups are omitted");
    assert_eq!(
        api["public"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["service_status"]
    );
    let user = api["user_required"].as_object().unwrap();
    assert_eq!(
        user.keys().collect::<Vec<_>>(),
        ["list_files", "upload_file", "delete_file"]
    );
    let list = &user["list_files"];
    assert_eq!(
        list["path"], "/folders/{folder_id}/files",
        "relative to the prefixed base"
    );
    assert_eq!(list["scopes"], json!(["files:read"]));
    assert_eq!(list["rate_limit"], "120/minute");
    assert_eq!(
        list["parameters"]["page_size"],
        json!({ "type": "integer", "required": false, "description": "files per page",
                "default": 50, "min": 1, "max": 500 })
    );
    assert_eq!(
        list["response"],
        json!({ "description": "files[] {id, name, size, modified}" })
    );
    let upload = &user["upload_file"];
    assert_eq!(
        upload["parameters"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["folder_id"]
    );
    assert_eq!(upload["body"]["name"]["pattern"], "^[^/]+$");
    assert_eq!(upload["body"]["overwrite"]["default"], false);
    assert_eq!(upload["response"]["example"]["id"], "file_123");
    assert_eq!(user["delete_file"]["deprecated"], true);
    assert!(list.get("deprecated").is_none());

    let oauth = &doc["auth"]["oauth2"];
    assert_eq!(
        oauth["grant_types"],
        json!(["authorization_code", "client_credentials"]),
        "explicit and de-duplicated"
    );
    assert_eq!(oauth["pkce_required"], true);
    assert_eq!(oauth["scopes"].as_object().unwrap().len(), 3);
    for scope in ["files:read", "files:write", "files:delete"] {
        assert!(oauth["scopes"].get(scope).is_some());
    }
    assert_eq!(
        doc["site"]["language"], "pt-BR",
        "the first of service.languages"
    );
    assert_eq!(doc["site"]["type"], "saas");
    assert_eq!(doc["site"]["contact"], "api@clouddrive.example.com");
    assert_eq!(doc["metadata"]["updated"], "2026-02-01T08:30:00Z");
    assert_eq!(
        doc["metadata"]["support_url"],
        "https://clouddrive.example.com/support"
    );
    assert!(doc.get("security").is_none());
    assert_eq!(
        doc["capabilities"],
        json!({ "read": true, "write": true, "delete": true })
    );
}

#[test]
fn signed_fixture_declares_security_webhooks_and_features() {
    let doc = fixture("iajson-signed");
    assert_eq!(
        doc["auth"],
        json!({ "signed_key": { "register_url": "https://techstore.example.com/ia/register",
                "algorithm": "sha512", "header_prefix": "X-IA-", "key_rotation_days": 90 } })
    );
    assert_eq!(
        doc["security"],
        json!({
            "https_required": true,
            "rate_limit": "600/minute",
            "verify_signature": true,
            "max_request_size": "1mb",
            "allowed_origins": ["https://techstore.example.com"],
            "ip_whitelist": ["203.0.113.0/24", "198.51.100.7"],
            "auto_block": { "failed_attempts": 10, "window_minutes": 5, "block_duration_minutes": 60 }
        })
    );
    assert_eq!(
        doc["capabilities"],
        json!({ "read": true, "write": true, "search": true, "checkout": true,
                "webhooks": true, "real_time": false, "x_gift_wrapping": true })
    );
    let shipped = &doc["webhooks"]["order_shipped"];
    assert_eq!(shipped["description"], "An order left the warehouse");
    for (name, field) in shipped["payload"].as_object().unwrap() {
        assert!(
            field["required"].is_boolean(),
            "{name}: `required` always written"
        );
    }
    assert_eq!(shipped["payload"]["order_id"]["required"], true);
    assert_eq!(
        shipped["payload"]["carrier"]["enum"],
        json!(["ups", "dhl", "fedex"])
    );
    assert!(doc["webhooks"]["price_dropped"].get("payload").is_none());

    let api = &doc["api"];
    let inventory = &api["protected"]["get_inventory"];
    assert_eq!(
        inventory["parameters"]["X-Warehouse"]["description"],
        "warehouse code (sent as the `X-Warehouse` request header)"
    );
    let order = &api["protected"]["create_order"];
    assert!(order.get("parameters").is_none());
    assert_eq!(order["body"]["quantity"]["max"], 10);
    assert_eq!(order["response"]["schema"]["required"], json!(["order_id"]));
    let update = &api["protected"]["update_order"];
    assert_eq!(update["parameters"]["order_id"]["required"], true);
    assert_eq!(update["body"]["quantity"]["min"], 1);
    let find = &api["public"]["find_products"];
    assert_eq!(find["parameters"]["max_price"]["max"], 99999.99);
    assert_eq!(
        find["parameters"]["tags"],
        json!({ "type": "array", "required": false, "description": "match any tag" }),
        "no `items`: the parameter object has no such key"
    );
    assert_eq!(doc["metadata"]["updated"], "2026-02-12T00:00:00Z");
    assert_eq!(doc["site"]["currency"], "USD");
    assert_eq!(
        doc["site"]["logo"],
        "https://techstore.example.com/logo.png"
    );
}

#[test]
fn api_key_fixture_is_protected_with_brace_paths() {
    let doc = fixture("iajson-apikey");
    assert_eq!(
        doc["auth"],
        json!({ "api_key": { "header": "X-API-Key",
                             "request_url": "https://techblog.example.com/developers" } })
    );
    let api = doc["api"].as_object().unwrap();
    assert_eq!(
        api.keys().collect::<Vec<_>>(),
        ["base_url", "protected"],
        "access derives to protected when auth is declared"
    );
    assert_eq!(
        doc["api"]["protected"]["get_article"]["path"],
        "/articles/{slug}"
    );
    assert_eq!(
        doc["api"]["protected"]["post_comment"]["path"],
        "/articles/{slug}/comments"
    );
    assert!(doc.get("security").is_none());
    assert!(doc.get("webhooks").is_none());
    assert_eq!(
        doc["metadata"].get("updated"),
        None,
        "no date without meta.last_updated"
    );
}

// ---- rules beyond the schema -------------------------------------------------------------

const HEAD: &str = r#"
[service]
name = "T"
description = "Test service"
base_url = "https://t.example/api"
"#;

fn cap(id: &str, method: &str, path: &str, extra: &str) -> String {
    format!(
        "\n[[capabilities]]\nid = \"{id}\"\ndescription = \"Do {id}\"\nmethod = \"{method}\"\npath = \"{path}\"\n{extra}\n"
    )
}

/// The diagnostics of emitting `text`; the document still has to pass the schema whenever
/// only warnings were pushed.
fn run(text: &str) -> (Diagnostics, Option<Value>) {
    let (artifacts, diags) = emit_text(text);
    let doc = (!artifacts.is_empty()).then(|| document(&artifacts));
    if !diags.has_errors() {
        let doc = doc.as_ref().expect("a document");
        let errors = schema_errors(&validator(), doc);
        assert!(errors.is_empty(), "warnings only, yet invalid: {errors:#?}");
    }
    (diags, doc)
}

fn find<'a>(diags: &'a Diagnostics, severity: Severity, field: &str, says: &str) -> &'a Diagnostic {
    diags
        .iter()
        .find(|d| {
            d.severity == severity && d.field.as_deref() == Some(field) && d.message.contains(says)
        })
        .unwrap_or_else(|| panic!("no {severity:?} at `{field}` saying `{says}` in {diags:#?}"))
}

#[test]
fn protected_endpoint_without_auth_is_an_error_on_its_access() {
    for auth in ["", "\n[auth]\ntype = \"none\"\n"] {
        let text = format!(
            "{HEAD}{auth}{}{}",
            cap("ping", "GET", "/ping", ""),
            cap("secret", "GET", "/secret", "access = \"protected\"")
        );
        let (diags, _) = run(&text);
        find(
            &diags,
            Severity::Error,
            "capabilities.1.access",
            "declares no authentication",
        );
        assert_eq!(diags.error_count(), 1, "{diags:#?}");
    }
}

#[test]
fn user_required_without_oauth2_warns_like_the_upstream_validator() {
    let text = format!(
        "{HEAD}\n[auth]\ntype = \"api_key\"\nheader = \"X-Key\"\n{}",
        cap(
            "my_orders",
            "GET",
            "/me/orders",
            "access = \"user_required\""
        )
    );
    let (diags, doc) = run(&text);
    find(
        &diags,
        Severity::Warning,
        "capabilities.0.access",
        "not oauth2",
    );
    assert!(doc.unwrap()["api"]["user_required"]["my_orders"].is_object());
}

#[test]
fn endpoint_names_must_be_strict_snake_case() {
    let text = format!("{HEAD}{}", cap("get__item", "GET", "/item", ""));
    let (diags, _) = run(&text);
    find(
        &diags,
        Severity::Error,
        "capabilities.0.id",
        "not snake_case",
    );
}

#[test]
fn names_unique_across_groups_and_scopes_declared_even_if_the_model_let_them_by() {
    let text = format!(
        "{HEAD}\n[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://t.example/auth\"\n\
         token_url = \"https://t.example/token\"\nscopes = {{ \"a:read\" = \"Read\" }}\n{}{}",
        cap("list_a", "GET", "/a", "access = \"public\""),
        cap("mine", "GET", "/me", "scopes = [\"a:read\"]")
    );
    let (service, diags) = lower(&text);
    assert!(diags.is_empty(), "{diags:#?}");
    let mut service = service.unwrap();
    // Bypass the model's own checks: the emitter must still refuse an invalid document.
    let mut twin = service.capabilities[1].clone();
    twin.index = 2;
    twin.id = "list_a".into();
    service.capabilities.push(twin);
    service.capabilities[1].scopes.push("a:write".into());
    let mut diags = Diagnostics::default();
    ia_json::lower(&service, &mut diags);
    find(
        &diags,
        Severity::Error,
        "capabilities.2.id",
        "already used by capabilities[0]",
    );
    find(
        &diags,
        Severity::Error,
        "capabilities.1.scopes.1",
        "`a:write` is not declared",
    );
}

#[test]
fn scopes_outside_user_required_are_flagged() {
    let text = format!(
        "{HEAD}\n[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://t.example/auth\"\n\
         token_url = \"https://t.example/token\"\nscopes = {{ \"a:read\" = \"Read\" }}\n{}",
        cap(
            "list_a",
            "GET",
            "/a",
            "access = \"protected\"\nscopes = [\"a:read\"]"
        )
    );
    let (diags, doc) = run(&text);
    find(
        &diags,
        Severity::Warning,
        "capabilities.0.scopes",
        "user_required",
    );
    assert_eq!(
        doc.unwrap()["api"]["protected"]["list_a"]["scopes"],
        json!(["a:read"])
    );
}

#[test]
fn bearer_without_a_token_url_is_an_api_key_in_the_authorization_header() {
    let text = format!(
        "{HEAD}\n[auth]\ntype = \"bearer\"\n{}",
        cap("ping", "GET", "/ping", "")
    );
    let (diags, doc) = run(&text);
    find(&diags, Severity::Warning, "auth", "requires `token_url`");
    assert!(!diags.has_errors(), "{diags:#?}");
    assert_eq!(
        doc.unwrap()["auth"],
        json!({ "api_key": { "header": "Authorization" } })
    );

    let text = format!(
        "{HEAD}\n[auth]\ntype = \"bearer\"\ntoken_url = \"https://t.example/token\"\ntoken_lifetime = 3600\n{}",
        cap("ping", "GET", "/ping", "")
    );
    let (diags, doc) = run(&text);
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(
        doc.unwrap()["auth"],
        json!({ "bearer": { "token_url": "https://t.example/token", "expires_in": 3600 } })
    );
}

#[test]
fn empty_grant_types_are_an_error() {
    let text = format!(
        "{HEAD}\n[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://t.example/auth\"\n\
         token_url = \"https://t.example/token\"\ngrant_types = []\nscopes = {{ \"a\" = \"A\" }}\n{}",
        cap("ping", "GET", "/ping", "")
    );
    let (diags, _) = run(&text);
    find(
        &diags,
        Severity::Error,
        "auth.grant_types",
        "at least one grant type",
    );
}

#[test]
fn https_cannot_be_switched_off() {
    let text = format!(
        "{HEAD}\n[security]\nhttps_required = false\n{}",
        cap("ping", "GET", "/ping", "")
    );
    let (diags, _) = run(&text);
    find(&diags, Severity::Error, "security.https_required", "§8.1");
}

#[test]
fn signed_key_with_verification_off_warns_and_keeps_the_authors_word() {
    let text = format!(
        "{HEAD}\n[auth]\ntype = \"signed_key\"\nkey_url = \"https://t.example/register\"\n\
         \n[security]\nverify_signature = false\n{}",
        cap("ping", "GET", "/ping", "")
    );
    let (diags, doc) = run(&text);
    find(
        &diags,
        Severity::Warning,
        "security.verify_signature",
        "not verified",
    );
    assert_eq!(doc.unwrap()["security"]["verify_signature"], false);

    // Without a [security] table the signed key still brings `verify_signature: true`.
    let text = format!(
        "{HEAD}\n[auth]\ntype = \"signed_key\"\nkey_url = \"https://t.example/register\"\n{}",
        cap("ping", "GET", "/ping", "")
    );
    let (diags, doc) = run(&text);
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(
        doc.unwrap()["security"],
        json!({ "verify_signature": true })
    );
}

#[test]
fn flags_nothing_backs_up_are_warned_about() {
    let text = format!(
        "{HEAD}\n[features]\ncheckout = true\nwebhooks = true\n{}",
        cap("ping", "GET", "/ping", "")
    );
    let (diags, doc) = run(&text);
    find(
        &diags,
        Severity::Warning,
        "features.checkout",
        "checkout, order or cart",
    );
    find(
        &diags,
        Severity::Warning,
        "features.webhooks",
        "no `[[webhooks]]`",
    );
    assert_eq!(
        doc.unwrap()["capabilities"],
        json!({ "read": true, "checkout": true, "webhooks": true })
    );
}

#[test]
fn features_override_derived_flags() {
    let text = format!(
        "{HEAD}\n[features]\nread = false\nx_beta = true\n{}{}",
        cap("search_items", "GET", "/items", ""),
        cap("remove_item", "DELETE", "/items/{id}", "")
    );
    let (diags, doc) = run(&text);
    assert!(!diags.has_errors(), "{diags:#?}");
    assert_eq!(
        doc.unwrap()["capabilities"],
        json!({ "read": false, "delete": true, "search": true, "x_beta": true })
    );
}

#[test]
fn endpoints_outside_the_base_url_are_left_out_with_a_warning() {
    let text = format!(
        "{HEAD}{}{}{}",
        cap("ping", "GET", "/ping", ""),
        cap("elsewhere", "GET", "https://other.example/x", ""),
        cap("same_base", "GET", "https://t.example/api/y/{id}", "")
    );
    let (diags, doc) = run(&text);
    find(
        &diags,
        Severity::Warning,
        "capabilities.1.path",
        "left out of ia.json",
    );
    let public = doc.unwrap()["api"]["public"].clone();
    assert!(public.get("elsewhere").is_none());
    assert_eq!(public["same_base"]["path"], "/y/{id}");

    let text = format!(
        "{HEAD}{}",
        cap("elsewhere", "GET", "https://other.example/x", "")
    );
    let (diags, _) = run(&text);
    find(
        &diags,
        Severity::Error,
        "service.base_url",
        "at least one endpoint",
    );
}

#[test]
fn body_fields_on_a_get_are_flagged() {
    let text = format!(
        "{HEAD}{}",
        cap(
            "lookup",
            "GET",
            "/lookup",
            "params = { filter = { type = \"object\", in = \"body\" } }"
        )
    );
    let (diags, doc) = run(&text);
    find(
        &diags,
        Severity::Warning,
        "capabilities.0.params.filter",
        "POST, PUT and PATCH",
    );
    assert_eq!(
        doc.unwrap()["api"]["public"]["lookup"]["body"]["filter"]["type"],
        "object"
    );
}

#[test]
fn impossible_dates_and_odd_emails_are_errors_not_invalid_output() {
    let text = format!(
        "{HEAD}\n[meta]\nlast_updated = \"2026-02-30\"\n{}",
        cap("ping", "GET", "/ping", "")
    );
    // Lowering refuses it, for every target, before ia.json's own check could.
    let (service, diags) = lower(&text);
    assert!(service.is_none());
    find(
        &diags,
        Severity::Error,
        "meta.last_updated",
        "not a calendar date",
    );

    let text = format!(
        "[service]\nname = \"T\"\ndescription = \"Test\"\nbase_url = \"https://t.example\"\n\
         contact = {{ email = \"a..b@t.example\" }}\n{}",
        cap("ping", "GET", "/ping", "")
    );
    let (diags, _) = run(&text);
    find(
        &diags,
        Severity::Error,
        "service.contact.email",
        "not a plain email address",
    );
}

#[test]
fn response_schemas_give_way_before_the_document_outgrows_one_mb() {
    let properties: Vec<String> = (0..100)
        .map(|i| {
            format!(
                "p{i} = {{ type = \"string\", description = \"{}\" }}",
                "d".repeat(150)
            )
        })
        .collect();
    let schema = format!(
        "output_schema = {{ type = \"object\", properties = {{ {} }} }}",
        properties.join(", ")
    );
    let mut text = HEAD.to_string();
    for i in 0..80 {
        let returns = if i % 2 == 0 {
            "\nreturns = \"{ id }\""
        } else {
            ""
        };
        text += &cap(
            &format!("get_{i}"),
            "GET",
            &format!("/things/{i}"),
            &format!("{schema}{returns}"),
        );
    }
    let (diags, doc) = run(&text);
    let doc = doc.expect("a document");
    let size = serde_json::to_vec(&doc).unwrap().len();
    assert!(size <= 1 << 20, "{size} bytes");
    let warning = diags
        .iter()
        .find(|d| d.message.contains("with every response schema"))
        .unwrap_or_else(|| panic!("{diags:#?}"));
    assert_eq!(warning.severity, Severity::Warning);
    assert!(
        warning.message.contains("the `response` of 80 endpoints"),
        "{}",
        warning.message
    );
    let (artifacts, _) = emit_text(&text);
    let kb = artifacts[0].body.len().div_ceil(1024);
    assert!(
        warning.message.contains(&format!("making it {kb} KB")),
        "{}",
        warning.message
    );
    assert!(
        !diags.iter().any(|d| d.message.starts_with("ia.json is")),
        "{diags:#?}"
    );
    let public = doc["api"]["public"].as_object().unwrap();
    assert_eq!(public.len(), 80);
    assert_eq!(
        public["get_0"]["response"],
        json!({"description": "{ id }"})
    );
    assert!(public["get_1"].get("response").is_none());

    // Fewer capabilities: too large pretty, small enough compact. Written compact, schemas kept.
    let mut medium = HEAD.to_string();
    for i in 0..50 {
        medium += &cap(&format!("get_{i}"), "GET", &format!("/things/{i}"), &schema);
    }
    let (artifacts, diags) = emit_text(&medium);
    let body = &artifacts[0].body;
    let value: Value = serde_json::from_slice(body).unwrap();
    assert!(serde_json::to_vec_pretty(&value).unwrap().len() > 1 << 20);
    assert!(body.len() <= 1 << 20, "{} bytes", body.len());
    assert_eq!(body.iter().filter(|&&b| b == b'\n').count(), 1, "compact");
    assert!(
        !diags.iter().any(|d| d.message.contains("response schema")),
        "{diags:#?}"
    );
    assert!(schema_errors(&validator(), &value).is_empty());
    assert!(value["api"]["public"]["get_49"]["response"]["schema"].is_object());

    // Fewer still: pretty, as every document under 1 MiB, with its schemas.
    let mut small = HEAD.to_string();
    for i in 0..20 {
        small += &cap(&format!("get_{i}"), "GET", &format!("/things/{i}"), &schema);
    }
    let (diags, doc) = run(&small);
    assert!(
        !diags.iter().any(|d| d.message.contains("response schema")),
        "{diags:#?}"
    );
    assert_eq!(
        doc.unwrap()["api"]["public"]["get_3"]["response"]["schema"]["properties"]
            .as_object()
            .unwrap()
            .len(),
        100
    );
}

/// A service.toml of 5,000 capabilities, each taking a string parameter `q` with `field`.
fn five_thousand_with(field: &str) -> String {
    let mut text = HEAD.to_string();
    for i in 0..5000 {
        text += &cap(
            &format!("get_{i}"),
            "GET",
            &format!("/things/{i}"),
            &format!("params = {{ q = {{ type = \"string\", {field} }} }}"),
        );
    }
    text
}

/// A document over §3.6's limit for its parameters' descriptions leaves them out (it has no
/// response schema to drop), with a warning, and fits.
#[test]
fn a_document_over_one_mb_for_its_parameter_descriptions_leaves_them_out() {
    let q = format!("description = \"{}\"", "words ".repeat(25));
    let (artifacts, diags) = emit_text(&five_thousand_with(&q));
    let body = &artifacts[0].body;
    assert!(body.len() <= 1 << 20, "{} bytes", body.len());
    let doc: Value = serde_json::from_slice(body).unwrap();
    let q = &doc["api"]["public"]["get_7"]["parameters"]["q"];
    assert_eq!(q["type"], "string", "{q}");
    assert!(q.get("description").is_none(), "{q}");
    assert!(
        diags.iter().any(|d| d.severity == Severity::Warning
            && d.message.starts_with("ia.json would still be over 1 MB (§3.6): the descriptions and examples of 5000 parameters")),
        "{diags:#?}"
    );
}

/// A document over §3.6's limit even without response schemas and parameter texts (it has
/// neither to drop) is written compact and warned about with the size written.
#[test]
fn a_document_over_one_mb_anyway_is_compact_and_warned_about_with_its_size() {
    let q = format!("pattern = \"^({})$\"", "words|".repeat(25));
    let (artifacts, diags) = emit_text(&five_thousand_with(&q));
    let body = &artifacts[0].body;
    assert!(body.len() > 1 << 20, "{} bytes", body.len());
    assert_eq!(body.iter().filter(|&&b| b == b'\n').count(), 1, "compact");
    let says = format!("ia.json is {} KB;", body.len().div_ceil(1024));
    assert!(
        diags
            .iter()
            .any(|d| d.severity == Severity::Warning && d.message.starts_with(&says)),
        "no `{says}` in {diags:#?}"
    );
    assert!(
        !diags.iter().any(|d| d.message.contains("response schema")),
        "{diags:#?}"
    );
}
