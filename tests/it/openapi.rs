//! The OpenAPI 3.1 document, re-read with the `oas3` parser: every capability, parameter and
//! security requirement must survive, with RFC-002's `x-` extensions. (scripts/check-openapi runs
//! openapi-spec-validator on the same documents.)

use crate::support_rfc002::{Built, build_targets, example, fixture, valid_sources};
use oas3::spec::{ObjectOrReference, ParameterIn, SecurityScheme, Spec};
use serde_json::{Value, json};
use wellgen::emit::Target;
use wellgen::model::{Access, Auth, Capability, ParamIn};

const PATHS: [&str; 2] = ["/openapi.json", "/api/discovery.openapi.json"];

fn build(text: &str) -> Built {
    build_targets(text, &[Target::OpenApi])
}

fn parse(b: &Built) -> (Spec, Value) {
    let text = b.text(PATHS[0]);
    let spec =
        oas3::from_json(&text).unwrap_or_else(|e| panic!("oas3 cannot read it: {e}\n{text}"));
    (spec, serde_json::from_str(&text).unwrap())
}

fn operation<'a>(raw: &'a Value, c: &Capability) -> &'a Value {
    &raw["paths"][c.path.braces()][c.method.as_str().to_ascii_lowercase()]
}

#[test]
fn every_capability_parameter_and_requirement_survives_a_re_parse() {
    let mut checked = 0;
    for (path, text) in valid_sources() {
        let b = build(&text);
        let at = path.display();
        assert!(b.errors().is_empty(), "{at}: {:#?}", b.errors());
        assert_eq!(
            b.text(PATHS[0]),
            b.text(PATHS[1]),
            "{at}: the two paths differ"
        );
        let (spec, raw) = parse(&b);
        assert_eq!(spec.openapi, "3.1.0");
        spec.validate_version().expect("a 3.1 version");
        assert_eq!(spec.info.title, b.service.name);
        assert_eq!(spec.info.version, b.service.version);
        assert_eq!(spec.servers[0].url, b.service.base_url.as_str());
        assert_eq!(
            spec.operations().count(),
            b.service.capabilities.len(),
            "{at}"
        );
        assert_eq!(
            spec.extensions["toolkit"]["totalTools"],
            b.service.capabilities.len()
        );
        let schemes = spec
            .components
            .as_ref()
            .map(|c| c.security_schemes.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        for c in &b.service.capabilities {
            let op = spec
                .operation_by_id(&c.id)
                .unwrap_or_else(|| panic!("{at}: no operation `{}`", c.id));
            let found: Vec<_> = spec
                .operations()
                .filter(|(p, m, _)| *p == c.path.braces() && m.as_str() == c.method.as_str())
                .map(|(_, _, o)| o.operation_id.clone())
                .collect();
            assert_eq!(
                found,
                std::slice::from_ref(&op.operation_id),
                "{at}: {}",
                c.id
            );
            assert_eq!(op.summary.as_deref(), Some(c.description.as_str()));
            assert_eq!(op.tags, c.tags);
            assert_eq!(
                op.deprecated.unwrap_or(false),
                c.deprecated,
                "{at}: {}",
                c.id
            );
            assert_eq!(
                op.extensions["requires-confirmation"], c.confirm,
                "{at}: {}",
                c.id
            );
            let limited = c.rate_limit.is_some()
                || b.service
                    .rate_limits
                    .is_some_and(|r| r.requests_per_minute.is_some());
            assert_eq!(op.extensions["rate-limited"], limited, "{at}: {}", c.id);
            if let Some(host) = &c.host {
                assert_eq!(op.servers[0].url, host.as_str());
            }

            let params = op.parameters(&spec).expect("parameters resolve");
            for p in c.params.iter().filter(|p| p.location != ParamIn::Body) {
                let q = params
                    .iter()
                    .find(|q| q.name == p.name)
                    .unwrap_or_else(|| panic!("{at}: {}: parameter {} is lost", c.id, p.name));
                let location = match p.location {
                    ParamIn::Path => ParameterIn::Path,
                    ParamIn::Query => ParameterIn::Query,
                    ParamIn::Header => ParameterIn::Header,
                    ParamIn::Body => unreachable!(),
                };
                assert_eq!(q.location, location, "{at}: {}.{}", c.id, p.name);
                assert_eq!(q.required, Some(p.required), "{at}: {}.{}", c.id, p.name);
                let raw_schema = raw_param(operation(&raw, c), &p.name)["schema"].clone();
                assert_eq!(raw_schema["type"], p.kind.as_str());
                if !p.allowed.is_empty() {
                    assert_eq!(raw_schema["enum"], json!(p.allowed));
                }
                if let Some(d) = &p.default {
                    assert_eq!(&raw_schema["default"], d);
                }
            }
            assert_eq!(
                params.len(),
                c.params
                    .iter()
                    .filter(|p| p.location != ParamIn::Body)
                    .count()
            );
            let body: Vec<_> = c
                .params
                .iter()
                .filter(|p| p.location == ParamIn::Body)
                .collect();
            match op.request_body(&spec).expect("request body resolves") {
                Some(rb) => {
                    let (_, media) = rb.content.iter().next().expect("one media type");
                    let Some(ObjectOrReference::Object(schema)) = &media.schema else {
                        panic!("{at}: {}: the body has no inline schema", c.id)
                    };
                    let names: Vec<&String> = schema.properties.keys().collect();
                    for p in &body {
                        assert!(
                            names.contains(&&p.name),
                            "{at}: {}: body {} lost",
                            c.id,
                            p.name
                        );
                    }
                    let required: Vec<&str> = body
                        .iter()
                        .filter(|p| p.required)
                        .map(|p| p.name.as_str())
                        .collect();
                    assert_eq!(schema.required, required, "{at}: {}", c.id);
                }
                None => assert!(body.is_empty(), "{at}: {}: body parameters lost", c.id),
            }

            let responses = op.responses(&spec);
            assert!(!responses.is_empty());
            for (status, r) in &responses {
                assert!(
                    r.description.as_deref().is_some_and(|d| !d.is_empty()),
                    "{at}: {status}"
                );
            }
            for e in &c.errors {
                let key = e.status.map_or("default".to_string(), |s| s.to_string());
                let d = responses[&key].description.clone().unwrap_or_default();
                assert!(d.contains(&format!("`{}`", e.name)), "{at}: {}: {d}", c.id);
            }

            // security: `[]` opts out, absent inherits the document's, a list names scopes.
            let security = operation(&raw, c).get("security");
            match (&b.service.auth, c.access) {
                (None | Some(Auth::None { .. }), _) => assert!(security.is_none()),
                (_, Access::Public) => assert_eq!(security, Some(&json!([]))),
                (_, Access::Protected) => assert!(security.is_none()),
                (_, Access::UserRequired) => {
                    assert_eq!(op.security.len(), schemes.len(), "{at}: {}", c.id);
                    for req in &op.security {
                        for scopes in req.0.values() {
                            assert_eq!(scopes, &c.scopes, "{at}: {}", c.id);
                        }
                    }
                }
            }
        }
        match &b.service.auth {
            None | Some(Auth::None { .. }) => {
                assert!(schemes.is_empty() && spec.security.is_empty())
            }
            Some(_) => {
                assert_eq!(schemes.len(), 1, "{at}");
                assert_eq!(spec.security.len(), 1, "{at}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} sources checked");
}

fn raw_param<'a>(op: &'a Value, name: &str) -> &'a Value {
    op["parameters"]
        .as_array()
        .and_then(|l| l.iter().find(|p| p["name"] == name))
        .unwrap_or_else(|| panic!("no parameter {name}"))
}

#[test]
fn security_schemes_follow_the_auth_model() {
    let scheme = |text: &str| {
        let b = build(text);
        let (spec, _) = parse(&b);
        let c = spec.components.expect("components");
        let (name, s) = c.security_schemes.into_iter().next().expect("one scheme");
        match s {
            ObjectOrReference::Object(s) => (name, s),
            ObjectOrReference::Ref { .. } => panic!("a $ref"),
        }
    };
    let (name, s) = scheme(&example("exampleshop"));
    assert_eq!(name, "apiKey");
    assert!(
        matches!(s, SecurityScheme::ApiKey { ref name, ref location, .. } if name == "X-API-Key" && location == "header")
    );
    let (name, s) = scheme(&fixture("rfc002-cloudflare-bearer"));
    assert_eq!(name, "bearerAuth");
    assert!(matches!(s, SecurityScheme::Http { ref scheme, .. } if scheme == "bearer"));
    let (name, s) = scheme(&fixture("rfc002-signed-generic"));
    assert_eq!(name, "signedKey");
    let SecurityScheme::ApiKey {
        name, description, ..
    } = s
    else {
        panic!("{s:?}")
    };
    assert_eq!(name, "X-IA-Key");
    assert!(description.unwrap().contains("sha512"));
    let (name, s) = scheme(&fixture("rfc002-netlify-oauth"));
    assert_eq!(name, "oauth2");
    let SecurityScheme::OAuth2 { flows, .. } = s else {
        panic!("{s:?}")
    };
    let code = flows.authorization_code.expect("authorizationCode flow");
    assert_eq!(
        code.authorization_url.as_str(),
        "https://ledgerdesk.example/oauth/authorize"
    );
    assert_eq!(
        code.token_url.as_str(),
        "https://ledgerdesk.example/oauth/token"
    );
    assert_eq!(
        code.scopes.keys().collect::<Vec<_>>(),
        ["invoices:read", "invoices:write"]
    );
    let b = build(&example("worldweather"));
    assert!(parse(&b).1.get("components").is_none());
}

#[test]
fn responses_carry_schemas_examples_and_named_errors() {
    let (_, raw) = parse(&build(&example("exampleshop")));
    let ok = &raw["paths"]["/api/ai/products/search"]["get"]["responses"]["200"];
    let schema = &ok["content"]["application/json"]["schema"];
    assert_eq!(schema["properties"]["products"]["type"], "array");
    assert!(schema["properties"]["products"]["items"]["properties"]["price_usd"].is_object());
    assert!(ok["description"].as_str().unwrap().contains("products[]"));

    let (_, raw) = parse(&build(&fixture("rfc002-netlify-oauth")));
    let create = &raw["paths"]["/customers/{customer_id}/invoices"]["post"];
    let r = &create["responses"];
    assert_eq!(
        r.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["201", "404", "422"]
    );
    assert_eq!(
        r["201"]["content"]["application/json"]["schema"]["required"],
        json!(["id"])
    );
    assert_eq!(
        r["201"]["content"]["application/json"]["example"],
        json!({"id": "inv_1", "number": 7})
    );
    assert_eq!(
        r["422"]["description"],
        "`invalid_total`; `invalid_currency`: not an ISO 4217 code"
    );
    let body = &create["requestBody"]["content"]["application/json"];
    assert_eq!(body["example"], json!({"total": 1500.5, "currency": "ARS"}));
    assert_eq!(
        body["schema"]["properties"]["currency"]["pattern"],
        "^[A-Z]{3}$"
    );
    assert_eq!(
        body["schema"]["properties"]["lines"]["items"],
        json!({"type": "object"})
    );
    assert_eq!(create["requestBody"]["required"], true);
    assert_eq!(create["x-rate-limited"], true);
    let void = &raw["paths"]["/invoices/{invoice_id}"]["delete"];
    assert_eq!(
        void["responses"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["200", "409", "default"]
    );
    assert_eq!(void["x-requires-confirmation"], true);
    assert_eq!(void["security"], json!([{"oauth2": ["invoices:write"]}]));
    let list = &raw["paths"]["/customers/{customer_id}/invoices"]["get"];
    let header = raw_param(list, "X-Request-Id");
    assert_eq!(header["in"], "header");
    assert_eq!(header["example"], "req-42");
    let limit = raw_param(list, "limit");
    assert_eq!(
        limit["schema"],
        json!({"type": "integer", "default": 20, "minimum": 1, "maximum": 100})
    );
    let status = &raw["paths"]["/status"]["get"];
    assert_eq!(status["deprecated"], true);
    assert_eq!(status["security"], json!([]));
    // Free prose in `returns` is kept as words, not turned into a schema.
    assert!(status["responses"]["200"].get("content").is_none());
    assert_eq!(
        status["responses"]["200"]["description"],
        "Success. Returns the current status"
    );
    assert_eq!(raw["tags"], json!([{"name": "invoices"}]));
    assert_eq!(raw["info"]["contact"]["email"], "agents@ledgerdesk.example");
    assert_eq!(
        raw["info"]["termsOfService"],
        "https://ledgerdesk.example/terms"
    );
    assert_eq!(
        raw["externalDocs"]["url"],
        "https://ledgerdesk.example/docs"
    );
    assert_eq!(
        raw["servers"],
        json!([{"url": "https://api.ledgerdesk.example/v2"}])
    );
}

const TWO: &str = r#"
[service]
name = "Two"
description = "Two capabilities."
base_url = "https://two.example"

[[capabilities]]
id = "first"
description = "First"
path = "FIRST"

[[capabilities]]
id = "second"
description = "Second"
path = "SECOND"
"#;

#[test]
fn operations_openapi_cannot_hold_are_listed_apart_or_refused() {
    // Two operations on one method and path: both are listed, the second after a `#` (which
    // no request carries), with a warning at its path.
    let b = build(
        &TWO.replace("FIRST", "/items/{id}")
            .replace("SECOND", "/items/{id}"),
    );
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    let said = b
        .diags
        .iter()
        .find(|d| d.message.contains("also capability `first`"))
        .expect("a warning names the first capability");
    assert_eq!(said.field.as_deref(), Some("capabilities.1.path"));
    assert!(!said.is_error());
    let (_, raw) = parse(&b);
    assert_eq!(raw["paths"]["/items/{id}"]["get"]["operationId"], "first");
    assert_eq!(
        raw["paths"]["/items/{id}#second"]["get"]["operationId"],
        "second"
    );

    let b = build(
        &TWO.replace("FIRST", "/items/{id}")
            .replace("SECOND", "/items/{name}"),
    );
    let e = b.errors();
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].message.contains("only in parameter names"));

    // Same path, other method: one path item with two operations.
    let b = build(
        &TWO.replace("FIRST", "/items")
            .replace("SECOND", "/items")
            .replacen(
                "path = \"/items\"\n",
                "path = \"/items\"\nmethod = \"POST\"\n",
                1,
            ),
    );
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    let (_, raw) = parse(&b);
    let item = raw["paths"]["/items"].as_object().unwrap();
    assert_eq!(item.keys().collect::<Vec<_>>(), ["post", "get"]);
}

#[test]
fn reserved_header_parameters_are_left_out_with_a_warning() {
    let b = build(&TWO.replace("FIRST", "/a").replace("SECOND", "/b").replace(
        "path = \"/b\"\n",
        "path = \"/b\"\nparams = { Authorization = { type = \"string\", in = \"header\" } }\n",
    ));
    assert!(b.errors().is_empty(), "{:#?}", b.errors());
    let (_, raw) = parse(&b);
    assert!(raw["paths"]["/b"]["get"].get("parameters").is_none());
    assert_eq!(b.warnings_mentioning("OpenAPI ignores a header").len(), 1);
}

/// OpenAI's plugin tooling cuts a parameter description at 200 characters, but it reads the
/// OpenAPI document only through the plugin manifest: the warning is said where the build
/// publishes one (a logo and a contact e-mail, and the rfc002 target), and nowhere else.
#[test]
fn plugin_text_limits_are_said_only_where_the_plugin_manifest_is_published() {
    let long = "A query word. ".repeat(18);
    let text = TWO.replace("FIRST", "/a").replace("SECOND", "/b").replace(
        "path = \"/b\"\n",
        &format!(
            "path = \"/b\"\nparams = {{ q = {{ type = \"string\", description = \"{}\" }} }}\n",
            long.trim()
        ),
    );
    let with_manifest = text.replace(
        "base_url = \"https://two.example\"\n",
        "base_url = \"https://two.example\"\nlogo_url = \"https://two.example/logo.png\"\n\n[service.contact]\nemail = \"api@two.example\"\n",
    );
    let warned = |text: &str, targets: &[Target]| {
        let b = build_targets(text, targets);
        assert!(b.errors().is_empty(), "{:#?}", b.errors());
        b.warnings_mentioning("OpenAI's plugin tooling cuts parameter descriptions")
            .len()
    };
    assert_eq!(
        warned(&with_manifest, &[Target::OpenApi, Target::AiPlugin]),
        1
    );
    assert!(
        build_targets(&with_manifest, &[Target::AiPlugin])
            .artifact("/.well-known/ai-plugin.json")
            .is_some()
    );
    // No manifest: no logo or e-mail, or no ai-plugin target (opt-in: RFC-002 alone has none).
    assert_eq!(warned(&text, &[Target::OpenApi, Target::AiPlugin]), 0);
    assert_eq!(warned(&with_manifest, &[Target::OpenApi]), 0);
    assert_eq!(
        warned(&with_manifest, &[Target::OpenApi, Target::Rfc002]),
        0
    );
}
