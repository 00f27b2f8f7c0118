//! A capability's `request_example` and `response_example`: the author's `[capabilities.example]`
//! where given, otherwise put together from parameter examples and the `returns` notation.
//!
//! `example.request` is read as the call's arguments keyed by parameter name; each goes where
//! its parameter travels (path, query string, header or body). A request that is not a table is
//! the raw body.

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};

use super::sample;
use crate::model::{Capability, Method, ParamIn};
use crate::values::path::Segment;

#[derive(Serialize)]
pub struct RequestExample {
    pub method: &'static str,
    pub url: String,
    pub headers: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

#[derive(Serialize)]
pub struct ResponseExample {
    pub status: u16,
    pub body: Value,
}

/// The header an authenticated request carries, with a placeholder for the secret.
pub struct AuthHeader {
    pub name: String,
    pub value: String,
}

/// What was made up for a response body, for the warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseSource {
    Author,
    Returns,
    OutputSchema,
    Nothing,
}

/// The request: `given` is the author's example request (its values fitted to their
/// parameters' types); `origin_and_prefix` is the URL the capability path is appended to;
/// `examples` holds each parameter's example value, in declaration order.
pub fn request(
    c: &Capability,
    given: Option<&Value>,
    origin_and_prefix: &str,
    auth: Option<&AuthHeader>,
    examples: &[Value],
) -> RequestExample {
    let mut args: Map<String, Value> = match given {
        Some(Value::Object(m)) => m.clone(),
        // Synthesised: what a caller must send, plus what the author chose to illustrate.
        _ => c
            .params
            .iter()
            .zip(examples)
            .filter(|(p, _)| p.required || p.example.is_some())
            .map(|(p, v)| (p.name.clone(), v.clone()))
            .collect(),
    };
    // A complete URL needs every path parameter, whatever the author's request left out.
    for (p, v) in c.params.iter().zip(examples) {
        if p.location == ParamIn::Path && !args.contains_key(&p.name) {
            args.insert(p.name.clone(), v.clone());
        }
    }
    let has_body = matches!(c.method, Method::Post | Method::Put | Method::Patch);
    let mut query: Vec<(String, Value)> = Vec::new();
    let mut headers: IndexMap<String, String> = IndexMap::new();
    let mut body = Map::new();
    let mut path_values: Map<String, Value> = Map::new();
    if let Some(a) = auth
        && c.access != crate::model::Access::Public
    {
        headers.insert(a.name.clone(), a.value.clone());
    }
    for (name, value) in args {
        let location = c
            .params
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.location)
            .unwrap_or(if has_body {
                ParamIn::Body
            } else {
                ParamIn::Query
            });
        match location {
            ParamIn::Path => {
                path_values.insert(name, value);
            }
            ParamIn::Query => query.push((name, value)),
            ParamIn::Header => {
                headers.insert(name, scalar_text(&value));
            }
            ParamIn::Body => {
                body.insert(name, value);
            }
        }
    }
    let body = match given {
        Some(raw) if !raw.is_object() => Some(raw.clone()),
        _ => (!body.is_empty() || c.body_required).then_some(Value::Object(body)),
    };
    if body.is_some() {
        let content_type = c.content_type.as_deref().unwrap_or("application/json");
        headers.insert("Content-Type".into(), content_type.into());
    }
    let mut url = origin_and_prefix.to_string();
    for segment in c.path.segments() {
        match segment {
            Segment::Literal(l) => url.push_str(l),
            Segment::Param(n) => {
                let v = path_values.get(n).map(scalar_text).unwrap_or_default();
                url.push_str(&encode(&v));
            }
        }
    }
    if c.path.segments().is_empty() {
        url.push('/');
    }
    let pairs: Vec<String> = query
        .iter()
        .flat_map(|(name, value)| match value {
            Value::Array(items) => items
                .iter()
                .map(|i| format!("{}={}", encode(name), encode(&scalar_text(i))))
                .collect(),
            v => vec![format!("{}={}", encode(name), encode(&scalar_text(v)))],
        })
        .collect();
    if !pairs.is_empty() {
        url.push('?');
        url.push_str(&pairs.join("&"));
    }
    RequestExample {
        method: c.method.as_str(),
        url,
        headers,
        body,
    }
}

/// The response: the author's, else one read from `returns`, else from `output_schema`,
/// else an empty object.
pub fn response(
    schemas: &crate::values::schemas::Schemas,
    c: &Capability,
) -> (ResponseExample, ResponseSource) {
    let status = c.example.as_ref().map_or(200, |e| e.status);
    if let Some(body) = c.example.as_ref().and_then(|e| e.response.clone()) {
        return (ResponseExample { status, body }, ResponseSource::Author);
    }
    let (body, source) = if let Some(v) = c.returns.as_deref().and_then(sample::from_returns) {
        (v, ResponseSource::Returns)
    } else if let Some(schema) = &c.output_schema {
        (
            sample::from_schema(&schemas.inline_shared(schema), "", 0),
            ResponseSource::OutputSchema,
        )
    } else {
        (Value::Object(Map::new()), ResponseSource::Nothing)
    };
    (ResponseExample { status, body }, source)
}

/// A value as it reads in a URL or header: strings bare, everything else as JSON.
fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Percent-encoding of everything but RFC 3986's unreserved characters: safe in a path segment
/// and in a query component alike.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_keeps_only_unreserved_characters() {
        assert_eq!(encode("Paris, France"), "Paris%2C%20France");
        assert_eq!(encode("filter[name]"), "filter%5Bname%5D");
        assert_eq!(encode("é"), "%C3%A9");
        assert_eq!(encode("a-b_c.d~e"), "a-b_c.d~e");
    }
}
