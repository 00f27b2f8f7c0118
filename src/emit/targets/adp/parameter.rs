//! Model parameters as ADP parameter objects: the six-word type vocabulary, a description that
//! carries what ADP has no field for (location, allowed values, bounds, pattern), and an example.

use crate::values::param::{number, plain};
use serde::Serialize;
use serde_json::{Map, Value};

use super::sample;
use crate::model::{Param, ParamIn, ParamType};

#[derive(Serialize)]
pub struct ParameterView {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub description: String,
    pub required: bool,
    pub example: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
}

/// Where a parameter's example came from: only `Type` is made up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Author,
    Request,
    Default,
    Enum,
    Type,
}

/// The example of a parameter: its own, else the value the author's example request gives it,
/// else its default, else its first allowed value, else one made from its type. A value whose
/// type is not the parameter's (as ADP publishes it) is converted where that loses nothing
/// (`7` → `"7"` for a string, `"10"` → `10` for a number), else passed over for the next
/// source; each such value is returned as a `Misfit` for the warning.
pub fn example(p: &Param, request: Option<&Map<String, Value>>) -> (Value, Origin, Vec<Misfit>) {
    let candidates = [
        (Origin::Author, p.example.as_ref()),
        (Origin::Request, request.and_then(|r| r.get(&p.name))),
        (Origin::Default, p.default.as_ref()),
        (Origin::Enum, p.allowed.first()),
    ];
    let mut misfits = Vec::new();
    for (origin, value) in candidates {
        let Some(value) = value else { continue };
        match fit(p, value) {
            Ok(v) => return (v, origin, misfits),
            Err(converted) => {
                misfits.push(Misfit {
                    origin,
                    given: value.clone(),
                    converted: converted.clone(),
                });
                if let Some(v) = converted {
                    return (v, origin, misfits);
                }
            }
        }
    }
    (sample::param_value(p), Origin::Type, misfits)
}

/// A value given for a parameter whose type it does not have: `converted` is the value of the
/// parameter's type that says the same thing, when there is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Misfit {
    pub origin: Origin,
    pub given: Value,
    pub converted: Option<Value>,
}

/// `Ok` with the value when ADP's checker admits it as this parameter's example; otherwise
/// `Err` with its lossless conversion, if any.
pub fn fit(p: &Param, v: &Value) -> Result<Value, Option<Value>> {
    if admitted(p, v) {
        return Ok(v.clone());
    }
    Err(convert(p.kind, v).filter(|c| admitted(p, c)))
}

/// Whether the published parameter (type word and example as `view` writes them) is valid.
fn admitted(p: &Param, v: &Value) -> bool {
    let published = view(p, v.clone());
    super::rules::admits(published.kind, &published.example)
        && (p.kind != ParamType::Integer || v.is_i64() || v.is_u64())
}

/// The same value in the parameter's type, when the text says exactly it: numbers and booleans
/// as strings, and strings that are exactly a JSON number or boolean.
fn convert(kind: ParamType, v: &Value) -> Option<Value> {
    match (kind, v) {
        (ParamType::String, Value::Number(n)) => Some(Value::String(n.to_string())),
        (ParamType::String, Value::Bool(b)) => Some(Value::String(b.to_string())),
        (ParamType::Integer | ParamType::Number, Value::String(s)) => {
            let n: serde_json::Number = s.parse().ok()?;
            let exact = n.to_string() == *s;
            let whole = kind == ParamType::Number || n.is_i64() || n.is_u64();
            (exact && whole).then_some(Value::Number(n))
        }
        (ParamType::Boolean, Value::String(s)) => match s.as_str() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        _ => None,
    }
}

/// ADP's type word. Integers are numbers; an array is `<item type>[]`, its item type taken
/// from `items`, else from its example values, else `string`.
pub fn type_word(p: &Param, example: &Value) -> &'static str {
    let scalar = |k: ParamType| match k {
        ParamType::String => Some("string"),
        ParamType::Integer | ParamType::Number => Some("number"),
        ParamType::Boolean => Some("boolean"),
        ParamType::Object => Some("object"),
        ParamType::Array => None,
    };
    if p.kind != ParamType::Array {
        return scalar(p.kind).unwrap_or("object");
    }
    let item = p.items.or_else(|| {
        let first = example.as_array().and_then(|a| a.first())?;
        Some(match first {
            Value::Number(_) => ParamType::Number,
            Value::Bool(_) => ParamType::Boolean,
            Value::Object(_) => ParamType::Object,
            Value::Array(_) => ParamType::Array,
            _ => ParamType::String,
        })
    });
    if item == Some(ParamType::Array) {
        // ADP has no word for arrays of arrays: each item is published as its JSON text (see
        // `view`), since calling an array an object would be the worse lie.
        return "string[]";
    }
    match item.map_or(Some("string"), scalar) {
        Some("string") => "string[]",
        Some("number") => "number[]",
        Some("boolean") => "boolean[]",
        _ => "object[]",
    }
}

/// Whether ADP's vocabulary cannot say what the elements of this array are.
pub fn is_nested_array(p: &Param) -> bool {
    p.kind == ParamType::Array && p.items == Some(ParamType::Array)
}

/// The author's description (or one made from the name and location, flagged `true`), followed
/// by sentences for the constraints ADP has no field for.
pub fn description(p: &Param) -> (String, bool) {
    let (mut text, derived) = match &p.description {
        Some(d) if !d.trim().is_empty() => (d.trim().to_string(), false),
        _ => (
            match p.location {
                ParamIn::Path => format!("The `{}` path parameter.", p.name),
                ParamIn::Query => format!("The `{}` query parameter.", p.name),
                ParamIn::Header => format!("The `{}` request header.", p.name),
                ParamIn::Body => format!("The `{}` field of the request body.", p.name),
            },
            true,
        ),
    };
    let mut extra = Vec::new();
    if p.location == ParamIn::Header && !derived {
        extra.push(format!("Sent as the `{}` HTTP header.", p.name));
    }
    if !p.allowed.is_empty() {
        let values: Vec<String> = p
            .allowed
            .iter()
            .map(|v| format!("`{}`", plain(v)))
            .collect();
        extra.push(format!("One of {}.", values.join(", ")));
    }
    match (p.min, p.max) {
        (Some(lo), Some(hi)) => extra.push(format!("From {} to {}.", number(lo), number(hi))),
        (Some(lo), None) => extra.push(format!("At least {}.", number(lo))),
        (None, Some(hi)) => extra.push(format!("At most {}.", number(hi))),
        (None, None) => {}
    }
    if let Some(pattern) = &p.pattern {
        extra.push(format!("Matches the pattern `{pattern}`."));
    }
    if !extra.is_empty() {
        if !text.ends_with(['.', '!', '?']) {
            text.push('.');
        }
        for sentence in extra {
            text.push(' ');
            text.push_str(&sentence);
        }
    }
    (text, derived)
}

pub fn view(p: &Param, example: Value) -> ParameterView {
    let (mut description, _) = description(p);
    let kind = type_word(p, &example);
    let mut default = p.default.clone();
    let mut example = example;
    let nested = is_nested_array(p)
        || p.kind == ParamType::Array
            && p.items.is_none()
            && example
                .as_array()
                .is_some_and(|a| a.first().is_some_and(Value::is_array));
    if nested {
        // An array of arrays, typed `string[]`: the description says what the items really
        // are, and the example and default show each item as the JSON text of that array.
        if !description.ends_with(['.', '!', '?']) {
            description.push('.');
        }
        description.push_str(
            " Each item is itself a JSON array, shown here as its JSON text (ADP's types have no \
             array of arrays); send the arrays themselves.",
        );
        example = items_as_text(example);
        default = default.map(items_as_text);
    }
    ParameterView {
        name: p.name.clone(),
        kind,
        description,
        required: p.required,
        example,
        default,
    }
}

/// `[[1, 2], [3]]` → `["[1,2]", "[3]"]`: the items of an array of arrays as JSON text.
fn items_as_text(v: Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|i| match i {
                    Value::String(s) => Value::String(s),
                    other => Value::String(other.to_string()),
                })
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn param(kind: ParamType) -> Param {
        Param::plain("limit", kind, false, ParamIn::Query)
    }

    #[test]
    fn types_map_onto_the_vocabulary() {
        assert_eq!(type_word(&param(ParamType::Integer), &json!(1)), "number");
        let mut a = param(ParamType::Array);
        assert_eq!(type_word(&a, &json!([])), "string[]");
        assert_eq!(type_word(&a, &json!([{"x": 1}])), "object[]");
        assert_eq!(type_word(&a, &json!([2])), "number[]");
        a.items = Some(ParamType::Integer);
        assert_eq!(type_word(&a, &json!([])), "number[]");
        a.items = Some(ParamType::Array);
        assert_eq!(type_word(&a, &json!([[1]])), "string[]");
        let v = view(&a, json!([[1, 2], ["x"]]));
        assert_eq!(v.example, json!(["[1,2]", "[\"x\"]"]));
        assert!(v.description.contains("itself a JSON array"));
        // Unknown items whose example is an array of arrays are the same case.
        a.items = None;
        assert_eq!(view(&a, json!([[3]])).kind, "string[]");
    }

    #[test]
    fn constraints_become_sentences() {
        let mut p = param(ParamType::Integer);
        p.min = Some(1.0);
        p.max = Some(50.0);
        assert_eq!(
            description(&p),
            ("The `limit` query parameter. From 1 to 50.".into(), true)
        );
        p.description = Some("page size".into());
        p.allowed = vec![json!(10), json!(20)];
        assert_eq!(
            description(&p).0,
            "page size. One of `10`, `20`. From 1 to 50."
        );
        p.location = ParamIn::Header;
        p.allowed.clear();
        p.min = None;
        p.max = None;
        assert_eq!(
            description(&p).0,
            "page size. Sent as the `limit` HTTP header."
        );
    }

    #[test]
    fn examples_prefer_the_authors_values() {
        let mut p = param(ParamType::Integer);
        p.min = Some(5.0);
        let chosen = |p: &Param, r: Option<&Map<String, Value>>| {
            let (v, origin, misfits) = example(p, r);
            assert_eq!(misfits, vec![]);
            (v, origin)
        };
        assert_eq!(chosen(&p, None), (json!(5), Origin::Type));
        p.allowed = vec![json!(7)];
        assert_eq!(chosen(&p, None), (json!(7), Origin::Enum));
        p.default = Some(json!(6));
        assert_eq!(chosen(&p, None), (json!(6), Origin::Default));
        let req = json!({"limit": 9});
        assert_eq!(chosen(&p, req.as_object()), (json!(9), Origin::Request));
        p.example = Some(json!(8));
        assert_eq!(chosen(&p, req.as_object()), (json!(8), Origin::Author));
    }

    #[test]
    fn mistyped_examples_are_converted_or_passed_over() {
        let mut n = param(ParamType::Integer);
        n.default = Some(json!(6));
        let req = json!({"limit": "ten"});
        let (v, origin, misfits) = example(&n, req.as_object());
        assert_eq!((v, origin), (json!(6), Origin::Default));
        assert_eq!(
            misfits,
            vec![Misfit {
                origin: Origin::Request,
                given: json!("ten"),
                converted: None
            }]
        );
        for (given, converted) in [("10", Some(json!(10))), ("1.5", None), ("010", None)] {
            let req = json!({ "limit": given });
            let (v, _, misfits) = example(&n, req.as_object());
            assert_eq!(misfits[0].converted, converted, "{given}");
            assert_eq!(v, converted.unwrap_or(json!(6)), "{given}");
        }
        let s = param(ParamType::String);
        let req = json!({"limit": 7});
        let (v, origin, _) = example(&s, req.as_object());
        assert_eq!((v, origin), (json!("7"), Origin::Request));
        let mut b = param(ParamType::Boolean);
        b.example = Some(json!("true"));
        assert_eq!(example(&b, None).0, json!(true));
        // An array with no declared items takes its type word from the example: a string is
        // no array, so a made-up one is published instead.
        let a = param(ParamType::Array);
        let req = json!({"limit": "ten"});
        let (v, origin, misfits) = example(&a, req.as_object());
        assert_eq!(origin, Origin::Type);
        assert!(v.is_array() && misfits.len() == 1);
    }
}
