//! /.well-known/agent-card.json on every example and fixture: checked against the A2A 1.0.1
//! proto itself (field names, types, `REQUIRED` fields and `oneof`s, read from a2a.proto), then
//! against the mapping rules from service.toml.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::*;
use regex::Regex;
use serde_json::{Value, json};
use wellgen::diag::Diagnostics;
use wellgen::emit::{Artifact, Target};
use wellgen::model::{Auth, Service};

const PATH: &str = "/.well-known/agent-card.json";
const LEGACY: &str = "/.well-known/agent.json";

fn load(source: &std::path::Path) -> (Service, Vec<Artifact>, Diagnostics) {
    let mut diags = Diagnostics::default();
    let service = wellgen::pipeline::load(source, &mut diags)
        .unwrap_or_else(|| panic!("{} lowers: {diags:?}", source.display()));
    let artifacts = Target::A2a.emit(&service, &mut diags);
    assert!(!diags.has_errors(), "{}: {diags:?}", source.display());
    (service, artifacts, diags)
}

fn fixture(name: &str) -> std::path::PathBuf {
    root()
        .join("tests/fixtures")
        .join(name)
        .join("service.toml")
}

fn card_of(artifacts: &[Artifact]) -> Value {
    let a = artifacts.iter().find(|a| a.path == PATH).expect("the card");
    serde_json::from_slice(&a.body).unwrap()
}

// ---- a2a.proto, read by hand -------------------------------------------------------------

#[derive(Debug)]
struct Field {
    json: String,
    ty: String,
    repeated: bool,
    /// The value type of a `map<string, V>`.
    map_value: Option<String>,
    required: bool,
    oneof: Option<String>,
}

#[derive(Debug, Default)]
struct Proto {
    messages: BTreeMap<String, Vec<Field>>,
    enums: BTreeSet<String>,
}

enum Block {
    Message(String),
    Oneof(String),
    Other,
}

/// ProtoJSON's default field name: `snake_case` → `lowerCamelCase`.
fn json_name(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Messages with their fields, `REQUIRED` field behaviour and `oneof` groups; enum names.
/// Enough of proto3 for a2a.proto: one declaration per line, no nested messages.
fn parse_proto(text: &str) -> Proto {
    let field = Regex::new(
        r"^(optional\s+|repeated\s+)?(map<\s*\w+\s*,\s*([\w.]+)\s*>|[\w.]+)\s+(\w+)\s*=\s*\d+\s*(\[.*\])?\s*;$",
    )
    .unwrap();
    let mut proto = Proto::default();
    let mut stack: Vec<Block> = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap().trim();
        if code.is_empty() {
            continue;
        }
        if code.ends_with('{') {
            let mut words = code.split_whitespace();
            let block = match (words.next(), words.next()) {
                (Some("message"), Some(name)) => {
                    proto.messages.insert(name.to_string(), Vec::new());
                    Block::Message(name.to_string())
                }
                (Some("oneof"), Some(name)) => Block::Oneof(name.to_string()),
                (Some("enum"), Some(name)) => {
                    proto.enums.insert(name.to_string());
                    Block::Other
                }
                _ => Block::Other,
            };
            stack.push(block);
            continue;
        }
        if code.starts_with('}') {
            stack.pop();
            continue;
        }
        let (message, oneof) = match stack.as_slice() {
            [Block::Message(m)] => (m.clone(), None),
            [Block::Message(m), Block::Oneof(o)] => (m.clone(), Some(o.clone())),
            _ => continue,
        };
        // `option x = …;` statements, not `optional` fields.
        if code.starts_with("reserved ") || code.starts_with("option ") {
            continue;
        }
        let c = field
            .captures(code)
            .unwrap_or_else(|| panic!("a2a.proto field line not understood: {code}"));
        let map_value = c.get(3).map(|m| m.as_str().to_string());
        proto.messages.get_mut(&message).unwrap().push(Field {
            json: json_name(&c[4]),
            ty: c[2].to_string(),
            repeated: c.get(1).is_some_and(|m| m.as_str().trim() == "repeated"),
            map_value,
            required: c
                .get(5)
                .is_some_and(|o| o.as_str().contains("field_behavior) = REQUIRED")),
            oneof,
        });
    }
    proto
}

fn proto() -> Proto {
    let text = std::fs::read_to_string(root().join("tests/schemas/a2a/a2a.proto")).unwrap();
    parse_proto(&text)
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Null => true,
        _ => false,
    }
}

/// Every problem of `value` read as `message`: unknown keys, missing or empty `REQUIRED` fields
/// (AIP-203: required means set and not empty), wrong JSON types, and `oneof`s with more than
/// one member set (or none, where the message is nothing but the `oneof`).
fn check_message(p: &Proto, message: &str, value: &Value, at: &str, errors: &mut Vec<String>) {
    let Some(obj) = value.as_object() else {
        errors.push(format!("{at}: a {message} must be a JSON object"));
        return;
    };
    let fields = &p.messages[message];
    for key in obj.keys() {
        if !fields.iter().any(|f| &f.json == key) {
            errors.push(format!("{at}.{key}: not a field of {message}"));
        }
    }
    let mut oneofs: BTreeMap<&str, usize> = BTreeMap::new();
    for f in fields {
        if let Some(o) = &f.oneof {
            *oneofs.entry(o).or_default() += usize::from(obj.contains_key(&f.json));
        }
        match obj.get(&f.json) {
            None if f.required => errors.push(format!("{at}.{}: REQUIRED, missing", f.json)),
            Some(v) if f.required && is_empty(v) => {
                errors.push(format!("{at}.{}: REQUIRED, empty", f.json))
            }
            Some(v) => check_field(p, f, v, &format!("{at}.{}", f.json), errors),
            None => {}
        }
    }
    let only_oneof = fields.iter().all(|f| f.oneof.is_some());
    for (name, set) in oneofs {
        if set > 1 || (only_oneof && set == 0) {
            errors.push(format!("{at}: oneof `{name}` has {set} members set"));
        }
    }
}

fn check_field(p: &Proto, f: &Field, v: &Value, at: &str, errors: &mut Vec<String>) {
    if let Some(value_type) = &f.map_value {
        match v.as_object() {
            Some(map) => {
                for (k, item) in map {
                    check_type(p, value_type, item, &format!("{at}.{k}"), errors);
                }
            }
            None => errors.push(format!("{at}: a map must be a JSON object")),
        }
    } else if f.repeated {
        match v.as_array() {
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    check_type(p, &f.ty, item, &format!("{at}.{i}"), errors);
                }
            }
            None => errors.push(format!("{at}: a repeated field must be a JSON array")),
        }
    } else {
        check_type(p, &f.ty, v, at, errors);
    }
}

fn check_type(p: &Proto, ty: &str, v: &Value, at: &str, errors: &mut Vec<String>) {
    let ok = match ty {
        "string" | "google.protobuf.Timestamp" => v.is_string(),
        "bool" => v.is_boolean(),
        "int32" | "int64" => v.is_i64() || v.is_u64(),
        "google.protobuf.Struct" => v.is_object(),
        t if p.enums.contains(t) => v.is_string(),
        t if p.messages.contains_key(t) => {
            check_message(p, t, v, at, errors);
            true
        }
        t => {
            errors.push(format!("{at}: type `{t}` is not known to this check"));
            true
        }
    };
    if !ok {
        errors.push(format!("{at}: not a JSON value of type {ty}"));
    }
}

fn card_errors(card: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    check_message(&proto(), "AgentCard", card, "card", &mut errors);
    errors
}

// ---- the check itself is checked -----------------------------------------------------------

#[test]
fn the_proto_reader_sees_the_agent_cards_required_fields() {
    let p = proto();
    let required = |m: &str| -> Vec<String> {
        p.messages[m]
            .iter()
            .filter(|f| f.required)
            .map(|f| f.json.clone())
            .collect()
    };
    // a2a.proto v1.0.1 lines 361-398 (AgentCard), 336-355 (AgentInterface), 435-444 (AgentSkill).
    assert_eq!(
        required("AgentCard"),
        [
            "name",
            "description",
            "supportedInterfaces",
            "version",
            "capabilities",
            "defaultInputModes",
            "defaultOutputModes",
            "skills"
        ]
    );
    assert_eq!(
        required("AgentInterface"),
        ["url", "protocolBinding", "protocolVersion"]
    );
    assert_eq!(
        required("AgentSkill"),
        ["id", "name", "description", "tags"]
    );
    assert_eq!(required("AgentProvider"), ["url", "organization"]);
    let scheme: Vec<&str> = p.messages["SecurityScheme"]
        .iter()
        .map(|f| f.json.as_str())
        .collect();
    assert!(scheme.contains(&"oauth2SecurityScheme"), "{scheme:?}");
    assert!(scheme.contains(&"apiKeySecurityScheme"), "{scheme:?}");
    assert!(p.enums.contains("TaskState"));
}

#[test]
fn the_check_catches_broken_cards_and_the_specs_own_legacy_key() {
    // The spec's §8.5 sample still writes `security`, the pre-1.0 name of `securityRequirements`.
    let sample = read_json(&root().join("tests/schemas/a2a/sample-agent-card.extracted.json"));
    assert_eq!(
        card_errors(&sample),
        ["card.security: not a field of AgentCard"]
    );

    let mut card = sample.clone();
    let obj = card.as_object_mut().unwrap();
    obj.remove("security");
    assert!(card_errors(&card).is_empty(), "{:?}", card_errors(&card));

    let obj = card.as_object_mut().unwrap();
    obj.remove("version");
    obj["skills"][0]["tags"] = json!([]);
    obj["securitySchemes"]["google"]["apiKeySecurityScheme"] =
        json!({"location": "header", "name": "X-Key"});
    obj["capabilities"]["streaming"] = json!("yes");
    obj["supportedInterfaces"][0]["transport"] = json!("JSONRPC");
    let errors = card_errors(&card);
    for expected in [
        "card.version: REQUIRED, missing",
        "card.skills.0.tags: REQUIRED, empty",
        "card.securitySchemes.google: oneof `scheme` has 2 members set",
        "card.capabilities.streaming: not a JSON value of type bool",
        "card.supportedInterfaces.0.transport: not a field of AgentInterface",
    ] {
        assert!(
            errors.iter().any(|e| e == expected),
            "{expected} in {errors:#?}"
        );
    }
    assert_eq!(errors.len(), 5, "{errors:#?}");
}

// ---- every generated card -----------------------------------------------------------------

fn is_https(v: &Value) -> bool {
    v.as_str().is_some_and(|s| s.starts_with("https://"))
}

#[test]
fn every_card_meets_the_proto_and_the_mapping_rules() {
    for source in sources() {
        let (service, artifacts, _) = load(&source);
        let name = source.display();
        let artifact = artifacts.iter().find(|a| a.path == PATH).unwrap();
        let serving = artifact.serving.as_ref().unwrap();
        assert!(
            serving.content_type.starts_with("application/json"),
            "{name}"
        );
        assert_eq!(serving.cache_control, "public, max-age=3600", "{name}");
        assert!(
            artifact.body.ends_with(b"}\n"),
            "{name}: one trailing newline"
        );

        let card = card_of(&artifacts);
        // A2A 0.3's top-level `url`, kept for 0.3 clients and the Agent-Adoption
        // Specification's check (A2A 1.0.1 §5.7: unrecognized fields are ignored); the rest
        // is an A2A 1.0 AgentCard.
        assert_eq!(card["url"], service.base_url.as_str(), "{name}");
        let mut v1 = card.clone();
        v1.as_object_mut().unwrap().remove("url");
        let errors = card_errors(&v1);
        assert!(errors.is_empty(), "{name}: {errors:#?}");

        assert_eq!(card["name"], service.name.as_str(), "{name}");
        assert_eq!(card["description"], service.description.as_str(), "{name}");
        assert_eq!(card["version"], service.version.as_str(), "{name}");
        assert_eq!(
            card["supportedInterfaces"],
            json!([{"url": service.base_url.as_str(), "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}]),
            "{name}"
        );
        assert_eq!(card["defaultInputModes"], json!(["application/json"]));
        assert_eq!(card["defaultOutputModes"], json!(["application/json"]));
        assert_eq!(card["capabilities"]["streaming"], false, "{name}");
        assert_eq!(
            card["capabilities"]["pushNotifications"],
            !service.webhooks.is_empty(),
            "{name}"
        );
        assert_eq!(
            card.get("documentationUrl").and_then(Value::as_str),
            service.links.docs.as_deref()
        );
        assert_eq!(
            card.get("iconUrl").and_then(Value::as_str),
            service.links.logo.as_deref()
        );
        // The provider is there exactly when something names the organisation.
        let named = service.contact.name.is_some()
            || service
                .rfc002
                .issuer
                .as_ref()
                .is_some_and(|i| i.operator_name.is_some());
        assert_eq!(card.get("provider").is_some(), named, "{name}");
        if named {
            assert!(is_https(&card["provider"]["url"]), "{name}");
        }

        // One skill per capability, in order, with a readable name and never-empty tags that
        // carry the capability's and the service's tags.
        let skills = card["skills"].as_array().unwrap();
        assert_eq!(skills.len(), service.capabilities.len(), "{name}");
        for (skill, c) in skills.iter().zip(&service.capabilities) {
            assert_eq!(skill["id"], c.id.as_str());
            let title = skill["name"].as_str().unwrap();
            assert!(
                !title.contains('_') && title.starts_with(char::is_uppercase),
                "{title}"
            );
            assert_eq!(title.to_lowercase().replace(' ', "_"), c.id);
            assert_eq!(skill["description"], c.long_text(&c.description).as_ref());
            let tags: Vec<&str> = skill["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            assert!(!tags.is_empty(), "{name}: {}", c.id);
            let unique: BTreeSet<&&str> = tags.iter().collect();
            assert_eq!(unique.len(), tags.len(), "{name}: duplicate tags {tags:?}");
            for t in c.tags.iter().chain(&service.tags) {
                assert!(tags.contains(&t.as_str()), "{name}: {} lacks tag {t}", c.id);
            }
            // A skill names its own requirement exactly when the capability needs scopes.
            assert_eq!(
                skill.get("securityRequirements").is_some(),
                !c.scopes.is_empty(),
                "{name}: {}",
                c.id
            );
        }

        check_security(&service, &card, &name.to_string());

        // The legacy alias: a byte copy, only when asked for; never the ADP path.
        let legacy = artifacts.iter().find(|a| a.path == LEGACY);
        assert_eq!(legacy.is_some(), service.a2a.legacy_alias, "{name}");
        if let Some(legacy) = legacy {
            assert_eq!(legacy.body, artifact.body, "{name}");
        }
        assert!(artifacts.iter().all(|a| a.path != "/.well-known/agent"));
    }
}

/// Requirements name declared schemes; OAuth scopes are the flow's own; apiKey/HTTP schemes
/// take no scopes; the schemes mirror the auth model.
fn check_security(service: &Service, card: &Value, name: &str) {
    let schemes = card
        .get("securitySchemes")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut requirements: Vec<&Value> = card
        .get("securityRequirements")
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    for skill in card["skills"].as_array().unwrap() {
        if let Some(r) = skill.get("securityRequirements").and_then(Value::as_array) {
            requirements.extend(r);
        }
    }
    for r in requirements {
        for (scheme, scopes) in r["schemes"].as_object().unwrap() {
            let declared = schemes
                .get(scheme)
                .unwrap_or_else(|| panic!("{name}: requirement names undeclared `{scheme}`"));
            let scopes: Vec<&str> = scopes["list"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect();
            match declared.get("oauth2SecurityScheme") {
                Some(oauth) => {
                    let flow = oauth["flows"].as_object().unwrap().values().next().unwrap();
                    for s in scopes {
                        assert!(flow["scopes"].get(s).is_some(), "{name}: scope {s}");
                    }
                }
                None => assert!(scopes.is_empty(), "{name}: scopes on a non-OAuth scheme"),
            }
        }
    }
    let kinds: Vec<&str> = schemes
        .values()
        .map(|s| s.as_object().unwrap().keys().next().unwrap().as_str())
        .collect();
    match &service.auth {
        None | Some(Auth::None { .. }) => {
            assert!(
                schemes.is_empty() && card.get("securityRequirements").is_none(),
                "{name}"
            )
        }
        Some(Auth::ApiKey { name: header, .. }) => {
            assert_eq!(kinds, ["apiKeySecurityScheme"], "{name}");
            let s = &schemes["api_key"]["apiKeySecurityScheme"];
            assert_eq!(
                (s["location"].as_str(), s["name"].as_str()),
                (Some("header"), Some(header.as_str()))
            );
        }
        Some(Auth::Bearer { .. }) => {
            assert_eq!(
                schemes["bearer"]["httpAuthSecurityScheme"]["scheme"], "Bearer",
                "{name}"
            )
        }
        Some(Auth::OAuth2 { grant_types, .. }) => {
            assert!(kinds.iter().all(|k| *k == "oauth2SecurityScheme"), "{name}");
            let client = grant_types.iter().any(|g| g == "client_credentials");
            assert_eq!(
                schemes.contains_key("oauth2_client_credentials"),
                client,
                "{name}"
            );
        }
        Some(Auth::SignedKey { header_prefix, .. }) => {
            assert_eq!(
                schemes["signed_key"]["apiKeySecurityScheme"]["name"],
                format!("{header_prefix}Key"),
                "{name}"
            );
        }
        // The further kinds are checked scheme by scheme in auth_schemes.rs.
        Some(_) => {}
    }
    if !schemes.is_empty() {
        assert_eq!(
            card["securityRequirements"].as_array().unwrap().len(),
            schemes.len(),
            "{name}: one alternative per scheme"
        );
    }
}

// ---- the fixtures' particular cases -------------------------------------------------------

#[test]
fn oauth_with_two_grants_declares_two_schemes_and_scoped_skills() {
    let (_, artifacts, _) = load(&fixture("beyond-oauth-grants"));
    let card = card_of(&artifacts);
    let code = &card["securitySchemes"]["oauth2"]["oauth2SecurityScheme"]["flows"];
    assert_eq!(
        code["authorizationCode"]["authorizationUrl"],
        "https://auth.ledger.example/authorize"
    );
    assert_eq!(code["authorizationCode"]["pkceRequired"], false);
    let client =
        &card["securitySchemes"]["oauth2_client_credentials"]["oauth2SecurityScheme"]["flows"];
    assert_eq!(
        client["clientCredentials"]["tokenUrl"],
        "https://auth.ledger.example/token"
    );
    assert_eq!(
        card["skills"][1]["securityRequirements"],
        json!([
            {"schemes": {"oauth2": {"list": ["ledger:read", "ledger:write"]}}},
            {"schemes": {"oauth2_client_credentials": {"list": ["ledger:read", "ledger:write"]}}}
        ])
    );
    assert_eq!(
        card["provider"],
        json!({"organization": "Ledger Co", "url": "https://ledger.example"})
    );
    // No tags anywhere: the method and the first path word, not the `/api/v1` prefix.
    assert_eq!(card["skills"][0]["tags"], json!(["get", "transactions"]));
}

#[test]
fn api_key_card_has_the_alias_examples_and_merged_tags() {
    let (_, artifacts, diags) = load(&fixture("beyond-api-key"));
    assert!(diags.is_empty(), "{diags:?}");
    assert!(artifacts.iter().any(|a| a.path == LEGACY));
    let card = card_of(&artifacts);
    assert_eq!(
        card["skills"][0]["tags"],
        json!(["tracking", "parcels", "logistics"])
    );
    assert_eq!(
        card["skills"][0]["examples"],
        json!(["where is parcel", "tracking number"])
    );
    assert_eq!(
        card["skills"][1]["examples"],
        json!([r#"{"number":"PT123"}"#])
    );
    assert_eq!(card["capabilities"]["pushNotifications"], true);
    assert_eq!(card["provider"]["url"], "https://parcels.example/about");
}

#[test]
fn signed_key_and_missing_tags_are_derived_with_warnings() {
    let (_, artifacts, diags) = load(&fixture("beyond-signed-key"));
    let card = card_of(&artifacts);
    assert!(
        card.get("provider").is_none(),
        "nothing names the organisation"
    );
    assert_eq!(card["skills"][0]["tags"], json!(["post", "devices"]));
    let scheme = &card["securitySchemes"]["signed_key"]["apiKeySecurityScheme"];
    assert_eq!(scheme["name"], "X-IA-Key");
    let description = scheme["description"].as_str().unwrap();
    assert!(
        description.contains("https://relay.example/docs/signing"),
        "{description}"
    );
    let warnings: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    for expected in ["signed-request scheme", "need tags"] {
        assert!(
            warnings.iter().any(|w| w.contains(expected)),
            "{expected}: {warnings:#?}"
        );
    }
}
