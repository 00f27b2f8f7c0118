//! The OpenAPI 3.1.0 document of the API, also served as RFC-002's `/api/discovery?format=openapi`.

mod parts;
mod reshare;

use crate::emit::targets::{Descriptor, Document, Fitted, Link, Relation, Target};
use crate::values::schema_names::SchemaNames;
use crate::values::schemas::Schemas;
use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use std::borrow::Cow;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::budget::{self, OUTPUT_LEVELS, Reshare, Step, source_budget};
use crate::emit::derive::published::{OPENAPI_DISCOVERY_PATH, RFC002_SERVING};
use crate::emit::derive::request::{body_content_type, rate_limited};
use crate::emit::schemas::{self, Policy, Root};
use crate::emit::{Artifact, to_json_bytes_budgeted};
use crate::model::{Access, Capability, Method, Param, ParamIn, ParamType, Service};
use crate::values::param::json_number;
use crate::values::path::Segment;

/// `/openapi.json` for people and tools that look there; the second path is the static file
/// that hosts route `/api/discovery?format=openapi` to (see `emit::hosts`). Same bytes.
pub const PATHS: [&str; 2] = ["/openapi.json", DISCOVERY_PATH];
pub const DISCOVERY_PATH: &str = OPENAPI_DISCOVERY_PATH;
pub const VERSION: &str = "3.1.0";

/// The OpenAPI media type with its version parameter (OpenAPI 3.1 §4.1 media types).
pub const MEDIA_TYPE: &str = "application/vnd.oai.openapi+json;version=3.1";
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "openapi",
    documents: &[
        Document::linked(
            PATHS[0],
            RFC002_SERVING,
            Link {
                title: "OpenAPI description",
                note: "the whole API as an OpenAPI 3.1 document",
                media_type: MEDIA_TYPE,
                relation: Relation::ServiceDesc,
                ai_catalog: Some(MEDIA_TYPE),
            },
        ),
        Document::at(PATHS[1], RFC002_SERVING),
    ],
    spec: "OpenAPI 3.1.0",
    status: "published standard",
    opt_in: None,
    requires: &[],
};
/// Shared schemas live in `components/schemas` (OpenAPI 3.1 §4.8.7); a schema is shared from
/// this size up (see `emit::schemas`).
const SHARING: Policy = Policy {
    prefix: "#/components/schemas/",
    min_bytes: 64,
    min_total: 64 * 1024,
    only_where_smaller: false,
};
/// OpenAI's plugin limits for the linked OpenAPI document (summary/description, parameter description).
const PLUGIN_TEXT_LIMIT: usize = 200;

/// What the OpenAPI document derives from the model once OpenAPI's rules are checked: the
/// security schemes of `[auth]`, and the operations it can hold with the parameters each keeps.
pub struct Lowered<'a> {
    /// Security scheme name → scheme object, from `[auth]` and its `[[auth.also]]`.
    pub schemes: IndexMap<String, Value>,
    /// The names of the schemes each security requirement sends together, any one enough.
    pub requirements: Vec<Vec<String>>,
    /// In capability order, without the capabilities OpenAPI cannot hold (reported as errors).
    pub operations: Vec<Operation<'a>>,
    /// The document, when it has a source's byte budget (`emit::budget::source_budget`): made by
    /// the size pass ([`fit`]), which may have to leave out its schemas' descriptions to fit,
    /// with a note.
    pub fitted: Fitted<std::sync::Arc<Vec<u8>>>,
    /// The keys the model's named schemas take in `components/schemas`.
    pub named: schemas::NamedKeys,
}

/// One capability as an OpenAPI operation.
pub struct Operation<'a> {
    pub capability: &'a Capability,
    /// The path template, `/items/{id}`: the key of the path item.
    pub path: String,
    /// The path, query and header parameters, without the headers OpenAPI ignores; each with
    /// its `in`.
    pub parameters: Vec<(&'a Param, &'static str)>,
}

/// Every diagnostic of the OpenAPI target, capability by capability: operations OpenAPI
/// cannot hold (errors), then texts OpenAI's plugin tooling cuts, header parameters OpenAPI
/// ignores and GET bodies (warnings).
pub fn lower<'a>(service: &'a Service, built: &[Target], diags: &mut Diagnostics) -> Lowered<'a> {
    // OpenAI's tooling reads the document through the plugin manifest: its text limits
    // matter only where the build publishes one.
    let plugin = built.contains(&Target::AiPlugin) && Target::AiPlugin.writes(service);
    let mut operations = Vec::with_capacity(service.capabilities.len());
    // OpenAPI forbids two templates that differ only in parameter names (`/a/{id}`, `/a/{n}`).
    let mut shapes: IndexMap<String, String> = IndexMap::new();
    let mut owners: IndexMap<(String, Method), &str> = IndexMap::new();
    // Capabilities on one method and path are told apart in the path key: by their constant
    // query and header parameters (an imported `/rest?method=x`), as the source document did;
    // where those do not, also by the names of the required query parameters the others do
    // not all take (an imported `/search?city={city}` beside `/search?zip={zip}`), which an
    // import of the key reads as those parameters required.
    let mut sharing: IndexMap<(String, Method), usize> = IndexMap::new();
    for c in &service.capabilities {
        *sharing.entry((c.path.braces(), c.method)).or_default() += 1;
    }
    let constants: Vec<Vec<(&Param, String)>> = service
        .capabilities
        .iter()
        .map(|c| {
            if sharing[&(c.path.braces(), c.method)] > 1 {
                constant_query(c)
            } else {
                Vec::new()
            }
        })
        .collect();
    // Per key the constants give: how many capabilities, and the required query parameters
    // all of them take.
    let mut alike: IndexMap<(String, Method), (usize, Vec<&str>)> = IndexMap::new();
    for (c, fixed) in service.capabilities.iter().zip(&constants) {
        alike
            .entry((path_key(c, fixed, &[]), c.method))
            .and_modify(|(n, common)| {
                *n += 1;
                common.retain(|name| required_query(c).any(|r| r == *name));
            })
            .or_insert_with(|| (1, required_query(c).collect()));
    }
    for (c, constants) in service.capabilities.iter().zip(&constants) {
        let template = c.path.braces();
        let key = match &alike[&(path_key(c, constants, &[]), c.method)] {
            (n, common) if *n > 1 => {
                let variables: Vec<&str> = required_query(c)
                    .filter(|name| !common.contains(name))
                    .filter(|name| !constants.iter().any(|(p, _)| p.name == *name))
                    .collect();
                path_key(c, constants, &variables)
            }
            _ => path_key(c, constants, &[]),
        };
        let shape = shape(c);
        match shapes.get(&shape) {
            Some(other) if *other != template => {
                diags.push(
                    Diagnostic::new(Code::OpenapiPathClash, format!(
                        "`{key}` differs from `{other}` only in parameter names; OpenAPI cannot hold both"
                    ))
                    .at(c.field("path"))
                    .help("name the parameter the same way in every capability on this path"),
                );
                continue;
            }
            Some(_) => {}
            None => {
                shapes.insert(shape, template.clone());
            }
        }
        // Two operations nothing tells apart (an import whose paths differ only in parameter
        // names, as Google's `{sourceDataset}:deidentify` and `{sourceStore}:deidentify`): the
        // second keeps its own key with its id after a `#`, which no request carries.
        let key = match owners.get(&(key.clone(), c.method)) {
            Some(first) => {
                let own = format!("{key}#{}", c.id);
                diags.push(
                    Diagnostic::new(
                        Code::OpenapiOperationTwice,
                        format!(
                            "`{} {key}` is also capability `{first}`: OpenAPI has one operation per method and path, so this one is listed at `{own}`",
                            c.method.as_str()
                        ),
                    )
                    .at(c.field("path"))
                    .help("give the capabilities different paths, or leave one out"),
                );
                own
            }
            None => key,
        };
        owners.insert((key.clone(), c.method), &c.id);
        let mut parameters = lower_operation(c, plugin, diags);
        parameters.retain(|(p, _)| {
            p.location != ParamIn::Query || !constants.iter().any(|(k, _)| std::ptr::eq(*k, *p))
        });
        operations.push(Operation {
            capability: c,
            path: key,
            parameters,
        });
    }
    Lowered {
        schemes: security_schemes(service),
        requirements: crate::emit::security::requirements(service)
            .into_iter()
            .map(|r| r.into_iter().map(|(_, name)| name).collect())
            .collect(),
        operations,
        fitted: Fitted::default(),
        named: schemas::NamedKeys::of(&service.schemas),
    }
}

/// The size pass: a document with a source's budget is made here, to fit it
/// (`within_budget`); any other is made by `render`.
pub fn fit(service: &Service, lowered: &mut Lowered, diags: &mut Diagnostics) {
    if let Some(budget) = source_budget(service) {
        let fitted = within_budget(service, lowered, budget, diags);
        lowered.fitted.set(fitted.into());
    }
}

/// The document within its source's `budget`, leaving out, while it is still over, one thing
/// at a time with a note: what only says again what the other documents say (`Fit::lean`),
/// the descriptions inside its schemas, then theirs, then levels of the response schemas'
/// fields, and last, with those at one level, of the request bodies' and parameters'. Every
/// operation and parameter (with its own description and type) stays.
fn within_budget(
    service: &Service,
    lowered: &Lowered,
    budget: usize,
    diags: &mut Diagnostics,
) -> Vec<u8> {
    let doc = render_document(service, lowered);
    let json = to_json_bytes_budgeted(&doc, Some(budget));
    let lean = Fit {
        lean: true,
        ..Fit::default()
    };
    let made_lean = |(doc, json): (Value, Vec<u8>), budget, diags: &mut Diagnostics| {
        let lean_doc = render_cut(service, lowered, lean).0;
        match made_lean(service, &lean_doc, &json, budget, diags) {
            Some(after) => Ok((lean_doc, after)),
            None => Err((doc, json)),
        }
    };
    let named = lowered.named.taken();
    let reshare =
        |fit, budget, diags: &mut Diagnostics| RESHARE.if_smaller(fit, budget, named, diags);
    let outputs = |levels| {
        let fit = Fit {
            levels: Some(levels),
            ..lean
        };
        render_bare(service, lowered, fit)
    };
    // Where the requests are most of it (a large API's write operations), their schemas too.
    let shallowest = OUTPUT_LEVELS.last().copied().unwrap_or(1);
    let inputs = |inputs| {
        let fit = Fit {
            levels: Some(shallowest),
            input_levels: Some(inputs),
            ..lean
        };
        render_bare(service, lowered, fit)
    };
    let both = format!(
        "its response schemas keep {shallowest} level{} of fields, and its request bodies' and parameters' schemas",
        if shallowest == 1 { "" } else { "s" }
    );
    let steps = [
        Step::Try(&made_lean),
        Step::Descriptions(&drop_schema_descriptions, "its schemas"),
        Step::Try(&reshare),
        Step::Levels(&OUTPUT_LEVELS, &outputs, "its response schemas"),
        Step::Levels(&OUTPUT_LEVELS, &inputs, &both),
    ];
    budget::fit("the OpenAPI document", (doc, json), budget, &steps, diags).1
}

/// The document with its schemas and parts shared anew over its budget.
const RESHARE: Reshare = Reshare {
    reshared: reshare::reshared,
    document: "the OpenAPI document",
    how: "the schemas, parameters and responses it repeats go once into `components` wherever a reference is shorter than the copies",
    help: "nothing is left out by this: the operations point at each shared one with `$ref`",
};

/// The document as `within_budget` makes it with no description in its schemas, shared anew,
/// and how many subschemas its levels cut.
fn render_bare(service: &Service, lowered: &Lowered, fit: Fit) -> (Value, usize) {
    let (mut doc, cut) = render_cut(service, lowered, fit);
    drop_schema_descriptions(&mut doc, schemas::Cut::All);
    (reshare::reshared(&doc, lowered.named.taken()), cut)
}

/// How the document is made again to fit its source's budget (`within_budget`).
#[derive(Debug, Clone, Copy, Default)]
struct Fit {
    /// Keep this many levels of fields below each response schema's top
    /// (`schemas::keep_levels`).
    levels: Option<usize>,
    /// The same for each request body's and parameter's schema.
    input_levels: Option<usize>,
    /// Leave out what says again what the document or another says: the error names and
    /// `x-errors` (each error response keeps its texts, and equal ones are shared as one
    /// component), a success's list of the fields its schema gives, the `false` flags and
    /// summaries that only name the method and path; and list a parameter that all the
    /// operations of a path share once, on the path (`hoist_parameters`).
    lean: bool,
}

/// The JSON of `doc`, the document made lean (`Fit::lean`), with a note, if it is smaller
/// than `json`.
fn made_lean(
    service: &Service,
    doc: &Value,
    json: &[u8],
    budget: usize,
    diags: &mut Diagnostics,
) -> Option<Vec<u8>> {
    let after = to_json_bytes_budgeted(doc, Some(budget));
    if after.len() >= json.len() {
        return None;
    }
    let named: usize = service.capabilities.iter().map(|c| c.errors.len()).sum();
    let errors = if named == 0 {
        String::new()
    } else {
        format!(
            "its error responses keep their texts without the names of their {named} errors \
             (and `x-errors`), so that equal ones are shared; "
        )
    };
    diags.push(
        Diagnostic::new(
            Code::SizedToSource,
            format!(
                "the OpenAPI document would be {} KB, larger than its {} KB OpenAPI source: \
                 {errors}a success's description no longer lists the fields its schema gives; \
                 `x-rate-limited` and `x-requires-confirmation` are left out where `false`, \
                 and summaries that only name the method and path; a parameter every operation \
                 of a path lists alike is listed once, on the path; making it {} KB",
                json.len().div_ceil(1024),
                budget.div_ceil(1024),
                after.len().div_ceil(1024),
            ),
        )
        .help("the other documents keep what it leaves out; import fewer operations (`[source] include`/`exclude`) to keep it here too"),
    );
    Some(after)
}

/// Leaves out the descriptions of every schema of `doc` (`components`, and the parameters,
/// bodies and responses of every operation), below their top level or all (`cut`); returns
/// how many.
fn drop_schema_descriptions(doc: &mut Value, cut: schemas::Cut) -> usize {
    let mut n = 0;
    let media = |holder: &mut Value, n: &mut usize| {
        for m in holder
            .get_mut("content")
            .and_then(Value::as_object_mut)
            .into_iter()
            .flat_map(|c| c.values_mut())
        {
            if let Some(schema) = m.get_mut("schema") {
                *n += cut.apply(schema);
            }
        }
    };
    if let Some(components) = doc.get_mut("components").and_then(Value::as_object_mut) {
        for (kind, entries) in components.iter_mut() {
            for entry in entries
                .as_object_mut()
                .into_iter()
                .flat_map(|e| e.values_mut())
            {
                match kind.as_str() {
                    "schemas" => n += cut.apply(entry),
                    "parameters" => {
                        if let Some(schema) = entry.get_mut("schema") {
                            n += cut.apply(schema);
                        }
                    }
                    "requestBodies" | "responses" => media(entry, &mut n),
                    _ => {}
                }
            }
        }
    }
    let parameters = |holder: &mut Map<String, Value>, n: &mut usize| {
        for p in holder
            .get_mut("parameters")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if let Some(schema) = p.get_mut("schema") {
                *n += cut.apply(schema);
            }
        }
    };
    for item in doc["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|m| m.values_mut())
        .filter_map(Value::as_object_mut)
    {
        // The path's own parameters (`hoist_parameters`), then its operations'.
        parameters(item, &mut n);
        for op in item.values_mut().filter_map(Value::as_object_mut) {
            parameters(op, &mut n);
            if let Some(body) = op.get_mut("requestBody") {
                media(body, &mut n);
            }
            for r in op
                .get_mut("responses")
                .and_then(Value::as_object_mut)
                .into_iter()
                .flat_map(|r| r.values_mut())
            {
                media(r, &mut n);
            }
        }
    }
    n
}

/// One operation's warnings, in the order of its fields; returns the parameters it keeps.
/// `plugin`: OpenAI's plugin manifest links the document, so its text limits are said.
fn lower_operation<'a>(
    c: &'a Capability,
    plugin: bool,
    diags: &mut Diagnostics,
) -> Vec<(&'a Param, &'static str)> {
    if plugin && c.description.chars().count() > PLUGIN_TEXT_LIMIT {
        diags.push(
            Diagnostic::new(Code::OpenapiSummaryCut, format!(
                "is over {PLUGIN_TEXT_LIMIT} characters: OpenAI's plugin tooling cuts operation summaries there"
            ))
            .at(c.field("description")),
        );
    }
    let mut kept = Vec::new();
    for p in &c.params {
        let location = match p.location {
            ParamIn::Path => "path",
            ParamIn::Query => "query",
            ParamIn::Header => "header",
            ParamIn::Body => continue,
        };
        if p.location == ParamIn::Header
            && RESERVED_HEADERS.contains(&p.name.to_ascii_lowercase().as_str())
        {
            diags.push(
                Diagnostic::new(Code::OpenapiLost, format!(
                    "OpenAPI ignores a header parameter named `{}`; it is left out of the OpenAPI document",
                    p.name
                ))
                .at(format!("{}.{}", c.field("params"), p.name))
                .help("describe Authorization through [auth], and content types through `content_type`"),
            );
            continue;
        }
        if plugin
            && p.description
                .as_ref()
                .is_some_and(|d| d.chars().count() > PLUGIN_TEXT_LIMIT)
        {
            diags.push(
                Diagnostic::new(Code::OpenapiParamDescriptionCut, format!(
                    "the description is over {PLUGIN_TEXT_LIMIT} characters: OpenAI's plugin tooling cuts parameter descriptions there"
                ))
                .at(format!("{}.{}", c.field("params"), p.name)),
            );
        }
        kept.push((p, location));
    }
    // A GET gets a request body only from body parameters (an example alone makes none).
    if c.method == Method::Get && c.params.iter().any(|p| p.location == ParamIn::Body) {
        diags.push(
            Diagnostic::new(Code::OpenapiGetBody,
                "a GET capability with body parameters: OpenAPI 3.1 allows it, but many clients and \
                 proxies drop GET bodies",
            )
            .at(c.field("params"))
            .help("send them as query parameters (`in = \"query\"`), or use POST"),
        );
    }
    kept
}

/// Pure: the document at both of its paths, one shared body.
pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let body =
        lowered.fitted.made().cloned().unwrap_or_else(|| {
            to_json_bytes_budgeted(&render_document(service, lowered), None).into()
        });
    PATHS
        .iter()
        .map(|p| Artifact::document(*p, body.clone(), RFC002_SERVING))
        .collect()
}

/// The whole document as JSON, with the diagnostics `lower` reports.
pub fn document(service: &Service, diags: &mut Diagnostics) -> Value {
    render_document(service, &lower(service, &Target::ALL, diags))
}

/// The whole document as JSON, keys in the order the OpenAPI specification lists them.
pub fn render_document(service: &Service, lowered: &Lowered) -> Value {
    render_cut(service, lowered, Fit::default()).0
}

/// The document as `fit` makes it, and how many subschemas its `levels` cut
/// (`schemas::keep_levels`).
fn render_cut(service: &Service, lowered: &Lowered, fit: Fit) -> (Value, usize) {
    let schemes = &lowered.schemes;
    let mut doc = Map::new();
    doc.insert("openapi".into(), json!(VERSION));
    doc.insert("info".into(), info(service));
    doc.insert(
        "servers".into(),
        json!([{ "url": service.base_url.as_str() }]),
    );
    let mut held = Vec::new();
    let mut paths = paths(service, lowered, &mut held, fit.lean);
    let mut cut = 0;
    if let Some(levels) = fit.levels {
        for schema in &mut held {
            let kept = schemas::keep_levels_inlined(&service.schemas, schema, levels, &mut cut);
            *schema = Cow::Owned(kept);
        }
    }
    if let Some(levels) = fit.input_levels {
        for part in operation_parts(&mut paths) {
            let schemas: Vec<&mut Value> = match part {
                Part::Parameter { value, .. } => value.get_mut("schema").into_iter().collect(),
                Part::RequestBody { value, .. } => media_schemas(value).collect(),
                Part::Response { .. } => Vec::new(),
            };
            for schema in schemas {
                *schema = schemas::keep_levels_inlined(&service.schemas, schema, levels, &mut cut);
            }
        }
    }
    let keys = &lowered.named;
    let mut shared = share_schemas(&mut paths, &held, SHARING, &[], keys.taken());
    let named = schemas::publish_named(
        &service.schemas,
        keys,
        SHARING.prefix,
        std::iter::once(&mut paths).chain(shared.iter_mut().map(|(_, v)| v)),
    );
    let shared = named.into_iter().chain(shared).collect();
    let parts = parts::share(&mut paths);
    if fit.lean {
        hoist_parameters(&mut paths);
    }
    doc.insert("paths".into(), paths);
    let mut components = shared_components(shared, parts);
    if !schemes.is_empty() {
        let schemes: Map<String, Value> = schemes
            .iter()
            .map(|(name, scheme)| (name.to_string(), scheme.clone()))
            .collect();
        components.insert("securitySchemes".into(), Value::Object(schemes));
    }
    if !components.is_empty() {
        doc.insert("components".into(), Value::Object(components));
    }
    if !schemes.is_empty() {
        // The default for every operation that does not say otherwise (`protected`).
        let any: Vec<Value> = requirement_objects(&lowered.requirements, &[]);
        doc.insert("security".into(), Value::Array(any));
    }
    let tags = tags(service);
    if !tags.is_empty() {
        doc.insert("tags".into(), Value::Array(tags));
    }
    if let Some(docs) = &service.links.docs {
        doc.insert("externalDocs".into(), json!({ "url": docs }));
    }
    doc.insert(
        "x-toolkit".into(),
        json!({
            "name": service.name,
            "version": service.version,
            "totalTools": service.capabilities.len(),
            "packageCount": 0,
        }),
    );
    (Value::Object(doc), cut)
}

fn info(service: &Service) -> Value {
    let mut info = Map::new();
    info.insert("title".into(), json!(service.name));
    info.insert("version".into(), json!(service.version));
    info.insert("description".into(), json!(service.description));
    if let Some(terms) = &service.links.terms {
        info.insert("termsOfService".into(), json!(terms));
    }
    let c = &service.contact;
    let mut contact = Map::new();
    for (key, value) in [
        ("name", c.name.as_deref()),
        ("url", c.url.as_deref()),
        ("email", c.email.as_deref()),
    ] {
        if let Some(v) = value {
            contact.insert(key.into(), json!(v));
        }
    }
    if !contact.is_empty() {
        info.insert("contact".into(), Value::Object(contact));
    }
    if let Some(license) = &service.license {
        info.insert("license".into(), json!({ "name": license }));
    }
    Value::Object(info)
}

/// Tag objects for every capability tag, in first-use order.
fn tags(service: &Service) -> Vec<Value> {
    let mut seen: Vec<&str> = Vec::new();
    for t in service.capabilities.iter().flat_map(|c| &c.tags) {
        if !seen.contains(&t.as_str()) {
            seen.push(t);
        }
    }
    seen.into_iter().map(|t| json!({ "name": t })).collect()
}

/// Security scheme name → scheme object, for every scheme of the service (each an
/// alternative), under the names `emit::security` gives them.
fn security_schemes(service: &Service) -> IndexMap<String, Value> {
    crate::emit::security::scheme_names(service)
        .into_iter()
        .filter_map(|(a, name)| crate::emit::security::scheme(a).map(|(_, s)| (name, s)))
        .collect()
}

/// The `paths` object; each response schema of the model is left in `held`, its place holding
/// its index there, until `share_schemas` puts the document's copy in.
fn paths<'a>(
    service: &Service,
    lowered: &Lowered<'a>,
    held: &mut Vec<Cow<'a, Value>>,
    lean: bool,
) -> Value {
    let mut paths: IndexMap<&str, Map<String, Value>> = IndexMap::new();
    for o in &lowered.operations {
        let c = o.capability;
        let op = operation(service, o, &lowered.requirements, held, lean);
        paths
            .entry(&o.path)
            .or_default()
            .insert(c.method.as_str().to_ascii_lowercase(), op);
    }
    // Moved, not `json!`: that would serialise every operation into a copy.
    Value::Object(
        paths
            .into_iter()
            .map(|(k, ops)| (k.to_string(), Value::Object(ops)))
            .collect(),
    )
}

/// Lean: a parameter that every operation of a path lists alike is listed once, on the path,
/// whose parameters apply to all its operations (OpenAPI §4.8.9.1).
fn hoist_parameters(paths: &mut Value) {
    for item in paths
        .as_object_mut()
        .into_iter()
        .flat_map(|m| m.values_mut())
        .filter_map(Value::as_object_mut)
    {
        if item.len() < 2 {
            continue;
        }
        let common: Vec<Value> = item
            .values()
            .next()
            .map_or(&[][..], listed)
            .iter()
            .filter(|p| item.values().all(|op| listed(op).contains(p)))
            .cloned()
            .collect();
        if common.is_empty() {
            continue;
        }
        for op in item.values_mut().filter_map(Value::as_object_mut) {
            if let Some(Value::Array(ps)) = op.get_mut("parameters") {
                ps.retain(|p| !common.contains(p));
                if ps.is_empty() {
                    op.shift_remove("parameters");
                }
            }
        }
        item.insert("parameters".into(), Value::Array(common));
    }
}

/// The parameters an operation lists, none if it lists none.
fn listed(op: &Value) -> &[Value] {
    op.get("parameters")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Request and response schemas repeated across operations go to `components/schemas` once
/// (`emit::schemas`); small documents stay as they are. A place holding a number takes its
/// schema from `held` (see `paths`).
/// The Components Object's fields for what the paths share: `schemas`, then each part's field,
/// in the order OpenAPI lists them (§4.8.7).
fn shared_components(
    schemas: Vec<(String, Value)>,
    parts: Vec<(&'static str, Vec<(String, Value)>)>,
) -> Map<String, Value> {
    let mut components = Map::new();
    if !schemas.is_empty() {
        components.insert(
            "schemas".into(),
            Value::Object(schemas.into_iter().collect()),
        );
    }
    for (field, entries) in parts {
        components.insert(field.into(), Value::Object(entries.into_iter().collect()));
    }
    components
}

fn share_schemas(
    paths: &mut Value,
    held: &[Cow<'_, Value>],
    policy: Policy,
    names: &[&SchemaNames],
    taken: &[String],
) -> Vec<(String, Value)> {
    let mut places: Vec<(&mut Value, bool, String)> = Vec::new();
    for part in operation_parts(paths) {
        match part {
            Part::Parameter { name, value } => {
                if let Some(schema) = value.get_mut("schema") {
                    places.push((schema, true, name));
                }
            }
            Part::RequestBody { operation, value } => {
                for schema in media_schemas(value) {
                    places.push((schema, false, format!("{operation}_request")));
                }
            }
            Part::Response {
                operation, value, ..
            } => {
                for schema in media_schemas(value) {
                    places.push((schema, true, format!("{operation}_response")));
                }
            }
        }
    }
    // A schema built for the document (a parameter's, a request body's) is taken out of it,
    // and the copy goes back in.
    let sources: Vec<Cow<Value>> = places
        .iter_mut()
        .map(|(v, ..)| {
            let index = v.as_u64().and_then(|i| usize::try_from(i).ok());
            match index.and_then(|i| held.get(i)) {
                Some(h) => Cow::Borrowed(&**h),
                None => Cow::Owned(std::mem::take(&mut **v)),
            }
        })
        .collect();
    let roots: Vec<Root> = places
        .iter_mut()
        .zip(&sources)
        .map(|((_, replaceable, hint), schema)| Root {
            schema,
            replaceable: *replaceable,
            hint: std::mem::take(hint),
        })
        .collect();
    let (copies, shared) = schemas::share(&roots, policy, names, taken);
    drop(roots);
    for ((place, ..), copy) in places.into_iter().zip(copies) {
        *place = copy;
    }
    shared
}

/// A parameter, request body or response of an operation in a `paths` object, with what a
/// shared component's name is made from.
pub(super) enum Part<'a> {
    Parameter {
        name: String,
        value: &'a mut Value,
    },
    RequestBody {
        operation: String,
        value: &'a mut Value,
    },
    Response {
        operation: String,
        status: String,
        value: &'a mut Value,
    },
}

/// Every operation's parameters, request body and responses, in document order, with a
/// path's own parameters before its operations' (a document shared anew has them:
/// `hoist_parameters` runs after the sharing of `render_cut`).
pub(super) fn operation_parts(paths: &mut Value) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    let items = paths
        .as_object_mut()
        .into_iter()
        .flat_map(|m| m.values_mut());
    for item in items.filter_map(Value::as_object_mut) {
        let (own, operations): (Vec<_>, Vec<_>) =
            item.iter_mut().partition(|(key, _)| *key == "parameters");
        for (_, list) in own {
            parameter_parts(list, &mut parts);
        }
        for op in operations
            .into_iter()
            .filter_map(|(_, v)| v.as_object_mut())
        {
            let operation = op
                .get("operationId")
                .and_then(Value::as_str)
                .unwrap_or("operation")
                .to_string();
            for (key, value) in op.iter_mut() {
                match key.as_str() {
                    "parameters" => parameter_parts(value, &mut parts),
                    "requestBody" => parts.push(Part::RequestBody {
                        operation: operation.clone(),
                        value,
                    }),
                    "responses" => {
                        for (status, r) in value.as_object_mut().into_iter().flatten() {
                            parts.push(Part::Response {
                                operation: operation.clone(),
                                status: status.clone(),
                                value: r,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    parts
}

fn parameter_parts<'a>(list: &'a mut Value, parts: &mut Vec<Part<'a>>) {
    for p in list.as_array_mut().into_iter().flatten() {
        let name = p.get("name").and_then(Value::as_str).unwrap_or("parameter");
        parts.push(Part::Parameter {
            name: name.to_string(),
            value: p,
        });
    }
}

/// The schema of each media type of a request body or response.
fn media_schemas(part: &mut Value) -> impl Iterator<Item = &mut Value> {
    part.get_mut("content")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|m| m.values_mut())
        .filter_map(|media| media.get_mut("schema"))
}

/// The OpenAPI path key of `c`: its path, then `?` and its query `constants` (`name=value`, a
/// bare `name` for an empty value) and `variables` (bare names), then `#` and its header
/// constants, which no request carries: the key is told apart, the URL is the path's, the
/// header stays a parameter (AWS's `X-Amz-Target`).
fn path_key(c: &Capability, constants: &[(&Param, String)], variables: &[&str]) -> String {
    let mut key = c.path.braces();
    for (mark, location) in [('?', ParamIn::Query), ('#', ParamIn::Header)] {
        let mut pairs: Vec<String> = constants
            .iter()
            .filter(|(p, _)| p.location == location)
            .map(|(p, v)| {
                if v.is_empty() {
                    p.name.clone()
                } else {
                    format!("{}={v}", p.name)
                }
            })
            .collect();
        if location == ParamIn::Query {
            pairs.extend(variables.iter().map(|name| name.to_string()));
        }
        if !pairs.is_empty() {
            key.push(mark);
            key.push_str(&pairs.join("&"));
        }
    }
    key
}

/// The names of the required query parameters whose names a path key can carry (no `#`,
/// `&`, `=`, `?`, braces or white space).
fn required_query(c: &Capability) -> impl Iterator<Item = &str> {
    c.params
        .iter()
        .filter(|p| p.location == ParamIn::Query && p.required)
        .map(|p| p.name.as_str())
        .filter(|name| {
            name.chars()
                .all(|ch| ch.is_ascii_graphic() && !matches!(ch, '#' | '&' | '=' | '{' | '}' | '?'))
        })
}

/// The required query and header parameters that take exactly one string value, with it.
fn constant_query(c: &Capability) -> Vec<(&Param, String)> {
    c.params
        .iter()
        .filter(|p| matches!(p.location, ParamIn::Query | ParamIn::Header) && p.required)
        .filter_map(|p| match &p.allowed[..] {
            // Braces in a key read as a path template to validators.
            [Value::String(v)]
                if v.chars()
                    .all(|ch| ch.is_ascii_graphic() && !matches!(ch, '#' | '&' | '{' | '}')) =>
            {
                Some((p, v.clone()))
            }
            _ => None,
        })
        .collect()
}

fn shape(c: &Capability) -> String {
    let mut out = c
        .host
        .as_ref()
        .map(|h| h.as_str().to_string())
        .unwrap_or_default();
    for s in c.path.segments() {
        match s {
            Segment::Literal(l) => out.push_str(l),
            Segment::Param(_) => out.push_str("{}"),
        }
    }
    out
}

fn operation<'a>(
    service: &Service,
    o: &Operation<'a>,
    requirements: &[Vec<String>],
    held: &mut Vec<Cow<'a, Value>>,
    lean: bool,
) -> Value {
    let c = o.capability;
    let mut op = Map::new();
    if !c.tags.is_empty() {
        op.insert("tags".into(), json!(c.tags));
    }
    // Lean, a summary that only names the method and path (the import's words for an
    // operation that had none) says what the operation's place says.
    if !(lean && c.description == format!("{} {}", c.method.as_str(), o.path)) {
        op.insert("summary".into(), json!(c.description));
    }
    if let Some(d) = &c.details {
        op.insert("description".into(), json!(d));
    }
    op.insert("operationId".into(), json!(c.id));
    let params: Vec<Value> = o
        .parameters
        .iter()
        .map(|(p, location)| parameter(p, location, &service.schemas))
        .collect();
    if !params.is_empty() {
        op.insert("parameters".into(), Value::Array(params));
    }
    if let Some(body) = request_body(c, &service.schemas) {
        op.insert("requestBody".into(), body);
    }
    op.insert("responses".into(), responses(c, held, lean));
    if c.deprecated {
        op.insert("deprecated".into(), json!(true));
    }
    if let Some(sec) = security(c, requirements) {
        op.insert("security".into(), sec);
    }
    if let Some(host) = &c.host {
        op.insert("servers".into(), json!([{ "url": host.as_str() }]));
    }
    // Lean, `false` is said by leaving the flag out.
    for (flag, on) in [
        ("x-rate-limited", rate_limited(service, c)),
        ("x-requires-confirmation", c.confirm),
    ] {
        if on || !lean {
            op.insert(flag.into(), json!(on));
        }
    }
    Value::Object(op)
}

/// Header names OpenAPI says are ignored as parameters: they are described elsewhere.
const RESERVED_HEADERS: [&str; 3] = ["accept", "content-type", "authorization"];

fn parameter(p: &Param, location: &str, schemas: &Schemas) -> Value {
    let mut v = Map::new();
    // The name the request carries (`wire_name`), as OpenAPI describes the request.
    v.insert("name".into(), json!(p.wire()));
    v.insert("in".into(), json!(location));
    if let Some(d) = &p.description {
        v.insert("description".into(), json!(d));
    }
    // OpenAPI: a path parameter MUST be required.
    v.insert(
        "required".into(),
        json!(p.required || p.location == ParamIn::Path),
    );
    v.insert("schema".into(), param_schema(p, schemas));
    if let Some(e) = &p.example {
        v.insert("example".into(), e.clone());
    }
    Value::Object(v)
}

/// The JSON Schema of one parameter's value.
pub fn param_schema(p: &Param, schemas: &Schemas) -> Value {
    let mut s = Map::new();
    s.insert("type".into(), json!(p.kind.as_str()));
    if let Some(items) = p.items {
        s.insert("items".into(), json!({ "type": items.as_str() }));
    } else if p.kind == ParamType::Array {
        s.insert("items".into(), json!({}));
    }
    if !p.allowed.is_empty() {
        s.insert("enum".into(), json!(p.allowed));
    }
    if let Some(d) = &p.default {
        s.insert("default".into(), d.clone());
    }
    if let Some(n) = p.min {
        s.insert("minimum".into(), json_number(n));
    }
    if let Some(n) = p.max {
        s.insert("maximum".into(), json_number(n));
    }
    if let Some(pattern) = &p.pattern {
        s.insert("pattern".into(), json!(pattern));
    }
    p.extend_schema(&mut s, schemas);
    // Inside a request body, the description and example have nowhere else to go.
    if p.location == ParamIn::Body {
        if let Some(d) = &p.description {
            s.insert("description".into(), json!(d));
        }
        if let Some(e) = &p.example {
            s.insert("examples".into(), json!([e]));
        }
    }
    Value::Object(s)
}

/// The request body: the body parameters as the fields of an object, or the one that is the
/// whole body (`param::whole_body`, as the notation and the MCP binding send it) as it is.
fn request_body(c: &Capability, schemas: &Schemas) -> Option<Value> {
    let body: Vec<&Param> = c
        .params
        .iter()
        .filter(|p| p.location == ParamIn::Body)
        .collect();
    // The request example holds the call's arguments by name: only those not sent in the path,
    // query or headers belong to the body. Without body parameters, an example alone makes a
    // body only for methods that carry one.
    let elsewhere: Vec<&str> = c
        .params
        .iter()
        .filter(|p| p.location != ParamIn::Body)
        .map(|p| p.name.as_str())
        .collect();
    let example = c
        .example
        .as_ref()
        .and_then(|e| e.request.clone())
        .map(|v| match v {
            Value::Object(m) => Value::Object(
                m.into_iter()
                    .filter(|(k, _)| !elsewhere.contains(&k.as_str()))
                    .collect(),
            ),
            other => other,
        })
        .filter(|v| v.as_object().is_none_or(|m| !m.is_empty()));
    if body.is_empty() && (example.is_none() || !c.method.writes()) {
        return None;
    }
    if let Some(i) = crate::values::param::whole_body(&c.params, c.content_type.as_deref(), schemas)
    {
        let p = &c.params[i];
        let example = example.and_then(|e| match e {
            Value::Object(mut m) => m.remove(&p.name),
            _ => None,
        });
        return Some(request(c, param_schema(p, schemas), example, p.required));
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    let props: Map<String, Value> = body
        .iter()
        .map(|p| (p.wire().to_string(), param_schema(p, schemas)))
        .collect();
    schema.insert("properties".into(), Value::Object(props));
    let required: Vec<&str> = body
        .iter()
        .filter(|p| p.required)
        .map(|p| p.wire())
        .collect();
    let any_required = !required.is_empty();
    if any_required {
        schema.insert("required".into(), json!(required));
    }
    Some(request(
        c,
        Value::Object(schema),
        example,
        any_required || c.body_required,
    ))
}

/// A `requestBody` of one media type. Moved in, not through `json!`, which would serialise a
/// copy of the body's schema.
fn request(c: &Capability, schema: Value, example: Option<Value>, required: bool) -> Value {
    let mut media = Map::new();
    media.insert("schema".into(), schema);
    if let Some(e) = example {
        media.insert("example".into(), e);
    }
    let mut content = Map::with_capacity(1);
    content.insert(body_content_type(c).into(), Value::Object(media));
    let mut request = Map::with_capacity(2);
    request.insert("required".into(), required.into());
    request.insert("content".into(), Value::Object(content));
    Value::Object(request)
}

fn responses<'a>(c: &'a Capability, held: &mut Vec<Cow<'a, Value>>, lean: bool) -> Value {
    let mut out = Map::new();
    let status = c
        .example
        .as_ref()
        .map(|e| e.status)
        .filter(|s| (200..300).contains(s))
        .unwrap_or(200);
    let mut ok = Map::new();
    let schema = c.output_schema.as_deref().map(Cow::Borrowed).or_else(|| {
        let returns = c.returns.as_deref()?;
        crate::model::returns::schema(returns).map(Cow::Owned)
    });
    // Lean, the schema alone says what a success returns.
    let description = match &c.returns {
        Some(r) if !(lean && schema.is_some()) => format!("Success. Returns {r}"),
        _ => "Success".to_string(),
    };
    ok.insert("description".into(), json!(description));
    let example = c
        .example
        .as_ref()
        .filter(|e| e.status == status)
        .and_then(|e| e.response.clone());
    if schema.is_some() || example.is_some() {
        let mut media = Map::new();
        if let Some(s) = schema {
            held.push(s);
            media.insert("schema".into(), (held.len() - 1).into());
        }
        if let Some(e) = example {
            media.insert("example".into(), e);
        }
        let content = Map::from_iter([("application/json".to_string(), Value::Object(media))]);
        ok.insert("content".into(), Value::Object(content));
    }
    out.insert(status.to_string(), Value::Object(ok));
    // Named errors, grouped by status; the ones without a status share `default`. The prose
    // description joins them for people; `x-errors` keeps each name and description apart, so
    // the OpenAPI import reads back the same errors (a description may hold `; ` or backticks).
    let mut by_status: IndexMap<String, Vec<&crate::model::NamedError>> = IndexMap::new();
    for e in &c.errors {
        let key = e.status.map_or("default".to_string(), |s| s.to_string());
        by_status.entry(key).or_default().push(e);
    }
    by_status.sort_by(|a, _, b, _| response_order(a).cmp(&response_order(b)));
    for (status, errors) in by_status {
        if lean {
            let mut texts: Vec<&str> = Vec::with_capacity(errors.len());
            for e in &errors {
                let text = e.description.as_deref().unwrap_or(&e.name);
                if !texts.contains(&text) {
                    texts.push(text);
                }
            }
            out.insert(status, json!({ "description": texts.join("; ") }));
            continue;
        }
        let texts: Vec<String> = errors
            .iter()
            .map(|e| match &e.description {
                Some(d) => format!("`{}`: {d}", e.name),
                None => format!("`{}`", e.name),
            })
            .collect();
        let named: Vec<Value> = errors
            .iter()
            .map(|e| match &e.description {
                Some(d) => json!({ "name": e.name, "description": d }),
                None => json!({ "name": e.name }),
            })
            .collect();
        out.insert(
            status,
            json!({ "description": texts.join("; "), "x-errors": named }),
        );
    }
    Value::Object(out)
}

/// Numeric statuses in order, `default` last.
fn response_order(key: &str) -> u16 {
    key.parse().unwrap_or(u16::MAX)
}

/// Per-operation security: public operations opt out, user-scoped ones name their scopes,
/// protected ones inherit the document-wide requirement.
fn security(c: &Capability, requirements: &[Vec<String>]) -> Option<Value> {
    if requirements.is_empty() {
        return None;
    }
    match c.access {
        Access::Public => Some(json!([])),
        Access::UserRequired => Some(Value::Array(requirement_objects(requirements, &c.scopes))),
        Access::Protected => None,
    }
}

/// Security Requirement Objects: each requirement's schemes, every one with `scopes`.
fn requirement_objects(requirements: &[Vec<String>], scopes: &[String]) -> Vec<Value> {
    requirements
        .iter()
        .map(|names| Value::Object(names.iter().map(|n| (n.clone(), json!(scopes))).collect()))
        .collect()
}
