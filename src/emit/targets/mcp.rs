//! A static MCP tools/list result (MCP 2026-07-28), per AGIS Appendix C: one tool per AGIS
//! endpoint, named after its capability (`emit::derive::agis::tools`), described by the intent (plus
//! parameter hints), with the AGIS input schema as `inputSchema`, and in its `_meta` the HTTP
//! call its arguments make (`dev.wellgen/http`, docs/targets/mcp.md). The endpoints and names
//! are the ones `emit::derive::agis` derives for the AGIS target too; MCP reports only the naming
//! problems.

use crate::emit::targets::{Descriptor, Document, Fitted, Link, Relation};
use serde::Serialize;
use serde_json::{Value, json};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::budget::{self, INPUT_LEVELS, Step, source_budget};
use crate::emit::derive::agis::{Derived, Endpoint};
use crate::emit::derive::published::MCP_TOOLS_PATH;
use crate::emit::schemas::{self, NamedKeys, Policy, Root};
use crate::emit::{Artifact, JSON, Serving, to_json_bytes_budgeted};
use crate::model::{Access, Auth, Capability, HttpsUrl, Impact, Param, ParamIn, Service};
use crate::values::schemas::Schemas;
use indexmap::IndexMap;
use std::sync::Arc;

pub const PATH: &str = MCP_TOOLS_PATH;
/// `ttlMs` and `Cache-Control` say the same thing: fresh for an hour.
const TTL_MS: u64 = 3_600_000;
/// A schema repeated inside one tool's input is shared from this size up (`emit::schemas`).
const SHARING: Policy = Policy {
    prefix: "#/$defs/",
    min_bytes: 64,
    min_total: 4 * 1024,
    only_where_smaller: false,
};
pub const SERVING: Serving = Serving {
    content_type: JSON,
    cache_control: "public, max-age=3600",
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "mcp",
    documents: &[Document::linked(
        PATH,
        SERVING,
        Link {
            title: "MCP tools list",
            note: "every capability as an MCP tool definition (a static tools/list result)",
            media_type: "application/json",
            relation: Relation::ServiceMeta,
            ai_catalog: Some("application/json"),
        },
    )],
    spec: "MCP tools/list result, schema 2026-07-28 (AGIS Appendix C mapping)",
    status: "published specification",
    opt_in: None,
    requires: &[],
};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListToolsResult {
    result_type: &'static str,
    tools: Vec<Tool>,
    ttl_ms: u64,
    /// The catalog holds nothing user-specific: any cache may share it.
    cache_scope: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    name: String,
    title: String,
    description: String,
    input_schema: Value,
    annotations: Annotations,
    #[serde(rename = "_meta")]
    meta: Meta,
}

/// The tool's `_meta`: MCP reserves the key's form `prefix/name` for such extensions.
#[derive(Serialize)]
struct Meta {
    #[serde(rename = "dev.wellgen/http")]
    http: Http,
}

/// The HTTP call a tool stands for, made from its arguments alone (the binding of
/// docs/targets/mcp.md, which gives its JSON Schema).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Http {
    method: &'static str,
    /// Absolute, with `{wire name}` placeholders.
    url: String,
    /// One per `inputSchema` property, under the same key and in the same order.
    arguments: IndexMap<String, Argument>,
    /// Only when the call has a body.
    #[serde(skip_serializing_if = "Option::is_none")]
    content_type: Option<String>,
    /// The security requirements, any one of which authenticates: an OpenAPI 3.1 Security
    /// Scheme Object, or `{"allOf": [...]}` of the schemes a call sends together; empty for a
    /// public capability or a service without authentication.
    security: Vec<Value>,
}

/// Where one argument goes: `name` is its wire name, absent when it is the whole body.
#[derive(Serialize)]
struct Argument {
    #[serde(rename = "in")]
    location: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    whole: bool,
}

/// What every tool's binding reads from the service: computed once.
struct Calls<'a> {
    base: &'a HttpsUrl,
    /// The service's security requirements (`emit::security::requirements`), as the binding
    /// states them.
    schemes: Vec<Value>,
    /// The named schemas the input schemas refer to, and the keys they go under in `$defs`.
    schemas: &'a Schemas,
    keys: NamedKeys,
}

impl<'a> Calls<'a> {
    fn of(service: &'a Service) -> Self {
        let object = |a: &Auth| crate::emit::security::scheme(a).map(|(_, s)| s);
        let schemes = crate::emit::security::requirements(service)
            .into_iter()
            .filter_map(|r| match r.as_slice() {
                [(one, _)] => object(one),
                all => Some(json!({ "allOf": all.iter().filter_map(|(a, _)| object(a)).collect::<Vec<_>>() })),
            })
            .collect();
        Calls {
            base: &service.base_url,
            schemes,
            schemas: &service.schemas,
            keys: NamedKeys::of(&service.schemas),
        }
    }

    fn binding(&self, c: &Capability) -> Http {
        let whole =
            crate::values::param::whole_body(&c.params, c.content_type.as_deref(), self.schemas);
        let arguments = c
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), argument(p, whole == Some(i))))
            .collect();
        let has_body = c.params.iter().any(|p| p.location == ParamIn::Body);
        let content_type = has_body.then(|| {
            c.content_type
                .clone()
                .unwrap_or_else(|| "application/json".into())
        });
        let security = match c.access {
            Access::Public => Vec::new(),
            Access::Protected | Access::UserRequired => self.schemes.clone(),
        };
        Http {
            method: c.method.as_str(),
            url: c.url(self.base),
            arguments,
            content_type,
            security,
        }
    }
}

/// Where `p` goes; `whole` when it is the entire request body (`param::whole_body`).
fn argument(p: &Param, whole: bool) -> Argument {
    Argument {
        location: p.location.as_str(),
        name: (!whole).then(|| p.wire().to_string()),
        whole,
    }
}

/// Hints from the AGIS impact tier and idempotency (MCP ToolAnnotations; untrusted hints).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Annotations {
    read_only_hint: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    destructive_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    idempotent_hint: Option<bool>,
}

/// The tools are the shared derivation's endpoints under their tool names; a large source's
/// document is made by the size pass ([`fit`]), where its size against the source's budget is
/// reported, and any other by `render`.
pub struct Lowered<'a> {
    pub derived: &'a Derived<'a>,
    body: Fitted<Arc<Vec<u8>>>,
}

/// The tool-name diagnostics: declared names that break MCP's rule or are used twice, then ids
/// another capability declared as its name, which take a number.
pub fn lower<'a>(derived: &'a Derived<'a>, diags: &mut Diagnostics) -> Lowered<'a> {
    let named = derived.endpoints.iter().zip(&derived.tool_names);
    for (e, t) in named.clone() {
        let Some(n) = &e.capability.semantic.mcp_tool_name else {
            continue;
        };
        let field = e.capability.field("semantic.mcp_tool_name");
        if t.invalid {
            diags.push(
                Diagnostic::new(Code::McpToolName, format!("`{n}` is not an MCP tool name"))
                    .at(&field)
                    .help("1–128 characters: lowercase letters, digits, `_`, `-` or `.` (AGIS §6.2 asks for lowercase)"),
            );
        }
        if t.declared_twice {
            diags.push(
                Diagnostic::new(
                    Code::McpToolNameTwice,
                    format!("MCP tool name `{n}` is used twice"),
                )
                .at(field)
                .help("mcp_tool_name MUST be unique within the service (AGIS §6.2)"),
            );
        }
    }
    for (e, t) in named {
        if let Some(id) = &t.replaces {
            let c = e.capability;
            diags.push(
                Diagnostic::new(
                    Code::McpRenamed,
                    format!(
                        "MCP tool name `{id}` is already taken; `{id}` is published as `{}`",
                        t.name
                    ),
                )
                .at(c.field("id"))
                .help("set `semantic.mcp_tool_name` to choose the name"),
            );
        }
    }
    Lowered {
        derived,
        body: Fitted::default(),
    }
}

/// The size pass: the document of a large source, sized against its budget (`document`).
pub fn fit(service: &Service, lowered: &mut Lowered, diags: &mut Diagnostics) {
    if let Some(budget) = source_budget(service) {
        let body = document(lowered.derived, service, budget, diags);
        lowered.body.set(body.into());
    }
}

/// The tools/list result, every tool whole.
fn list(derived: &Derived, calls: &Calls) -> ListToolsResult {
    ListToolsResult {
        result_type: "complete",
        tools: derived
            .endpoints
            .iter()
            .zip(&derived.tool_names)
            .map(|(e, t)| tool(e, t.name.clone(), calls, None))
            .collect(),
        ttl_ms: TTL_MS,
        cache_scope: "public",
    }
}

/// The tools/list result. A tool's `inputSchema` stands alone (it cannot reference another
/// tool's), so a large API repeats its nested schemas, descriptions and all, in every tool that
/// takes them. Over a large source's budget (`emit::budget::source_budget`), the descriptions below a
/// schema's top-level properties go, with a note: the parameters keep theirs, unless the list
/// is still over (`schemas::Cut`), and every schema keeps its types and constraints, so the
/// tools stay as strict as before.
fn document(
    derived: &Derived,
    service: &Service,
    source_budget: usize,
    diags: &mut Diagnostics,
) -> Vec<u8> {
    let calls = Calls::of(service);
    let result = list(derived, &calls);
    // The bindings are what make the tools callable: nothing of them is cut, so the budget
    // is the source's plus their own size, and the schemas are cut to fit the rest.
    let budget = source_budget + binding_bytes(&result.tools);
    let body = to_json_bytes_budgeted(&result, Some(budget));
    let drop = |result: &mut ListToolsResult, cut: schemas::Cut| {
        let mut n = 0;
        for t in &mut result.tools {
            for p in properties(&mut t.input_schema) {
                n += cut.apply(p);
            }
            if let Some(Value::Object(defs)) = t.input_schema.get_mut("$defs") {
                for d in defs.values_mut() {
                    n += cut.apply(d);
                }
            }
        }
        n
    };
    // Still over with every description gone: the tools are made again, each input schema
    // (its parameters, and the request body's fields among them) kept to fewer levels.
    let (result_type, ttl_ms, cache_scope) =
        (result.result_type, result.ttl_ms, result.cache_scope);
    let render = |levels| {
        let mut cut = 0;
        let tools = derived.endpoints.iter().zip(&derived.tool_names);
        let mut result = ListToolsResult {
            result_type,
            tools: tools
                .map(|(e, t)| tool(e, t.name.clone(), &calls, Some((levels, &mut cut))))
                .collect(),
            ttl_ms,
            cache_scope,
        };
        drop(&mut result, schemas::Cut::All);
        (result, cut)
    };
    let steps = [
        Step::Descriptions(&drop, "input schemas"),
        Step::Levels(&INPUT_LEVELS, &render, "the tools' input schemas"),
    ];
    budget::fit("the MCP tools list", (result, body), budget, &steps, diags).1
}

/// The bytes the tools' `_meta` members take in the compact list.
fn binding_bytes(tools: &[Tool]) -> usize {
    let member = r#","_meta":"#.len();
    tools
        .iter()
        .map(|t| member + serde_json::to_vec(&t.meta).map_or(0, |v| v.len()))
        .sum()
}

/// The schemas of an input schema's top-level properties.
pub fn properties(schema: &mut Value) -> impl Iterator<Item = &mut Value> {
    schema
        .get_mut("properties")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|m| m.values_mut())
}

/// Pure: the tools/list result the size pass made, or the whole one.
pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let body = lowered.body.made().cloned().unwrap_or_else(|| {
        let calls = Calls::of(service);
        to_json_bytes_budgeted(&list(lowered.derived, &calls), None).into()
    });
    vec![Artifact::document(PATH, body, SERVING)]
}

/// `levels`: the levels of fields its input schema keeps, and a count of the subschemas cut
/// below them (`schemas::keep_levels`).
fn tool(e: &Endpoint, name: String, calls: &Calls, levels: Option<(usize, &mut usize)>) -> Tool {
    let read_only = e.impact == Impact::Informational;
    Tool {
        name,
        title: title(&e.capability.id),
        description: description(e),
        input_schema: input_schema(e, calls, levels),
        annotations: Annotations {
            read_only_hint: read_only,
            destructive_hint: (!read_only).then_some(e.impact == Impact::Irreversible),
            idempotent_hint: (!read_only).then_some(e.idempotent),
        },
        meta: Meta {
            http: calls.binding(e.capability),
        },
    }
}

/// The AGIS input schema; the named schemas it refers to and the parts it repeats go once
/// into its own `$defs` (the tool's `inputSchema` is a JSON Schema 2020-12 object and may use
/// `$ref`/`$defs`, but it stands alone: a reference cannot point into another tool). Cut to
/// `levels`, it is inlined first, as a response schema cut to fit is.
fn input_schema(e: &Endpoint, calls: &Calls, levels: Option<(usize, &mut usize)>) -> Value {
    // The author's own `$defs` are referred to from any depth: kept whole, named schemas inlined.
    if e.input.get("$defs").is_some() {
        return calls.schemas.inline(&e.input).into_owned();
    }
    let kept = levels
        .map(|(levels, cut)| schemas::keep_levels_inlined(calls.schemas, &e.input, levels, cut));
    let root = Root {
        schema: kept.as_ref().unwrap_or(&e.input),
        replaceable: false,
        hint: "input".into(),
    };
    // The store's keys are taken only where one may be published beside the shared parts.
    let refers = crate::values::schemas::has_reference(root.schema);
    let taken = if refers { calls.keys.taken() } else { &[] };
    let (copies, mut shared) = schemas::share(&[root], SHARING, &[], taken);
    let Some(mut schema) = copies.into_iter().next() else {
        unreachable!("`share` copies every root")
    };
    let named = if refers {
        schemas::publish_named(
            calls.schemas,
            &calls.keys,
            SHARING.prefix,
            std::iter::once(&mut schema).chain(shared.iter_mut().map(|(_, v)| v)),
        )
    } else {
        Vec::new()
    };
    let defs: serde_json::Map<String, Value> = named.into_iter().chain(shared).collect();
    if !defs.is_empty()
        && let Some(m) = schema.as_object_mut()
    {
        m.insert("$defs".into(), Value::Object(defs));
    }
    schema
}

/// Appendix C(b): the intent as the base, with the capability's `details` (MCP sets no
/// length on a tool's description: it is what the model reads to use the tool), then
/// ` Hints: name = ['a', 'b']; other = ['c']`.
pub fn description(e: &Endpoint) -> String {
    let base = e.capability.long_text(&e.intent);
    let hints = &e.capability.semantic.parameter_hints;
    if hints.is_empty() {
        return base.into_owned();
    }
    let parts: Vec<String> = hints
        .iter()
        .map(|(name, phrases)| {
            let quoted: Vec<String> = phrases.iter().map(|p| format!("'{p}'")).collect();
            format!("{name} = [{}]", quoted.join(", "))
        })
        .collect();
    let intent = base.trim_end();
    let sep = if intent.ends_with(['.', '!', '?']) {
        " "
    } else {
        ". "
    };
    format!("{intent}{sep}Hints: {}", parts.join("; "))
}

/// `search_products` → "Search products": a display name for MCP clients.
fn title(id: &str) -> String {
    let words = id.replace(['_', '-', '.'], " ");
    let mut chars = words.trim().chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}
