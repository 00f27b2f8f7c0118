//! What a schema says, in service.toml terms: a parameter's type, values converted to it,
//! JSON values as TOML, and the compact `returns` notation.

use serde_json::{Map, Value};

use crate::json::Field;
use crate::values::param::ParamType;
use crate::values::schemas::Schemas;

/// How many levels of nested `properties` a parameter's schema keeps: its own properties and
/// theirs. Deeper objects are published as `{"type": "object"}` with their description:
/// enough for an agent to fill a typical request (Stripe's `shipping.address.city`), short
/// enough that a big API's documents stay readable.
pub const NESTED_DEPTH: usize = 2;

/// Descriptions inside a parameter's schema are summarised to this many characters.
const NESTED_DESCRIPTION_MAX: usize = 200;

/// Whether a schema admits `null` only.
fn is_null(s: &Value) -> bool {
    match s.field("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(list)) => list.iter().all(|t| t == "null") && !list.is_empty(),
        _ => s.field("enum") == Some(&Value::Array(vec![Value::Null])),
    }
}

/// The schema with its `null` alternative folded into a flag: `type: [T, "null"]` becomes
/// `type: T`, and `anyOf`/`oneOf` of one schema (and `null`) becomes that schema under the
/// outer keywords (the outer `description` wins). Other schemas come back unchanged.
pub fn fold_null(schema: &Value) -> (Value, bool) {
    let mut s = schema.clone();
    let mut nullable = false;
    // Wrappers nest (`anyOf: [{type: [T, null]}, {type: null}]`): a few rounds unwrap them.
    for _ in 0..4 {
        let Some(object) = s.as_object_mut() else {
            break;
        };
        if let Some(Value::Array(types)) = object.field("type") {
            let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
            if kept.len() < types.len() && !kept.is_empty() {
                nullable = true;
                let kept = if kept.len() == 1 {
                    kept[0].clone()
                } else {
                    Value::Array(kept)
                };
                object.insert("type".into(), kept);
            }
        }
        let Some((key, variants)) = ["anyOf", "oneOf"]
            .into_iter()
            .find_map(|k| Some((k, object.get(k)?.as_array()?.clone())))
        else {
            break;
        };
        let rest: Vec<&Value> = variants.iter().filter(|v| !is_null(v)).collect();
        let [only] = rest[..] else {
            break;
        };
        let Some(inner) = only.as_object() else {
            break;
        };
        nullable |= rest.len() < variants.len();
        let mut merged = inner.clone();
        for (k, v) in object.iter().filter(|(k, _)| *k != key) {
            merged.insert(k.clone(), v.clone());
        }
        s = Value::Object(merged);
    }
    (s, nullable)
}

/// The JSON types a schema admits, in order (`["number", "null"]`), read from `type`, 3.0
/// `nullable`, and `anyOf`/`oneOf` alternatives; `None` when some alternative admits any type.
pub fn json_types(schema: &Value) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |t: &str| {
        if !out.iter().any(|o| o == t) {
            out.push(t.to_string());
        }
    };
    match schema.field("type") {
        Some(Value::String(t)) => add(t),
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).for_each(&mut add),
        _ => {
            let variants = schema
                .field("anyOf")
                .or_else(|| schema.field("oneOf"))
                .and_then(Value::as_array)?;
            for v in variants {
                for t in json_types(v)? {
                    add(&t);
                }
            }
        }
    }
    if schema.field("nullable") == Some(&Value::Bool(true)) {
        add("null");
    }
    (!out.is_empty()).then_some(out)
}

/// The keywords of a (null-folded) parameter schema that a `kind` alone does not say:
/// `format`, a list of types, alternatives, nested `properties` (`NESTED_DEPTH` levels) and
/// structured `items`. Descriptions in them are plain text, examples are `examples` lists.
pub fn extra_keywords(schema: &Value, kind: ParamType) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(f) = schema.field("format").and_then(Value::as_str) {
        out.insert("format".into(), f.into());
    }
    // A string's length bounds: an agent that does not know them sends a value the API refuses.
    if kind == ParamType::String {
        for key in ["minLength", "maxLength"] {
            if let Some(n) = schema.field(key).filter(|n| n.is_u64()) {
                out.insert(key.into(), n.clone());
            }
        }
    }
    let alternatives = ["anyOf", "oneOf"].iter().any(|k| schema.get(*k).is_some());
    match schema.field("type") {
        Some(Value::Array(list)) => {
            out.insert("type".into(), Value::Array(list.clone()));
        }
        // Beside alternatives the source's own type is said, so it is kept: without it the
        // alternatives replace the rendered type (`Param::extend_schema`). Without one, none
        // is invented from the alternatives.
        Some(t @ Value::String(_)) if alternatives => {
            out.insert("type".into(), t.clone());
        }
        _ => {}
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(variants)) = schema.get(key) {
            let nested = variants.iter().map(|v| nested(v, NESTED_DEPTH)).collect();
            out.insert(key.into(), Value::Array(nested));
        }
    }
    match kind {
        ParamType::Object => {
            if let Value::Object(mut inner) = nested(schema, NESTED_DEPTH) {
                for key in ["properties", "required", "additionalProperties"] {
                    if let Some(v) = inner.remove(key) {
                        out.insert(key.into(), v);
                    }
                }
            }
        }
        ParamType::Array => {
            if let Some(items) = schema.field("items").filter(|i| structured(i)) {
                out.insert("items".into(), nested(items, NESTED_DEPTH));
            }
        }
        _ => {}
    }
    out
}

/// Whether an items schema says more than a scalar type.
fn structured(items: &Value) -> bool {
    items.as_object().is_some_and(|m| {
        m.keys()
            .any(|k| !matches!(k.as_str(), "type" | "description" | "title"))
            || m.field("type").is_some_and(|t| !t.is_string())
    })
}

/// A schema for publication, keeping `depth` more levels of `properties`: descriptions as
/// plain text, `example` as `examples`, the `properties` beyond the depth left out.
fn nested(schema: &Value, depth: usize) -> Value {
    let Some(object) = schema.as_object() else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in object {
        let value = match key.as_str() {
            "properties" | "patternProperties" => {
                let Some(props) = value.as_object().filter(|_| depth > 0) else {
                    continue;
                };
                Value::Object(
                    props
                        .iter()
                        .map(|(k, v)| (k.clone(), nested(v, depth - 1)))
                        .collect(),
                )
            }
            "required" if depth == 0 => continue,
            "additionalProperties" if value.is_object() => {
                if depth == 0 {
                    continue;
                }
                nested(value, depth - 1)
            }
            "items" | "not" | "contains" => nested(value, depth),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => match value.as_array() {
                Some(list) => Value::Array(list.iter().map(|v| nested(v, depth)).collect()),
                None => continue,
            },
            "description" => match value.as_str() {
                Some(d) => {
                    crate::text::summary(&crate::text::plain_text(d), NESTED_DESCRIPTION_MAX)
                        .0
                        .into()
                }
                None => continue,
            },
            "example" => {
                if !object.contains_key("examples") {
                    out.insert("examples".into(), Value::Array(vec![value.clone()]));
                }
                continue;
            }
            "examples" if !value.is_array() => continue,
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    if depth == 0 && object.contains_key("properties") && !out.contains_key("type") {
        out.insert("type".into(), "object".into());
    }
    Value::Object(out)
}

/// The parameter type of a schema; 3.1 type lists take their first non-null entry, and
/// alternatives (`anyOf`, `oneOf`) the type of their first typed one.
pub fn schema_type(schema: &Value) -> ParamType {
    let named = match schema.field("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    };
    if let Some(t) = named.and_then(ParamType::parse) {
        return t;
    }
    let variants = schema
        .field("anyOf")
        .or_else(|| schema.field("oneOf"))
        .and_then(Value::as_array);
    if schema.field("properties").is_none()
        && schema.field("items").is_none()
        && let Some(first) = variants
            .into_iter()
            .flatten()
            .find(|v| !is_null(v) && json_types(v).is_some())
    {
        return schema_type(first);
    }
    if schema.field("properties").is_some() {
        ParamType::Object
    } else if schema.field("items").is_some() {
        ParamType::Array
    } else if let Some(first) = schema.field("enum").and_then(|e| e.get(0)) {
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
/// without building the TOML tree (on a large API that round trip costs a third of the import).
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
/// shown `depth` levels deep. References to named schemas are read through `named`; one back to
/// a schema being read says no more (as the import writes a cycle), and nothing is read deeper
/// than [`SHAPE_LEVELS`] levels of subschemas below the top.
pub fn compact(schema: &Value, named: &Schemas, noun: &str, depth: usize) -> String {
    let mut reading = Vec::new();
    let shape = Shape {
        named,
        reading: &mut reading,
    }
    .of(schema, depth, 0);
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

/// The subschema levels [`compact`] reads.
pub const SHAPE_LEVELS: usize = 4;

/// What [`compact`] reads a schema with: the named schemas, and those being read.
struct Shape<'v, 'r> {
    named: &'v Schemas,
    reading: &'r mut Vec<&'v str>,
}

impl<'v> Shape<'v, '_> {
    /// `{a, b[], c {d}}` for objects, `[]` plus the item shape for arrays, the type name for
    /// primitives, alternatives joined by ` | `; `level`: how many subschemas down from the top.
    fn of(&mut self, mut schema: &'v Value, depth: usize, level: usize) -> String {
        if level > SHAPE_LEVELS {
            return String::new();
        }
        let before = self.reading.len();
        while let Some(name) = Schemas::name_of(schema) {
            let next = self.named.get_key_value(name).filter(|(name, _)| {
                !self.reading.contains(name) && self.reading.len() - before < super::refs::MAX_HOPS
            });
            let Some((name, next)) = next else {
                self.reading.truncate(before);
                return String::new();
            };
            self.reading.push(name);
            schema = next;
        }
        let shape = self.read(schema, depth, level);
        self.reading.truncate(before);
        shape
    }

    fn read(&mut self, schema: &'v Value, depth: usize, level: usize) -> String {
        if let Some(items) = schema.field("items") {
            let inner = self.of(items, depth, level + 1);
            return if inner.starts_with('{') {
                format!("[] {inner}")
            } else {
                "[]".into()
            };
        }
        if let Some(props) = schema.field("properties").and_then(Value::as_object) {
            if depth == 0 {
                return String::new();
            }
            let fields: Vec<String> = props
                .iter()
                .map(|(name, sub)| {
                    let inner = self.of(sub, depth - 1, level + 1);
                    if inner == "[]" {
                        format!("{name}[]")
                    } else if inner.starts_with("[] ") {
                        format!("{name}{inner}")
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
            .field("oneOf")
            .or_else(|| schema.field("anyOf"))
            .and_then(Value::as_array)
        {
            let parts: Vec<String> = variants
                .iter()
                .map(|v| self.of(v, depth, level + 1))
                .filter(|s| !s.is_empty())
                .collect();
            return parts.join(" | ");
        }
        // A nullable type (`["integer", "null"]`, as 3.0's `nullable` is read) says its type.
        let mut types = match schema.field("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        types.retain(|t| *t != "null");
        match types[..] {
            [t] if t != "object" => t.to_string(),
            _ => String::new(),
        }
    }
}

/// Whether a value holds a string the credential check flags only for its randomness, and no
/// string in a known key format.
pub(super) fn entropy_only(v: &Value) -> bool {
    let mut random = false;
    let mut known = false;
    walk_strings(v, &mut |s| match crate::detect::secrets::find(s) {
        Some(crate::detect::secrets::RANDOM_TOKEN) => random = true,
        Some(_) => known = true,
        None => {}
    });
    random && !known
}

fn walk_strings(v: &Value, f: &mut impl FnMut(&str)) {
    match v {
        Value::String(s) => f(s),
        Value::Array(a) => a.iter().for_each(|v| walk_strings(v, f)),
        Value::Object(m) => m.iter().for_each(|(k, v)| {
            f(k);
            walk_strings(v, f);
        }),
        _ => {}
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
        let none = Schemas::default();
        assert_eq!(
            compact(&s, &none, "pets", 2),
            "pets[] {id, tags[], owner {name}}"
        );
        assert_eq!(compact(&s, &none, "pets", 1), "pets[] {id, tags[], owner}");
        let string = json!({"type": "string"});
        assert_eq!(compact(&string, &none, "result", 2), "string");
        assert_eq!(compact(&string, &none, "pet", 2), "pet");
        let nullable = json!({"type": ["integer", "null"]});
        assert_eq!(compact(&nullable, &none, "result", 2), "integer");
        let nested = json!({"properties": {"data": {"items": {"properties": {"id": {}}}}}});
        assert_eq!(compact(&nested, &none, "list", 2), "list {data[] {id}}");
    }

    #[test]
    fn returns_notation_reads_named_schemas_and_ends_on_cycles() {
        let named = Schemas::new(
            [
                (
                    "Page",
                    json!({"properties": {"data": {"items": {"$ref": "#/schemas/Pet"}}}}),
                ),
                (
                    "Pet",
                    json!({"properties": {"id": {}, "owner": {"$ref": "#/schemas/Owner"}}}),
                ),
                ("Owner", json!({"properties": {"name": {}}})),
                ("Alias", json!({"$ref": "#/schemas/Pet"})),
                (
                    "Nest",
                    json!({"type": "array", "items": {"$ref": "#/schemas/Nest"}}),
                ),
                (
                    "Tree",
                    json!({"anyOf": [{"$ref": "#/schemas/Tree"}, {"type": "string"}]}),
                ),
                (
                    "Person",
                    json!({"properties": {"name": {}, "spouse": {"$ref": "#/schemas/Person"}}}),
                ),
            ]
            .map(|(n, v)| (n.to_string(), std::sync::Arc::new(v))),
        );
        let line = |name: &str, noun: &str| {
            compact(
                &json!({"$ref": format!("#/schemas/{name}")}),
                &named,
                noun,
                2,
            )
        };
        assert_eq!(line("Page", "page"), "page {data[] {id, owner}}");
        assert_eq!(line("Alias", "pet"), "pet {id, owner {name}}");
        // A reference back to a schema being read says nothing more.
        assert_eq!(line("Person", "person"), "person {name, spouse}");
        assert_eq!(line("Nest", "nest"), "nest[]");
        assert_eq!(line("Tree", "result"), "string");
        assert_eq!(line("None", "x"), "x");
        // No further than `SHAPE_LEVELS` levels of subschemas.
        let nested = |levels: usize| {
            (0..levels).fold(
                json!({"type": "string"}),
                |inner, _| json!({"anyOf": [inner]}),
            )
        };
        assert_eq!(
            compact(&nested(SHAPE_LEVELS), &named, "result", 2),
            "string"
        );
        assert_eq!(
            compact(&nested(SHAPE_LEVELS + 1), &named, "result", 2),
            "result"
        );
    }

    #[test]
    fn null_alternatives_fold_into_a_flag() {
        let t = json!({"anyOf": [{"type": "number", "maximum": 2, "description": "d"}, {"type": "null"}]});
        let (s, nullable) = fold_null(&t);
        assert!(nullable);
        assert_eq!(
            s,
            json!({"type": "number", "maximum": 2, "description": "d"})
        );
        assert_eq!(schema_type(&s), ParamType::Number);
        let (s, nullable) = fold_null(&json!({"type": ["integer", "null"]}));
        assert_eq!((s, nullable), (json!({"type": "integer"}), true));
        // Two real alternatives stay; the type is the first typed one's, the list says all.
        let both =
            json!({"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]});
        assert_eq!(fold_null(&both), (both.clone(), false));
        assert_eq!(schema_type(&both), ParamType::String);
        // No type is invented from the alternatives; one written beside them is kept.
        let extra = extra_keywords(&both, ParamType::String);
        assert_eq!(extra.get("type"), None);
        let flag = json!({"type": "integer", "oneOf": [{"const": 0}, {"const": 1}]});
        let extra = extra_keywords(&flag, schema_type(&flag));
        assert_eq!(
            Value::Object(extra),
            json!({"type": "integer", "oneOf": [{"const": 0}, {"const": 1}]})
        );
        assert_eq!(
            json_types(&json!({"type": "string", "nullable": true})),
            Some(vec!["string".into(), "null".into()])
        );
        assert_eq!(
            json_types(&json!({"anyOf": [{"type": "string"}, {}]})),
            None
        );
    }

    #[test]
    fn nested_properties_stop_at_the_depth() {
        let s = json!({"type": "object", "properties": {"a": {"type": "object", "example": {"b": {}},
            "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}}}});
        let extra = extra_keywords(&s, ParamType::Object);
        let a = &extra["properties"]["a"];
        assert_eq!(a["examples"], json!([{"b": {}}]));
        assert_eq!(a["properties"]["b"], json!({"type": "object"}));
        assert_eq!(
            extra_keywords(
                &json!({"type": "array", "items": {"type": "string"}}),
                ParamType::Array
            ),
            Map::new()
        );
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
