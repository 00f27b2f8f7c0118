//! What a schema says, in service.toml terms: a parameter's type, values converted to it,
//! JSON values as TOML, and the compact `returns` notation.

use serde_json::Value;

use crate::model::ParamType;

/// The parameter type of a schema; 3.1 type lists take their first non-null entry.
pub fn schema_type(schema: &Value) -> ParamType {
    let named = match schema.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    };
    if let Some(t) = named.and_then(ParamType::parse) {
        return t;
    }
    if schema.get("properties").is_some() {
        ParamType::Object
    } else if schema.get("items").is_some() {
        ParamType::Array
    } else if let Some(first) = schema.get("enum").and_then(|e| e.get(0)) {
        match first {
            Value::Bool(_) => ParamType::Boolean,
            Value::Number(n) if n.is_i64() || n.is_u64() => ParamType::Integer,
            Value::Number(_) => ParamType::Number,
            _ => ParamType::String,
        }
    } else {
        // No type, `file` (Swagger 2.0) or a composition: a string is what a client sends.
        ParamType::String
    }
}

/// A value as the parameter type wants it (`"10"` for an integer becomes 10), or `None`.
pub fn coerce(kind: ParamType, v: &Value) -> Option<Value> {
    if kind.admits(v) {
        return Some(v.clone());
    }
    let s = v.as_str()?;
    let parsed = match kind {
        ParamType::Integer => s.parse::<i64>().ok().map(Value::from),
        ParamType::Number => s
            .parse::<f64>()
            .ok()
            .and_then(|f| serde_json::Number::from_f64(f).map(Value::Number)),
        ParamType::Boolean => s.parse::<bool>().ok().map(Value::Bool),
        _ => None,
    };
    parsed.filter(|p| kind.admits(p))
}

/// JSON as a service.toml could hold it, in place: what `to_toml` then `to_json` would give,
/// without building the TOML tree (on a large API that round trip was a third of the import).
/// `null` is left out everywhere (false: drop this value); an integer beyond `i64` becomes a
/// float, as in TOML.
pub fn toml_shape(v: &mut Value) -> bool {
    match v {
        Value::Null => return false,
        Value::Number(n) if n.as_i64().is_none() && !n.is_f64() => {
            match n.as_f64().and_then(serde_json::Number::from_f64) {
                Some(f) => *n = f,
                None => return false,
            }
        }
        Value::Array(a) => a.retain_mut(toml_shape),
        Value::Object(m) => m.retain(|_, v| toml_shape(v)),
        _ => {}
    }
    true
}

/// JSON → TOML: `null` has no TOML spelling and is left out (in arrays and tables too).
pub fn to_toml(v: Value) -> Option<toml::Value> {
    Some(match v {
        Value::Null => return None,
        Value::Bool(b) => toml::Value::Boolean(b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64()?),
        },
        Value::String(s) => toml::Value::String(s),
        Value::Array(a) => toml::Value::Array(a.into_iter().filter_map(to_toml).collect()),
        Value::Object(m) => toml::Value::Table(
            m.into_iter()
                .filter_map(|(k, v)| Some((k, to_toml(v)?)))
                .collect(),
        ),
    })
}

/// The compact `returns` notation of a schema: `pets[] {id, name, tag}`; nested objects are
/// shown `depth` levels deep.
pub fn compact(schema: &Value, noun: &str, depth: usize) -> String {
    let shape = shape(schema, depth);
    if shape.starts_with("[]") {
        format!("{noun}{shape}")
    } else if shape.starts_with('{') {
        format!("{noun} {shape}")
    } else if shape.is_empty() || noun != "result" {
        noun.to_string()
    } else {
        shape
    }
}

/// `{a, b[], c {d}}` for objects, `[]` plus the item shape for arrays, the type name for
/// primitives, alternatives joined by ` | `.
fn shape(schema: &Value, depth: usize) -> String {
    if let Some(items) = schema.get("items") {
        let inner = shape(items, depth);
        return if inner.starts_with('{') {
            format!("[] {inner}")
        } else {
            "[]".into()
        };
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        if depth == 0 {
            return String::new();
        }
        let fields: Vec<String> = props
            .iter()
            .map(|(name, sub)| {
                let inner = shape(sub, depth - 1);
                if inner == "[]" {
                    format!("{name}[]")
                } else if inner.starts_with("[] ") {
                    format!("{name}{inner}").replacen("[] ", "[] ", 1)
                } else if inner.starts_with('{') {
                    format!("{name} {inner}")
                } else {
                    name.clone()
                }
            })
            .collect();
        return format!("{{{}}}", fields.join(", "));
    }
    if let Some(variants) = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
    {
        let parts: Vec<String> = variants
            .iter()
            .map(|v| shape(v, depth))
            .filter(|s| !s.is_empty())
            .collect();
        return parts.join(" | ");
    }
    match schema.get("type") {
        Some(Value::String(t)) if t != "object" => t.clone(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn toml_shape_is_the_toml_round_trip() {
        let cases = [
            json!({"a": null, "b": [1, null, {"c": null, "d": 2.5}], "e": 18446744073709551615u64}),
            json!({"type": "object", "default": null, "enum": [null, "x", -3, 1.0, true]}),
            json!([[], {}, [null], {"k": {"k": {"k": null}}}]),
            json!("plain"),
        ];
        for case in cases {
            let via_toml = to_toml(case.clone()).map(crate::source::service_toml::to_json);
            let mut shaped = case.clone();
            let kept = toml_shape(&mut shaped).then_some(shaped);
            assert_eq!(kept, via_toml, "{case}");
        }
        assert!(!toml_shape(&mut Value::Null));
    }

    #[test]
    fn returns_notation() {
        let s = json!({"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}},
            "owner": {"type": "object", "properties": {"name": {}}}
        }}});
        assert_eq!(compact(&s, "pets", 2), "pets[] {id, tags[], owner {name}}");
        assert_eq!(compact(&s, "pets", 1), "pets[] {id, tags[], owner}");
        assert_eq!(compact(&json!({"type": "string"}), "result", 2), "string");
        assert_eq!(compact(&json!({"type": "string"}), "pet", 2), "pet");
        let nested = json!({"properties": {"data": {"items": {"properties": {"id": {}}}}}});
        assert_eq!(compact(&nested, "list", 2), "list {data[] {id}}");
    }

    #[test]
    fn values_are_coerced_to_the_parameter_type() {
        assert_eq!(coerce(ParamType::Integer, &json!("10")), Some(json!(10)));
        assert_eq!(coerce(ParamType::Integer, &json!("ten")), None);
        assert_eq!(coerce(ParamType::String, &json!(3)), None);
        assert_eq!(
            schema_type(&json!({"type": ["null", "integer"]})),
            ParamType::Integer
        );
    }
}
