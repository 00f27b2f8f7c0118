//! Made-up example values, for when service.toml gives none: from a parameter's type and
//! constraints, from the compact `returns` notation, or from an output JSON Schema.
//!
//! ADP requires an `example` on every parameter and a complete request and response per
//! capability, so something must be shown; the values are plain and deterministic, and the back
//! end warns whenever it uses them.

use serde_json::{Map, Value, json};

use crate::json::Field;
use crate::model::{Param, ParamType};

/// A timestamp that never changes between builds.
const TIMESTAMP: &str = "2026-01-01T00:00:00Z";
const DATE: &str = "2026-01-01";

/// A plausible string for a field, guessed from its name.
pub fn string_for(name: &str) -> String {
    let n = name.to_ascii_lowercase();
    // `s` itself or `…_s`, without building `_s` for every word tried.
    let ends = |s: &str| {
        n.strip_suffix(s)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with('_'))
    };
    let text = if ends("email") {
        "user@example.com"
    } else if ends("url") || ends("uri") || ends("link") || n == "href" || n == "website" {
        "https://example.com"
    } else if ends("id") || ends("ids") || n == "uuid" || n == "slug" {
        "abc123"
    } else if n.ends_with("_at") || n.contains("timestamp") || ends("time") {
        TIMESTAMP
    } else if n.contains("date")
        || n.ends_with("_after")
        || n.ends_with("_before")
        || matches!(n.as_str(), "since" | "until" | "from" | "to")
    {
        DATE
    } else if matches!(n.as_str(), "q" | "query" | "search" | "keyword" | "term") {
        "example"
    } else if ends("lang") || ends("language") || ends("locale") {
        "en"
    } else if ends("currency") {
        "USD"
    } else if ends("country") {
        "US"
    } else if ends("phone") {
        "+15555550100"
    } else {
        return format!("example {}", n.replace(['_', '-'], " "));
    };
    text.to_string()
}

/// A value for a response field named `name` whose type the notation does not say.
fn leaf_for(name: &str) -> Value {
    let n = name.to_ascii_lowercase();
    let numeric_words = [
        "count",
        "total",
        "price",
        "amount",
        "quantity",
        "stock",
        "temp",
        "humidity",
        "speed",
        "page",
        "limit",
        "size",
        "age",
        "score",
        "rating",
        "year",
        "latitude",
        "longitude",
        "lat",
        "lng",
        "lon",
    ];
    let numeric_suffixes = [
        "_count", "_total", "_pct", "_percent", "_usd", "_price", "_amount", "_high", "_low",
        "_ms", "_seconds", "_minutes", "_size", "_number",
    ];
    if n.starts_with("is_")
        || n.starts_with("has_")
        || matches!(n.as_str(), "success" | "enabled" | "active")
    {
        Value::Bool(true)
    } else if numeric_words.contains(&n.as_str())
        || numeric_suffixes.iter().any(|s| n.ends_with(s))
        || n.starts_with("temp_")
        || n.starts_with("num_")
    {
        json!(1)
    } else {
        Value::String(string_for(&n))
    }
}

/// A value of a model parameter type; `name` steers strings.
pub fn value_of(kind: ParamType, items: Option<ParamType>, name: &str) -> Value {
    match kind {
        ParamType::String => Value::String(string_for(name)),
        ParamType::Integer | ParamType::Number => json!(1),
        ParamType::Boolean => Value::Bool(true),
        ParamType::Object => Value::Object(Map::new()),
        ParamType::Array => {
            let item = value_of(items.unwrap_or(ParamType::String), None, singular(name));
            Value::Array(vec![item])
        }
    }
}

/// A parameter's made-up example: inside its bounds, matching its pattern-free type.
pub fn param_value(p: &Param) -> Value {
    match p.kind {
        ParamType::Integer | ParamType::Number => {
            let lo = p.min.unwrap_or(1.0_f64.min(p.max.unwrap_or(1.0)));
            let n = if p.kind == ParamType::Integer {
                lo.ceil()
            } else {
                lo
            };
            if n.fract() == 0.0 && n.abs() < 1e15 {
                json!(n as i64)
            } else {
                serde_json::Number::from_f64(n).map_or(json!(1), Value::Number)
            }
        }
        _ => value_of(p.kind, p.items, &p.name),
    }
}

fn singular(name: &str) -> &str {
    name.strip_suffix('s')
        .filter(|s| !s.is_empty())
        .unwrap_or(name)
}

/// An example object for the compact `returns` notation (`products[] {id, name}, total`);
/// `None` when the text is prose rather than the notation.
pub fn from_returns(text: &str) -> Option<Value> {
    crate::model::returns::schema(text).map(|s| from_schema(&s, "", 0))
}

/// An example instance of a JSON Schema: its own `example`/`examples`/`const`/`enum` first,
/// else built from `type`, `properties` and `items`. `$ref` is not followed.
pub fn from_schema(schema: &Value, name: &str, depth: usize) -> Value {
    let Some(s) = schema.as_object() else {
        return Value::Null;
    };
    if let Some(v) = s
        .field("example")
        .or_else(|| s.field("examples").and_then(|e| e.get(0)))
        .or_else(|| s.field("const"))
        .or_else(|| s.field("enum").and_then(|e| e.get(0)))
    {
        return v.clone();
    }
    if depth > 8 {
        return Value::Null;
    }
    let kind = match s.field("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ if s.contains_key("properties") => "object",
        _ if s.contains_key("items") => "array",
        _ => "",
    };
    match kind {
        "object" => Value::Object(
            s.field("properties")
                .and_then(Value::as_object)
                .map(|props| {
                    props
                        .iter()
                        .map(|(k, v)| (k.clone(), from_schema(v, k, depth + 1)))
                        .collect()
                })
                .unwrap_or_default(),
        ),
        "array" => Value::Array(
            s.field("items")
                .map(|i| vec![from_schema(i, singular(name), depth + 1)])
                .unwrap_or_default(),
        ),
        "string" => Value::String(match s.field("format").and_then(Value::as_str) {
            Some("date-time") => TIMESTAMP.into(),
            Some("date") => DATE.into(),
            Some("email") => "user@example.com".into(),
            Some("uri" | "url") => "https://example.com".into(),
            _ => string_for(name),
        }),
        "integer" | "number" => s.field("minimum").cloned().unwrap_or(json!(1)),
        "boolean" => Value::Bool(true),
        "null" => Value::Null,
        _ => leaf_for(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_notation_becomes_an_object() {
        let v = from_returns("products[] {id, name, price_usd, stock, url}").unwrap();
        assert_eq!(
            v,
            json!({"products": [{"id": "abc123", "name": "example name", "price_usd": 1, "stock": 1,
                   "url": "https://example.com"}]})
        );
        let v = from_returns(
            "city {name, country}, condition, temp, humidity_pct, wind_speed, updated_at",
        )
        .unwrap();
        assert_eq!(v["city"]["country"], "US");
        assert_eq!(v["updated_at"], TIMESTAMP);
        assert_eq!(v["humidity_pct"], 1);
        let v = from_returns("product {images[], tags[]}").unwrap();
        assert_eq!(v["product"]["images"], json!(["example image"]));
    }

    #[test]
    fn prose_is_not_the_notation() {
        for text in ["A list of products.", "items {id", "a,,b", "x {}", "{a}"] {
            assert_eq!(from_returns(text), None, "{text}");
        }
    }

    #[test]
    fn schemas_give_their_own_examples_first() {
        let s = json!({"type": "object", "properties": {
            "id": {"type": "string", "example": "n_1"},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
            "at": {"type": ["string", "null"], "format": "date-time"},
            "n": {"type": "integer", "minimum": 5}}});
        assert_eq!(
            from_schema(&s, "", 0),
            json!({"id": "n_1", "tags": ["a"], "at": TIMESTAMP, "n": 5})
        );
    }

    #[test]
    fn strings_follow_the_name() {
        assert_eq!(string_for("reply_email"), "user@example.com");
        assert_eq!(string_for("page_id"), "abc123");
        assert_eq!(string_for("city"), "example city");
        assert_eq!(string_for("paid"), "example paid");
        assert_eq!(string_for("Email"), "user@example.com");
        assert_eq!(string_for("xemail"), "example xemail");
        assert_eq!(string_for("_id"), "abc123");
        assert_eq!(string_for("home_country"), "US");
    }
}
