//! AGIS (draft-hood-independent-agis-01): the full document in both normative serialisations,
//! JSON and YAML, and the `/.well-known/agis.json` summary (§11.1).
//!
//! The endpoints, verbs and MCP tool names are derived once in `emit::derive::agis`; `lower` reports
//! what was derived and checks the values against the eight validation passes of §9.1 (`check`),
//! so `render` writes a conforming document and cannot fail.

mod check;
pub mod document;

use crate::emit::targets::{Descriptor, Document, Fitted, Link, Relation, Target};
use serde_json::Value;
use std::sync::LazyLock;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::budget::{self, OUTPUT_LEVELS, Reshare, Step, source_budget};
use crate::emit::derive::agis::{Derived, Endpoint};
use crate::emit::derive::published::MCP_TOOLS_PATH;
use crate::emit::{Artifact, JSON, Serving, schemas, to_json_bytes, to_json_bytes_budgeted};
use crate::model::{Impact, Service};

/// The YAML serialisation (§10 recommends YAML for reading; `.agis` is the registered extension).
pub const YAML_PATH: &str = "/.well-known/agis/service.agis";
/// The JSON serialisation (§10 recommends JSON for machine-generated documents).
pub const JSON_PATH: &str = "/.well-known/agis/service.agis.json";
pub const SUMMARY_PATH: &str = "/.well-known/agis.json";
/// The draft sets no cache policy; an hour keeps agents close to a redeploy.
const CACHE: &str = "public, max-age=3600";
pub const SERVING_JSON: Serving = Serving {
    content_type: JSON,
    cache_control: CACHE,
    cors: true,
};
/// §14 registers `application/agis` for AGIS documents.
pub const SERVING_YAML: Serving = Serving {
    content_type: "application/agis",
    cache_control: CACHE,
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "agis",
    documents: &[
        Document::linked(
            SUMMARY_PATH,
            SERVING_JSON,
            Link {
                title: "AGIS summary",
                note: "the AGIS methods, vocabulary and data classes of the service",
                media_type: "application/json",
                relation: Relation::ServiceMeta,
                ai_catalog: None,
            },
        ),
        Document::at(YAML_PATH, SERVING_YAML),
        Document::at(JSON_PATH, SERVING_JSON),
    ],
    spec: "AGIS draft-hood-independent-agis-01",
    status: "superseded by draft-hood-agtp-api-00, which deprecates it",
    opt_in: None,
    // agis.json's mcp_tools_list names the MCP tools file.
    requires: &[Target::Mcp],
};

/// What the documents are written from: the shared derivation, and the document-level values
/// AGIS derives (each warned of in `lower` when derived).
pub struct Lowered<'a> {
    pub derived: &'a Derived<'a>,
    pub agtp: String,
    pub domain: String,
    /// The keys the model's named schemas take in the document's `schemas`.
    pub named: schemas::NamedKeys,
    /// A large source's documents, made by the size pass ([`fit`]), where their size against
    /// the source's budget is reported; `render` makes any other's.
    artifacts: Fitted<Vec<Artifact>>,
}

/// Every AGIS diagnostic, in the order the documents are built: what was derived per endpoint,
/// what was derived for the document, the eight passes, then SHOULD-level advice.
pub fn lower<'a>(
    service: &'a Service,
    derived: &'a Derived<'a>,
    diags: &mut Diagnostics,
) -> Lowered<'a> {
    for e in &derived.endpoints {
        derivation_warning(e, diags);
    }
    document_warnings(service, diags);
    check::passes(service, &derived.endpoints, &derived.tool_names, diags);
    advisories(&derived.endpoints, diags);
    Lowered {
        derived,
        agtp: document::agtp(service).0,
        domain: document::domain(service).0,
        named: schemas::NamedKeys::of(&service.schemas),
        artifacts: Fitted::default(),
    }
}

/// The size pass: a large source's documents, fitted to its budget (`fitted`).
pub fn fit(service: &Service, lowered: &mut Lowered, diags: &mut Diagnostics) {
    if let Some(budget) = source_budget(service) {
        let fitted = fitted(service, lowered, budget, diags);
        let artifacts = documents(service, lowered, fitted);
        lowered.artifacts.set(artifacts);
    }
}

/// Pure: the documents the size pass made, or the whole ones.
pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    lowered.artifacts.made().cloned().unwrap_or_else(|| {
        let doc = document::document(service, lowered);
        let json = to_json_bytes_budgeted(&doc, None);
        documents(service, lowered, (doc, json))
    })
}

/// The JSON and YAML documents and the summary, from the document and its JSON.
fn documents(service: &Service, lowered: &Lowered, (doc, json): (Value, Vec<u8>)) -> Vec<Artifact> {
    let site = service.site_url.origin();
    let summary = document::summary(
        service,
        &doc,
        &lowered.derived.endpoints,
        [&site.join(JSON_PATH), &site.join(MCP_TOOLS_PATH)],
    );
    // A document large enough for compact JSON is for machines (`emit::COMPACT_FROM`): its
    // `.agis` file is that same text, the draft's JSON serialisation (a `.agis` file may hold
    // either, and a JSON text without YAML's forbidden characters is also YAML 1.2 in flow
    // style), as block style's indentation would make it larger than the JSON (and than the
    // OpenAPI source) by the depth of its schemas. Compact JSON of an object starts `{"`,
    // pretty JSON `{` and a line break.
    let json: std::sync::Arc<Vec<u8>> = json.into();
    let yaml: std::sync::Arc<Vec<u8>> = if json.starts_with(b"{\"") && reads_as_yaml(&doc, &json) {
        json.clone()
    } else {
        // Any JSON value has a YAML form: serde_norway fails only on what a Value cannot hold.
        serde_norway::to_string(&doc)
            .expect("serde_norway writes any JSON value")
            .into_bytes()
            .into()
    };
    vec![
        Artifact::document(JSON_PATH, json, SERVING_JSON),
        Artifact::document(YAML_PATH, yaml, SERVING_YAML),
        Artifact::document(SUMMARY_PATH, to_json_bytes(&summary), SERVING_JSON),
    ]
}

/// The document and its JSON, within its source's `budget`
/// (`emit::budget`), leaving out, while it is still over, one thing at a time with a note: the
/// `http_binding` headers, its URLs' origin where it is the documents' own, a derived
/// `is_idempotent: false` (the default), the semantic values derived for read-only endpoints,
/// the class derived for the others, the descriptions nested in the endpoints' schemas, then
/// theirs, the errors' descriptions (then the objects around their names), then levels of the
/// outputs' fields. First, after the descriptions go, and at the end, it tries the document
/// with its schemas shared wherever a reference is shorter than the copies
/// (`document::reshared`), which leaves nothing out: a document that fits that way stops there.
fn fitted(
    service: &Service,
    lowered: &Lowered,
    budget: usize,
    diags: &mut Diagnostics,
) -> (Value, Vec<u8>) {
    let doc = document::document(service, lowered);
    let json = to_json_bytes_budgeted(&doc, Some(budget));
    let endpoints = &lowered.derived.endpoints;
    // A path on the documents' own origin is the same URL, read from the document.
    let origin = service.site_url.origin();
    let relative = |doc: &mut Value| document::relative_binding_urls(doc, origin.as_str());
    let default_idempotence = |doc: &mut Value| document::drop_default_idempotence(doc, endpoints);
    let read_guesses = |doc: &mut Value| document::drop_read_guesses(doc, endpoints);
    let write_classes = |doc: &mut Value| document::drop_write_classes(doc, endpoints);
    let tool_names = |doc: &mut Value| document::drop_derived_tool_names(doc, endpoints);
    let all_descriptions = |doc: &mut Value| document::drop_descriptions(doc, schemas::Cut::All);
    let at_origin = |n| {
        format!(
            ": the `http_binding` of {n} endpoints gives its URL as a path on the documents' own origin ({origin})"
        )
    };
    let named = lowered.named.taken();
    let reshare =
        |fit, budget, diags: &mut Diagnostics| RESHARE.if_smaller(fit, budget, named, diags);
    // What the steps leave out, in their order: the levels step renders its documents with
    // all of it left out.
    let left_out: [&dyn Fn(&mut Value) -> usize; 9] = [
        &document::drop_binding_headers,
        &relative,
        &default_idempotence,
        &read_guesses,
        &write_classes,
        &all_descriptions,
        &document::drop_error_descriptions,
        &document::bare_error_names,
        &tool_names,
    ];
    let levels = |levels| {
        let (mut doc, cut) = document::document_cut(service, lowered, Some(levels));
        for drop in left_out {
            drop(&mut doc);
        }
        (document::reshared(&doc, named), cut)
    };
    let steps = [
        Step::Try(&reshare),
        // The headers say again what the endpoint says; an agent that calls over HTTP sends
        // them as the HTTP transitional binding says.
        Step::Out(
            left_out[0],
            &|_| {
                ": each endpoint's `http_binding` leaves out its `X-AGIS-*` headers, which say again the endpoint's method and the grammar's version".into()
            },
            "an agent that calls over HTTP sends them as the HTTP transitional binding says",
        ),
        Step::Out(
            left_out[1],
            &at_origin,
            "nothing is left out by this: the path resolves from the document's URL to the same URL (RFC 3986 §5.2)",
        ),
        Step::Out(
            left_out[2],
            &|n| {
                format!(
                    ": `is_idempotent` is left out of the {n} endpoints where wellgen derived `false`, which AGIS reads when it is absent"
                )
            },
            "nothing is left out by this: an absent `is_idempotent` is false (§6.2)",
        ),
        Step::Out(
            left_out[3],
            &|n| {
                format!(
                    ": the semantic blocks of its {n} read-only endpoints leave out the values AGIS recommends but does not require (capability, confidence_guidance, impact_tier, is_idempotent) that wellgen derived from the HTTP method"
                )
            },
            "a value the author declares is kept (`x-agent-impact` on the operation; `[capabilities.semantic]` in a service.toml); endpoints that change something keep theirs",
        ),
        Step::Out(
            left_out[4],
            &|n| {
                format!(
                    ": the semantic blocks of its {n} endpoints that change something leave out the `capability` class wellgen derived (AGIS recommends it but does not require it); they keep their impact and confidence"
                )
            },
            "a class the author declares is kept (`[capabilities.semantic] capability` in a service.toml); `agis.json` still lists every class",
        ),
        Step::Descriptions(&document::drop_descriptions, "input and output schemas"),
        // Schemas that differed only in their descriptions are equal now.
        Step::Try(&reshare),
        // Each error MUST be named and SHOULD be described (§7); most descriptions are
        // wellgen's generic wording of an HTTP status.
        Step::Out(
            left_out[6],
            &|n| {
                format!(
                    ", with no schema description left to leave out: the descriptions of its {n} errors are left out (each keeps its name)"
                )
            },
            crate::emit::budget::DESCRIPTIONS_KEPT_HELP,
        ),
        Step::Out(
            left_out[7],
            &|n| {
                format!(
                    ", with no error description left: its {n} errors are written as their bare names, the draft's own form"
                )
            },
            "nothing is left out by this: each error is still named (§7)",
        ),
        Step::Out(
            left_out[8],
            &|n| {
                format!(
                    ": the semantic blocks of its {n} endpoints leave out `mcp_tool_name`, the capability id that names each in the MCP tools list; a converter reading this document names them by Appendix C's default"
                )
            },
            TOOL_NAMES_KEPT_HELP.as_str(),
        ),
        Step::Levels(&OUTPUT_LEVELS, &levels, "the endpoints' outputs"),
        Step::Try(&reshare),
    ];
    budget::fit("the AGIS document", (doc, json), budget, &steps, diags)
}

/// The help of the step that leaves out the derived MCP tool names: the MCP tools list, found
/// through its target's descriptor, keeps them (a step's help is `'static`, the path is read at
/// run time).
static TOOL_NAMES_KEPT_HELP: LazyLock<String> = LazyLock::new(|| {
    format!(
        "`{}` keeps every name; a name the author declares is kept (`[capabilities.semantic] mcp_tool_name`)",
        Target::Mcp.path()
    )
});

/// The document with its schemas shared anew over its budget.
const RESHARE: Reshare = Reshare {
    reshared: document::reshared,
    document: "the AGIS document",
    how: "the schemas it repeats go once into its `schemas` wherever a reference is shorter than the copies",
    help: "nothing is left out by this: the endpoints point at each shared schema with `$ref` (§8.1)",
};

/// Whether the JSON text `json` of `doc` is a YAML document with the same content: only
/// YAML's printable characters (serde_json writes U+007F, C1 controls, U+FEFF and U+FFFE
/// as they are), and no key near the 1,024 characters YAML allows an implicit key (libyaml
/// counts the quotes and escapes too).
fn reads_as_yaml(doc: &Value, json: &[u8]) -> bool {
    const KEY_MAX: usize = 1000;
    // U+0085, U+2028 and U+2029 are YAML 1.2 text but line breaks to YAML 1.1 readers, which
    // would fold them inside a quoted string.
    fn printable(c: char) -> bool {
        matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{a0}'..='\u{2027}')
            || matches!(c, '\u{202a}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
                && c != '\u{feff}'
    }
    fn short_keys(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.iter().all(|(k, v)| k.len() <= KEY_MAX && short_keys(v)),
            Value::Array(a) => a.iter().all(short_keys),
            _ => true,
        }
    }
    let printable = match std::str::from_utf8(json) {
        Ok(text) if text.is_ascii() => text.bytes().all(|b| printable(char::from(b))),
        Ok(text) => text.chars().all(printable),
        Err(_) => false,
    };
    printable && short_keys(doc)
}

/// One warning per endpoint that lists what was derived for it.
fn derivation_warning(e: &Endpoint, diags: &mut Diagnostics) {
    if e.derived.is_empty() {
        return;
    }
    let c = e.capability;
    let at = if c.semantic == Default::default() {
        c.field("id")
    } else {
        c.field("semantic")
    };
    diags.push(
        Diagnostic::new(Code::AgisDerived, format!(
            "AGIS endpoint `{} {}` for `{}`: derived {}",
            e.method,
            e.path,
            c.id,
            e.derived.join("; ")
        ))
        .at(at)
        // The derived errors and output schema are keys of the capability, not of `semantic`.
        .help("declare these in `[capabilities.semantic]` (verb, path, intent, actor, outcome, capability, confidence, impact, idempotent), and the capability's `errors` and `returns` (or `output_schema`), to publish your own wording"),
    );
}

fn document_warnings(service: &Service, diags: &mut Diagnostics) {
    let (agtp, derived) = document::agtp(service);
    if derived {
        diags.push(
            Diagnostic::new(
                Code::AgisDerived,
                format!("AGIS requires an AGTP address; derived `{agtp}` from the site URL"),
            )
            .help("set `[agis] agtp = \"agtp://…\"` if the service answers AGTP elsewhere"),
        );
    }
    let (domain, derived) = document::domain(service);
    if derived {
        diags.push(
            Diagnostic::new(
                Code::AgisDerived,
                format!("AGIS vocabulary domain derived as `{domain}`"),
            )
            .help("set `[agis] domain`, e.g. hospitality, healthcare, financial-services"),
        );
    }
    let (namespace, derived) = document::namespace(service);
    if derived {
        diags.push(
            Diagnostic::new(Code::AgisDerived, format!(
                "/.well-known/agis.json needs a namespace: derived `{namespace}` from the service name"
            ))
            .help("set `[agis] namespace`; it also goes into the vocabulary block and the X-AGIS-Namespace header"),
        );
    }
    if service.agis.interaction_protocols.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::AgisDerived,
                "/.well-known/agis.json interaction_protocols derived from the capabilities",
            )
            .help("set `[agis] interaction_protocols` (request, negotiate, confirm, query)"),
        );
    }
    if let Some(m) = &service.agis.data_manifest {
        if !m.pre_auth_discovery {
            diags.push(
                Diagnostic::new(Code::AgisPreAuthDiscovery, "`pre_auth_discovery = false`, but the AGIS documents are published as public files")
                    .at("agis.data_manifest.pre_auth_discovery"),
            );
        }
        let sensitivities = [
            "informational",
            "reversible",
            "irreversible",
            "low",
            "medium",
            "high",
        ];
        for (i, d) in m.available_data.iter().enumerate() {
            let field = format!("agis.data_manifest.available_data.{i}");
            if let Some(s) = &d.sensitivity {
                if !sensitivities.contains(&s.as_str()) {
                    diags.push(
                        Diagnostic::new(Code::AgisSensitivity, format!("sensitivity `{s}` is neither an impact tier nor low/medium/high (AGIS §8.3)"))
                            .at(format!("{field}.sensitivity")),
                    );
                }
                if s == "high" && d.requires_authorization != Some(true) {
                    diags.push(
                        Diagnostic::new(Code::AgisRequiresAuthorization, "high-sensitivity data classes SHOULD declare `requires_authorization = true` (AGIS §8.3)")
                            .at(format!("{field}.requires_authorization")),
                    );
                }
            }
        }
    }
}

/// SHOULD-level advice that is not one of the eight passes.
fn advisories(endpoints: &[Endpoint], diags: &mut Diagnostics) {
    for e in endpoints {
        let c = e.capability;
        if e.method.eq_ignore_ascii_case("PROCESS") {
            diags.push(
                Diagnostic::new(Code::AgisProcessVerb, "PROCESS is borderline in AGIS: it may read as a state; a more specific verb is RECOMMENDED (§4.2)")
                    .at(c.field(if c.semantic.verb.is_some() { "semantic.verb" } else { "id" })),
            );
        }
        if e.impact == Impact::Irreversible && e.confidence < 0.85 {
            diags.push(
                Diagnostic::new(Code::AgisConfidence, format!(
                    "irreversible endpoint `{} {}` has confidence {}; AGIS asks for 0.85 or more (§6.2)",
                    e.method, e.path, e.confidence
                ))
                .at(c.field("semantic.confidence")),
            );
        }
        for name in c.semantic.parameter_hints.keys() {
            if !c.params.iter().any(|p| &p.name == name) {
                diags.push(
                    Diagnostic::new(
                        Code::AgisParameterHint,
                        format!("parameter_hints names `{name}`, which is not a parameter"),
                    )
                    .at(c.field("semantic.parameter_hints")),
                );
            }
        }
    }
}

/// Parses either serialisation back into the one JSON value both must mean (§10).
pub fn parse_yaml(text: &str) -> Result<Value, String> {
    serde_norway::from_str(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_text_is_its_yaml_only_when_yaml_reads_it_back_the_same() {
        let check = |doc: Value| {
            let json = serde_json::to_vec(&doc).unwrap();
            let reads = reads_as_yaml(&doc, &json);
            if reads {
                // What serde_norway reads from the JSON text is the document itself.
                let back: Value = serde_norway::from_slice(&json).unwrap();
                assert_eq!(back, doc);
            }
            reads
        };
        for fine in [
            "plain",
            "café ☕ 𝄞",
            "tab\there",
            "quote \" and \\ and \n",
            "\u{a0}",
        ] {
            assert!(
                check(serde_json::json!({ "k": fine, "list": [fine] })),
                "{fine:?}"
            );
        }
        for bad in [
            "\u{7f}", "\u{85}", "\u{9f}", "\u{2028}", "\u{2029}", "\u{feff}", "\u{fffe}",
            "\u{ffff}",
        ] {
            assert!(!check(serde_json::json!({ "k": bad })), "{bad:?}");
        }
        assert!(check(serde_json::json!({ "k".repeat(1000): 1 })));
        assert!(!check(
            serde_json::json!({ "a": [{ "k".repeat(1001): 1 }] })
        ));
        // What the limit is for: libyaml refuses a flow mapping's key past 1,024 characters.
        assert!(
            serde_norway::from_str::<Value>(&format!("{{\"{}\":1}}", "k".repeat(1030))).is_err()
        );
    }
}
