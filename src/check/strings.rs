//! Every string of the model that reaches an output, with the source field it came from.
//!
//! Strings are handed to a visitor rather than collected: an imported API's response schemas
//! hold hundreds of thousands of strings (stripe's: 330,000, 3.4 MB), and the field path of a
//! string inside a JSON value is only written out when a check finds something.

use serde_json::Value;

use crate::diag::field_key;
use crate::model::{Auth, KeyPlace, Param, Service};
use crate::values::path::Segment;

/// How a string is used, which decides the checks that apply to it (all of them are checked
/// for credentials and hidden characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// Text an agent reads and may follow: descriptions, intents, instructions, and the
    /// `description` and `title` of a schema (MCP and AGIS hand response schemas to agents).
    /// Instruction phrases and length are checked.
    AgentText,
    /// A URL the model checked while lowering (https, no credentials): its host is checked.
    Url,
    /// A URL-valued field nothing else checks (allowed origins, AGTP addresses): scheme (one of
    /// these), credentials and host are checked here. `*` (any origin) is allowed.
    Address(&'static [&'static str]),
    /// A name wellgen publishes as an id, a tool name or a file name, or derives one from:
    /// also checked in the reshaped form of a derived name (`secrets::find_reshaped`).
    Name,
    /// Anything else: names, example and schema values. A `http://localhost` default in a
    /// schema is data, not an address an agent calls, so no host check.
    Plain,
}

/// The schemes of `Use::Address` fields: an AGTP address is `agtp://`, a related service may
/// also be a plain HTTPS service, an allowed origin is a browser origin.
const AGTP: &[&str] = &["agtp"];
const AGTP_OR_HTTPS: &[&str] = &["agtp", "https"];
const HTTPS: &[&str] = &["https"];

/// One step into a JSON value.
#[derive(Debug, Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The source field a string came from: a dotted path, rendered only when a check finds
/// something.
pub struct Field<'f> {
    base: &'f str,
    steps: &'f [Step<'f>],
}

impl std::fmt::Display for Field<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.base)?;
        for step in self.steps {
            match step {
                Step::Key(k) => write!(f, ".{}", field_key(k))?,
                Step::Index(i) => write!(f, ".{i}")?,
            }
        }
        Ok(())
    }
}

struct Collect<'a, F> {
    visit: F,
    /// The field of the JSON value being walked: `base` and the steps into it.
    base: String,
    steps: Vec<Step<'a>>,
}

impl<'a, F: FnMut(&Field<'_>, &'a str, Use)> Collect<'a, F> {
    fn add(&mut self, field: &str, text: &'a str, usage: Use) {
        let field = Field {
            base: field,
            steps: &[],
        };
        (self.visit)(&field, text, usage);
    }

    fn opt<T: std::ops::Deref<Target = str>>(
        &mut self,
        field: &str,
        text: &'a Option<T>,
        usage: Use,
    ) {
        if let Some(t) = text {
            self.add(field, t, usage);
        }
    }

    fn list<T: std::ops::Deref<Target = str>>(&mut self, field: &str, list: &'a [T], usage: Use) {
        for (i, t) in list.iter().enumerate() {
            self.add(&format!("{field}.{i}"), t, usage);
        }
    }

    /// A JSON value (examples, defaults, governance, schemas): every string and object key. In
    /// a schema, the string of a `description` or `title` key is agent-facing text.
    fn json(&mut self, field: &str, value: &'a Value, schema: bool) {
        self.json_at(field, &[], value, schema);
    }

    /// [`Collect::json`] of the value at `steps` below `field`: the field is written out only
    /// where a check finds something.
    fn json_at(&mut self, field: &str, steps: &[Step<'a>], value: &'a Value, schema: bool) {
        self.base.clear();
        self.base.push_str(field);
        self.steps.clear();
        self.steps.extend_from_slice(steps);
        self.walk(value, schema, false);
    }

    /// A string at `key` below `field`, the field written out only where a check finds
    /// something.
    fn at(&mut self, field: &str, key: &'a str, text: &'a Option<String>, usage: Use) {
        if let Some(t) = text {
            let steps = [Step::Key(key)];
            let field = Field {
                base: field,
                steps: &steps,
            };
            (self.visit)(&field, t, usage);
        }
    }

    fn here(&mut self, text: &'a str, usage: Use) {
        let field = Field {
            base: &self.base,
            steps: &self.steps,
        };
        (self.visit)(&field, text, usage);
    }

    fn walk(&mut self, value: &'a Value, schema: bool, agent_text: bool) {
        match value {
            Value::String(s) => self.here(
                s,
                if agent_text {
                    Use::AgentText
                } else {
                    Use::Plain
                },
            ),
            Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    self.steps.push(Step::Index(i));
                    self.walk(v, schema, false);
                    self.steps.pop();
                }
            }
            Value::Object(o) => {
                for (k, v) in o {
                    self.steps.push(Step::Key(k));
                    self.here(k, Use::Plain);
                    let agent_text = schema && matches!(k.as_str(), "description" | "title");
                    self.walk(v, schema, agent_text);
                    self.steps.pop();
                }
            }
            _ => {}
        }
    }

    fn param(&mut self, field: &str, p: &'a Param) {
        self.add(field, &p.name, Use::Name);
        self.at(field, "description", &p.description, Use::AgentText);
        self.opt(field, &p.compact, Use::AgentText);
        self.at(field, "pattern", &p.pattern, Use::Plain);
        for (key, v) in [("default", &p.default), ("example", &p.example)] {
            if let Some(v) = v {
                self.json_at(field, &[Step::Key(key)], v, false);
            }
        }
        for (i, v) in p.allowed.iter().enumerate() {
            self.json_at(field, &[Step::Key("enum"), Step::Index(i)], v, false);
        }
        if let Some(schema) = &p.schema {
            self.json_at(field, &[Step::Key("schema")], schema, true);
        }
    }
}

/// Calls `visit(field, text, usage)` for every string of `s` that reaches an output.
pub fn visit<'a>(s: &'a Service, visit: impl FnMut(&Field<'_>, &'a str, Use)) {
    let mut c = Collect {
        visit,
        base: String::new(),
        steps: Vec::new(),
    };
    service(&mut c, s);
    if let Some(a) = &s.auth {
        auth(&mut c, a, "auth");
    }
    for (i, a) in s.auth_also.iter().enumerate() {
        auth(&mut c, a, &format!("auth.also.{i}"));
    }
    for (i, a) in s.auth_with.iter().enumerate() {
        auth(&mut c, a, &format!("auth.with.{i}"));
    }
    others(&mut c, s);
    for cap in &s.capabilities {
        capability(&mut c, cap);
    }
    // Once each, however many output schemas refer to them.
    for (name, schema) in s.schemas.iter() {
        c.json(&format!("schemas.{}", field_key(name)), schema, true);
    }
}

fn service<'a>(c: &mut Collect<'a, impl FnMut(&Field<'_>, &'a str, Use)>, s: &'a Service) {
    c.add("service.name", &s.name, Use::Plain);
    c.add("service.description", &s.description, Use::AgentText);
    c.add("service.base_url", s.base_url.as_str(), Use::Url);
    // A site URL derived from the base URL would only repeat the base URL's findings.
    if s.site_url != s.base_url.origin() {
        c.add("service.site_url", s.site_url.as_str(), Use::Url);
    }
    c.list("service.categories", &s.categories, Use::Plain);
    if let Some(l) = &s.languages {
        c.list("service.languages", l, Use::Plain);
    }
    c.add("service.version", &s.version, Use::Plain);
    let links = [
        ("logo_url", &s.links.logo),
        ("docs_url", &s.links.docs),
        ("terms_url", &s.links.terms),
        ("privacy_url", &s.links.privacy),
        ("support_url", &s.links.support),
        ("repository_url", &s.links.repository),
    ];
    for (key, v) in links {
        c.opt(&format!("service.{key}"), v, Use::Url);
    }
    c.opt("service.contact.name", &s.contact.name, Use::Plain);
    c.opt("service.contact.email", &s.contact.email, Use::Plain);
    c.opt("service.contact.url", &s.contact.url, Use::Url);
    c.opt("service.license", &s.license, Use::Plain);
    c.opt("service.currency", &s.currency, Use::Plain);
    c.opt("service.timezone", &s.timezone, Use::Plain);
    c.list("service.tags", &s.tags, Use::Name);
}

fn others<'a>(c: &mut Collect<'a, impl FnMut(&Field<'_>, &'a str, Use)>, s: &'a Service) {
    c.opt("meta.last_updated", &s.meta.last_updated, Use::Plain);
    c.opt("meta.changelog", &s.meta.changelog, Use::Url);
    c.opt("meta.status", &s.meta.status, Use::Url);
    if let Some(sec) = &s.security {
        c.opt(
            "security.max_request_size",
            &sec.max_request_size,
            Use::Plain,
        );
        c.list(
            "security.allowed_origins",
            &sec.allowed_origins,
            Use::Address(HTTPS),
        );
        // Addresses allowed to call the service, not addresses agents call: a private range
        // is a legitimate entry, so no host check.
        c.list("security.ip_allowlist", &sec.ip_allowlist, Use::Plain);
    }
    for key in s.features.keys() {
        c.add(&format!("features.{}", field_key(key)), key, Use::Plain);
    }
    for (i, w) in s.webhooks.iter().enumerate() {
        c.add(&format!("webhooks.{i}.name"), &w.name, Use::Name);
        c.add(
            &format!("webhooks.{i}.description"),
            &w.description,
            Use::AgentText,
        );
        for p in &w.payload {
            c.param(&format!("webhooks.{i}.payload.{}", field_key(&p.name)), p);
        }
    }
    let r = &s.rfc002;
    if let Some(i) = &r.issuer {
        c.add("rfc002.issuer.jurisdiction", &i.jurisdiction, Use::Plain);
        c.add("rfc002.issuer.type", &i.kind, Use::Plain);
        c.opt("rfc002.issuer.operator_name", &i.operator_name, Use::Plain);
        c.opt("rfc002.issuer.operator_cuit", &i.operator_cuit, Use::Plain);
        c.opt("rfc002.issuer.denominacion", &i.denominacion, Use::Plain);
        c.opt(
            "rfc002.issuer.supervision_regime",
            &i.supervision_regime,
            Use::Plain,
        );
    }
    c.list("rfc002.conformance", &r.conformance, Use::Plain);
    c.list("rfc002.instructions", &r.instructions, Use::AgentText);
    if let Some(g) = &r.governance {
        for (k, v) in g {
            let field = format!("rfc002.governance.{}", field_key(k));
            c.add(&field, k, Use::Plain);
            c.json(&field, v, false);
        }
    }
    let p = &s.plugin;
    c.opt("plugin.name_for_model", &p.name_for_model, Use::Plain);
    c.opt("plugin.name_for_human", &p.name_for_human, Use::Plain);
    c.opt(
        "plugin.description_for_human",
        &p.description_for_human,
        Use::AgentText,
    );
    c.opt(
        "plugin.description_for_model",
        &p.description_for_model,
        Use::AgentText,
    );
    if let Some(p) = &s.pricing {
        c.add("pricing.type", &p.kind, Use::Plain);
        c.opt("pricing.plans_url", &p.plans_url, Use::Url);
        for (i, plan) in p.plans.iter().enumerate() {
            c.add(&format!("pricing.plans.{i}.name"), &plan.name, Use::Plain);
            c.opt(&format!("pricing.plans.{i}.price"), &plan.price, Use::Plain);
            // Read by agents choosing a plan: "limits" is prose.
            c.opt(
                &format!("pricing.plans.{i}.limits"),
                &plan.limits,
                Use::AgentText,
            );
        }
    }
    let a = &s.agis;
    c.opt("agis.agtp", &a.agtp, Use::Address(AGTP));
    c.opt("agis.domain", &a.domain, Use::Plain);
    c.opt("agis.namespace", &a.namespace, Use::Plain);
    c.list(
        "agis.interaction_protocols",
        &a.interaction_protocols,
        Use::Plain,
    );
    c.list(
        "agis.related_services",
        &a.related_services,
        Use::Address(AGTP_OR_HTTPS),
    );
    if let Some(m) = &a.data_manifest {
        for (i, d) in m.available_data.iter().enumerate() {
            let f = format!("agis.data_manifest.available_data.{i}");
            c.add(&format!("{f}.class"), &d.class, Use::Plain);
            c.opt(&format!("{f}.description"), &d.description, Use::AgentText);
            c.list(&format!("{f}.formats"), &d.formats, Use::Plain);
            c.opt(&format!("{f}.sensitivity"), &d.sensitivity, Use::Plain);
        }
    }
}

fn capability<'a>(
    c: &mut Collect<'a, impl FnMut(&Field<'_>, &'a str, Use)>,
    cap: &'a crate::model::Capability,
) {
    c.add(&cap.field("id"), &cap.id, Use::Name);
    c.add(&cap.field("description"), &cap.description, Use::AgentText);
    c.opt(&cap.field("details"), &cap.details, Use::AgentText);
    c.opt(&cap.field("returns"), &cap.returns, Use::AgentText);
    let path = cap.field("path");
    if let Some(h) = &cap.host {
        c.add(&path, h.as_str(), Use::Url);
    }
    // Parameter names in the path are the parameters' own names, collected with them.
    for s in cap.path.segments() {
        if let Segment::Literal(l) = s {
            c.add(&path, l, Use::Plain);
        }
    }
    c.list(&cap.field("scopes"), &cap.scopes, Use::Plain);
    c.opt(&cap.field("content_type"), &cap.content_type, Use::Plain);
    c.list(&cap.field("tags"), &cap.tags, Use::Name);
    for p in &cap.params {
        c.param(&cap.field(&format!("params.{}", field_key(&p.name))), p);
    }
    if let Some(schema) = &cap.output_schema {
        c.json(&cap.field("output_schema"), schema, true);
    }
    if let Some(e) = &cap.example {
        for (key, v) in [("request", &e.request), ("response", &e.response)] {
            if let Some(v) = v {
                c.json(&cap.field(&format!("example.{key}")), v, false);
            }
        }
    }
    for (i, e) in cap.errors.iter().enumerate() {
        c.add(&cap.field(&format!("errors.{i}.name")), &e.name, Use::Plain);
        c.opt(
            &cap.field(&format!("errors.{i}.description")),
            &e.description,
            Use::AgentText,
        );
    }
    let sem = &cap.semantic;
    let plain = [
        ("verb", &sem.verb),
        ("path", &sem.path),
        ("actor", &sem.actor),
        ("capability", &sem.capability),
    ];
    for (key, v) in plain {
        c.opt(&cap.field(&format!("semantic.{key}")), v, Use::Plain);
    }
    c.opt(
        &cap.field("semantic.mcp_tool_name"),
        &sem.mcp_tool_name,
        Use::Name,
    );
    c.opt(&cap.field("semantic.intent"), &sem.intent, Use::AgentText);
    c.opt(&cap.field("semantic.outcome"), &sem.outcome, Use::AgentText);
    for (name, hints) in &sem.parameter_hints {
        let field = cap.field(&format!("semantic.parameter_hints.{}", field_key(name)));
        c.add(&field, name, Use::Plain);
        c.list(&field, hints, Use::AgentText);
    }
    for (from, to) in &sem.state_transition {
        let field = cap.field(&format!("semantic.state_transition.{}", field_key(from)));
        c.add(&field, from, Use::Plain);
        c.add(&field, to, Use::Plain);
    }
}

fn auth<'a>(c: &mut Collect<'a, impl FnMut(&Field<'_>, &'a str, Use)>, a: &'a Auth, at: &str) {
    let f = |key: &str| format!("{at}.{key}");
    if let Some(d) = a.docs() {
        c.add(&f("docs_url"), d, Use::Url);
    }
    // Every scheme's own words are published; a vendor scheme's below, as before.
    if let Some(d) = a.description().filter(|_| !matches!(a, Auth::Other { .. })) {
        c.add(&f("description"), d, Use::AgentText);
    }
    match a {
        Auth::None { .. } | Auth::Basic { .. } | Auth::Digest { .. } | Auth::MutualTls { .. } => {}
        Auth::ApiKey {
            name,
            place,
            key_url,
            ..
        } => {
            let key = if *place == KeyPlace::Header {
                "header"
            } else {
                "name"
            };
            c.add(&f(key), name, Use::Plain);
            c.opt(&f("key_url"), key_url, Use::Url);
        }
        Auth::Bearer { token_url, .. } => c.opt(&f("token_url"), token_url, Use::Url),
        Auth::OAuth2 {
            authorization_url,
            token_url,
            scopes,
            grant_types,
            ..
        } => {
            c.opt(&f("authorization_url"), authorization_url, Use::Url);
            c.opt(&f("token_url"), token_url, Use::Url);
            for (name, description) in scopes {
                let field = format!("{at}.scopes.{}", field_key(name));
                c.add(&field, name, Use::Plain);
                c.add(&field, description, Use::AgentText);
            }
            c.list(&f("grant_types"), grant_types, Use::Plain);
        }
        Auth::OpenIdConnect { discovery_url, .. } => {
            c.add(&f("discovery_url"), discovery_url, Use::Url);
        }
        Auth::Other { description, .. } => c.add(&f("description"), description, Use::AgentText),
        Auth::SignedKey {
            register_url,
            algorithm,
            header_prefix,
            ..
        } => {
            c.add(&f("key_url"), register_url, Use::Url);
            c.add(&f("algorithm"), algorithm, Use::Plain);
            c.add(&f("header_prefix"), header_prefix, Use::Plain);
        }
    }
}

#[cfg(test)]
pub fn collect(s: &Service) -> Vec<(String, &str, Use)> {
    let mut out = Vec::new();
    visit(s, |field, text, usage| {
        out.push((field.to_string(), text, usage));
    });
    out
}
