//! The AGIS document built from the model: endpoints with every §6–§8 field, derived where the
//! author left a field out (each derivation reported once per capability), and the
//! `/.well-known/agis.json` summary of §11.1.

use std::borrow::Cow;

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use super::validate::{consistency, path_syntax, text_rules};
use super::verbs::{self, VerbClass};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Auth, Capability, Impact, Method, Param, Service, SiteType};

pub const VERSION: &str = "1.0";
pub const GRAMMAR: &str = "AGIS/1.0";

/// One endpoint as AGIS sees it, with the capability it came from.
pub struct Endpoint<'a> {
    pub capability: &'a Capability,
    pub method: String,
    pub path: String,
    pub intent: String,
    pub actor: String,
    pub outcome: String,
    pub class: String,
    pub confidence: f64,
    pub impact: Impact,
    pub idempotent: bool,
    pub input: Value,
    /// Borrowed from the model when it has a schema: the MCP back end builds endpoints too and
    /// never reads this.
    pub output: Cow<'a, Value>,
    pub errors: Vec<(String, Option<String>)>,
}

impl Endpoint<'_> {
    /// The first literal path segment: the entity, and the second half of the MCP tool name.
    pub fn entity(&self) -> &str {
        self.path
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or_default()
    }
}

/// Builds every endpoint, pushing one warning per capability that lists what was derived.
pub fn endpoints<'a>(service: &'a Service, diags: &mut Diagnostics) -> Vec<Endpoint<'a>> {
    let mut out: Vec<Endpoint> = Vec::new();
    for c in &service.capabilities {
        let mut derived: Vec<String> = Vec::new();
        let e = endpoint(service, c, &mut derived, &out);
        if !derived.is_empty() {
            let at = if c.semantic == Default::default() {
                c.field("id")
            } else {
                c.field("semantic")
            };
            diags.push(
                Diagnostic::warning(format!(
                    "AGIS endpoint `{} {}` for `{}`: derived {}",
                    e.method,
                    e.path,
                    c.id,
                    derived.join("; ")
                ))
                .at(at)
                .help("declare these in `[capabilities.semantic]` (verb, path, intent, actor, outcome, capability, confidence, impact, idempotent) to publish your own wording"),
            );
        }
        out.push(e);
    }
    out
}

fn endpoint<'a>(
    service: &Service,
    c: &'a Capability,
    derived: &mut Vec<String>,
    earlier: &[Endpoint],
) -> Endpoint<'a> {
    let s = &c.semantic;
    // The text the method must agree with: the author's intent, else the description.
    let intent_text = s.intent.clone().unwrap_or_else(|| c.description.clone());
    let method = match &s.verb {
        Some(v) => v.clone(),
        None => {
            let d = verbs::derive_method(c, &intent_text);
            derived.push(format!("method {} ({})", d.method, d.how));
            d.method
        }
    };
    let class = verbs::class_of(&method.to_ascii_lowercase());
    let path = match &s.path {
        Some(p) => p.clone(),
        None => {
            let method_word = method.to_ascii_lowercase();
            let mut p = verbs::derive_path(c, &method);
            if !path_syntax(&p, &method).is_empty() {
                p = format!("/{}", verbs::noun_from_id(&c.id, &method_word));
            }
            if !path_syntax(&p, &method).is_empty() {
                p = "/resource".into();
            }
            // Two capabilities may reduce to the same method and path: tell them apart by the
            // id's nouns (its verbs would break §5(b) in a derived path), then by a number.
            let taken = |p: &str| earlier.iter().any(|e| e.method == method && e.path == p);
            if taken(&p) {
                let base = p.trim_end_matches('/').to_string();
                let extra = verbs::noun_words(&c.id, &method_word);
                p = if extra.is_empty() {
                    base.clone()
                } else {
                    format!("{base}/{extra}")
                };
                let mut n = 2;
                // `base` passes §5 and `variant-N` is a noun, so this ends; the bound is a guard.
                while (taken(&p) || !path_syntax(&p, &method).is_empty()) && n < 10_000 {
                    p = format!("{base}/variant-{n}");
                    n += 1;
                }
            }
            if p != c.path.braces() {
                derived.push(format!("path {p} (from {})", c.path.braces()));
            }
            p
        }
    };
    let noun = path
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or("resource")
        .replace('-', " ");
    let intent = match &s.intent {
        Some(i) => i.clone(),
        None => {
            let fits = consistency(&method, &c.description).is_none()
                && text_rules("intent", &c.description).is_empty();
            if fits {
                derived.push("intent (the description)".into());
                c.description.clone()
            } else {
                derived.push(
                    "intent (from the method and path: the description did not fit AGIS's rules)"
                        .into(),
                );
                format!(
                    "{} {noun} on behalf of the calling agent",
                    verbs::third_person(&method)
                )
            }
        }
    };
    let actor = s.actor.clone().unwrap_or_else(|| {
        derived.push("actor agent".into());
        "agent".into()
    });
    let impact = s.impact.unwrap_or_else(|| {
        let i = match c.method {
            Method::Get => Impact::Informational,
            Method::Delete => Impact::Irreversible,
            _ if c.confirm => Impact::Irreversible,
            _ => Impact::Reversible,
        };
        derived.push(format!("impact_tier {}", i.as_str()));
        i
    });
    let one = verbs::names_one_instance(c);
    let capability_class = s.capability.clone().unwrap_or_else(|| {
        let k = match class {
            Some(k) => k.capability(one),
            None if c.method == Method::Get => VerbClass::Read.capability(one),
            None => "transaction",
        };
        derived.push(format!("capability {k}"));
        k.to_string()
    });
    let outcome = s.outcome.clone().unwrap_or_else(|| {
        derived.push("outcome (from the method's class)".into());
        outcome_for(class, c.method, &noun, one)
    });
    let confidence = s.confidence.unwrap_or_else(|| {
        let v = match impact {
            Impact::Informational => 0.6,
            Impact::Reversible => 0.75,
            Impact::Irreversible => 0.9,
        };
        derived.push(format!("confidence_guidance {v}"));
        v
    });
    let idempotent = s.idempotent.unwrap_or_else(|| {
        let v = matches!(c.method, Method::Get | Method::Put | Method::Delete);
        derived.push(format!("is_idempotent {v}"));
        v
    });
    let output = match (&c.output_schema, &c.returns) {
        (Some(schema), _) => Cow::Borrowed(schema),
        // The compact notation is the author's own statement of the shape: no guess to warn of.
        (None, Some(r)) => Cow::Owned(crate::model::returns::schema(r).unwrap_or_else(|| {
            derived.push("output schema (an object described by `returns`)".into());
            json!({"type": "object", "description": r})
        })),
        (None, None) => {
            derived.push("output schema (any object)".into());
            Cow::Owned(json!({"type": "object"}))
        }
    };
    let errors = if c.errors.is_empty() {
        let list = derived_errors(service, c, &noun);
        derived.push(format!(
            "errors {}",
            list.iter()
                .map(|e| e.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        list
    } else {
        c.errors
            .iter()
            .map(|e| (e.name.clone(), e.description.clone()))
            .collect()
    };
    Endpoint {
        capability: c,
        method,
        path,
        intent,
        actor,
        outcome,
        class: capability_class,
        confidence,
        impact,
        idempotent,
        input: input_schema(&c.params),
        output,
        errors,
    }
}

fn outcome_for(class: Option<VerbClass>, http: Method, noun: &str, one: bool) -> String {
    let class = class.unwrap_or(if http == Method::Get {
        VerbClass::Read
    } else {
        VerbClass::Create
    });
    match class {
        VerbClass::Read if one => format!("The requested {noun} is returned"),
        VerbClass::Read => format!("A list of matching {noun} is returned"),
        VerbClass::Create => format!("A new {noun} record exists and its identifier is returned"),
        VerbClass::Modify => format!("The {noun} reflects the requested changes"),
        VerbClass::Remove => format!("The {noun} is no longer active"),
        VerbClass::Analyse => format!("A result derived from the {noun} is returned"),
        VerbClass::Notify => format!("The {noun} notification has been sent"),
    }
}

/// Named conditions the HTTP shape of a capability implies, for capabilities that list none.
fn derived_errors(service: &Service, c: &Capability, noun: &str) -> Vec<(String, Option<String>)> {
    let noun = singular(&noun.replace(' ', "_"));
    let mut out = Vec::new();
    if c.path.params().next().is_some() {
        out.push((
            format!("{noun}_not_found"),
            Some(format!(
                "No {} matches the given identifier",
                noun.replace('_', " ")
            )),
        ));
    }
    if !c.params.is_empty() {
        out.push((
            "invalid_parameters".into(),
            Some("A parameter is missing or does not match the input schema".into()),
        ));
    }
    if service
        .auth
        .as_ref()
        .is_some_and(|a| !matches!(a, Auth::None { .. }))
    {
        out.push((
            "authorization_required".into(),
            Some("The request lacks valid credentials".into()),
        ));
    }
    if c.rate_limit.is_some() || service.rate_limits.is_some() {
        out.push((
            "rate_limit_exceeded".into(),
            Some("Too many requests; retry later".into()),
        ));
    }
    if out.is_empty() {
        out.push((
            format!("{noun}_unavailable"),
            Some(format!(
                "The {} cannot be served right now",
                noun.replace('_', " ")
            )),
        ));
    }
    out
}

/// `products` → `product`, `categories` → `category`: error names speak of one instance.
fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies") {
        format!("{stem}y")
    } else if word.ends_with('s') && !word.ends_with("ss") && word.len() > 3 {
        word[..word.len() - 1].to_string()
    } else {
        word.to_string()
    }
}

/// The parameters as a JSON Schema object with an explicit `required` array (§7).
pub fn input_schema(params: &[Param]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for p in params {
        let mut prop = Map::new();
        prop.insert("type".into(), p.kind.as_str().into());
        if let Some(d) = &p.description {
            prop.insert("description".into(), d.clone().into());
        }
        if let Some(items) = p.items {
            prop.insert("items".into(), json!({"type": items.as_str()}));
        }
        if !p.allowed.is_empty() {
            prop.insert("enum".into(), p.allowed.clone().into());
        }
        if let Some(d) = &p.default {
            prop.insert("default".into(), d.clone());
        }
        if let Some(n) = p.min {
            prop.insert("minimum".into(), number(n));
        }
        if let Some(n) = p.max {
            prop.insert("maximum".into(), number(n));
        }
        if let Some(pat) = &p.pattern {
            prop.insert("pattern".into(), pat.clone().into());
        }
        if let Some(e) = &p.example {
            prop.insert("examples".into(), json!([e]));
        }
        properties.insert(p.name.clone(), prop.into());
        if p.required {
            required.push(Value::from(p.name.clone()));
        }
    }
    json!({"type": "object", "properties": properties, "required": required})
}

/// Integral bounds print as integers (`1`, not `1.0`), as the draft's examples do.
fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9e15 {
        (n as i64).into()
    } else {
        n.into()
    }
}

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
            let n = verbs::kebab(&service.name.to_lowercase());
            (if n.is_empty() { "service".into() } else { n }, true)
        }
    }
}

/// The AGTP address: declared, else `agtp://` + the host the documents are published at.
pub fn agtp(service: &Service) -> (String, bool) {
    match &service.agis.agtp {
        Some(a) => (a.clone(), false),
        None => {
            let origin = service.site_url.origin();
            let authority = &origin.as_str()["https://".len()..];
            let host = match authority.rsplit_once(':') {
                Some((h, port)) if !h.is_empty() && !port.contains(']') => h,
                _ => authority,
            };
            (format!("agtp://{host}"), true)
        }
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
pub fn document(service: &Service, endpoints: &[Endpoint], tool_names: &[Option<String>]) -> Value {
    let (agtp, _) = agtp(service);
    let (domain, _) = domain(service);
    // Optional in the document (§8.2(d)) and in the HTTP binding: only the author's own.
    let namespace = service.agis.namespace.as_deref();
    let mut doc = Map::new();
    doc.insert("agis".into(), VERSION.into());
    doc.insert("service".into(), service.name.clone().into());
    doc.insert("agtp".into(), agtp.into());
    doc.insert("description".into(), service.description.clone().into());
    doc.insert("version".into(), service.version.clone().into());
    let list: Vec<Value> = endpoints
        .iter()
        .zip(tool_names.iter().chain(std::iter::repeat(&None)))
        .map(|(e, name)| endpoint_json(service, e, namespace, name.as_deref()))
        .collect();
    doc.insert("endpoints".into(), list.into());
    let mut vocabulary = Map::new();
    vocabulary.insert("declared_verbs".into(), declared_verbs(endpoints).into());
    vocabulary.insert("domain".into(), domain.into());
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
    doc.into()
}

fn endpoint_json(
    service: &Service,
    e: &Endpoint,
    namespace: Option<&str>,
    tool_name: Option<&str>,
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
    let mut headers: IndexMap<&str, &str> = IndexMap::new();
    headers.insert("X-AGIS-Method", e.method.as_str());
    headers.insert("X-AGIS-Grammar", GRAMMAR);
    if let Some(n) = namespace {
        headers.insert("X-AGIS-Namespace", n);
    }
    // Built by hand: `json!` would serialise the schemas into copies instead of moving them.
    let mut endpoint = Map::new();
    endpoint.insert("method".into(), e.method.clone().into());
    endpoint.insert("path".into(), e.path.clone().into());
    endpoint.insert("semantic".into(), Value::Object(semantic));
    endpoint.insert("input".into(), e.input.clone());
    endpoint.insert("output".into(), e.output.as_ref().clone());
    endpoint.insert("errors".into(), Value::Array(errors));
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
pub fn summary(service: &Service, doc: &Value, document_url: &str, mcp_url: &str) -> Value {
    let mut capability_summary: Vec<String> = Vec::new();
    let mut read_only = false;
    for e in doc["endpoints"].as_array().into_iter().flatten() {
        if let Some(c) = e["semantic"]["capability"].as_str()
            && !capability_summary.iter().any(|x| x == c)
        {
            capability_summary.push(c.to_string());
        }
        read_only |= e["semantic"]["impact_tier"] == "informational";
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
