//! Parameters, and the aiendpoint compact notation
//! `<type>, <requirement>[, <constraints>] [-- <description>]` read and written.

use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamType {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
}

impl ParamType {
    pub const NAMES: [&'static str; 6] =
        ["string", "integer", "number", "boolean", "array", "object"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "string" => Self::String,
            "integer" => Self::Integer,
            "number" => Self::Number,
            "boolean" => Self::Boolean,
            "array" => Self::Array,
            "object" => Self::Object,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn with_article(self) -> String {
        with_article(self.as_str())
    }

    /// Whether a JSON value has this type (integers are numbers too).
    pub fn admits(self, v: &Value) -> bool {
        match self {
            Self::String => v.is_string(),
            Self::Integer => v.is_i64() || v.is_u64(),
            Self::Number => v.is_number(),
            Self::Boolean => v.is_boolean(),
            Self::Array => v.is_array(),
            Self::Object => v.is_object(),
        }
    }
}

/// Where a parameter travels in the HTTP request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamIn {
    Path,
    Query,
    Header,
    Body,
}

impl ParamIn {
    pub const NAMES: [&'static str; 4] = ["path", "query", "header", "body"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "path" => Self::Path,
            "query" => Self::Query,
            "header" => Self::Header,
            "body" => Self::Body,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: ParamType,
    pub required: bool,
    pub location: ParamIn,
    pub description: Option<String>,
    pub default: Option<Value>,
    pub allowed: Vec<Value>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub pattern: Option<String>,
    pub example: Option<Value>,
    /// Element type of an array.
    pub items: Option<ParamType>,
    /// Whether `null` is a value too (OpenAPI 3.0 `nullable`, a `null` alternative).
    pub nullable: bool,
    /// JSON Schema keywords the fields above cannot say (`format`, nested `properties`,
    /// `items`, `anyOf`), a JSON object: typed targets add them to the schema they render.
    pub schema: Option<Value>,
    /// The compact string exactly as the author wrote it, if they wrote one.
    pub compact: Option<String>,
    /// The name the HTTP request carries when it differs from `name` (a body field renamed
    /// `body_<name>` beside a path parameter of that name).
    pub wire_name: Option<String>,
}

impl Param {
    /// The name on the wire: in the path template, the query, the header or the body.
    pub fn wire(&self) -> &str {
        self.wire_name.as_deref().unwrap_or(&self.name)
    }
}

impl Param {
    /// Completes a JSON Schema rendered from the fields above with what they cannot say: the
    /// imported keywords are added (replacing a rendered one of the same name, e.g. `items`
    /// with its properties; alternatives of no one type replace the rendered `type`), then
    /// `null` joins the type and the enum of a nullable parameter. Without either, `schema` is
    /// left as it was.
    pub fn extend_schema(&self, schema: &mut Map<String, Value>) {
        if let Some(extra) = self.schema.as_ref().and_then(Value::as_object) {
            let alternatives = extra.contains_key("anyOf") || extra.contains_key("oneOf");
            if alternatives && !extra.contains_key("type") {
                schema.remove("type");
                schema.remove("items");
            }
            for (key, value) in extra {
                schema.insert(key.clone(), value.clone());
            }
        }
        if self.nullable {
            match schema.get_mut("type") {
                Some(Value::String(t)) => {
                    let t = std::mem::take(t);
                    schema.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
                }
                Some(Value::Array(list)) if !list.contains(&"null".into()) => {
                    list.push("null".into());
                }
                _ => {}
            }
            if let Some(Value::Array(values)) = schema.get_mut("enum")
                && !values.contains(&Value::Null)
            {
                values.push(Value::Null);
            }
        }
    }

    /// The compact notation: the author's own text when given, else rendered canonically.
    pub fn compact(&self) -> String {
        if let Some(text) = &self.compact {
            return text.clone();
        }
        let mut out = format!(
            "{}, {}",
            self.kind.as_str(),
            if self.required {
                "required"
            } else {
                "optional"
            }
        );
        if !self.allowed.is_empty() {
            let values: Vec<String> = self.allowed.iter().map(plain).collect();
            out.push_str(", ");
            out.push_str(&values.join("|"));
        }
        if let Some(d) = &self.default {
            out.push_str(", default ");
            out.push_str(&plain(d));
        }
        if let Some(n) = self.min {
            out.push_str(&format!(", min {}", number(n)));
        }
        if let Some(n) = self.max {
            out.push_str(&format!(", max {}", number(n)));
        }
        if let Some(d) = &self.description {
            out.push_str(" -- ");
            out.push_str(d);
        }
        out
    }
}

/// What the compact notation says about a parameter.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Compact {
    pub kind: Option<ParamType>,
    pub required: bool,
    pub allowed: Vec<String>,
    pub default: Option<String>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub description: Option<String>,
}

/// Reads the compact notation. Constraints written after the `--` (as the draft's own §8.2
/// example does: `-- a|b|c, default a`) are recognised when every part of that tail is one.
pub fn parse_compact(text: &str) -> Result<Compact, String> {
    let (head, tail) = split_description(text);
    let mut parts = head.split(',').map(str::trim);
    let kind_word = parts.next().unwrap_or_default();
    let kind = ParamType::parse(kind_word).ok_or_else(|| {
        format!(
            "`{kind_word}` is not a parameter type (one of {})",
            ParamType::NAMES.join(", ")
        )
    })?;
    let required = match parts.next() {
        Some("required") => true,
        Some("optional") => false,
        Some(other) => {
            return Err(format!(
                "expected `required` or `optional` after the type, found `{other}`"
            ));
        }
        None => return Err("expected `required` or `optional` after the type".into()),
    };
    let mut out = Compact {
        kind: Some(kind),
        required,
        ..Compact::default()
    };
    for part in parts {
        apply_constraint(&mut out, part)?;
    }
    if let Some(tail) = tail {
        let pieces: Vec<&str> = tail.split(',').map(str::trim).collect();
        let mut probe = out.clone();
        // Prose such as "default sort order" must stay a description: in the tail, a
        // constraint's value is one word.
        let one_word = |p: &&str| p.split_whitespace().count() <= 2;
        if pieces
            .iter()
            .all(|p| one_word(p) && apply_constraint(&mut probe, p).is_ok())
        {
            out = probe;
        } else if !tail.is_empty() {
            out.description = Some(tail.to_string());
        }
    }
    Ok(out)
}

fn split_description(text: &str) -> (&str, Option<&str>) {
    for sep in ["--", "\u{2014}"] {
        if let Some(i) = text.find(sep) {
            return (&text[..i], Some(text[i + sep.len()..].trim()));
        }
    }
    (text, None)
}

fn apply_constraint(out: &mut Compact, part: &str) -> Result<(), String> {
    let number_after = |word: &str| -> Result<f64, String> {
        part[word.len()..]
            .trim()
            .parse::<f64>()
            .map_err(|_| format!("`{part}`: `{word}` takes a number"))
    };
    if let Some(value) = part.strip_prefix("default ") {
        out.default = Some(value.trim().to_string());
    } else if part.starts_with("max ") {
        out.max = Some(number_after("max")?);
    } else if part.starts_with("min ") {
        out.min = Some(number_after("min")?);
    } else if part.contains('|') && !part.contains(' ') {
        out.allowed = part.split('|').map(str::to_string).collect();
    } else {
        return Err(format!(
            "`{part}` is not a constraint (`default X`, `min N`, `max N` or `a|b|c`)"
        ));
    }
    Ok(())
}

/// A type name with its article: `an integer`, `a string`, as messages name ADP's types too.
pub fn with_article(type_name: &str) -> String {
    let article = if type_name.starts_with(['a', 'i', 'o']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {type_name}")
}

/// A value as it reads in compact notation: strings bare, everything else as JSON.
pub fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A bound as people write it: `10`, not `10.0`.
pub fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_drafts_examples() {
        let c = parse_compact("integer, optional, default 10, max 50").unwrap();
        assert_eq!(c.kind, Some(ParamType::Integer));
        assert!(!c.required);
        assert_eq!(c.default.as_deref(), Some("10"));
        assert_eq!(c.max, Some(50.0));
        assert_eq!(c.description, None);

        let c =
            parse_compact("string, optional -- price_asc|price_desc|relevance, default relevance")
                .unwrap();
        assert_eq!(c.allowed, ["price_asc", "price_desc", "relevance"]);
        assert_eq!(c.default.as_deref(), Some("relevance"));
        assert_eq!(c.description, None);

        let c = parse_compact("string, optional -- default sort order").unwrap();
        assert_eq!(
            (c.default, c.description.as_deref()),
            (None, Some("default sort order"))
        );

        let c = parse_compact("string, required -- search keyword").unwrap();
        assert!(c.required);
        assert_eq!(c.description.as_deref(), Some("search keyword"));

        let c =
            parse_compact("string, required \u{2014} product ID, as returned by search").unwrap();
        assert_eq!(
            c.description.as_deref(),
            Some("product ID, as returned by search")
        );
    }

    #[test]
    fn refuses_what_is_not_the_grammar() {
        for (text, why) in [
            ("str, required", "not a parameter type"),
            ("string", "expected `required` or `optional`"),
            ("string, maybe", "found `maybe`"),
            ("integer, optional, max lots", "takes a number"),
            ("integer, optional, at most 5", "not a constraint"),
        ] {
            let err = parse_compact(text).unwrap_err();
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn a_nullable_parameter_and_its_keywords_complete_the_schema() {
        let mut p = Param {
            name: "unit".into(),
            kind: ParamType::String,
            required: false,
            location: ParamIn::Query,
            description: None,
            default: None,
            allowed: vec!["metric".into()],
            min: None,
            max: None,
            pattern: None,
            example: None,
            items: None,
            nullable: true,
            schema: Some(serde_json::json!({"format": "unit"})),
            compact: None,
            wire_name: None,
        };
        let mut s = Map::new();
        s.insert("type".into(), "string".into());
        s.insert("enum".into(), serde_json::json!(["metric"]));
        p.extend_schema(&mut s);
        assert_eq!(
            Value::Object(s),
            serde_json::json!({"type": ["string", "null"], "enum": ["metric", null], "format": "unit"})
        );
        // Alternatives with no one type replace the rendered type.
        p.nullable = false;
        p.schema = Some(serde_json::json!({"anyOf": [{"type": "string"}, {}]}));
        let mut s = Map::new();
        s.insert("type".into(), "string".into());
        p.extend_schema(&mut s);
        assert_eq!(
            Value::Object(s),
            serde_json::json!({"anyOf": [{"type": "string"}, {}]})
        );
    }

    #[test]
    fn renders_canonically_when_the_author_gave_a_table() {
        let p = Param {
            name: "limit".into(),
            kind: ParamType::Integer,
            required: false,
            location: ParamIn::Query,
            description: Some("page size".into()),
            default: Some(10.into()),
            allowed: vec![],
            min: Some(1.0),
            max: Some(50.0),
            pattern: None,
            example: None,
            items: None,
            nullable: false,
            schema: None,
            compact: None,
            wire_name: None,
        };
        assert_eq!(
            p.compact(),
            "integer, optional, default 10, min 1, max 50 -- page size"
        );
        let text = p.compact();
        let back = parse_compact(&text).unwrap();
        assert_eq!(
            (back.min, back.max, back.default.as_deref()),
            (Some(1.0), Some(50.0), Some("10"))
        );
    }
}
