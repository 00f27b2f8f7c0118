//! A large JSON document read on every core. A quick pass finds where each top-level member
//! ends (and, when one member is most of the text, where each of its own members ends); the
//! pieces are then parsed on as many threads as there are cores and put back together in
//! their order. Reading GitHub's 13 MB description left a core idle for a third of a build's
//! critical path before (docs/PERFORMANCE.md).
//!
//! The result is always exactly what [`super::load::json_nested`] makes of the whole text:
//! on any error, a key repeated where the text is cut, or nesting near serde_json's recursion
//! limit, [`parse`] says `None` and the caller reads the whole text on one thread, which then
//! reports the error as it always did.

use std::fmt;

use foldhash::HashSet;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Number, Value};

use super::load::json_nested;

/// Texts from this size up are worth the threads (below it, a parse takes a few milliseconds).
const FROM: usize = 1 << 20;

/// How deep a piece may nest, counted from the document's root, for its parse to be the same
/// as one pass over the whole text: well inside serde_json's recursion limit (128).
const SAFE_DEPTH: usize = 100;

/// The document, parsed on every core; `None` when one thread should read it (see the module).
pub fn parse(text: &str) -> Option<Value> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    if text.len() < FROM || workers < 2 {
        return None;
    }
    parse_on(text, workers)
}

fn parse_on(text: &str, workers: usize) -> Option<Value> {
    let top = members(text)?;
    // Every member of a member, and every element of one, is a piece of its own.
    let pieces: Vec<&str> = top
        .iter()
        .flat_map(|(_, member)| match member {
            Member::Object(subs) => subs.iter().map(|(_, raw)| raw.get()).collect(),
            Member::Array(items) => items.iter().map(|raw| raw.get()).collect(),
            Member::Scalar(_) => Vec::new(),
        })
        .collect();
    // The largest first, so that the last to finish are small ones.
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(pieces[i].len()));
    let parsed = crate::parallel::map_here(&order, workers, |&i| {
        json_nested(pieces[i])
            .ok()
            .filter(|(_, deepest)| PIECE_ROOT + deepest <= SAFE_DEPTH)
            .map(|(value, _)| value)
    });
    let mut values: Vec<Option<Value>> = vec![None; pieces.len()];
    for (&i, value) in order.iter().zip(parsed) {
        values[i] = Some(value?);
    }
    let mut values = values.into_iter().flatten();
    let mut doc = Map::with_capacity(top.len());
    for (key, member) in top {
        let value = match member {
            Member::Object(subs) => {
                let mut object = Map::with_capacity(subs.len());
                for ((sub, _), value) in subs.into_iter().zip(values.by_ref()) {
                    object.insert(sub, value);
                }
                Value::Object(object)
            }
            Member::Array(items) => Value::Array(values.by_ref().take(items.len()).collect()),
            Member::Scalar(value) => value,
        };
        doc.insert(key, value);
    }
    Some(Value::Object(doc))
}

/// How deep a piece's root is in the document: a member of a member.
const PIECE_ROOT: usize = 2;

/// A member of the document, its own members or elements borrowed unparsed.
enum Member<'a> {
    Object(Vec<(String, &'a RawValue)>),
    Array(Vec<&'a RawValue>),
    Scalar(Value),
}

/// The members of the object `text` is; `None` when `text` is not one object, or it or one of
/// its members repeats a key (one pass keeps such a key once, in its first place).
fn members(text: &str) -> Option<Vec<(String, Member<'_>)>> {
    struct Top;
    impl<'de> Visitor<'de> for Top {
        type Value = Vec<(String, Member<'de>)>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                out.push((key, map.next_value::<Member>()?));
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let top = de.deserialize_map(Top).ok()?;
    de.end().ok()?;
    let each_unique = top.iter().all(|(_, m)| match m {
        Member::Object(subs) => unique(subs.iter().map(|(k, _)| k.as_str())),
        _ => true,
    });
    (each_unique && unique(top.iter().map(|(k, _)| k.as_str()))).then_some(top)
}

fn unique<'a>(mut keys: impl Iterator<Item = &'a str>) -> bool {
    let mut seen = HashSet::default();
    keys.all(|k| seen.insert(k))
}

impl<'de> Deserialize<'de> for Member<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(MemberVisitor)
    }
}

/// A member's scalars become values as [`super::load::json_nested`] makes them.
struct MemberVisitor;

impl<'de> Visitor<'de> for MemberVisitor {
    type Value = Member<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Member::Scalar(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Member::Scalar(Value::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Member::Scalar(Value::from(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Member::Scalar(
            Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Member::Scalar(Value::String(v.to_owned())))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Member::Scalar(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(raw) = seq.next_element::<&RawValue>()? {
            items.push(raw);
        }
        Ok(Member::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut subs = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            subs.push((key, map.next_value::<&RawValue>()?));
        }
        Ok(Member::Object(subs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What one pass makes of `text`, as the reference.
    fn whole(text: &str) -> Option<String> {
        json_nested(text).ok().map(|(v, _)| v.to_string())
    }

    #[test]
    fn pieces_make_the_same_document_as_one_pass() {
        let object = |n: usize, tag: &str| {
            let members: Vec<String> = (0..n)
                .map(|i| {
                    format!(
                        r#""{tag}{}": {{"a": [{i}, "x\u00e9\n", null, 2.5e3], "b": {{}}}}"#,
                        n - i
                    )
                })
                .collect();
            format!("{{{}}}", members.join(", "))
        };
        let texts = [
            // Members of members keep their order.
            format!(
                r#"{{"openapi": "3.1.0", "paths": {}, "components": {{"schemas": {}, "examples": {}}}, "z": 1}}"#,
                object(50, "p"),
                object(300, "s"),
                object(200, "e")
            ),
            // Elements of a member, empty members, and scalars of every kind.
            format!(
                r#"{{"list": [{}, 1, [2]], "x": {{}}, "y": [], "n": null, "t": true, "i": -3, "u": 18446744073709551615, "f": 1e400, "g": -0.0, "s": "\u00e9"}}"#,
                object(100, "l")
            ),
            r#"{"only": "a string"}"#.to_string(),
            "{}".to_string(),
        ];
        for text in &texts {
            for workers in [2, 3, 8] {
                let parsed = parse_on(text, workers).map(|v| v.to_string());
                assert_eq!(parsed, whole(text), "{text}");
            }
        }
    }

    #[test]
    fn anything_one_pass_could_read_differently_is_left_to_it() {
        let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        for text in [
            // Errors, so that one pass reports them with their place.
            r#"{"a": {"b": 1,}, "c": 2}"#.to_string(),
            r#"{"a": 1} trailing"#.to_string(),
            r#"{"a": "\q"}"#.to_string(),
            "[1, 2, 3]".to_string(),
            // A repeated key where the text is cut: one pass keeps the first place, the last value.
            r#"{"a": 1, "b": {"x": 1}, "a": 2}"#.to_string(),
            r#"{"c": {"x": {"y": 1}, "z": [1, 2, 3], "x": {"y": 2}}, "d": 1}"#.to_string(),
            // Nesting near the recursion limit of one pass.
            format!(r#"{{"a": {}, "b": 1}}"#, deep(SAFE_DEPTH)),
            format!(r#"{{"a": [{}], "b": 1}}"#, deep(SAFE_DEPTH - 1)),
            format!(r#"{{"a": {}, "b": 1}}"#, deep(127)),
        ] {
            assert_eq!(parse_on(&text, 2), None, "{text}");
        }
        // Deeper down, a repeated key is the pieces' own business, read as one pass reads it.
        let text = r#"{"c": {"x": {"y": 1, "y": 2}}, "d": 1}"#;
        assert_eq!(parse_on(text, 2).map(|v| v.to_string()), whole(text));
        // Just inside the safe depth, the pieces are read.
        let text = format!(r#"{{"a": [{}], "b": 1}}"#, deep(SAFE_DEPTH - PIECE_ROOT));
        assert_eq!(parse_on(&text, 2).map(|v| v.to_string()), whole(&text));
    }

    #[test]
    fn small_texts_are_left_to_one_pass() {
        assert_eq!(parse(r#"{"a": {"b": 1}}"#), None);
    }
}
