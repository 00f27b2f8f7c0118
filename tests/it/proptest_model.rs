//! Property tests: any service.toml built from the strategies below (names, descriptions, ids,
//! methods, paths with parameters, parameters of every type in both forms, every auth kind)
//! lowers, passes every check and emits a `/.well-known/ai` valid against the draft's schema;
//! and importing the OpenAPI document it emits gives back the same capabilities.
//!
//! "The same" after build → import → build means: the same ids in the same order, the same
//! methods, the same endpoints (path templates with `{name}` placeholders) and the same
//! parameter names. Descriptions, parameter types and constraints pass through OpenAPI's
//! richer vocabulary and are allowed to be re-worded (e.g. a compact param string is rebuilt
//! from the schema), so they are not compared.

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::Value;
use wellgen::diag::Diagnostics;
use wellgen::emit::{self, Target};
use wellgen::source::{self, openapi};
use wellgen::{check, model};

/// Nouns only: AGIS derives its verb from the id's first word, and an id such as
/// `forecast_1` makes it derive FORECAST and then fail its own path rule (a finding reported
/// to the AGIS back end, not what these properties test).
const NOUNS: [&str; 10] = [
    "book", "author", "invoice", "city", "product", "shelf", "planet", "garden", "river", "lamp",
];
const WORDS: [&str; 16] = [
    "shared",
    "public",
    "catalogue",
    "records",
    "for",
    "small",
    "teams",
    "with",
    "daily",
    "history",
    "and",
    "regional",
    "data",
    "about",
    "local",
    "prices",
];
const TYPES: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Auth {
    None,
    ApiKey,
    Bearer,
    OAuth2,
    Signed,
}

#[derive(Debug, Clone)]
struct Param {
    type_: usize,
    required: bool,
    table: bool,
    described: bool,
}

#[derive(Debug, Clone)]
struct Capability {
    noun: usize,
    method: usize,
    path_param: bool,
    colon_style: bool,
    params: Vec<Param>,
    returns: bool,
}

#[derive(Debug, Clone)]
struct Service {
    name: String,
    words: Vec<usize>,
    auth: Auth,
    capabilities: Vec<Capability>,
}

fn words(n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..WORDS.len(), n)
}

fn param() -> impl Strategy<Value = Param> {
    (0..TYPES.len(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(type_, required, table, described)| Param {
            type_,
            required,
            table,
            described,
        },
    )
}

fn capability() -> impl Strategy<Value = Capability> {
    (
        0..NOUNS.len(),
        0..5usize,
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(param(), 0..5),
        any::<bool>(),
    )
        .prop_map(
            |(noun, method, path_param, colon_style, params, returns)| Capability {
                noun,
                method,
                path_param,
                colon_style,
                params,
                returns,
            },
        )
}

fn service() -> impl Strategy<Value = Service> {
    (
        "[A-Z][a-z]{3,10}( [A-Z][a-z]{2,8})?",
        words(3..10),
        prop_oneof![
            Just(Auth::None),
            Just(Auth::ApiKey),
            Just(Auth::Bearer),
            Just(Auth::OAuth2),
            Just(Auth::Signed)
        ],
        prop::collection::vec(capability(), 1..6),
    )
        .prop_map(|(name, words, auth, capabilities)| Service {
            name,
            words,
            auth,
            capabilities,
        })
}

const PARTS: [&str; 6] = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const INTENTS: [&str; 5] = ["Get", "Create", "Replace", "Update", "Delete"];

fn sentence(words: &[usize]) -> String {
    words
        .iter()
        .map(|&w| WORDS[w])
        .collect::<Vec<_>>()
        .join(" ")
}

/// The service.toml text of a generated service.
fn render(s: &Service) -> String {
    let mut t = format!(
        "[service]\nname = \"{}\"\ndescription = \"Records of {}.\"\nbase_url = \"https://api.example.com\"\n\n",
        s.name,
        sentence(&s.words)
    );
    t.push_str(match s.auth {
        Auth::None => "[auth]\ntype = \"none\"\n",
        Auth::ApiKey => "[auth]\ntype = \"api_key\"\nheader = \"X-API-Key\"\n",
        Auth::Bearer => "[auth]\ntype = \"bearer\"\ntoken_url = \"https://api.example.com/token\"\n",
        Auth::OAuth2 => {
            "[auth]\ntype = \"oauth2\"\nauthorization_url = \"https://api.example.com/authorize\"\n\
             token_url = \"https://api.example.com/token\"\nscopes = { \"records:read\" = \"Read records\" }\n"
        }
        Auth::Signed => {
            "[auth]\ntype = \"signed_key\"\nkey_url = \"https://api.example.com/keys\"\n"
        }
    });
    for (i, c) in s.capabilities.iter().enumerate() {
        // Writes need authentication: an open service only reads.
        let method = if s.auth == Auth::None { 0 } else { c.method };
        let noun = NOUNS[c.noun];
        // Distinct words, not numbers: AGIS drops numeric segments, and two capabilities that
        // then share a method and path get an id-derived segment its own rules reject (another
        // finding for the AGIS back end).
        let part = PARTS[i];
        let mut path = format!("/api/{noun}s/{part}");
        if c.path_param {
            path.push_str(&if c.colon_style {
                format!("/:{noun}_id")
            } else {
                format!("/{{{noun}_id}}")
            });
        }
        t.push_str(&format!(
            "\n[[capabilities]]\nid = \"{noun}_{part}\"\ndescription = \"{} a {noun} from the {}\"\nmethod = \"{}\"\npath = \"{path}\"\n",
            INTENTS[method],
            sentence(&s.words[..2]),
            METHODS[method],
        ));
        if c.returns {
            t.push_str(&format!("returns = \"{noun} {{id, name}}\"\n"));
        }
        if s.auth == Auth::OAuth2 {
            t.push_str("scopes = [\"records:read\"]\n");
        }
        if c.params.is_empty() && !c.path_param {
            continue;
        }
        t.push_str("\n[capabilities.params]\n");
        if c.path_param {
            t.push_str(&format!("{noun}_id = \"string, required -- the {noun}\"\n"));
        }
        for (j, p) in c.params.iter().enumerate() {
            let ty = TYPES[p.type_];
            let req = if p.required { "required" } else { "optional" };
            let name = format!("{ty}_{j}");
            if p.table {
                let mut fields = format!("type = \"{ty}\", required = {}", p.required);
                if p.described {
                    fields.push_str(&format!(", description = \"the {ty}\""));
                }
                if ty == "array" {
                    fields.push_str(", items = \"string\"");
                }
                t.push_str(&format!("{name} = {{ {fields} }}\n"));
            } else if p.described {
                t.push_str(&format!("{name} = \"{ty}, {req} -- the {ty}\"\n"));
            } else {
                t.push_str(&format!("{name} = \"{ty}, {req}\"\n"));
            }
        }
    }
    t
}

/// Lowers, checks and emits; every error diagnostic fails the property.
fn build(raw: wellgen::source::service_toml::ServiceToml) -> Result<Vec<emit::Artifact>, String> {
    let mut diags = Diagnostics::default();
    let service = model::lower(raw, &mut diags);
    let artifacts = service.map(|service| {
        check::run(&service, &check::Policy::default(), &mut diags);
        emit::emit_all(&service, &Target::ALL, &mut diags)
    });
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.field.clone().unwrap_or_default(), d.message))
        .collect();
    match artifacts {
        Some(a) if errors.is_empty() => Ok(a),
        _ => Err(errors.join("\n")),
    }
}

fn document(artifacts: &[emit::Artifact], path: &str) -> Value {
    let a = artifacts
        .iter()
        .find(|a| a.path == path)
        .unwrap_or_else(|| panic!("{path} is emitted"));
    serde_json::from_slice(&a.body).unwrap()
}

/// What must survive build → import → build, per capability.
fn shape(ai: &Value) -> Vec<(String, String, String, BTreeSet<String>)> {
    ai["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let endpoint = c["endpoint"].as_str().unwrap();
            // aiendpoint keeps the author's `:name`; OpenAPI only knows `{name}`.
            let endpoint = endpoint
                .split('/')
                .map(|seg| match seg.strip_prefix(':') {
                    Some(name) => format!("{{{name}}}"),
                    None => seg.to_string(),
                })
                .collect::<Vec<_>>()
                .join("/");
            let params = c["params"]
                .as_object()
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default();
            (
                c["id"].as_str().unwrap().to_string(),
                c["method"].as_str().unwrap().to_string(),
                endpoint,
                params,
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_generated_service_builds_clean_and_survives_an_openapi_round_trip(s in service()) {
        let text = render(&s);
        let raw = source::parse_service_toml(&text).map_err(|d| TestCaseError::fail(format!("{}\n{text}", d.message)))?;
        let artifacts = build(raw).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;

        let ai = document(&artifacts, "/.well-known/ai");
        let validator = crate::common::schema_validator("aiendpoint/schema.json");
        let errors = crate::common::schema_errors(&validator, &ai);
        prop_assert!(errors.is_empty(), "{errors:?}\n{text}");

        let oas = artifacts.iter().find(|a| a.path == "/openapi.json").unwrap();
        let mut diags = Diagnostics::default();
        let imported = openapi::import_text(None, std::str::from_utf8(&oas.body).unwrap(), &openapi::Options::default(), &mut diags);
        let imported = imported.ok_or_else(|| TestCaseError::fail(format!("import failed: {:?}", diags.iter().map(|d| &d.message).collect::<Vec<_>>())))?;
        let raw = openapi::finish(imported, &mut diags);
        let again = build(raw).map_err(|e| TestCaseError::fail(format!("rebuild: {e}\n{text}")))?;
        let ai_again = document(&again, "/.well-known/ai");
        prop_assert_eq!(shape(&ai), shape(&ai_again), "{}", text);
    }
}
