//! One example call per capability, and the values in it: each one its parameter's own
//! schema admits, or a visible placeholder.

use std::fmt::Write as _;

use serde_json::Value;

use crate::model::{Access, Auth, Capability, KeyPlace, Param, ParamIn, ParamType, Service};
use crate::text::one_line;
use crate::values::param::{Shape, whole_body};
use crate::values::path::Segment;
use crate::values::pattern::{self, matches};
use crate::values::schemas::Schemas;

/// One example call: the request line, the headers it needs and the body. The capability's
/// own example request where it has one (arguments by parameter name, or the raw body);
/// otherwise its required parameters, each with a value its own schema admits (`value_for`).
pub(super) fn example_call(service: &Service, c: &Capability) -> String {
    let given = c.example.as_ref().and_then(|e| e.request.as_ref());
    let mut args: Vec<(&Param, Value)> = Vec::new();
    for p in &c.params {
        let from_example = given
            .and_then(Value::as_object)
            .and_then(|m| m.get(&p.name))
            .filter(|v| admits(p, v, &service.schemas))
            .cloned();
        let value = match from_example {
            Some(v) => Some(v),
            None if p.required || p.location == ParamIn::Path => {
                Some(value_for(p, &service.schemas))
            }
            None => None,
        };
        if let Some(v) = value {
            args.push((p, v));
        }
    }
    let mut url = c
        .host
        .as_ref()
        .unwrap_or(&service.base_url)
        .as_str()
        .to_string();
    for segment in c.path.segments() {
        match segment {
            Segment::Literal(l) => url.push_str(l),
            Segment::Param(n) => {
                let v = args
                    .iter()
                    .find(|(p, _)| p.wire() == n || p.name == *n)
                    .map(|(_, v)| scalar(v))
                    .unwrap_or_else(|| format!("<{n}>"));
                url.push_str(&encode(&v));
            }
        }
    }
    if c.path.segments().is_empty() {
        url.push('/');
    }
    let mut query: Vec<String> = args
        .iter()
        .filter(|(p, _)| p.location == ParamIn::Query)
        .flat_map(|(p, v)| match v {
            Value::Array(items) => items
                .iter()
                .map(|i| format!("{}={}", encode(p.wire()), encode(&scalar(i))))
                .collect(),
            v => vec![format!("{}={}", encode(p.wire()), encode(&scalar(v)))],
        })
        .collect();
    let mut headers: Vec<String> = Vec::new();
    if c.access != Access::Public {
        // The scheme, and every one each request also carries with it.
        if let Some(auth) = &service.auth {
            credential(auth, "API key", &mut headers, &mut query);
        }
        // Each key sent with it named, so that no two look alike.
        for auth in &service.auth_with {
            let key = match auth {
                Auth::ApiKey { name, .. } => format!("API key: {name}"),
                _ => "API key".into(),
            };
            credential(auth, &key, &mut headers, &mut query);
        }
    }
    for (p, v) in args.iter().filter(|(p, _)| p.location == ParamIn::Header) {
        headers.push(format!("{}: {}", p.wire(), scalar(v)));
    }
    if !query.is_empty() {
        url.push('?');
        url.push_str(&query.join("&"));
    }
    let whole = whole_body(&c.params, c.content_type.as_deref(), &service.schemas);
    let media_type = c.content_type.as_deref().unwrap_or("application/json");
    // The author's own raw body is shown as written; a value made here, as its media type
    // encodes it.
    let body: Option<(String, String)> = match given {
        Some(Value::String(raw)) => Some((media_type.to_string(), raw.clone())),
        Some(raw) if !raw.is_object() => Some(encoded(raw, media_type)),
        _ => {
            let fields: Vec<(usize, &(&Param, Value))> = args
                .iter()
                .enumerate()
                .filter(|(_, (p, _))| p.location == ParamIn::Body)
                .collect();
            let value = match fields.as_slice() {
                // A body that must be sent though no field is given: the whole body's value,
                // else one with no field.
                [] if c.body_required => Some(match whole {
                    Some(w) => value_for(&c.params[w], &service.schemas),
                    None => Value::Object(serde_json::Map::new()),
                }),
                [] => None,
                [(_, (p, v))] if whole.is_some_and(|w| c.params[w].name == p.name) => {
                    Some(v.clone())
                }
                _ => Some(Value::Object(
                    fields
                        .iter()
                        .map(|(_, (p, v))| (p.wire().to_string(), v.clone()))
                        .collect(),
                )),
            };
            value.map(|v| encoded(&v, media_type))
        }
    };
    let mut out = format!("{} {url}\n", c.method.as_str());
    if let Some((media_type, _)) = &body {
        headers.push(format!("Content-Type: {media_type}"));
    }
    for h in headers {
        out.push_str(&one_line(&h));
        out.push('\n');
    }
    if let Some((_, text)) = body {
        out.push('\n');
        out.push_str(&text);
        out.push('\n');
    }
    out
}

/// Where one scheme's credential goes, as a placeholder the Authentication section explains
/// (`<key>` for an API key).
fn credential(auth: &Auth, key: &str, headers: &mut Vec<String>, query: &mut Vec<String>) {
    match auth {
        Auth::ApiKey {
            name,
            place: KeyPlace::Header,
            ..
        } => headers.push(format!("{name}: <{key}>")),
        Auth::ApiKey {
            name,
            place: KeyPlace::Query,
            ..
        } => query.push(format!("{}=<{key}>", encode(name))),
        Auth::Bearer { .. } | Auth::OAuth2 { .. } | Auth::OpenIdConnect { .. } => {
            headers.push("Authorization: Bearer <token>".into());
        }
        Auth::Basic { .. } => {
            headers.push("Authorization: Basic <base64 of user:password>".into());
        }
        _ => {}
    }
}

/// The boundary of a multipart example body.
const BOUNDARY: &str = "example-boundary";

/// The body as its media type encodes it, and the `Content-Type` that says so: JSON; a form's
/// `name=value` pairs; a multipart form's parts (each line break of an `http` block is CRLF on
/// the wire; a value on one line, a name with `"`, CR and LF percent-encoded as RFC 7578 has
/// them); a string as it is, for any other type.
fn encoded(body: &Value, media_type: &str) -> (String, String) {
    let media = media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let fields: Vec<(&str, String)> = match body {
        Value::Object(m) => m
            .iter()
            .flat_map(|(k, v)| match v {
                Value::Array(items) => items.iter().map(|i| (k.as_str(), scalar(i))).collect(),
                v => vec![(k.as_str(), scalar(v))],
            })
            .collect(),
        _ => Vec::new(),
    };
    match (media.as_str(), body) {
        ("application/x-www-form-urlencoded", Value::Object(_)) => {
            let pairs: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
                .collect();
            (media_type.to_string(), pairs.join("&"))
        }
        ("multipart/form-data", Value::Object(_)) => {
            let mut text = String::new();
            for (k, v) in &fields {
                let name = k
                    .replace('"', "%22")
                    .replace('\r', "%0D")
                    .replace('\n', "%0A");
                let _ = write!(
                    text,
                    "--{BOUNDARY}\nContent-Disposition: form-data; name=\"{name}\"\n\n{}\n",
                    one_line(v)
                );
            }
            let _ = write!(text, "--{BOUNDARY}--");
            (format!("multipart/form-data; boundary={BOUNDARY}"), text)
        }
        (m, Value::String(s)) if !(m == "application/json" || m.ends_with("+json")) => {
            (media_type.to_string(), s.clone())
        }
        (_, v) => (
            media_type.to_string(),
            serde_json::to_string(v).expect("JSON values serialise"),
        ),
    }
}

/// A value for `p` its own schema admits: its example, else its default, else its first
/// allowed value, else one made from its type within its bounds, each taken only if it fits
/// (type, allowed values, bounds, lengths, pattern, format); `<name>` where none does. The
/// named schemas its schema refers to are read from `schemas`.
pub fn value_for(p: &Param, schemas: &Schemas) -> Value {
    let given = [
        p.example.clone(),
        p.default.clone(),
        p.allowed.first().cloned(),
    ];
    let fits = |v: &Value| admits(p, v, schemas);
    // Made only when none before it fits: a pattern's string costs a parse and a match.
    let from_pattern = || {
        let re = p.pattern.as_deref()?;
        let length = |k: &str| {
            let keyword = p.schema.as_ref().and_then(|s| schemas.keyword(s, k));
            keyword.and_then(Value::as_u64).map(|n| n as usize)
        };
        let sample = pattern::sample(re, length("minLength").unwrap_or(0), length("maxLength"));
        sample.map(Value::String)
    };
    given
        .into_iter()
        .flatten()
        .find(fits)
        .or_else(|| Some(made_up(p, schemas)).filter(fits))
        .or_else(|| from_pattern().filter(fits))
        .unwrap_or_else(|| Value::String(format!("<{}>", p.name)))
}

/// A value of `p`'s type, within its bounds and lengths, of its format where it names one.
fn made_up(p: &Param, schemas: &Schemas) -> Value {
    let keyword = |k: &str| p.schema.as_ref().and_then(|s| schemas.keyword(s, k));
    match p.kind {
        ParamType::Integer => {
            let lo = p.min.map_or(1.0, f64::ceil);
            let n = p.max.map_or(lo, |hi| lo.min(hi.floor()));
            Value::from(n as i64)
        }
        ParamType::Number => {
            let n = p.min.unwrap_or(1.0);
            let n = p.max.map_or(n, |hi| n.min(hi));
            serde_json::Number::from_f64(n).map_or(Value::from(1), Value::Number)
        }
        ParamType::Boolean => Value::Bool(true),
        // The fields its schema requires, read through named schemas: `{}` is refused where
        // any is required.
        ParamType::Object => p.schema.as_ref().map_or_else(
            || Value::Object(serde_json::Map::new()),
            |s| fields(s, schemas, SAMPLE_DEPTH),
        ),
        ParamType::Array => {
            let items = p.schema.as_ref().and_then(|s| schemas.keyword(s, "items"));
            if let Some(items) = items {
                return Value::Array(vec![sample(items, &p.name, schemas, SAMPLE_DEPTH)]);
            }
            let item = match p.items {
                Some(ParamType::Integer | ParamType::Number) => Value::from(1),
                Some(ParamType::Boolean) => Value::Bool(true),
                Some(ParamType::Object) => Value::Object(serde_json::Map::new()),
                Some(ParamType::Array) => Value::Array(Vec::new()),
                Some(ParamType::String) | None => Value::String("example".into()),
            };
            Value::Array(vec![item])
        }
        ParamType::String => Value::String(text(&keyword)),
    }
}

/// How many levels of fields and items below a parameter a made-up value holds.
const SAMPLE_DEPTH: usize = 4;

/// A string its schema's `format` and lengths admit (`keyword` reads the schema).
fn text<'v>(keyword: &impl Fn(&str) -> Option<&'v Value>) -> String {
    let mut text = match keyword("format").and_then(Value::as_str) {
        Some("date-time") => "2026-01-01T00:00:00Z",
        Some("date") => "2026-01-01",
        Some("email") => "user@example.com",
        Some("uri" | "url") => "https://example.com",
        Some("uuid") => "123e4567-e89b-12d3-a456-426614174000",
        _ => "example",
    }
    .to_string();
    let min = keyword("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    while text.chars().count() < min {
        text.push('x');
    }
    if let Some(max) = keyword("maxLength").and_then(Value::as_u64) {
        text = text.chars().take(max as usize).collect();
    }
    text
}

/// A value of a schema below a parameter, read through named schemas: its `const`, first
/// allowed value, first example or default, else one of its type (the first alternative's when
/// it has alternatives), `depth` more levels of fields and items; `<name>` for a string its
/// `pattern` refuses, as for a parameter.
fn sample(schema: &Value, name: &str, schemas: &Schemas, depth: usize) -> Value {
    let keyword = |k: &str| schemas.keyword(schema, k);
    let first = |k: &str| keyword(k).and_then(|v| v.as_array()?.first());
    if let Some(v) = keyword("const")
        .or_else(|| first("enum"))
        .or_else(|| first("examples"))
        .or_else(|| keyword("example"))
        .or_else(|| keyword("default"))
    {
        return v.clone();
    }
    let typed = keyword("type").is_some() || keyword("properties").is_some();
    // An alternative counts as a level: alternatives that lead back to themselves end.
    if !typed
        && let Some(below) = depth.checked_sub(1)
        && let Some(member) = ["anyOf", "oneOf"]
            .iter()
            .filter_map(|k| keyword(k)?.as_array())
            .flatten()
            .find(|m| schemas.keyword(m, "type") != Some(&Value::from("null")))
    {
        return sample(member, name, schemas, below);
    }
    let kind = Shape::from_schema(schema, 0, schemas).map_or(ParamType::String, |s| s.kind);
    // 1, moved within the bounds where they exclude it.
    let bound = || {
        let number = |k: &str| keyword(k).and_then(Value::as_f64);
        let lo = number("exclusiveMinimum")
            .map(|n| n + 1.0)
            .or(number("minimum"));
        let hi = number("exclusiveMaximum")
            .map(|n| n - 1.0)
            .or(number("maximum"));
        let n = lo.map_or(1.0, |lo| lo.max(1.0));
        hi.map_or(n, |hi| n.min(hi))
    };
    match kind {
        ParamType::Integer => Value::from(bound().ceil() as i64),
        ParamType::Number => serde_json::Number::from_f64(bound()).map_or(1.into(), Value::Number),
        ParamType::Boolean => Value::Bool(true),
        ParamType::String => {
            let text = text(&keyword);
            match keyword("pattern").and_then(Value::as_str) {
                Some(pattern) if !matches(pattern, &text) => {
                    let length = |k: &str| keyword(k).and_then(Value::as_u64).map(|n| n as usize);
                    let sample = pattern::sample(
                        pattern,
                        length("minLength").unwrap_or(0),
                        length("maxLength"),
                    );
                    Value::String(sample.unwrap_or_else(|| format!("<{name}>")))
                }
                _ => Value::String(text),
            }
        }
        ParamType::Array => Value::Array(match (depth.checked_sub(1), keyword("items")) {
            (Some(below), Some(items)) => vec![sample(items, name, schemas, below)],
            _ => Vec::new(),
        }),
        ParamType::Object => match depth.checked_sub(1) {
            Some(below) => fields(schema, schemas, below),
            None => Value::Object(serde_json::Map::new()),
        },
    }
}

/// An object with each field `schema` requires, `depth` more levels down.
fn fields(schema: &Value, schemas: &Schemas, depth: usize) -> Value {
    let props = schemas
        .keyword(schema, "properties")
        .and_then(Value::as_object);
    let required = schemas
        .keyword(schema, "required")
        .and_then(Value::as_array);
    let names = required.into_iter().flatten().filter_map(Value::as_str);
    Value::Object(
        names
            .map(|name| {
                let value = props.and_then(|p| p.get(name)).map_or_else(
                    || Value::from("example"),
                    |s| sample(s, name, schemas, depth),
                );
                (name.to_string(), value)
            })
            .collect(),
    )
}

/// Whether `v` is a value of `p`'s own schema, as far as its type, allowed values, bounds,
/// lengths, pattern and common formats say.
pub fn admits(p: &Param, v: &Value, schemas: &Schemas) -> bool {
    if v.is_null() {
        return p.nullable;
    }
    if !p.kind.admits(v) {
        return false;
    }
    if !p.allowed.is_empty() && !p.allowed.contains(v) {
        return false;
    }
    if let Some(n) = v.as_f64()
        && (p.min.is_some_and(|m| n < m) || p.max.is_some_and(|m| n > m))
    {
        return false;
    }
    if let (ParamType::Array, Some(items), Value::Array(values)) = (p.kind, p.items, v)
        && !values.iter().all(|i| items.admits(i))
    {
        return false;
    }
    let Some(s) = v.as_str() else {
        return true;
    };
    let keyword = |k: &str| p.schema.as_ref().and_then(|s| schemas.keyword(s, k));
    let length = s.chars().count() as u64;
    if keyword("minLength")
        .and_then(Value::as_u64)
        .is_some_and(|m| length < m)
        || keyword("maxLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| length > m)
    {
        return false;
    }
    if let Some(pattern) = &p.pattern
        && !matches(pattern, s)
    {
        return false;
    }
    match keyword("format").and_then(Value::as_str) {
        Some("date-time") => s.parse::<jiff::Timestamp>().is_ok(),
        Some("date") => s.len() == 10 && s.parse::<jiff::civil::Date>().is_ok(),
        Some("email") => s.contains('@'),
        Some("uri" | "url") => url::Url::parse(s).is_ok(),
        Some("uuid") => {
            let groups: Vec<&str> = s.split('-').collect();
            groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
                && groups
                    .iter()
                    .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
        }
        _ => true,
    }
}

/// A value as it reads in a URL or header: strings bare, everything else as JSON.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Everything but RFC 3986's unreserved characters.
const NOT_UNRESERVED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encoding of everything but RFC 3986's unreserved characters, and `<` `>` around a
/// placeholder kept as they are so it reads as one.
fn encode(text: &str) -> String {
    if text.starts_with('<') && text.ends_with('>') {
        return text.to_string();
    }
    percent_encoding::utf8_percent_encode(text, NOT_UNRESERVED).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ParamIn;

    fn param(kind: ParamType) -> Param {
        Param::plain("x", kind, true, ParamIn::Query)
    }

    #[test]
    fn bodies_are_encoded_as_their_media_type_says() {
        let fields = serde_json::json!({"a": "x y", "b": ["1", "2"], "c\"d": "one\ntwo"});
        assert_eq!(
            encoded(&Value::from("x"), "application/json"),
            ("application/json".into(), "\"x\"".into())
        );
        assert_eq!(
            encoded(&Value::from("x"), "text/plain"),
            ("text/plain".into(), "x".into())
        );
        assert_eq!(
            encoded(&fields, "application/x-www-form-urlencoded").1,
            "a=x%20y&b=1&b=2&c%22d=one%0Atwo"
        );
        let (media_type, text) = encoded(&fields, "multipart/form-data");
        assert_eq!(media_type, "multipart/form-data; boundary=example-boundary");
        assert!(text.contains("name=\"c%22d\"\n\none two\n"), "{text}");
        assert_eq!(text.matches("--example-boundary\n").count(), 4, "{text}");
        assert!(text.ends_with("--example-boundary--"), "{text}");
    }

    #[test]
    fn made_up_values_fit_their_own_schema() {
        let mut p = param(ParamType::Integer);
        p.min = Some(10.0);
        p.max = Some(20.0);
        assert_eq!(value_for(&p, &Schemas::default()), Value::from(10));
        p.example = Some(Value::from(30));
        assert_eq!(
            value_for(&p, &Schemas::default()),
            Value::from(10),
            "an example out of bounds is passed over"
        );

        let mut s = param(ParamType::String);
        s.schema = Some(serde_json::json!({"minLength": 12, "maxLength": 20}));
        let v = value_for(&s, &Schemas::default());
        assert!(admits(&s, &v, &Schemas::default()), "{v}");
        s.schema = Some(serde_json::json!({"format": "date"}));
        assert_eq!(
            value_for(&s, &Schemas::default()),
            Value::from("2026-01-01")
        );
        s.allowed = vec![Value::from("asc"), Value::from("desc")];
        s.schema = None;
        assert_eq!(value_for(&s, &Schemas::default()), Value::from("asc"));
        s.allowed.clear();
        s.pattern = Some("^[A-Z]{3}$".into());
        assert_eq!(value_for(&s, &Schemas::default()), Value::from("AAA"));
        s.pattern = Some("^[a-f]+$".into());
        s.schema = Some(serde_json::json!({"minLength": 4}));
        assert_eq!(value_for(&s, &Schemas::default()), Value::from("aaaa"));
        s.schema = None;
        s.pattern = Some("^(?=A)[A-Z]{3}$".into());
        assert_eq!(
            value_for(&s, &Schemas::default()),
            Value::from("<x>"),
            "no value is claimed to match a pattern it cannot fill"
        );
        s.example = Some(Value::from("AUD"));
        assert_eq!(value_for(&s, &Schemas::default()), Value::from("AUD"));
    }

    #[test]
    fn a_made_up_object_holds_the_fields_its_schema_requires_through_named_schemas() {
        let store = Schemas::new([(
            "Author".to_string(),
            std::sync::Arc::new(serde_json::json!({
                "type": "object", "required": ["name", "born"],
                "properties": {"name": {"type": "string"}, "born": {"type": "integer"}},
            })),
        )]);
        let mut p = param(ParamType::Object);
        assert_eq!(value_for(&p, &store), serde_json::json!({}));
        p.schema = Some(serde_json::json!({
            "required": ["author", "shelf", "tags", "added", "copies", "shelf_no", "price", "kind", "isbn", "code", "slug", "iso"],
            "properties": {
                "author": {"$ref": "#/schemas/Author"},
                "shelf": {"type": "string", "enum": ["fiction", "poetry"]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "added": {"type": "string", "format": "date-time"},
                "copies": {"type": "integer", "exclusiveMinimum": 0},
                "shelf_no": {"type": "integer", "minimum": -99, "maximum": -3},
                "price": {"type": "number", "minimum": 2.5},
                "kind": {"anyOf": [{"type": "null"}, {"type": "string", "format": "uri"}]},
                "isbn": {"type": "string", "examples": ["978-0441013593"]},
                "code": {"type": "string", "pattern": "^(?![A-Z]{3})[A-Z]{3}$"},
                "slug": {"type": "string", "pattern": "^[a-z]+$"},
                "iso": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]+$", "minLength": 5},
                "note": {"type": "string"},
            },
        }));
        assert_eq!(
            value_for(&p, &store),
            serde_json::json!({
                "author": {"name": "example", "born": 1},
                "shelf": "fiction",
                "tags": ["example"],
                "added": "2026-01-01T00:00:00Z",
                "copies": 1,
                "shelf_no": -3,
                "price": 2.5,
                "kind": "https://example.com",
                "isbn": "978-0441013593",
                "code": "<code>",
                "slug": "example",
                "iso": "AA-00",
            })
        );
        let mut list = param(ParamType::Array);
        list.schema = Some(serde_json::json!({"items": {"$ref": "#/schemas/Author"}}));
        assert_eq!(
            value_for(&list, &store),
            serde_json::json!([{"name": "example", "born": 1}])
        );
        // Alternatives that only lead back to themselves end, as a value of no known type.
        let looped = Schemas::new([(
            "Loop".to_string(),
            std::sync::Arc::new(serde_json::json!({"anyOf": [{"$ref": "#/schemas/Loop"}]})),
        )]);
        p.schema = Some(
            serde_json::json!({"required": ["x"], "properties": {"x": {"$ref": "#/schemas/Loop"}}}),
        );
        assert_eq!(value_for(&p, &looped), serde_json::json!({"x": "example"}));
        // A schema of another type than the parameter's says nothing of its fields.
        p.schema = Some(serde_json::json!({"anyOf": [{"type": "string"}]}));
        assert_eq!(value_for(&p, &store), serde_json::json!({}));
    }
}
