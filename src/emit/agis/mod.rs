//! AGIS (draft-hood-independent-agis-01): the full document in both normative serialisations,
//! JSON and YAML, and the `/.well-known/agis.json` summary (§11.1).
//!
//! Every document is checked by the eight validation passes of §9.1 before it is returned;
//! `validate` is public so any AGIS document can be checked the same way.

pub mod document;
pub mod validate;
pub mod verbs;

pub use validate::{EndpointRef, Pass, Violation, validate};

use serde_json::Value;

use super::{Artifact, JSON, Serving, to_json_bytes};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Impact, Service};
use document::Endpoint;

/// The YAML serialisation (§10 recommends YAML for reading; `.agis` is the registered extension).
pub const YAML_PATH: &str = "/.well-known/agis/service.agis";
/// The JSON serialisation (§10 recommends JSON for machine-generated documents).
pub const JSON_PATH: &str = "/.well-known/agis/service.agis.json";
pub const SUMMARY_PATH: &str = "/.well-known/agis.json";
/// Where the MCP back end publishes the tools/list result the summary points at.
pub const MCP_TOOLS_PATH: &str = "/.well-known/mcp/tools.json";
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

pub fn emit(service: &Service, diags: &mut Diagnostics) -> Vec<Artifact> {
    let endpoints = document::endpoints(service, diags);
    // MCP naming problems are the MCP back end's to report; here only the resolved names matter.
    let names = tool_names(&endpoints, &mut Diagnostics::default());
    let explicit: Vec<Option<String>> = names
        .iter()
        .map(|n| n.explicit.then(|| n.name.clone()))
        .collect();
    document_warnings(service, diags);
    let doc = document::document(service, &endpoints, &explicit);
    for v in validate(&doc) {
        diags.push(violation_diagnostic(&endpoints, &v));
    }
    advisories(service, &endpoints, diags);

    let site = service.site_url.origin();
    let summary = document::summary(
        service,
        &doc,
        &site.join(JSON_PATH),
        &site.join(MCP_TOOLS_PATH),
    );
    let json = to_json_bytes(&doc);
    let yaml = serde_norway::to_string(&doc).expect("serde_norway writes any JSON value");
    vec![
        Artifact::document(JSON_PATH, json, SERVING_JSON),
        Artifact::document(YAML_PATH, yaml.into_bytes(), SERVING_YAML),
        Artifact::document(SUMMARY_PATH, to_json_bytes(&summary), SERVING_JSON),
    ]
}

/// An MCP tool name for an endpoint; `explicit` when it is not the Appendix C default, so the
/// AGIS document must carry it as `mcp_tool_name`.
pub struct ToolName {
    pub name: String,
    pub explicit: bool,
}

/// MCP's tool-name rule (tools.mdx "Tool Names").
pub fn is_mcp_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Appendix C(a): `mcp_tool_name`, else lowercase `METHOD_firstsegment`; a default name that is
/// already taken falls back to the capability id (with a warning), so names stay unique.
pub fn tool_names(endpoints: &[Endpoint], diags: &mut Diagnostics) -> Vec<ToolName> {
    let mut taken: Vec<String> = Vec::new();
    for e in endpoints {
        let c = e.capability;
        if let Some(n) = &c.semantic.mcp_tool_name {
            let field = c.field("semantic.mcp_tool_name");
            if !is_mcp_tool_name(n) || n.chars().any(|c| c.is_ascii_uppercase()) {
                diags.push(
                    Diagnostic::error(format!("`{n}` is not an MCP tool name"))
                        .at(&field)
                        .help("1–128 characters: lowercase letters, digits, `_`, `-` or `.` (AGIS §6.2 asks for lowercase)"),
                );
            }
            if taken.contains(n) {
                diags.push(
                    Diagnostic::error(format!("MCP tool name `{n}` is used twice"))
                        .at(field)
                        .help("mcp_tool_name MUST be unique within the service (AGIS §6.2)"),
                );
            }
            taken.push(n.clone());
        }
    }
    let mut out = Vec::new();
    for e in endpoints {
        let c = e.capability;
        if let Some(n) = &c.semantic.mcp_tool_name {
            out.push(ToolName {
                name: n.clone(),
                explicit: true,
            });
            continue;
        }
        let mut name: String = format!("{}_{}", e.method, e.entity()).to_lowercase();
        name.retain(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        name.truncate(128);
        let explicit = taken.contains(&name);
        if explicit {
            let default = name;
            name = c.id.clone();
            let mut n = 2;
            while taken.contains(&name) {
                name = format!("{}_{n}", c.id);
                n += 1;
            }
            diags.push(
                Diagnostic::warning(format!(
                    "MCP tool name `{default}` is already taken; `{}` is published as `{name}`",
                    c.id
                ))
                .at(c.field("id"))
                .help("set `semantic.mcp_tool_name` to choose the name (AGIS Appendix C)"),
            );
        }
        taken.push(name.clone());
        out.push(ToolName { name, explicit });
    }
    out
}

fn document_warnings(service: &Service, diags: &mut Diagnostics) {
    let (agtp, derived) = document::agtp(service);
    if derived {
        diags.push(
            Diagnostic::warning(format!(
                "AGIS requires an AGTP address; derived `{agtp}` from the site URL"
            ))
            .help("set `[agis] agtp = \"agtp://…\"` if the service answers AGTP elsewhere"),
        );
    }
    let (domain, derived) = document::domain(service);
    if derived {
        diags.push(
            Diagnostic::warning(format!("AGIS vocabulary domain derived as `{domain}`"))
                .help("set `[agis] domain`, e.g. hospitality, healthcare, financial-services"),
        );
    }
    let (namespace, derived) = document::namespace(service);
    if derived {
        diags.push(
            Diagnostic::warning(format!(
                "/.well-known/agis.json needs a namespace: derived `{namespace}` from the service name"
            ))
            .help("set `[agis] namespace`; it also goes into the vocabulary block and the X-AGIS-Namespace header"),
        );
    }
    if service.agis.interaction_protocols.is_empty() {
        diags.push(
            Diagnostic::warning(
                "/.well-known/agis.json interaction_protocols derived from the capabilities",
            )
            .help("set `[agis] interaction_protocols` (request, negotiate, confirm, query)"),
        );
    }
    if let Some(m) = &service.agis.data_manifest {
        if !m.pre_auth_discovery {
            diags.push(
                Diagnostic::warning("`pre_auth_discovery = false`, but the AGIS documents are published as public files")
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
                        Diagnostic::warning(format!("sensitivity `{s}` is neither an impact tier nor low/medium/high (AGIS §8.3)"))
                            .at(format!("{field}.sensitivity")),
                    );
                }
                if s == "high" && d.requires_authorization != Some(true) {
                    diags.push(
                        Diagnostic::warning("high-sensitivity data classes SHOULD declare `requires_authorization = true` (AGIS §8.3)")
                            .at(format!("{field}.requires_authorization")),
                    );
                }
            }
        }
    }
}

/// SHOULD-level advice that is not one of the eight passes.
fn advisories(service: &Service, endpoints: &[Endpoint], diags: &mut Diagnostics) {
    let _ = service;
    for e in endpoints {
        let c = e.capability;
        if e.method.eq_ignore_ascii_case("PROCESS") {
            diags.push(
                Diagnostic::warning("PROCESS is borderline in AGIS: it may read as a state; a more specific verb is RECOMMENDED (§4.2)")
                    .at(c.field(if c.semantic.verb.is_some() { "semantic.verb" } else { "id" })),
            );
        }
        if e.impact == Impact::Irreversible && e.confidence < 0.85 {
            diags.push(
                Diagnostic::warning(format!(
                    "irreversible endpoint `{} {}` has confidence {}; AGIS asks for 0.85 or more (§6.2)",
                    e.method, e.path, e.confidence
                ))
                .at(c.field("semantic.confidence")),
            );
        }
        for name in c.semantic.parameter_hints.keys() {
            if !c.params.iter().any(|p| &p.name == name) {
                diags.push(
                    Diagnostic::warning(format!(
                        "parameter_hints names `{name}`, which is not a parameter"
                    ))
                    .at(c.field("semantic.parameter_hints")),
                );
            }
        }
    }
}

/// A violation as a diagnostic at the service.toml field that produced the failing value.
fn violation_diagnostic(endpoints: &[Endpoint], v: &Violation) -> Diagnostic {
    let d = Diagnostic::error(v.to_string());
    let Some(rest) = v.field.strip_prefix("endpoints.") else {
        return match document_field(&v.field) {
            Some(f) => d.at(f),
            None => d,
        };
    };
    let (index, key) = rest.split_once('.').unwrap_or((rest, ""));
    let Some(e) = index.parse::<usize>().ok().and_then(|i| endpoints.get(i)) else {
        return d;
    };
    let c = e.capability;
    let s = &c.semantic;
    let (field, authored) = match key.split('.').next().unwrap_or_default() {
        "method" => (
            if s.verb.is_some() {
                "semantic.verb"
            } else {
                "id"
            },
            s.verb.is_some(),
        ),
        "path" => (
            if s.path.is_some() {
                "semantic.path"
            } else {
                "path"
            },
            s.path.is_some(),
        ),
        "semantic" => match key {
            "semantic.intent" if s.intent.is_none() => ("description", false),
            "semantic.intent" => ("semantic.intent", true),
            "semantic.outcome" => ("semantic.outcome", s.outcome.is_some()),
            "semantic.actor" => ("semantic.actor", s.actor.is_some()),
            "semantic.state_transition" => ("semantic.state_transition", true),
            "semantic.parameter_hints" => ("semantic.parameter_hints", true),
            "semantic.mcp_tool_name" => ("semantic.mcp_tool_name", true),
            _ => ("semantic", false),
        },
        "input" => ("params", false),
        "output" => ("output_schema", c.output_schema.is_some()),
        "errors" => ("errors", !c.errors.is_empty()),
        _ => ("id", false),
    };
    let d = d.at(c.field(field));
    if authored {
        d
    } else {
        d.help("wellgen derived this value; declare it in `[capabilities.semantic]` to choose it yourself")
    }
}

fn document_field(field: &str) -> Option<String> {
    Some(match field {
        "service" => "service.name".into(),
        "agtp" => "agis.agtp".into(),
        "vocabulary.negotiable" | "data_manifest" => "agis.negotiable".into(),
        "vocabulary.domain" => "agis.domain".into(),
        "vocabulary.namespace" => "agis.namespace".into(),
        f if f.starts_with("data_manifest.") => format!("agis.{f}"),
        _ => return None,
    })
}

/// Parses either serialisation back into the one JSON value both must mean (§10).
pub fn parse_yaml(text: &str) -> Result<Value, String> {
    serde_norway::from_str(text).map_err(|e| e.to_string())
}
