//! Every string of the model that reaches an output, with the source field it came from.

use serde_json::Value;

use crate::model::{Auth, Param, Service};

/// How a string is used, which decides the checks that apply to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// Text an agent reads and may follow: descriptions, intents, instructions.
    AgentText,
    /// A URL.
    Url,
    /// Anything else: names, ids, example values.
    Plain,
}

pub struct Item<'a> {
    pub field: String,
    pub text: &'a str,
    pub usage: Use,
}

#[derive(Default)]
struct Collect<'a> {
    items: Vec<Item<'a>>,
}

impl<'a> Collect<'a> {
    fn add(&mut self, field: impl Into<String>, text: &'a str, usage: Use) {
        self.items.push(Item {
            field: field.into(),
            text,
            usage,
        });
    }

    fn opt(&mut self, field: impl Into<String>, text: &'a Option<String>, usage: Use) {
        if let Some(t) = text {
            self.add(field, t, usage);
        }
    }

    fn json(&mut self, field: String, value: &'a Value) {
        match value {
            Value::String(s) => self.add(field, s, Use::Plain),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, v)| self.json(format!("{field}.{i}"), v)),
            Value::Object(o) => o
                .iter()
                .for_each(|(k, v)| self.json(format!("{field}.{k}"), v)),
            _ => {}
        }
    }

    fn param(&mut self, field: String, p: &'a Param) {
        self.opt(
            format!("{field}.description"),
            &p.description,
            Use::AgentText,
        );
        self.opt(field.clone(), &p.compact, Use::AgentText);
        self.opt(format!("{field}.pattern"), &p.pattern, Use::Plain);
        for (key, v) in [("default", &p.default), ("example", &p.example)] {
            if let Some(v) = v {
                self.json(format!("{field}.{key}"), v);
            }
        }
        for (i, v) in p.allowed.iter().enumerate() {
            self.json(format!("{field}.enum.{i}"), v);
        }
    }
}

pub fn collect(s: &Service) -> Vec<Item<'_>> {
    let mut c = Collect::default();
    c.add("service.name", &s.name, Use::Plain);
    c.add("service.description", &s.description, Use::AgentText);
    c.add("service.base_url", s.base_url.as_str(), Use::Url);
    // A site URL derived from the base URL would only repeat the base URL's findings.
    if s.site_url != s.base_url.origin() {
        c.add("service.site_url", s.site_url.as_str(), Use::Url);
    }
    let links = [
        ("logo_url", &s.links.logo),
        ("docs_url", &s.links.docs),
        ("terms_url", &s.links.terms),
        ("privacy_url", &s.links.privacy),
        ("support_url", &s.links.support),
        ("repository_url", &s.links.repository),
    ];
    for (key, v) in links {
        c.opt(format!("service.{key}"), v, Use::Url);
    }
    c.opt("service.contact.name", &s.contact.name, Use::Plain);
    c.opt("service.contact.email", &s.contact.email, Use::Plain);
    c.opt("service.contact.url", &s.contact.url, Use::Url);
    if let Some(a) = &s.auth {
        auth(&mut c, a);
    }
    c.opt("meta.changelog", &s.meta.changelog, Use::Url);
    c.opt("meta.status", &s.meta.status, Use::Url);
    for (i, w) in s.webhooks.iter().enumerate() {
        c.add(
            format!("webhooks.{i}.description"),
            &w.description,
            Use::AgentText,
        );
        for p in &w.payload {
            c.param(format!("webhooks.{i}.payload.{}", p.name), p);
        }
    }
    for (i, rule) in s.rfc002.instructions.iter().enumerate() {
        c.add(format!("rfc002.instructions.{i}"), rule, Use::AgentText);
    }
    if let Some(g) = &s.rfc002.governance {
        g.iter()
            .for_each(|(k, v)| c.json(format!("rfc002.governance.{k}"), v));
    }
    c.opt(
        "plugin.name_for_human",
        &s.plugin.name_for_human,
        Use::Plain,
    );
    c.opt(
        "plugin.description_for_human",
        &s.plugin.description_for_human,
        Use::AgentText,
    );
    c.opt(
        "plugin.description_for_model",
        &s.plugin.description_for_model,
        Use::AgentText,
    );
    if let Some(p) = &s.pricing {
        c.opt("pricing.plans_url", &p.plans_url, Use::Url);
    }
    for cap in &s.capabilities {
        c.add(cap.field("description"), &cap.description, Use::AgentText);
        c.opt(cap.field("returns"), &cap.returns, Use::AgentText);
        if let Some(h) = &cap.host {
            c.add(cap.field("path"), h.as_str(), Use::Url);
        }
        for p in &cap.params {
            c.param(cap.field(&format!("params.{}", p.name)), p);
        }
        if let Some(e) = &cap.example {
            for (key, v) in [("request", &e.request), ("response", &e.response)] {
                if let Some(v) = v {
                    c.json(cap.field(&format!("example.{key}")), v);
                }
            }
        }
        for (i, e) in cap.errors.iter().enumerate() {
            c.opt(
                cap.field(&format!("errors.{i}.description")),
                &e.description,
                Use::AgentText,
            );
        }
        let sem = &cap.semantic;
        c.opt(cap.field("semantic.intent"), &sem.intent, Use::AgentText);
        c.opt(cap.field("semantic.outcome"), &sem.outcome, Use::AgentText);
        for (name, hints) in &sem.parameter_hints {
            for (i, h) in hints.iter().enumerate() {
                c.add(
                    cap.field(&format!("semantic.parameter_hints.{name}.{i}")),
                    h,
                    Use::AgentText,
                );
            }
        }
    }
    c.items
}

fn auth<'a>(c: &mut Collect<'a>, a: &'a Auth) {
    if let Some(d) = a.docs() {
        c.add("auth.docs_url", d, Use::Url);
    }
    match a {
        Auth::None { .. } => {}
        Auth::ApiKey {
            header, key_url, ..
        } => {
            c.add("auth.header", header, Use::Plain);
            c.opt("auth.key_url", key_url, Use::Url);
        }
        Auth::Bearer { token_url, .. } => c.opt("auth.token_url", token_url, Use::Url),
        Auth::OAuth2 {
            authorization_url,
            token_url,
            scopes,
            ..
        } => {
            c.add("auth.authorization_url", authorization_url, Use::Url);
            c.add("auth.token_url", token_url, Use::Url);
            for (name, description) in scopes {
                c.add(format!("auth.scopes.{name}"), description, Use::AgentText);
            }
        }
        Auth::SignedKey {
            register_url,
            header_prefix,
            ..
        } => {
            c.add("auth.key_url", register_url, Use::Url);
            c.add("auth.header_prefix", header_prefix, Use::Plain);
        }
    }
}
