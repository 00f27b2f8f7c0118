//! Whether a schema's `default` is a value of that schema. Sources carry defaults that are not
//! (`"now"` for a `date-time`, `false` for a `string`, `''` for an object), and a validator that
//! reads the generated documents (openapi-spec-validator does) refuses the whole document for
//! one of them. What is checked is what such a validator checks: the type, `enum` and `const`,
//! the bounds, the common string formats and the `pattern`, and, inside an object or array
//! default, its members against their own schemas.

use std::str::FromStr;

use serde_json::{Map, Value};

use crate::values::param::ParamType;

use super::schema::coerce;

/// What `fit_default` did to a schema's `default`.
#[derive(Debug, PartialEq, Eq)]
pub enum Fitted {
    /// None, or one that fits.
    Kept,
    /// A string spelling a value of the schema's one scalar type (`"10"` for an integer),
    /// replaced by that value, as the import does for a parameter's default.
    Converted,
    /// One that does not fit: left out.
    Dropped,
}

/// Makes the `default` of `schema` (its own, not its subschemas') fit it.
pub fn fit_default(schema: &mut Map<String, Value>) -> Fitted {
    let Some(default) = schema.get("default") else {
        return Fitted::Kept;
    };
    if fits(default, schema) {
        return Fitted::Kept;
    }
    let converted = match schema.get("type") {
        Some(Value::String(t)) => ParamType::parse(t).and_then(|kind| coerce(kind, default)),
        _ => None,
    }
    .filter(|v| fits(v, schema));
    match converted {
        Some(v) => {
            schema.insert("default".into(), v);
            Fitted::Converted
        }
        None => {
            // `shift_remove`: the schema's other keywords keep the author's order.
            schema.shift_remove("default");
            Fitted::Dropped
        }
    }
}

/// How deep `fits` looks into an object or array value before it takes the rest on trust.
const MAX_DEPTH: usize = 8;

/// Whether `v` is a value of `schema`, as far as its own keywords and (inside objects and
/// arrays) its `properties` and `items` say.
pub(super) fn fits(v: &Value, schema: &Map<String, Value>) -> bool {
    fits_at(v, schema, 0)
}

fn fits_at(v: &Value, schema: &Map<String, Value>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    let typed = match schema.get("type") {
        Some(Value::String(t)) => has_type(v, t),
        Some(Value::Array(ts)) => ts
            .iter()
            .any(|t| t.as_str().is_some_and(|t| has_type(v, t))),
        _ => true,
    };
    if !typed
        || schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|allowed| !allowed.contains(v))
        || schema.get("const").is_some_and(|c| c != v)
    {
        return false;
    }
    let sub = |key: &str| schema.get(key).and_then(Value::as_object);
    match v {
        Value::Number(n) => {
            let Some(x) = n.as_f64() else { return true };
            let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
            bound("minimum").is_none_or(|m| x >= m)
                && bound("maximum").is_none_or(|m| x <= m)
                && bound("exclusiveMinimum").is_none_or(|m| x > m)
                && bound("exclusiveMaximum").is_none_or(|m| x < m)
        }
        Value::String(s) => {
            let len = || s.chars().count() as u64;
            let count = |key: &str| schema.get(key).and_then(Value::as_u64);
            count("minLength").is_none_or(|m| len() >= m)
                && count("maxLength").is_none_or(|m| len() <= m)
                && schema
                    .get("format")
                    .and_then(Value::as_str)
                    .is_none_or(|f| has_format(s, f))
                && schema
                    .get("pattern")
                    .and_then(Value::as_str)
                    .is_none_or(|p| matches_pattern(s, p))
        }
        Value::Object(members) => {
            let required = schema.get("required").and_then(Value::as_array);
            required.is_none_or(|names| {
                names
                    .iter()
                    .all(|n| n.as_str().is_some_and(|n| members.contains_key(n)))
            }) && members.iter().all(|(name, member)| {
                match sub("properties").and_then(|p| p.get(name)) {
                    Some(Value::Object(s)) => fits_at(member, s, depth + 1),
                    _ => true,
                }
            })
        }
        Value::Array(items) => {
            let count = |key: &str| schema.get(key).and_then(Value::as_u64);
            count("minItems").is_none_or(|m| items.len() as u64 >= m)
                && count("maxItems").is_none_or(|m| items.len() as u64 <= m)
                && sub("items").is_none_or(|s| items.iter().all(|i| fits_at(i, s, depth + 1)))
        }
        Value::Null | Value::Bool(_) => true,
    }
}

/// JSON Schema's types; an integer may be written `1.0`.
fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "integer" => {
            v.is_i64()
                || v.is_u64()
                || v.as_f64()
                    .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
        }
        "number" => v.is_number(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "null" => v.is_null(),
        // An unknown type name: not ours to judge.
        _ => true,
    }
}

/// The formats validators check; any other format is an annotation and fits.
fn has_format(s: &str, format: &str) -> bool {
    match format {
        "date-time" => jiff::Timestamp::from_str(s).is_ok(),
        "date" => s.len() == 10 && jiff::civil::Date::from_str(s).is_ok(),
        "uuid" => is_uuid(s),
        "ipv4" => s.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => s.parse::<std::net::Ipv6Addr>().is_ok(),
        "email" => s.contains('@'),
        _ => true,
    }
}

/// Whether `s` matches `pattern` (searched for, as JSON Schema does), as far as `fancy_regex`
/// reads an ECMA-262 pattern: one it cannot read, larger than a megabyte compiled, or needing
/// more than [`BACKTRACK_LIMIT`] steps on `s` is taken on trust. Each pair is worked out once
/// per thread: an import expands a component, and checks its default, wherever it is used.
fn matches_pattern(s: &str, pattern: &str) -> bool {
    thread_local! {
        static SEEN: std::cell::RefCell<std::collections::HashMap<(String, String), bool>> =
            std::cell::RefCell::default();
    }
    let key = (pattern.to_string(), s.to_string());
    if let Some(seen) = SEEN.with_borrow(|seen| seen.get(&key).copied()) {
        return seen;
    }
    let matches = fancy_regex::RegexBuilder::new(pattern)
        .delegate_size_limit(1 << 20)
        .backtrack_limit(BACKTRACK_LIMIT)
        .build()
        .map_or(true, |re| re.is_match(s).unwrap_or(true));
    SEEN.with_borrow_mut(|seen| seen.insert(key, matches));
    matches
}

/// The backtracking a pattern may take on one default: a pattern such as `(a|a)*b` would
/// otherwise take exponential time, and a spec's author writes it.
const BACKTRACK_LIMIT: usize = 100_000;

/// `8-4-4-4-12` hexadecimal digits.
fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fitted(mut schema: Value) -> (Fitted, Value) {
        let f = fit_default(schema.as_object_mut().unwrap());
        (f, schema)
    }

    #[test]
    fn defaults_of_another_type_format_or_value_are_left_out() {
        for schema in [
            json!({"type": "string", "default": false, "description": "d", "title": "t"}),
            json!({"type": "string", "format": "date-time", "default": "now"}),
            json!({"type": "string", "format": "date", "default": "today"}),
            json!({"type": "string", "format": "uuid", "default": "none"}),
            json!({"type": "string", "format": "ipv4", "default": "localhost"}),
            json!({"type": "object", "default": ""}),
            json!({"type": "string", "enum": ["a", "b"], "default": "c"}),
            json!({"type": "integer", "minimum": 1, "default": 0}),
            json!({"type": "integer", "default": "ten"}),
            json!({"type": "string", "maxLength": 2, "default": "abc"}),
            json!({"type": "object", "required": ["id"], "default": {}}),
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "default": {"n": "x"}}),
            json!({"type": "array", "items": {"type": "integer"}, "default": [1, "two"]}),
            json!({"type": "string", "pattern": "^[a-z]+$", "default": ""}),
            // Linear whatever its shape: no back-reference, so `regex` answers.
            json!({"type": "string", "pattern": "^(a|a)*b$", "default": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}),
            json!({"type": "string", "pattern": "date-time", "default": "2025-10-15T13:51:08.377Z"}),
            json!({"type": "string", "pattern": "^(a)\\1$", "default": "ab"}),
            json!({"type": "string", "default": null}),
        ] {
            let (f, s) = fitted(schema.clone());
            assert_eq!(f, Fitted::Dropped, "{schema}");
            assert!(s.get("default").is_none(), "{s}");
            let keys = |v: &Value| -> Vec<String> {
                v.as_object()
                    .unwrap()
                    .keys()
                    .filter(|k| *k != "default")
                    .cloned()
                    .collect()
            };
            assert_eq!(
                keys(&s),
                keys(&schema),
                "the other keywords keep their order"
            );
        }
    }

    #[test]
    fn defaults_that_fit_stay_as_written() {
        for schema in [
            json!({"type": "string", "format": "date-time", "default": "2024-02-29T12:00:00Z"}),
            json!({"type": "string", "format": "date-time", "default": "2024-02-29T12:00:00.5+02:00"}),
            json!({"type": "string", "format": "date", "default": "2024-02-29"}),
            json!({"type": "string", "format": "uuid", "default": "123e4567-e89b-12d3-a456-426614174000"}),
            json!({"type": "string", "format": "ipv6", "default": "::1"}),
            json!({"type": "string", "format": "email", "default": "a@example.com"}),
            json!({"type": "string", "format": "binary", "default": "anything"}),
            json!({"type": ["string", "null"], "default": null}),
            json!({"type": "integer", "default": 3.0}),
            json!({"type": "number", "exclusiveMinimum": 0, "default": 0.5}),
            json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "default": ["x"]}),
            json!({"type": "object", "required": ["a"], "properties": {"a": {"enum": [1]}}, "default": {"a": 1, "b": 2}}),
            json!({"oneOf": [{"type": "string"}], "default": 5}),
            json!({"type": "string", "pattern": "[0-9]{3}", "default": "abc123"}),
            json!({"type": "string", "pattern": "^(a)\\1$", "default": "aa"}),
            json!({"type": "string", "pattern": "^(?=.*[0-9])[a-z0-9]+$", "default": "a1"}),
            // Catastrophic backtracking: taken on trust once past the limit, quickly.
            json!({"type": "string", "pattern": "^(a|a)*\\1b$", "default": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}),
            json!({"type": "string"}),
        ] {
            let (f, s) = fitted(schema.clone());
            assert_eq!((f, s), (Fitted::Kept, schema.clone()), "{schema}");
        }
    }

    #[test]
    fn a_scalar_spelled_as_a_string_becomes_that_scalar() {
        let (f, s) = fitted(json!({"type": "integer", "maximum": 100, "default": "10"}));
        assert_eq!(f, Fitted::Converted);
        assert_eq!(s["default"], json!(10));
        let (f, s) = fitted(json!({"type": "boolean", "default": "true"}));
        assert_eq!((f, &s["default"]), (Fitted::Converted, &json!(true)));
        // Converted, it must still fit.
        let (f, _) = fitted(json!({"type": "integer", "maximum": 5, "default": "10"}));
        assert_eq!(f, Fitted::Dropped);
    }
}
