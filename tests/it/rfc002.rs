//! RFC-002: agents.json against the ar-agents JSON Schema, ai-plugin.json against OpenAI's
//! limits, /api/discovery's invariants, the host files per host, serving and determinism.

use crate::support_rfc002::{Built, ROOT, build, build_targets, example, fixture, valid_sources};
use serde_json::Value;
use wellgen::emit::{Target, targets::rfc002};

const AGENTS: &str = "/.well-known/agents.json";
const PLUGIN: &str = "/.well-known/ai-plugin.json";
const DISCOVERY: &str = "/api/discovery";
const OPENAPI_FILES: [&str; 2] = ["/openapi.json", "/api/discovery.openapi.json"];

fn agents_schema() -> Value {
    let path = std::path::Path::new(ROOT).join("tests/schemas/rfc002/agents.v1.json");
    serde_json::from_str(&crate::support_rfc002::read(&path)).expect("schema is JSON")
}

/// The schema's errors for `doc`, formats asserted (uri, uri-template, email) as a strict
/// consumer validates; without formats only to prove that the strict check is what fails.
fn schema_errors(schema: &Value, doc: &Value, formats: bool) -> Vec<String> {
    let v = jsonschema::options()
        .should_validate_formats(formats)
        .build(schema)
        .expect("agents.v1.json compiles");
    v.iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// The schema less its one requirement RFC-002 does not make: an `issuer`.
fn schema_without_issuer() -> Value {
    let mut schema = agents_schema();
    let required = schema["required"].as_array_mut().unwrap();
    let before = required.len();
    required.retain(|r| r != "issuer");
    assert_eq!(required.len(), before - 1, "the schema requires an issuer");
    schema
}

#[test]
fn agents_json_passes_the_schema_for_every_example_and_fixture() {
    let (schema, lenient) = (agents_schema(), schema_without_issuer());
    let mut checked = Vec::new();
    let mut without_issuer = 0;
    for (path, text) in valid_sources() {
        let b = build(&text);
        let doc = b.json(AGENTS);
        let at = path.display();
        // As published, formats asserted: every endpoint `url` is a URI. A document that claims
        // the schema passes it; one without an issuer claims no schema and misses only that.
        if doc.get("$schema").is_some() {
            let strict = schema_errors(&schema, &doc, true);
            assert!(strict.is_empty(), "{at}: {strict:#?}");
        } else {
            without_issuer += 1;
            assert!(doc.get("issuer").is_none(), "{at}");
            let strict = schema_errors(&lenient, &doc, true);
            assert!(strict.is_empty(), "{at}: {strict:#?}");
            let full = schema_errors(&schema, &doc, true);
            assert!(
                full.len() == 1 && full[0].contains("issuer"),
                "{at}: {full:#?}"
            );
        }
        checked.push(path);
    }
    assert!(
        without_issuer >= 1,
        "no source without an issuer was checked"
    );
    let examples = checked
        .iter()
        .filter(|p| p.starts_with(format!("{ROOT}/examples")))
        .count();
    let ours = checked
        .iter()
        .filter(|p| p.to_string_lossy().contains("/tests/fixtures/rfc002-"))
        .count();
    assert!(examples >= 3 && ours >= 3, "{checked:#?}");
}

#[test]
fn the_schema_check_can_fail() {
    let schema = agents_schema();
    let b = build(&fixture("rfc002-netlify-oauth"));
    let mut doc = b.json(AGENTS);
    doc["issuer"].as_object_mut().unwrap().remove("type");
    assert!(!schema_errors(&schema, &doc, true).is_empty());
    let mut doc = b.json(AGENTS);
    doc["endpoints"][0]["method"] = "FETCH".into();
    assert!(!schema_errors(&schema, &doc, true).is_empty());
    let mut doc = b.json(AGENTS);
    doc["discovery"]["openapi"] = "not a uri".into();
    assert!(!schema_errors(&schema, &doc, true).is_empty());
    // A template as the `url` (what agents.json published before) fails only with formats
    // asserted: proof the check asserts them.
    let mut doc = b.json(AGENTS);
    doc["endpoints"][0]["url"] = "https://ledgerdesk.example/api/invoices/{id}".into();
    assert!(schema_errors(&schema, &doc, false).is_empty());
    assert!(!schema_errors(&schema, &doc, true).is_empty());
    let mut doc = b.json(AGENTS);
    doc["maintainer"] = serde_json::json!({"email": "not an address"});
    assert!(!schema_errors(&schema, &doc, true).is_empty());
}

/// The path of a generated document that an absolute link of ours points at.
fn target_of(b: &Built, url: &str) -> String {
    let site = b.service.site_url.as_str();
    let rest = url
        .strip_prefix(site)
        .unwrap_or_else(|| panic!("{url} is not on {site}"));
    let path = rest.split('?').next().unwrap_or_default();
    assert!(b.artifact(path).is_some(), "{url}: {path} is not generated");
    path.to_string()
}

#[test]
fn agents_json_links_and_endpoints_follow_the_model() {
    for (path, text) in valid_sources() {
        let b = build(&text);
        let doc = b.json(AGENTS);
        let at = path.display();
        // The schema is claimed by a document that can pass it: one with an issuer.
        match &b.service.rfc002.issuer {
            Some(_) => assert_eq!(
                doc["$schema"], "https://ar-agents.ar/schemas/agents.v1.json",
                "{at}"
            ),
            None => assert!(doc.get("$schema").is_none() && doc.get("issuer").is_none()),
        }
        assert_eq!(doc["name"], b.service.name.as_str());
        assert_eq!(doc["description"], b.service.description.as_str());
        let d = &doc["discovery"];
        assert_eq!(
            target_of(&b, d["machineReadable"].as_str().unwrap()),
            DISCOVERY
        );
        assert_eq!(
            target_of(&b, d["openapi31"].as_str().unwrap()),
            "/openapi.json"
        );
        let openapi = d["openapi"].as_str().unwrap();
        if b.service.host.routes_query() {
            assert!(
                openapi.ends_with("/api/discovery?format=openapi"),
                "{at}: {openapi}"
            );
        } else {
            assert_eq!(
                target_of(&b, openapi),
                "/api/discovery.openapi.json",
                "{at}"
            );
        }
        match b.artifact(PLUGIN) {
            Some(_) => assert_eq!(target_of(&b, d["aiPlugin"].as_str().unwrap()), PLUGIN),
            None => assert!(
                d.get("aiPlugin").is_none(),
                "{at}: links a missing ai-plugin.json"
            ),
        }
        let endpoints = doc["endpoints"].as_array().unwrap();
        assert_eq!(endpoints.len(), b.service.capabilities.len(), "{at}");
        for (e, c) in endpoints.iter().zip(&b.service.capabilities) {
            assert_eq!(e["name"], c.id.as_str());
            // The template, whole, or as `urlTemplate` beside the URI it starts with.
            let template = c.url(&b.service.base_url);
            let url = e["url"].as_str().unwrap();
            assert!(url.starts_with("https://"), "{at}: {url}");
            match e.get("urlTemplate") {
                None => {
                    assert_eq!(url, template, "{at}");
                    assert!(!url.contains('{'), "{at}: {url}");
                }
                Some(t) => {
                    assert_eq!(t, template.as_str(), "{at}");
                    assert!(c.path.params().next().is_some(), "{at}: {t}");
                    assert!(
                        template.starts_with(url) && url.ends_with('/'),
                        "{at}: {url}"
                    );
                }
            }
            assert_eq!(e["method"], c.method.as_str());
            assert_eq!(e["description"], c.description.as_str());
            let limited = c.rate_limit.is_some()
                || c.errors.iter().any(|e| e.status == Some(429))
                || b.service
                    .rate_limits
                    .is_some_and(|r| r.requests_per_minute.is_some());
            assert_eq!(e["rateLimited"], limited, "{at}: {}", c.id);
        }
        let rules = doc["agentInstructions"].as_str().unwrap();
        assert!(!rules.is_empty() && !rules.contains(";;"), "{at}");
        assert!(!doc["rfcConformance"].as_array().unwrap().is_empty());
    }
}

#[test]
fn written_rfc002_keys_are_published_as_written() {
    let b = build(&fixture("rfc002-netlify-oauth"));
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    let doc = b.json(AGENTS);
    assert_eq!(
        doc["issuer"],
        serde_json::json!({"jurisdiction": "AR", "type": "sociedad-ia", "operatorName": "Ledger Desk S.A.",
            "operatorCuit": "30-12345678-1", "supervisionRegime": "rfc-001-v1"})
    );
    assert_eq!(
        doc["rfcConformance"],
        serde_json::json!(["rfc-001-v1", "rfc-002-v1"])
    );
    assert_eq!(
        doc["agentInstructions"],
        "always list invoices before voiding one; amounts are in the customer's currency, never convert them; \
         refuse to void invoices older than 90 days"
    );
    assert_eq!(doc["governance"]["humanInTheLoop"]["scope"], "void_invoice");
    assert_eq!(doc["homepage"], "https://ledgerdesk.example");
    assert_eq!(doc["repository"], "https://github.com/ledgerdesk/api");
    assert_eq!(doc["license"], "Apache-2.0");
    assert_eq!(doc["maintainer"]["email"], "agents@ledgerdesk.example");
    let create = &doc["endpoints"][1];
    assert_eq!(
        create["url"],
        "https://api.ledgerdesk.example/v2/customers/"
    );
    assert_eq!(
        create["urlTemplate"],
        "https://api.ledgerdesk.example/v2/customers/{customer_id}/invoices"
    );
    assert_eq!(create["inputContentType"], "application/json");
    assert!(doc["endpoints"][0].get("inputContentType").is_none());
    // Nothing derived, so nothing to warn about.
    assert!(b.warnings_mentioning("rfc002").is_empty(), "{:#?}", b.diags);
    assert!(b.warnings_mentioning("issuer").is_empty());
}

#[test]
fn a_missing_issuer_is_left_out_and_missing_instructions_are_derived_with_notes() {
    let b = build(&example("exampleshop"));
    let doc = b.json(AGENTS);
    // No stand-in issuer: RFC-002 asks for none, and only the schema (not claimed then) does.
    assert!(doc.get("issuer").is_none(), "{doc:#}");
    assert!(doc.get("$schema").is_none(), "{doc:#}");
    assert_eq!(doc["rfcConformance"], serde_json::json!(["rfc-002-v1"]));
    let note = b.warnings_mentioning("[rfc002.issuer]");
    assert_eq!(note.len(), 1);
    assert_eq!(note[0].severity, wellgen::diag::Severity::Note);
    assert_eq!(b.warnings_mentioning("rfc002.instructions").len(), 1);
    let rules: Vec<&str> = doc["agentInstructions"]
        .as_str()
        .unwrap()
        .split("; ")
        .collect();
    assert!(
        rules.iter().any(|r| r.contains("`X-API-Key` header")),
        "{rules:#?}"
    );
    assert!(
        rules.iter().any(|r| r.contains("60 requests per minute")),
        "{rules:#?}"
    );

    let b = build(&fixture("rfc002-cloudflare-bearer"));
    let rules = b.json(AGENTS)["agentInstructions"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        rules.contains("confirm before calling `book_pickup`"),
        "{rules}"
    );
    let b = build(&fixture("rfc002-signed-generic"));
    let rules = b.json(AGENTS)["agentInstructions"]
        .as_str()
        .unwrap()
        .to_string();
    // An irreversible capability asks for confirmation by default.
    assert!(
        rules.contains("confirm before calling `rotate_secret`"),
        "{rules}"
    );
}

fn is_name_for_model(s: &str) -> bool {
    (1..=50).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric())
}

#[test]
fn ai_plugin_json_keeps_openais_limits() {
    let mut written = 0;
    for (path, text) in valid_sources() {
        let b = build(&text);
        let Some(_) = b.artifact(PLUGIN) else {
            continue;
        };
        written += 1;
        let at = path.display();
        let m = b.json(PLUGIN);
        let keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "schema_version",
                "name_for_model",
                "name_for_human",
                "description_for_model",
                "description_for_human",
                "auth",
                "api",
                "logo_url",
                "contact_email",
                "legal_info_url"
            ],
            "{at}"
        );
        assert_eq!(m["schema_version"], "v1");
        assert!(
            is_name_for_model(m["name_for_model"].as_str().unwrap()),
            "{at}"
        );
        let chars = |k: &str| m[k].as_str().unwrap().chars().count();
        assert!((1..=20).contains(&chars("name_for_human")), "{at}");
        assert!((1..=100).contains(&chars("description_for_human")), "{at}");
        assert!((1..=8000).contains(&chars("description_for_model")), "{at}");
        assert!(
            ["none", "user_http", "service_http", "oauth"]
                .contains(&m["auth"]["type"].as_str().unwrap()),
            "{at}"
        );
        if let Some(t) = m["auth"].get("authorization_type") {
            assert!(t == "bearer" || t == "basic");
        }
        assert_eq!(m["api"]["type"], "openapi");
        assert_eq!(
            m["api"]["url"],
            b.json(AGENTS)["discovery"]["openapi"],
            "{at}"
        );
        for k in ["logo_url", "legal_info_url"] {
            assert!(m[k].as_str().unwrap().starts_with("https://"), "{at}: {k}");
        }
        assert!(m["contact_email"].as_str().unwrap().contains('@'));
    }
    assert!(
        written >= 3,
        "only {written} ai-plugin.json files were written"
    );
}

#[test]
fn ai_plugin_json_maps_each_auth_kind() {
    let m = build(&fixture("rfc002-netlify-oauth")).json(PLUGIN);
    assert_eq!(
        m["auth"],
        serde_json::json!({
            "type": "oauth",
            "client_url": "https://ledgerdesk.example/oauth/authorize",
            "scope": "invoices:read invoices:write",
            "authorization_url": "https://ledgerdesk.example/oauth/token",
            "authorization_content_type": "application/x-www-form-urlencoded",
            "verification_tokens": {},
            "instructions": "See https://ledgerdesk.example/docs/oauth",
        })
    );
    assert_eq!(m["name_for_model"], "ledgerdesk");
    assert_eq!(m["legal_info_url"], "https://ledgerdesk.example/terms");

    let b = build(&fixture("rfc002-cloudflare-bearer"));
    let m = b.json(PLUGIN);
    assert_eq!(
        m["auth"],
        serde_json::json!({"type": "user_http", "authorization_type": "bearer"})
    );
    assert_eq!(m["name_for_model"], "ParcelPilot");
    assert_eq!(m["legal_info_url"], "https://parcelpilot.example/privacy");
    assert_eq!(b.warnings_mentioning("name_for_model").len(), 1);
    let d = m["description_for_model"].as_str().unwrap();
    assert!(
        d.starts_with("Use Parcel Pilot when the user wants to"),
        "{d}"
    );
    assert!(d.contains("Do not use Parcel Pilot"), "{d}");
    assert!(
        d.contains("book_pickup only after the user has confirmed"),
        "{d}"
    );
    assert_eq!(b.warnings_mentioning("description_for_model").len(), 1);

    let b = build(&fixture("rfc002-signed-generic"));
    let m = b.json(PLUGIN);
    assert_eq!(m["auth"]["type"], "user_http");
    assert!(
        m["auth"]["instructions"]
            .as_str()
            .unwrap()
            .contains("X-IA-Key")
    );
    assert_eq!(m["name_for_model"], "VaultOps247");
    assert_eq!(m["legal_info_url"], "https://vaultops.example");
    assert_eq!(b.warnings_mentioning("legal_info_url").len(), 1);
    assert_eq!(b.warnings_mentioning("signed-request").len(), 1);

    let toml = example("exampleshop").replacen(
        "base_url = \"https://exampleshop.com\"\n",
        "base_url = \"https://exampleshop.com\"\nlogo_url = \"https://exampleshop.com/logo.png\"\n\
         contact = { email = \"a@exampleshop.com\" }\n",
        1,
    );
    let b = build(&toml);
    let m = b.json(PLUGIN);
    assert_eq!(m["auth"]["type"], "user_http");
    assert!(
        m["auth"]["instructions"]
            .as_str()
            .unwrap()
            .contains("X-API-Key")
    );
    assert_eq!(b.warnings_mentioning("Authorization header").len(), 1);
}

#[test]
fn ai_plugin_json_is_not_written_without_logo_or_contact() {
    for name in ["simplenotes", "exampleshop", "worldweather"] {
        let b = build(&example(name));
        assert!(b.artifact(PLUGIN).is_none(), "{name}");
        let w = b.warnings_mentioning("ai-plugin.json is not written");
        assert_eq!(w.len(), 1, "{name}");
        assert!(
            w[0].message.contains("service.logo_url")
                && w[0].message.contains("service.contact.email")
        );
        assert!(b.errors().is_empty(), "{name}: {:#?}", b.errors());
    }
}

const SMALL: &str = r#"
[service]
name = "NAME"
description = "DESCRIPTION"
base_url = "https://small.example"
logo_url = "https://small.example/logo.png"
contact = { email = "hi@small.example" }
PLUGIN

[[capabilities]]
id = "ping"
description = "Ping"
path = "/ping"
"#;

fn small(name: &str, description: &str, plugin: &str) -> Built {
    build(
        &SMALL
            .replace("NAME", name)
            .replace("DESCRIPTION", description)
            .replace("PLUGIN", plugin),
    )
}

#[test]
fn over_long_derived_plugin_texts_are_shortened_with_a_warning() {
    let long_name = "The Extremely Long Service";
    let b = small(long_name, "Short.", "");
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    let name = b.json(PLUGIN)["name_for_human"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(name, "The Extremely Long…");
    assert!(name.chars().count() <= 20);
    let warned = b.warnings_mentioning("name_for_human");
    assert_eq!(warned.len(), 1, "{:#?}", b.diags);
    assert_eq!(warned[0].field.as_deref(), Some("service.name"));
    assert!(warned[0].message.contains(&name), "{}", warned[0].message);
    assert!(
        warned[0]
            .help
            .as_deref()
            .unwrap()
            .contains("[plugin] name_for_human")
    );

    let b = small(
        long_name,
        "Short.",
        "[plugin]\nname_for_human = \"Extremely Long\"",
    );
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    assert!(b.warnings_mentioning("name_for_human").is_empty());
    assert_eq!(b.json(PLUGIN)["name_for_human"], "Extremely Long");
    assert_eq!(b.json(PLUGIN)["name_for_model"], "TheExtremelyLongService");

    let long_description = "word ".repeat(30);
    let b = small("Small", long_description.trim(), "");
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    let description = b.json(PLUGIN)["description_for_human"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(description.chars().count() <= 100 && description.ends_with("word…"));
    let warned = b.warnings_mentioning("description_for_human");
    assert_eq!(warned.len(), 1);
    assert_eq!(warned[0].field.as_deref(), Some("service.description"));

    let b = small("日本語サービス", "Short.", "");
    assert!(
        b.errors()
            .iter()
            .any(|e| e.message.contains("name_for_model") && e.message.contains("empty")),
        "{:#?}",
        b.errors()
    );
    let b = small(
        "日本語サービス",
        "Short.",
        "[plugin]\nname_for_model = \"nihongo\"",
    );
    assert!(b.errors().is_empty());
}

#[test]
fn a_written_description_for_model_outside_the_rfc_range_is_a_warning() {
    let b = small(
        "Small",
        "Short.",
        "[plugin]\ndescription_for_model = \"Use it to ping.\"",
    );
    assert!(b.errors().is_empty());
    assert_eq!(b.json(PLUGIN)["description_for_model"], "Use it to ping.");
    let w = b.warnings_mentioning("500-1000");
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].field.as_deref(), Some("plugin.description_for_model"));
}

#[test]
fn discovery_invariants_hold() {
    let rfc3339 = |s: &str| {
        s.len() == 20
            && s.chars().enumerate().all(|(i, c)| match i {
                4 | 7 => c == '-',
                10 => c == 'T',
                13 | 16 => c == ':',
                19 => c == 'Z',
                _ => c.is_ascii_digit(),
            })
    };
    for (path, text) in valid_sources() {
        let b = build(&text);
        let at = path.display();
        let d = b.json(DISCOVERY);
        assert_eq!(
            d["$schema"],
            "https://ar-agents.ar/schemas/discovery.v1.json"
        );
        assert!(
            rfc3339(d["generatedAt"].as_str().unwrap()),
            "{at}: {}",
            d["generatedAt"]
        );
        let endpoints = d["endpoints"].as_array().unwrap();
        assert_eq!(d["totalTools"], endpoints.len(), "{at}");
        assert_eq!(endpoints.len(), b.service.capabilities.len(), "{at}");
        assert_eq!(d["packageCount"], d["packages"].as_array().unwrap().len());
        let agents = b.json(AGENTS);
        for (e, a) in endpoints
            .iter()
            .zip(agents["endpoints"].as_array().unwrap())
        {
            let keys: Vec<&String> = e.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["name", "url", "method", "description"], "{at}");
            for k in ["name", "method", "description"] {
                assert_eq!(e[k], a[k], "{at}: {k}");
            }
            // /api/discovery has no schema and keeps the template in `url`, as the RFC's
            // example does; agents.json holds it in `urlTemplate` when there is one.
            assert_eq!(e["url"], *a.get("urlTemplate").unwrap_or(&a["url"]), "{at}");
        }
        if let Some(day) = &b.service.meta.last_updated {
            assert!(
                d["generatedAt"]
                    .as_str()
                    .unwrap()
                    .starts_with(day.get(..10).unwrap()),
                "{at}"
            );
        }
    }
}

#[test]
fn every_rfc002_document_is_served_with_the_rfc_cache_policy() {
    let b = build(&fixture("rfc002-netlify-oauth"));
    for path in [
        AGENTS,
        PLUGIN,
        DISCOVERY,
        OPENAPI_FILES[0],
        OPENAPI_FILES[1],
    ] {
        let s = b.artifact(path).unwrap().serving.as_ref().unwrap();
        assert_eq!(
            s.cache_control,
            "public, max-age=300, s-maxage=600, stale-while-revalidate=86400"
        );
        assert_eq!(s.content_type, "application/json; charset=utf-8");
        assert!(s.cors, "{path}");
        assert_eq!(b.artifact(path).unwrap().body.last(), Some(&b'\n'));
    }
    assert_eq!(
        b.artifact(OPENAPI_FILES[0]).unwrap().body,
        b.artifact(OPENAPI_FILES[1]).unwrap().body
    );
    assert_eq!(
        rfc002::SERVING.cache_control,
        wellgen::emit::derive::published::RFC002_CACHE_CONTROL
    );
}

#[test]
fn netlify_gets_a_marked_redirects_section() {
    let b = build(&fixture("rfc002-netlify-oauth"));
    let a = b.artifact("/_redirects").expect("_redirects");
    assert!(a.serving.is_none());
    let text = b.text("/_redirects");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.first(), Some(&"# BEGIN wellgen"));
    assert_eq!(lines.last(), Some(&"# END wellgen"));
    assert!(lines.contains(&"/api/discovery format=openapi /api/discovery.openapi.json 200!"));
    assert!(b.artifact("/_worker.js").is_none());
    assert_eq!(
        b.json(AGENTS)["discovery"]["openapi"],
        "https://ledgerdesk.example/api/discovery?format=openapi"
    );
}

#[test]
fn cloudflare_gets_a_worker_not_a_query_redirect() {
    let b = build(&fixture("rfc002-cloudflare-bearer"));
    assert!(b.artifact("/_redirects").is_none());
    let a = b.artifact("/_worker.js").expect("_worker.js");
    assert!(a.serving.is_none());
    let js = b.text("/_worker.js");
    for needle in [
        "export default {",
        "const DISCOVERY = \"/api/discovery\";",
        "const OPENAPI = \"/api/discovery.openapi.json\";",
        "url.searchParams.get(\"format\") === \"openapi\"",
        "env.ASSETS.fetch(new Request(new URL(OPENAPI, url), request))",
        "env.ASSETS.fetch(request)",
    ] {
        assert!(js.contains(needle), "missing {needle:?} in\n{js}");
    }
    // The header table is JSON holding every served document with its headers.
    let start = js.find("const HEADERS = ").unwrap() + "const HEADERS = ".len();
    let end = start + js[start..].find(";\n").unwrap();
    let table: Value = serde_json::from_str(&js[start..end]).expect("header table is JSON");
    for path in [
        AGENTS,
        PLUGIN,
        DISCOVERY,
        OPENAPI_FILES[0],
        OPENAPI_FILES[1],
    ] {
        assert_eq!(
            table[path]["Cache-Control"],
            wellgen::emit::derive::published::RFC002_CACHE_CONTROL,
            "{path}"
        );
        assert_eq!(table[path]["Access-Control-Allow-Origin"], "*");
        // As `_headers`: a `.json` file keeps the type Pages gives its extension.
        let expected = if path.ends_with(".json") {
            Value::Null
        } else {
            "application/json; charset=utf-8".into()
        };
        assert_eq!(table[path]["Content-Type"], expected, "{path}");
    }
    assert_eq!(
        b.json(PLUGIN)["api"]["url"],
        "https://parcelpilot.example/api/discovery?format=openapi"
    );
}

#[test]
fn generic_hosts_get_no_routing_host_file_and_a_warning_naming_both_paths() {
    let b = build(&fixture("rfc002-signed-generic"));
    // Server configuration (`_headers`, nginx, .htaccess) yes; nothing the links could rely on.
    assert!(b.artifact("/_redirects").is_none());
    assert!(b.artifact("/_worker.js").is_none());
    let w = b.warnings_mentioning("generic static host");
    assert_eq!(w.len(), 1);
    assert!(w[0].message.contains("/api/discovery?format=openapi"));
    assert!(w[0].message.contains("/api/discovery.openapi.json"));
    assert_eq!(
        b.json(AGENTS)["discovery"]["openapi"],
        "https://vaultops.example/api/discovery.openapi.json"
    );
}

#[test]
fn rfc002_without_the_openapi_target_warns_about_its_links() {
    let b = build_targets(&fixture("rfc002-netlify-oauth"), &[Target::Rfc002]);
    assert!(b.artifact("/_redirects").is_none());
    assert_eq!(
        b.warnings_mentioning("`openapi` target is not built").len(),
        1
    );
    let b = build_targets(&fixture("rfc002-netlify-oauth"), &[Target::OpenApi]);
    assert!(b.artifact("/_redirects").is_none());
    assert!(b.diags.iter().all(|d| !d.message.contains("target")));
}

#[test]
fn builds_are_byte_identical_and_dated_by_source_date_epoch() {
    let bin = env!("CARGO_BIN_EXE_wellgen");
    let src = std::path::Path::new(ROOT).join("tests/fixtures/rfc002-signed-generic/service.toml");
    let dirs: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    for (i, dir) in dirs.iter().enumerate() {
        let mut cmd = std::process::Command::new(bin);
        cmd.args(["build", "-q", "-t", "rfc002,ai-plugin,openapi", "-o"])
            .arg(dir.path().join("out"))
            .arg(&src);
        if i < 2 {
            cmd.env("SOURCE_DATE_EPOCH", "1700000000");
        } else {
            cmd.env_remove("SOURCE_DATE_EPOCH");
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let read = |i: usize, p: &str| std::fs::read(dirs[i].path().join("out").join(p)).unwrap();
    for p in [
        ".well-known/agents.json",
        ".well-known/ai-plugin.json",
        "api/discovery",
        "openapi.json",
        "api/discovery.openapi.json",
    ] {
        assert_eq!(read(0, p), read(1, p), "{p} differs between two builds");
    }
    let dated = |i: usize| -> Value { serde_json::from_slice(&read(i, "api/discovery")).unwrap() };
    assert_eq!(dated(0)["generatedAt"], "2023-11-14T22:13:20Z");
    assert_eq!(dated(2)["generatedAt"], "1970-01-01T00:00:00Z");
    // A date in the source wins over the environment.
    let b = build(&fixture("rfc002-netlify-oauth"));
    assert_eq!(b.json(DISCOVERY)["generatedAt"], "2026-04-02T00:00:00Z");
}

#[test]
fn every_valid_source_date_is_published_as_that_instant() {
    for (written, published) in [
        ("2026-04-02", "2026-04-02T00:00:00Z"),
        ("2024-02-29", "2024-02-29T00:00:00Z"),
        ("\"2000-02-29\"", "2000-02-29T00:00:00Z"),
        ("1999-12-31T23:59:59Z", "1999-12-31T23:59:59Z"),
        // TOML writes a space for the `T` too; the model holds the RFC 3339 form.
        ("2026-05-01 09:30:00Z", "2026-05-01T09:30:00Z"),
        ("\"2026-05-01T09:30:00Z\"", "2026-05-01T09:30:00Z"),
    ] {
        let b = small(
            "Small",
            "Short.",
            &format!("[meta]\nlast_updated = {written}"),
        );
        assert!(b.errors().is_empty(), "{written}: {:#?}", b.errors());
        assert_eq!(b.json(DISCOVERY)["generatedAt"], published, "{written}");
        assert!(b.warnings_mentioning("generatedAt").is_empty(), "{written}");
    }
}

/// SMALL with `n` more capabilities that ask for confirmation, each with an id of 64 characters.
fn with_confirmed(n: usize, service_keys: &str) -> Built {
    let mut text = SMALL
        .replace("NAME", "Small")
        .replace("DESCRIPTION", "Short.")
        .replace("PLUGIN", service_keys);
    for i in 0..n {
        text.push_str(&format!(
            "\n[[capabilities]]\nid = \"{}_{i:04}\"\ndescription = \"Delete {i}\"\n\
             method = \"DELETE\"\npath = \"/r/{i}\"\nconfirm = true\n",
            "delete".repeat(10).get(..59).unwrap()
        ));
    }
    build(&text)
}

#[test]
fn a_derived_description_for_model_stays_within_openais_limit() {
    // Each id listed in full would take 150 × 66 characters; the list stops at its budget.
    let b = with_confirmed(150, "");
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    let d = b.json(PLUGIN)["description_for_model"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        d.chars().count() <= 8000,
        "{} characters",
        d.chars().count()
    );
    assert!(
        d.contains(" and the 146 other operations marked `x-requires-confirmation` in the OpenAPI document only after the user has confirmed"),
        "{d}"
    );
    let openapi = b.json("/openapi.json");
    let marked = openapi["paths"]
        .as_object()
        .unwrap()
        .values()
        .filter(|item| item["delete"]["x-requires-confirmation"] == true)
        .count();
    assert_eq!(marked, 150);
    // A few are all named.
    let d = with_confirmed(3, "").json(PLUGIN)["description_for_model"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(d.contains("_0002 only after the user has confirmed"), "{d}");
    assert!(!d.contains("x-requires-confirmation"), "{d}");
}

#[test]
fn a_derived_description_for_model_past_openais_limit_is_an_error() {
    // Every other part is bounded: only an origin thousands of characters long gets here.
    let host = format!("{}example", format!("{}.", "a".repeat(60)).repeat(130));
    let site = format!("site_url = \"https://{host}\"");
    let b = with_confirmed(0, &site);
    let e = b.errors();
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].message.contains("at most 8000"), "{}", e[0].message);
    // An error: the build publishes nothing, agents.json included.
    assert!(b.artifact(PLUGIN).is_none());
    assert!(
        b.warnings_mentioning("no `plugin.description_for_model`")
            .is_empty()
    );
    // Written by the author, it is published as written.
    let b = with_confirmed(
        0,
        &format!("{site}\n[plugin]\ndescription_for_model = \"Use it to ping.\""),
    );
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    assert_eq!(b.json(PLUGIN)["description_for_model"], "Use it to ping.");
}

/// A service of `capabilities` (TOML) without `[rate_limits]`, built for agents.json.
fn with_capabilities(capabilities: &str) -> Built {
    build(&format!(
        "[service]\nname = \"Shelf\"\ndescription = \"Books.\"\nbase_url = \"https://api.shelf.example\"\n\
         [auth]\ntype = \"bearer\"\n\n{capabilities}"
    ))
}

fn endpoint(doc: &Value, name: &str) -> Value {
    doc["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no endpoint {name}"))
        .clone()
}

#[test]
fn rate_limited_is_true_where_a_limit_or_a_429_is_declared() {
    let b = with_capabilities(
        r#"
[[capabilities]]
id = "list_books"
description = "List books"
path = "/books"
[[capabilities.errors]]
name = "too_many_requests"
status = 429

[[capabilities]]
id = "get_book"
description = "Get a book"
path = "/books/{id}"
[[capabilities.errors]]
name = "not_found"
status = 404

[[capabilities]]
id = "search"
description = "Search books"
path = "/search"
rate_limit = "10/minute"
"#,
    );
    let doc = b.json(AGENTS);
    assert_eq!(endpoint(&doc, "list_books")["rateLimited"], true);
    assert_eq!(endpoint(&doc, "get_book")["rateLimited"], false);
    assert_eq!(endpoint(&doc, "search")["rateLimited"], true);
    // The OpenAPI document says the same in `x-rate-limited`.
    let openapi = b.json("/openapi.json");
    assert_eq!(openapi["paths"]["/books"]["get"]["x-rate-limited"], true);
    assert_eq!(
        openapi["paths"]["/books/{id}"]["get"]["x-rate-limited"],
        false
    );
}

#[test]
fn input_content_type_is_written_only_for_a_request_body() {
    let b = with_capabilities(
        r#"
[[capabilities]]
id = "search"
description = "Search books"
path = "/search"
[capabilities.params]
q = "string, required -- words"
[capabilities.example]
request = { q = "le guin" }

[[capabilities]]
id = "add_book"
description = "Add a book"
method = "POST"
path = "/books"
[capabilities.example]
request = { title = "The Dispossessed" }

[[capabilities]]
id = "remove_books"
description = "Remove books by tag"
method = "DELETE"
path = "/books"
[capabilities.params]
tag = "string, required -- the tag"
[capabilities.example]
request = { tag = "old" }

[[capabilities]]
id = "ping"
description = "Ping"
method = "POST"
path = "/ping"
"#,
    );
    let doc = b.json(AGENTS);
    let openapi = b.json("/openapi.json");
    for (name, path, method, body) in [
        // A GET's example request is its query values.
        ("search", "/search", "get", false),
        ("add_book", "/books", "post", true),
        // A DELETE's example names only its query parameter.
        ("remove_books", "/books", "delete", false),
        // A bare POST: no body is guessed at.
        ("ping", "/ping", "post", false),
    ] {
        let e = endpoint(&doc, name);
        assert_eq!(e.get("inputContentType").is_some(), body, "{name}: {e:#}");
        // agents.json and the OpenAPI document agree on which calls carry a body.
        let op = &openapi["paths"][path][method];
        assert_eq!(op.get("requestBody").is_some(), body, "{name}: {op:#}");
    }
    // The bookshelf's GETs have request examples, and no body.
    let b = build(&example("bookshelf"));
    let doc = b.json(AGENTS);
    let gets: Vec<&Value> = doc["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["method"] == "GET")
        .collect();
    assert!(gets.len() >= 2);
    for e in gets {
        assert!(e.get("inputContentType").is_none(), "{e:#}");
    }
}
