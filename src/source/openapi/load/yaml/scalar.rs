//! A YAML scalar as a JSON value, typed as serde_norway 0.9 types it for a `serde_json::Value`
//! (what wellgen read YAML with before): YAML 1.2's core schema (`null`, `~`, `true`/`True`,
//! decimal, `0x`, `0o` and `0b` integers, `.inf`, `.nan`), leading zeros keep a number a string,
//! and core tags convert or fail: a document reads as it did. The parser gives events only.

use std::num::ParseIntError;

use serde_json::{Number, Value};

const CORE: &str = "tag:yaml.org,2002:";

/// The value of a scalar; an error message when its tag refuses its text.
pub fn value(text: String, plain: bool, tag: Option<&str>) -> Result<Value, String> {
    let Some(tag) = tag else {
        if plain {
            return Ok(plain_value(text));
        }
        return Ok(Value::String(owned(text)));
    };
    let expected = match tag.strip_prefix(CORE) {
        Some("bool") => match bool(&text) {
            Some(b) => return Ok(Value::Bool(b)),
            None => "a boolean",
        },
        Some("int") => match int(&text) {
            Some(n) => return Ok(n),
            None => "an integer",
        },
        Some("float") => match float(&text) {
            Some(f) => return Ok(from_f64(f)),
            None => "a float",
        },
        Some("null") => match null(&text) {
            true => return Ok(Value::Null),
            false => "null",
        },
        _ if tag.starts_with('!') => return Err(local(tag)),
        // `!!str`, `!!binary`, a tag of a `%TAG` prefix: the text as it is.
        _ => return Ok(Value::String(owned(text))),
    };
    Err(format!(
        "invalid value: string {:?}, expected {expected}",
        text
    ))
}

/// A collection's tag: core and global tags say nothing JSON needs; local ones are refused.
pub fn collection_tag(tag: &str) -> Result<(), String> {
    if tag.starts_with('!') {
        return Err(local(tag));
    }
    Ok(())
}

fn local(tag: &str) -> String {
    format!("the local tag `{tag}` names a type JSON does not have")
}

/// A mapping key as JSON has it: a string; numbers, booleans and null as their JSON text.
pub fn key(value: Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Null => Some("null".to_owned()),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// The string at exactly its length (the parser grows it as it reads): a document's strings
/// take no more than their text.
fn owned(text: String) -> String {
    if text.capacity() == text.len() {
        text
    } else {
        text.as_str().to_owned()
    }
}

fn plain_value(text: String) -> Value {
    if text.is_empty() || null(&text) {
        return Value::Null;
    }
    if let Some(b) = bool(&text) {
        return Value::Bool(b);
    }
    if let Some(n) = int(&text) {
        return n;
    }
    if !digits_but_not_number(&text)
        && let Some(f) = float(&text)
    {
        return from_f64(f);
    }
    Value::String(owned(text))
}

/// JSON has no infinity or NaN: YAML's `.inf` and `.nan` become null.
fn from_f64(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

fn null(s: &str) -> bool {
    matches!(s, "null" | "Null" | "NULL" | "~")
}

fn bool(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// An integer: one of 64 bits as it is, a larger one as the nearest float (as JSON readers
/// keep them).
fn int(s: &str) -> Option<Value> {
    if let Some(n) = unsigned(s, u64::from_str_radix) {
        return Some(Value::from(n));
    }
    if let Some(n) = negative(s, i64::from_str_radix) {
        return Some(Value::from(n));
    }
    if let Some(n) = unsigned(s, u128::from_str_radix) {
        return Some(from_f64(n as f64));
    }
    if let Some(n) = negative(s, i128::from_str_radix) {
        return Some(from_f64(n as f64));
    }
    None
}

type Radix<T> = fn(&str, u32) -> Result<T, ParseIntError>;

fn unsigned<T>(s: &str, from_str_radix: Radix<T>) -> Option<T> {
    let unpositive = s.strip_prefix('+').unwrap_or(s);
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = unpositive.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(n) = from_str_radix(rest, radix) {
                return Some(n);
            }
        }
    }
    if unpositive.starts_with(['+', '-']) || digits_but_not_number(s) {
        return None;
    }
    from_str_radix(unpositive, 10).ok()
}

fn negative<T>(s: &str, from_str_radix: Radix<T>) -> Option<T> {
    for (prefix, radix) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = s.strip_prefix(prefix)
            && let Ok(n) = from_str_radix(&format!("-{rest}"), radix)
        {
            return Some(n);
        }
    }
    if digits_but_not_number(s) {
        return None;
    }
    from_str_radix(s, 10).ok()
}

fn float(s: &str) -> Option<f64> {
    let unpositive = match s.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => s,
    };
    if let ".inf" | ".Inf" | ".INF" = unpositive {
        return Some(f64::INFINITY);
    }
    if let "-.inf" | "-.Inf" | "-.INF" = s {
        return Some(f64::NEG_INFINITY);
    }
    if let ".nan" | ".NaN" | ".NAN" = s {
        return Some(f64::NAN);
    }
    unpositive.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Leading zeros followed by digits are a string in YAML 1.2 (`012`, `-00`).
fn digits_but_not_number(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    s.len() > 1 && s.starts_with('0') && s[1..].bytes().all(|b| b.is_ascii_digit())
}
