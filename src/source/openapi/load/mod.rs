//! Reading an OpenAPI document: JSON or YAML into one `serde_json::Value`, with YAML alias
//! expansion capped, and the specification version detected from the content.

use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::diag::{Code, Diagnostic};

mod halves;
mod yaml;

/// The OpenAPI generations the importer understands; one walker serves all three.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    Swagger2,
    OpenApi30,
    OpenApi31,
}

impl Version {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Swagger2 => "Swagger 2.0",
            Self::OpenApi30 => "OpenAPI 3.0",
            Self::OpenApi31 => "OpenAPI 3.1",
        }
    }
}

/// Reads the version from `swagger: "2.0"` or `openapi: 3.x.y`; `file` names the document in
/// the error.
pub fn detect_version(doc: &Value, file: &str) -> Result<Version, Diagnostic> {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        // YAML `swagger: 2.0` without quotes is a number.
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    if let Some(v) = doc.get("swagger") {
        return match text(v).as_deref() {
            Some("2.0" | "2") => Ok(Version::Swagger2),
            other => Err(Diagnostic::new(
                Code::OpenapiParse,
                format!(
                    "{file}#/swagger: `{}` is not a Swagger version wellgen reads (only 2.0)",
                    other.unwrap_or("?")
                ),
            )),
        };
    }
    let Some(v) = doc.get("openapi") else {
        return Err(Diagnostic::new(
            Code::OpenapiParse,
            format!(
                "{file}#: not an OpenAPI document: it has neither an `openapi` nor a `swagger` key"
            ),
        )
        .help("an OpenAPI file starts with `openapi: 3.x.y` (or `swagger: \"2.0\"`)"));
    };
    let version = text(v).unwrap_or_default();
    let mut parts = version.split('.');
    match (parts.next(), parts.next()) {
        (Some("3"), Some("0")) => Ok(Version::OpenApi30),
        // 3.2 adds to 3.1 without changing what the importer reads.
        (Some("3"), Some("1" | "2")) => Ok(Version::OpenApi31),
        _ => Err(Diagnostic::new(
            Code::OpenapiParse,
            format!(
                "{file}#/openapi: `{version}` is not an OpenAPI version wellgen reads (3.0.x, 3.1.x, or swagger 2.0)"
            ),
        )),
    }
}

/// Whether a text looks like an OpenAPI document rather than a service.toml: used when the
/// file name does not say.
pub fn looks_like_openapi(text: &str) -> bool {
    let head: String = text.chars().take(4096).collect();
    let trimmed = head.trim_start();
    trimmed.starts_with('{')
        || head.lines().any(|l| {
            let l = l.trim_start_matches('\u{feff}');
            l.starts_with("openapi:")
                || l.starts_with("swagger:")
                || l.starts_with("\"openapi\":")
                || l.starts_with("\"swagger\":")
        })
}

/// Parses JSON (when the text starts with `{`) or YAML. Errors carry a byte span.
pub fn parse_text(text: &str, file: &str) -> Result<Value, Diagnostic> {
    let body = text.trim_start_matches('\u{feff}');
    // Spans are into `text`, which the caller renders: past the byte order mark.
    let bom = text.len() - body.len();
    let parsed = if body.trim_start().starts_with('{') {
        json(body).map_err(|e| {
            let at = offset_of(body, e.line(), e.column());
            // The rendered `file:line:col` names the file.
            Diagnostic::new(Code::OpenapiParse, format!("invalid JSON: {e}")).with_span(at..at + 1)
        })
    } else {
        parse_yaml(body, file)
    };
    parsed.map_err(|mut d| {
        d.span = d.span.map(|r| r.start + bom..r.end + bom);
        d
    })
}

/// `serde_json::from_str` into a `Value`, with every object and array allocated at its final
/// size: serde_json's own reader grows them entry by entry, which leaves an object's entries
/// up to twice the room they need (GitHub's description: 40 MB of entries for 24 MB).
///
/// A large document is read on two cores when it can be ([`halves`]); anything that reader
/// does not take (an error among them) is read here, one value after the other, so errors are
/// serde_json's own.
pub fn json(text: &str) -> serde_json::Result<Value> {
    if text.len() >= halves::FROM
        && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
        && let Some(value) = halves::read(text, halves::middle(text))
    {
        return Ok(value);
    }
    sequential(text)
}

/// [`json`]'s reader for a large document, cut where aimed at `aim`, at any size: for the
/// fuzz targets, which check it against serde_json. `None` where it gives up.
pub fn json_in_halves(text: &str, aim: usize) -> Option<Value> {
    halves::read(text, aim)
}

fn sequential(text: &str) -> serde_json::Result<Value> {
    let scratch = std::cell::RefCell::new(Scratch::default());
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Exact::new(&scratch, 0, u32::MAX).deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Entries and elements being read, one list per level of nesting in use: reused, so that
/// only the final object or array is allocated.
#[derive(Default)]
struct Scratch {
    maps: Vec<Vec<(String, Value)>>,
    lists: Vec<Vec<Value>>,
}

#[derive(Clone, Copy)]
struct Exact<'a> {
    scratch: &'a std::cell::RefCell<Scratch>,
    /// How many arrays and objects enclose the value read.
    depth: u32,
    /// The most that may: a part of a document read on its own must fail where serde_json's
    /// recursion limit would have failed the whole.
    limit: u32,
}

impl<'a> Exact<'a> {
    fn new(scratch: &'a std::cell::RefCell<Scratch>, depth: u32, limit: u32) -> Self {
        Self {
            scratch,
            depth,
            limit,
        }
    }

    /// The reader of the values inside an array or object this one reads.
    fn inside<E: serde::de::Error>(self) -> Result<Self, E> {
        if self.depth >= self.limit {
            return Err(E::custom("nested deeper than the limit"));
        }
        Ok(Self {
            depth: self.depth + 1,
            ..self
        })
    }
}

impl<'de> DeserializeSeed<'de> for Exact<'_> {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Exact<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inside = self.inside()?;
        let mut list = self.scratch.borrow_mut().lists.pop().unwrap_or_default();
        while let Some(v) = seq.next_element_seed(inside)? {
            list.push(v);
        }
        // Moved into a list of its own length; the scratch list keeps its room for the next.
        let mut out = Vec::with_capacity(list.len());
        out.append(&mut list);
        self.scratch.borrow_mut().lists.push(list);
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inside = self.inside()?;
        let mut entries = self.scratch.borrow_mut().maps.pop().unwrap_or_default();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(inside)?;
            entries.push((key, value));
        }
        let mut out = Map::with_capacity(entries.len());
        for (key, value) in entries.drain(..) {
            out.insert(key, value);
        }
        self.scratch.borrow_mut().maps.push(entries);
        Ok(Value::Object(out))
    }
}

/// How many bytes of values YAML anchors and aliases may copy: 16 times the text, at least
/// 8 MB. Real documents copy a small fraction of this (none of ../shared/corpus's YAML files
/// has an alias); an alias bomb is refused once it has built this much, so that reading a
/// document costs a small multiple of its size.
pub fn alias_limit(len: usize) -> usize {
    len.saturating_mul(16).max(8 << 20)
}

fn parse_yaml(text: &str, file: &str) -> Result<Value, Diagnostic> {
    super::yaml_depth::check(text, MAX_DEPTH)?;
    let limits = yaml::Limits {
        depth: MAX_DEPTH,
        alias_bytes: alias_limit(text.len()),
    };
    yaml::read(text, limits).map_err(|refusal| {
        let d = match refusal.kind {
            yaml::Refused::AliasBudget => Diagnostic::new(
                Code::OpenapiParse,
                format!(
                    "{file}: {}; refusing to expand further (an alias bomb?)",
                    refusal.message
                ),
            )
            .help("write the repeated parts out, or use `$ref`s instead of YAML aliases"),
            yaml::Refused::TooDeep => Diagnostic::new(
                Code::OpenapiParse,
                format!("{}; refusing to parse it", refusal.message),
            )
            .help(format!(
                "wellgen reads collections nested at most {MAX_DEPTH} deep: flatten the document"
            )),
            // The rendered `file:line:col` names the file.
            yaml::Refused::Invalid => Diagnostic::new(
                Code::OpenapiParse,
                format!("invalid YAML: {}", refusal.message),
            ),
        };
        d.with_span(refusal.at..refusal.at + 1)
    })
}

fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// How deep collections may nest: the recursion limit serde_json applies too.
const MAX_DEPTH: usize = 128;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_come_from_the_content() {
        let v = |t: &str| detect_version(&parse_text(t, "f").unwrap(), "f").map_err(|d| d.message);
        assert_eq!(v("swagger: '2.0'\n"), Ok(Version::Swagger2));
        assert_eq!(v("openapi: 3.0.3\n"), Ok(Version::OpenApi30));
        assert_eq!(v("{\"openapi\": \"3.1.0\"}"), Ok(Version::OpenApi31));
        assert!(v("openapi: 4.0.0\n").unwrap_err().contains("#/openapi"));
        assert!(v("name: x\n").is_err());
    }

    #[test]
    fn yaml_number_keys_become_strings() {
        let doc = parse_text("responses:\n  200:\n    description: ok\n", "f").unwrap();
        assert_eq!(doc["responses"]["200"]["description"], "ok");
    }

    #[test]
    fn alias_bombs_fail_fast() {
        let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let prev = (b'a' + i - 1) as char;
            let name = (b'a' + i) as char;
            text.push_str(&format!("{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
        }
        // 10^12 values if expanded: the alias budget refuses it before it is built.
        let err = parse_text(&text, "bomb.yaml").unwrap_err();
        assert!(err.message.contains("alias"), "{}", err.message);
    }

    #[test]
    fn syntax_errors_carry_a_span() {
        let err = parse_text("{\"a\": }", "f.json").unwrap_err();
        assert!(err.span.is_some() && err.message.starts_with("invalid JSON"));
    }

    /// The exact-size reader gives what `serde_json::from_str` gives: the same values in the
    /// same order (duplicate keys keep their first place and last value), the same errors.
    #[test]
    fn json_reads_as_serde_json_does() {
        let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        let mut texts: Vec<String> = [
            "{}",
            "[]",
            r#"{"a": 1, "b": [true, false, null], "c": {"d": -2, "e": 2.5, "f": "x\u00e9\n"}}"#,
            r#"{"z": 1, "a": 2, "z": 3}"#,
            r#"{"n": 18446744073709551615, "m": -9223372036854775808, "f": 1e300, "g": -0.0}"#,
            r#"{"big": 1e400}"#,
            r#"{"a": [[], [{}], [[1, 2], {"b": []}]], "c": "d"}"#,
            r#"{"a": 1} x"#,
            r#"{"a": 1,}"#,
            r#"{"a" 1}"#,
            "[1, 2",
            "",
        ]
        .map(String::from)
        .to_vec();
        texts.push(deep(127));
        texts.push(deep(128));
        texts.push(deep(129));
        // An object of many keys and one of many elements (more than any scratch list held).
        let many: Vec<String> = (0..300)
            .map(|i| format!("\"k{}\": [{i}]", 299 - i))
            .collect();
        texts.push(format!("{{{}}}", many.join(", ")));
        for text in &texts {
            let ours = json(text).map(|v| v.to_string()).map_err(|e| e.to_string());
            let theirs = serde_json::from_str::<Value>(text)
                .map(|v| v.to_string())
                .map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{text}");
        }
    }
}
