//! The AGIS document built from the model and its derived endpoints (`emit::derive::agis`), and the
//! `/.well-known/agis.json` summary of §11.1.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use super::Lowered;
use crate::emit::derive::agis::Endpoint;
use crate::emit::schemas::{self, Policy, Root};
use crate::model::{Impact, Service, SiteType};
use crate::values::schema_names::SchemaNames;

pub const VERSION: &str = "1.0";
pub const GRAMMAR: &str = "AGIS/1.0";
/// References point into the document's top-level `schemas`; a schema is shared from this
/// size up (see `emit::schemas`).
const SHARING: Policy = Policy {
    prefix: "#/schemas/",
    min_bytes: 64,
    min_total: 64 * 1024,
    only_where_smaller: false,
};
/// For a document over its source's budget: every repeated schema whose references and
/// definition take fewer bytes than its copies, however small the document's schemas are.
const SHARING_TO_FIT: Policy = Policy {
    min_total: 0,
    only_where_smaller: true,
    ..SHARING
};

/// The vocabulary's domain: declared, else the site type or first category.
pub fn domain(service: &Service) -> (String, bool) {
    if let Some(d) = &service.agis.domain {
        return (d.clone(), false);
    }
    let d = match service.site_type {
        SiteType::Finance => "financial-services".to_string(),
        SiteType::Api | SiteType::Other => service
            .categories
            .first()
            .cloned()
            .unwrap_or_else(|| "general".into()),
        t => t.as_str().to_string(),
    };
    (d, true)
}

/// The vocabulary's namespace: declared, else the service name in lowercase-hyphenated form.
pub fn namespace(service: &Service) -> (String, bool) {
    match &service.agis.namespace {
        Some(n) => (n.clone(), false),
        None => {
            let n = crate::text::kebab_case(&service.name.to_lowercase());
            (if n.is_empty() { "service".into() } else { n }, true)
        }
    }
}

/// The AGTP address: declared, else `agtp://` + the host the documents are published at.
pub fn agtp(service: &Service) -> (String, bool) {
    match &service.agis.agtp {
        Some(a) => (a.clone(), false),
        None => (format!("agtp://{}", service.site_url.host()), true),
    }
}

/// Method identifiers in first-use order, each once (case-insensitively).
pub fn declared_verbs(endpoints: &[Endpoint]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in endpoints {
        if !out.iter().any(|m| m.eq_ignore_ascii_case(&e.method)) {
            out.push(e.method.clone());
        }
    }
    out
}

/// The full AGIS document as JSON (both serialisations are written from this one value).
pub fn document(service: &Service, lowered: &Lowered) -> Value {
    document_cut(service, lowered, None).0
}

/// The document with every endpoint's output kept to `levels` levels of fields
/// (`schemas::keep_levels`), if given, and how many subschemas that cut.
pub fn document_cut(service: &Service, lowered: &Lowered, levels: Option<usize>) -> (Value, usize) {
    let endpoints = &lowered.derived.endpoints;
    // Optional in the document (§8.2(d)) and in the HTTP binding: only the author's own.
    let namespace = service.agis.namespace.as_deref();
    let mut doc = Map::new();
    doc.insert("agis".into(), VERSION.into());
    doc.insert("service".into(), service.name.clone().into());
    doc.insert("agtp".into(), lowered.agtp.clone().into());
    doc.insert("description".into(), service.description.clone().into());
    doc.insert("version".into(), service.version.clone().into());
    let mut cut = 0;
    let outputs: Option<Vec<Value>> = levels.map(|levels| {
        let keep = |e: &Endpoint| {
            schemas::keep_levels_inlined(&service.schemas, &e.output, levels, &mut cut)
        };
        endpoints.iter().map(keep).collect()
    });
    let keys = &lowered.named;
    let (mut schemas, mut shared) = share_schemas(endpoints, outputs.as_deref(), &[], keys.taken());
    let named = schemas::publish_named(
        &service.schemas,
        keys,
        SHARING.prefix,
        schemas.iter_mut().chain(shared.iter_mut().map(|(_, v)| v)),
    );
    let shared: Vec<(String, Value)> = named.into_iter().chain(shared).collect();
    let mut schemas = schemas.into_iter();
    let list: Vec<Value> = endpoints
        .iter()
        .zip(&lowered.derived.tool_names)
        .map(|(e, t)| {
            let (Some(input), Some(output)) = (schemas.next(), schemas.next()) else {
                unreachable!("`share_schemas` copies two schemas per endpoint")
            };
            let tool_name = t.explicit.then_some(t.name.as_str());
            endpoint_json(service, e, [namespace, tool_name], input, output)
        })
        .collect();
    doc.insert("endpoints".into(), list.into());
    let mut vocabulary = Map::new();
    vocabulary.insert("declared_verbs".into(), declared_verbs(endpoints).into());
    vocabulary.insert("domain".into(), lowered.domain.clone().into());
    if let Some(n) = namespace {
        vocabulary.insert("namespace".into(), n.into());
    }
    vocabulary.insert("version".into(), service.version.clone().into());
    vocabulary.insert("negotiable".into(), service.agis.negotiable.into());
    doc.insert("vocabulary".into(), vocabulary.into());
    if let Some(m) = &service.agis.data_manifest {
        let available: Vec<Value> = m
            .available_data
            .iter()
            .map(|d| {
                let mut o = Map::new();
                o.insert("class".into(), d.class.clone().into());
                if let Some(x) = &d.description {
                    o.insert("description".into(), x.clone().into());
                }
                o.insert("formats".into(), d.formats.clone().into());
                if let Some(x) = &d.sensitivity {
                    o.insert("sensitivity".into(), x.clone().into());
                }
                if let Some(x) = d.requires_authorization {
                    o.insert("requires_authorization".into(), x.into());
                }
                o.into()
            })
            .collect();
        doc.insert(
            "data_manifest".into(),
            json!({"available_data": available, "pre_auth_discovery": m.pre_auth_discovery}),
        );
    }
    if !shared.is_empty() {
        doc.insert(
            "schemas".into(),
            Value::Object(shared.into_iter().collect()),
        );
    }
    (doc.into(), cut)
}

/// Schemas repeated across endpoints go once into the top-level `schemas` ("shared JSON Schema
/// definitions referenced by endpoints", §8.1). `input` itself stays in place: it carries the
/// endpoint's `required` array (§7); its parts and the whole `output` may be references.
/// Returns each endpoint's input and output, in turn, and the shared schemas.
/// `outputs`, if given, stand for the endpoints' own.
fn share_schemas(
    endpoints: &[Endpoint],
    outputs: Option<&[Value]>,
    names: &[&SchemaNames],
    taken: &[String],
) -> (Vec<Value>, Vec<(String, Value)>) {
    let mut roots = Vec::with_capacity(2 * endpoints.len());
    for (i, e) in endpoints.iter().enumerate() {
        let hint = hint(&e.method, &e.path);
        let output = outputs.map_or(&*e.output, |o| &o[i]);
        for (key, schema, replaceable) in [("input", &e.input, false), ("output", output, true)] {
            roots.push(Root {
                schema,
                replaceable,
                hint: format!("{hint}_{key}"),
            });
        }
    }
    schemas::share(&roots, SHARING, names, taken)
}

/// `doc` with its schemas shared anew (`SHARING_TO_FIT`), as `document` would share them
/// if the steps that left parts out of the endpoints' schemas had been taken before: each
/// endpoint's input and output with every reference into `schemas` put back in place, then
/// shared. The schemas named in `named` (the model's) stay as they are, first, and are
/// referred to.
pub fn reshared(doc: &Value, named: &[String]) -> Value {
    let (kept, shared): (Map<String, Value>, Map<String, Value>) = doc
        .get("schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.clone()))
        .partition(|(k, _)| named.contains(k));
    let shared = &shared;
    let mut doc = doc.clone();
    let Some(list) = doc.get_mut("endpoints").and_then(Value::as_array_mut) else {
        return doc;
    };
    let target = |r: &str| shared.get(r.strip_prefix(SHARING.prefix)?);
    let names = schemas::names_of(shared, &target);
    let mut owned = Vec::with_capacity(2 * list.len());
    let mut hints = Vec::with_capacity(list.len());
    for e in list.iter() {
        owned.push(schemas::inlined(&e["input"], &target));
        owned.push(schemas::inlined(&e["output"], &target));
        let (method, path) = (e["method"].as_str(), e["path"].as_str());
        hints.push(hint(method.unwrap_or_default(), path.unwrap_or_default()));
    }
    let roots: Vec<Root> = owned
        .iter()
        .enumerate()
        .map(|(i, schema)| Root {
            schema,
            replaceable: i % 2 == 1,
            hint: format!("{}_{}", hints[i / 2], ["input", "output"][i % 2]),
        })
        .collect();
    let (copies, shared) = schemas::share(&roots, SHARING_TO_FIT, &[&names], named);
    let shared: Vec<(String, Value)> = kept.into_iter().chain(shared).collect();
    let mut copies = copies.into_iter();
    for e in list.iter_mut() {
        for key in ["input", "output"] {
            e[key] = copies.next().unwrap_or_default();
        }
    }
    let Value::Object(map) = &mut doc else {
        return doc;
    };
    map.shift_remove("schemas");
    if !shared.is_empty() {
        map.insert(
            "schemas".into(),
            Value::Object(shared.into_iter().collect()),
        );
    }
    doc
}

/// The component name hint of an endpoint's schemas: `get_users_{id}`.
fn hint(method: &str, path: &str) -> String {
    format!("{}{}", method.to_lowercase(), path.replace('/', "_"))
}

/// Leaves out the descriptions of each endpoint's parameters and output and of the shared
/// schemas, below their top level or all (`cut`); returns how many.
pub fn drop_descriptions(doc: &mut Value, cut: schemas::Cut) -> usize {
    let mut n = 0;
    for e in doc["endpoints"].as_array_mut().into_iter().flatten() {
        if let Some(props) = e["input"]
            .get_mut("properties")
            .and_then(Value::as_object_mut)
        {
            n += props.values_mut().map(|p| cut.apply(p)).sum::<usize>();
        }
        if let Some(output) = e.get_mut("output") {
            n += cut.apply(output);
        }
    }
    if let Some(Value::Object(shared)) = doc.get_mut("schemas") {
        n += shared.values_mut().map(|s| cut.apply(s)).sum::<usize>();
    }
    n
}

/// Leaves out every endpoint's `http_binding` headers, which say again the endpoint's method
/// and the grammar's version; returns from how many endpoints.
pub fn drop_binding_headers(doc: &mut Value) -> usize {
    doc["endpoints"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .filter_map(|e| e.get_mut("http_binding").and_then(Value::as_object_mut))
        .map(|binding| usize::from(binding.shift_remove("headers").is_some()))
        .sum()
}

/// Writes each endpoint's `http_binding` URL on `origin` (where the documents are published)
/// as the path reference that resolves to it from the document's own URL (RFC 3986 §5.2:
/// `/v1/items` read at `https://api.example.com/.well-known/agis/service.agis.json`); returns
/// how many. A path that starts `//` would name another host, and stays absolute.
pub fn relative_binding_urls(doc: &mut Value, origin: &str) -> usize {
    let mut n = 0;
    for e in doc["endpoints"].as_array_mut().into_iter().flatten() {
        let Some(url) = e.get_mut("http_binding").and_then(|b| b.get_mut("url")) else {
            continue;
        };
        let path = url
            .as_str()
            .and_then(|u| u.strip_prefix(origin))
            .filter(|p| p.starts_with('/') && !p.starts_with("//"));
        if let Some(path) = path {
            *url = path.to_string().into();
            n += 1;
        }
    }
    n
}

/// Writes each error that is a name alone (`{"name": "x"}`) as the bare name, the draft's own
/// form (§7's examples); returns how many.
pub fn bare_error_names(doc: &mut Value) -> usize {
    let mut n = 0;
    for e in doc["endpoints"].as_array_mut().into_iter().flatten() {
        for error in e
            .get_mut("errors")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let name = match error.as_object() {
                Some(o) if o.len() == 1 => o.get("name").filter(|n| n.is_string()).cloned(),
                _ => None,
            };
            if let Some(name) = name {
                *error = name;
                n += 1;
            }
        }
    }
    n
}

/// Leaves out, from each endpoint that only reads (impact `informational`), the semantic
/// values AGIS recommends but does not require (§3.3: capability, confidence_guidance,
/// impact_tier, is_idempotent) that the author did not declare and wellgen derived; returns
/// how many endpoints lost any. What each endpoint does (intent, actor, outcome) stays, and an
/// endpoint that changes something keeps the impact and confidence an agent checks first.
pub fn drop_read_guesses(doc: &mut Value, endpoints: &[Endpoint]) -> usize {
    let Some(list) = doc["endpoints"].as_array_mut() else {
        return 0;
    };
    let mut n = 0;
    for (json, e) in list.iter_mut().zip(endpoints) {
        let Some(semantic) = json.get_mut("semantic").and_then(Value::as_object_mut) else {
            continue;
        };
        if e.impact != Impact::Informational {
            continue;
        }
        let s = &e.capability.semantic;
        let mut any = false;
        for (key, declared) in [
            ("capability", s.capability.is_some()),
            ("confidence_guidance", s.confidence.is_some()),
            ("impact_tier", s.impact.is_some()),
            ("is_idempotent", s.idempotent.is_some()),
        ] {
            any |= !declared && semantic.shift_remove(key).is_some();
        }
        n += usize::from(any);
    }
    n
}

/// Leaves out `is_idempotent` where wellgen derived `false`, the value AGIS reads when it is
/// absent (§6.2: "Defaults to false if absent"); returns from how many endpoints.
pub fn drop_default_idempotence(doc: &mut Value, endpoints: &[Endpoint]) -> usize {
    let mut n = 0;
    for (json, e) in semantic_blocks(doc).zip(endpoints) {
        if e.capability.semantic.idempotent.is_none()
            && json.get("is_idempotent") == Some(&Value::Bool(false))
        {
            json.shift_remove("is_idempotent");
            n += 1;
        }
    }
    n
}

/// Leaves out, from each endpoint that changes something, the `capability` class wellgen
/// derived (RECOMMENDED, §3.3); the endpoint keeps its impact and confidence. Returns from
/// how many endpoints.
pub fn drop_write_classes(doc: &mut Value, endpoints: &[Endpoint]) -> usize {
    let mut n = 0;
    for (json, e) in semantic_blocks(doc).zip(endpoints) {
        if e.impact != Impact::Informational
            && e.capability.semantic.capability.is_none()
            && json.shift_remove("capability").is_some()
        {
            n += 1;
        }
    }
    n
}

/// Leaves out the `mcp_tool_name` of every endpoint whose author did not declare one (its
/// capability id, which the MCP tools list publishes); returns how many.
pub fn drop_derived_tool_names(doc: &mut Value, endpoints: &[Endpoint]) -> usize {
    let mut n = 0;
    for (json, e) in semantic_blocks(doc).zip(endpoints) {
        if e.capability.semantic.mcp_tool_name.is_none()
            && json.shift_remove("mcp_tool_name").is_some()
        {
            n += 1;
        }
    }
    n
}

/// Each endpoint's `semantic` object, in order (an endpoint without one, which `document`
/// never writes, is skipped).
fn semantic_blocks(doc: &mut Value) -> impl Iterator<Item = &mut Map<String, Value>> {
    doc["endpoints"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .filter_map(|e| e.get_mut("semantic").and_then(Value::as_object_mut))
}

/// Leaves out the description of every endpoint's errors; returns how many.
pub fn drop_error_descriptions(doc: &mut Value) -> usize {
    doc["endpoints"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .filter_map(|e| e.get_mut("errors").and_then(Value::as_array_mut))
        .flatten()
        .filter_map(Value::as_object_mut)
        .map(|error| usize::from(error.shift_remove("description").is_some()))
        .sum()
}

fn endpoint_json(
    service: &Service,
    e: &Endpoint,
    [namespace, tool_name]: [Option<&str>; 2],
    input: Value,
    output: Value,
) -> Value {
    let s = &e.capability.semantic;
    let mut semantic = Map::new();
    semantic.insert("intent".into(), e.intent.clone().into());
    semantic.insert("actor".into(), e.actor.clone().into());
    semantic.insert("outcome".into(), e.outcome.clone().into());
    semantic.insert("capability".into(), e.class.clone().into());
    semantic.insert("confidence_guidance".into(), e.confidence.into());
    semantic.insert("impact_tier".into(), e.impact.as_str().into());
    semantic.insert("is_idempotent".into(), e.idempotent.into());
    if !s.parameter_hints.is_empty() {
        semantic.insert("parameter_hints".into(), json!(s.parameter_hints));
    }
    if !s.state_transition.is_empty() {
        semantic.insert("state_transition".into(), json!(s.state_transition));
    }
    if let Some(n) = tool_name {
        semantic.insert("mcp_tool_name".into(), n.into());
    }
    let errors: Vec<Value> = e
        .errors
        .iter()
        .map(|(name, description)| match description {
            Some(d) => json!({"name": name, "description": d}),
            None => json!({"name": name}),
        })
        .collect();
    // Built by hand: `json!` would serialise the schemas into copies instead of moving them.
    let mut endpoint = Map::new();
    endpoint.insert("method".into(), e.method.clone().into());
    endpoint.insert("path".into(), e.path.clone().into());
    endpoint.insert("semantic".into(), Value::Object(semantic));
    endpoint.insert("input".into(), input);
    endpoint.insert("output".into(), output);
    endpoint.insert("errors".into(), Value::Array(errors));
    let mut headers: IndexMap<&str, &str> = IndexMap::new();
    headers.insert("X-AGIS-Method", e.method.as_str());
    headers.insert("X-AGIS-Grammar", GRAMMAR);
    if let Some(n) = namespace {
        headers.insert("X-AGIS-Namespace", n);
    }
    endpoint.insert(
        "http_binding".into(),
        json!({
            "method": e.capability.method.as_str(),
            "url": e.capability.url(&service.base_url),
            "headers": headers,
        }),
    );
    Value::Object(endpoint)
}

/// `/.well-known/agis.json`: every field of §11.1, from the document and the model.
/// The endpoints' capabilities and impacts are read from `endpoints`, as a document over its
/// budget may leave some out (`drop_read_guesses`).
pub fn summary(
    service: &Service,
    doc: &Value,
    endpoints: &[Endpoint],
    [document_url, mcp_url]: [&str; 2],
) -> Value {
    let mut capability_summary: Vec<String> = Vec::new();
    let mut read_only = false;
    for e in endpoints {
        if !capability_summary.contains(&e.class) {
            capability_summary.push(e.class.clone());
        }
        read_only |= e.impact == Impact::Informational;
    }
    let manifest = service.agis.data_manifest.as_ref();
    let protocols: Vec<String> = if service.agis.interaction_protocols.is_empty() {
        derived_protocols(service, read_only)
    } else {
        service.agis.interaction_protocols.clone()
    };
    json!({
        "agis": VERSION,
        "service": service.name,
        "agtp": doc["agtp"],
        "agis_document": document_url,
        "methods": doc["vocabulary"]["declared_verbs"],
        "domain": doc["vocabulary"]["domain"],
        "namespace": namespace(service).0,
        "negotiable": service.agis.negotiable,
        "capability_summary": capability_summary,
        "data_classes": manifest.map(|m| m.available_data.iter().map(|d| d.class.clone()).collect::<Vec<_>>()).unwrap_or_default(),
        // Without a manifest the documents are still public files: discoverable without credentials.
        "pre_auth_discovery": manifest.is_none_or(|m| m.pre_auth_discovery),
        "version": service.version,
        "interaction_protocols": protocols,
        "related_services": service.agis.related_services,
        "mcp_tools_list": mcp_url,
    })
}

/// `request` always; `query` when an endpoint only reads; `negotiate` when negotiable;
/// `confirm` when a capability asks for a human's confirmation.
pub fn derived_protocols(service: &Service, read_only: bool) -> Vec<String> {
    let mut out = vec!["request".to_string()];
    if service.agis.negotiable {
        out.push("negotiate".into());
    }
    if service.capabilities.iter().any(|c| c.confirm) {
        out.push("confirm".into());
    }
    if read_only {
        out.push("query".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shared anew, with no named schema of the model.
    fn reshared(doc: &Value) -> Value {
        super::reshared(doc, &[])
    }

    fn doc(urls: &[&str]) -> Value {
        let endpoints: Vec<Value> = urls
            .iter()
            .map(|u| json!({"http_binding": {"method": "GET", "url": u}}))
            .collect();
        json!({ "endpoints": endpoints })
    }

    #[test]
    fn only_urls_on_the_documents_own_origin_become_paths() {
        let mut d = doc(&[
            "https://api.example.com/v1/items",
            "https://api.example.com.evil.test/v1/items",
            "https://api.example.com:8443/v1/items",
            "https://other.example.com/v1/items",
            "https://api.example.com//cdn.test/x",
            "https://api.example.com",
        ]);
        assert_eq!(relative_binding_urls(&mut d, "https://api.example.com"), 1);
        let urls: Vec<&str> = d["endpoints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["http_binding"]["url"].as_str().unwrap())
            .collect();
        assert_eq!(
            urls,
            [
                "/v1/items",
                "https://api.example.com.evil.test/v1/items",
                "https://api.example.com:8443/v1/items",
                "https://other.example.com/v1/items",
                "https://api.example.com//cdn.test/x",
                "https://api.example.com",
            ]
        );
    }

    #[test]
    fn only_errors_that_are_a_name_alone_become_bare_names() {
        let mut d = json!({"endpoints": [{"errors": [
            {"name": "not_found"},
            {"name": "conflict", "description": "Taken."},
            "gone",
        ]}]});
        assert_eq!(bare_error_names(&mut d), 1);
        assert_eq!(
            d["endpoints"][0]["errors"],
            json!(["not_found", {"name": "conflict", "description": "Taken."}, "gone"])
        );
    }

    #[test]
    fn resharing_puts_references_back_and_shares_what_pays() {
        let widget = json!({"type": "object", "properties": {
            "id": {"type": "string", "description": "The widget's identifier."},
            "name": {"type": "string", "description": "What people call the widget."},
        }});
        let endpoint = |i: usize, output: Value| json!({"method": "FETCH", "path": format!("/w{i}"), "input": {"type": "object", "properties": {}, "required": []}, "output": output});
        // Shared under a name the first time, inline the second: resharing finds both equal,
        // and keeps the name.
        let endpoints: Vec<Value> = (0..5)
            .map(|i| {
                let output = if i % 2 == 0 {
                    json!({"$ref": "#/schemas/old"})
                } else {
                    widget.clone()
                };
                endpoint(i, output)
            })
            .collect();
        let d = json!({"agis": "1.0", "endpoints": endpoints, "schemas": {"old": widget}});
        let again = reshared(&d);
        let shared = again["schemas"].as_object().unwrap();
        assert_eq!(shared.len(), 1, "{again}");
        let (name, body) = shared.iter().next().unwrap();
        assert_eq!(body, &widget);
        assert_eq!(name, "old");
        for e in again["endpoints"].as_array().unwrap() {
            assert_eq!(e["output"], json!({"$ref": "#/schemas/old"}));
        }
        // Resharing what is already shared that way changes nothing.
        assert_eq!(reshared(&again), again);
    }
}
