//! What AGIS derives from the model, once, for every target that publishes it: each
//! capability's AGIS endpoint (method, path, semantic fields, input and output schemas, named
//! errors), with a note of every value wellgen derived rather than read, and each endpoint's MCP
//! tool name (AGIS Appendix C) with what was wrong with a declared one.
//!
//! Derivation reports nothing: the AGIS target turns the notes into its warnings and checks the
//! values against `rules`; the MCP target reports the tool-name problems. Neither derives again.

pub mod rules;
pub mod tools;
pub mod verbs;

use crate::values::schemas::Schemas;
use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::model::{Auth, Capability, Impact, Method, Param, Service};
use crate::values::param::json_number;
use rules::{consistency, path_syntax, text_rules};
pub use tools::{ToolName, is_mcp_tool_name};
use verbs::VerbClass;

/// Every endpoint and its MCP tool name, in capability order.
pub struct Derived<'a> {
    pub endpoints: Vec<Endpoint<'a>>,
    pub tool_names: Vec<ToolName>,
}

/// Derives every endpoint and tool name of `service`.
pub fn derive(service: &Service) -> Derived<'_> {
    let endpoints = endpoints(service);
    let tool_names = tools::tool_names(&endpoints);
    Derived {
        endpoints,
        tool_names,
    }
}

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
    /// Borrowed from the model when it has a schema: imported ones can be large.
    pub output: Cow<'a, Value>,
    pub errors: Vec<(String, Option<String>)>,
    /// The values wellgen derived for this endpoint, in words (`method FIND (a GET of a
    /// collection)`); empty when the author declared everything.
    pub derived: Vec<String>,
}

impl Endpoint<'_> {
    /// The first segment of the AGIS path: the entity, and the second half of Appendix C's
    /// default tool name.
    pub fn entity(&self) -> &str {
        self.path
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or_default()
    }
}

/// Builds every endpoint; each notes what was derived for it.
fn endpoints(service: &Service) -> Vec<Endpoint<'_>> {
    let mut out: Vec<Endpoint> = Vec::new();
    // The earlier endpoints' methods and paths: a set, as a large API has thousands.
    let mut taken = foldhash::HashSet::default();
    for c in &service.capabilities {
        let e = endpoint(service, c, &taken);
        taken.insert((e.method.clone(), e.path.clone()));
        out.push(e);
    }
    out
}

fn endpoint<'a>(
    service: &Service,
    c: &'a Capability,
    earlier: &foldhash::HashSet<(String, String)>,
) -> Endpoint<'a> {
    // What was derived rather than read, in the order the fields are chosen.
    let mut derived: Vec<String> = Vec::new();
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
            let taken = |p: &str| earlier.contains(&(method.clone(), p.to_string()));
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
            _ if c.confirm || tools::destroys(c) => Impact::Irreversible,
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
        (Some(schema), _) => Cow::Borrowed(&**schema),
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
        input: input_schema(&c.params, &service.schemas),
        output,
        errors,
        derived,
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
pub fn input_schema(params: &[Param], schemas: &Schemas) -> Value {
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
            prop.insert("minimum".into(), json_number(n));
        }
        if let Some(n) = p.max {
            prop.insert("maximum".into(), json_number(n));
        }
        if let Some(pat) = &p.pattern {
            prop.insert("pattern".into(), pat.clone().into());
        }
        if let Some(e) = &p.example {
            prop.insert("examples".into(), json!([e]));
        }
        p.extend_schema(&mut prop, schemas);
        properties.insert(p.name.clone(), prop.into());
        if p.required {
            required.push(Value::from(p.name.clone()));
        }
    }
    // Moved in, not through `json!`, which would serialise a copy of every property.
    let mut schema = Map::with_capacity(3);
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), Value::Array(required));
    Value::Object(schema)
}
