//! The rules of AGIS (draft-hood-independent-agis-01) that a value can break on its own: the
//! eight validation passes of §9.1 by number and name, and the checks of a method (§4), a path
//! (§5), an intent or outcome (§6, §13), their consistency (§6.3) and a schema's shape (§7).
//!
//! Lowering runs them on the derived and declared values (so a published document cannot break
//! them); derivation runs them to choose values that pass; the test suite's validator runs them
//! on the JSON wellgen writes.

use std::fmt;

use serde_json::{Map, Value};

use super::verbs::{self, INJECTION_PATTERNS, PATH_VERBS, PROHIBITED, STOPLIST};
use crate::text::kebab_case;

/// One of the eight passes, in the order §9.1 runs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pass {
    Structural = 1,
    MethodSyntax,
    MethodClass,
    PathSyntax,
    SemanticCompleteness,
    SemanticConsistency,
    VocabularyIntegrity,
    SchemaCompleteness,
}

impl Pass {
    pub const ALL: [Pass; 8] = [
        Self::Structural,
        Self::MethodSyntax,
        Self::MethodClass,
        Self::PathSyntax,
        Self::SemanticCompleteness,
        Self::SemanticConsistency,
        Self::VocabularyIntegrity,
        Self::SchemaCompleteness,
    ];

    pub fn number(self) -> u8 {
        self as u8
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Structural => "Structural",
            Self::MethodSyntax => "Method Syntax",
            Self::MethodClass => "Method Class",
            Self::PathSyntax => "Path Syntax",
            Self::SemanticCompleteness => "Semantic Completeness",
            Self::SemanticConsistency => "Semantic Consistency",
            Self::VocabularyIntegrity => "Vocabulary Integrity",
            Self::SchemaCompleteness => "Schema Completeness",
        }
    }
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pass {} ({})", self.number(), self.name())
    }
}

/// Pass 2 (§4.1): one token, letters A–Z, uppercase, not a compound, imperative base form.
pub fn method_syntax(method: &str) -> Vec<String> {
    let mut out = Vec::new();
    if method.is_empty() {
        return vec!["the method identifier is empty".into()];
    }
    if method.chars().any(char::is_whitespace) {
        out.push(format!(
            "`{method}` contains white space: a method is a single token (§4.1(a))"
        ));
    }
    if let Some(c) = method
        .chars()
        .find(|c| !c.is_ascii_alphabetic() && !c.is_whitespace())
    {
        let what = match c {
            '0'..='9' => "a numeral",
            '_' => "an underscore (compound form)",
            '-' => "a hyphen (compound form)",
            _ => "a character other than A–Z",
        };
        out.push(format!(
            "`{method}` contains {what}: only letters A–Z are permitted (§4.1(c))"
        ));
    }
    let camel = method
        .chars()
        .zip(method.chars().skip(1))
        .any(|(a, b)| a.is_ascii_lowercase() && b.is_ascii_uppercase());
    if camel {
        out.push(format!("`{method}` is a compound (camel-case) form: use one verb and put the noun in the path (§4.1(d))"));
    } else if method.chars().any(|c| c.is_ascii_lowercase()) && out.is_empty() {
        out.push(format!(
            "`{method}` must be written in uppercase: `{}` (§4.1(e), Pass 2)",
            method.to_ascii_uppercase()
        ));
    }
    if out.is_empty()
        && let Some(form) = verbs::inflection(method)
    {
        out.push(format!(
            "`{method}` looks like {form}: use the imperative base form (§4.1(b))"
        ));
    }
    out
}

/// Pass 3 (§4.2, §4.3): not an HTTP method, not a state, condition, noun or existence word.
pub fn method_class(method: &str) -> Vec<String> {
    let upper = method.to_ascii_uppercase();
    if PROHIBITED.contains(&upper.as_str()) {
        let instead = verbs::method_for(&upper.to_ascii_lowercase()).unwrap_or_default();
        return vec![format!(
            "`{method}` is an HTTP method, prohibited as an AGIS method (§4.3); say what it does instead, e.g. {instead}"
        )];
    }
    if STOPLIST.contains(&upper.as_str()) {
        return vec![format!(
            "`{method}` names a state, a condition or a thing, not an action the caller wants done (§4.2)"
        )];
    }
    Vec::new()
}

/// Pass 4 (§5): leading `/`, a noun first, lowercase hyphenated segments, `{param}`s, no query
/// string, no verbs and no repetition of the method.
pub fn path_syntax(path: &str, method: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !path.starts_with('/') {
        out.push(format!("`{path}` must begin with `/` (§5(a))"));
    }
    if path.contains(['?', '#']) {
        out.push(format!(
            "`{path}` contains a query string; inputs belong in the input schema (§5(f))"
        ));
    }
    let body = path.split(['?', '#']).next().unwrap_or_default();
    let body = body.strip_prefix('/').unwrap_or(body);
    if body.is_empty() {
        out.push("the path names no entity: its first segment must be a noun (§5(b))".into());
        return out;
    }
    let method_word = method.to_ascii_lowercase();
    for (i, seg) in body.split('/').enumerate() {
        if seg.is_empty() {
            out.push(format!("`{path}` has an empty segment"));
            continue;
        }
        if let Some(name) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            if i == 0 {
                out.push(
                    "the first segment must be a noun naming the entity, not a parameter (§5(b))"
                        .into(),
                );
            }
            let ok = name.starts_with(|c: char| c.is_ascii_lowercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if !ok {
                out.push(format!(
                    "`{seg}`: parameter names are lowercase snake_case in braces (§5(d))"
                ));
            }
            continue;
        }
        if seg.contains(['{', '}']) || seg.starts_with(':') {
            out.push(format!("`{seg}`: parameters use curly-brace notation as a whole segment, e.g. `{{id}}` (§5(d))"));
            continue;
        }
        if seg.chars().any(|c| c.is_ascii_uppercase()) {
            out.push(format!(
                "`{seg}` contains capitals: path segments must be lowercase (§5(c))"
            ));
        } else if seg.contains('_') {
            out.push(format!(
                "`{seg}`: multi-word segments are joined with hyphens, not underscores (§5(c))"
            ));
        } else if !is_segment(seg) {
            out.push(format!(
                "`{seg}` must be lowercase letters and digits joined by single hyphens (§5(c))"
            ));
        }
        let words: Vec<String> = kebab_case(seg).split('-').map(str::to_string).collect();
        if !method_word.is_empty() && words.contains(&method_word) {
            out.push(format!("`{seg}` repeats the method `{method}` (§5(e))"));
        } else if let Some(w) = words.iter().find(|w| PATH_VERBS.contains(&w.as_str())) {
            out.push(format!(
                "`{seg}` contains the verb `{w}`: path segments are nouns (§5(b))"
            ));
        }
    }
    out
}

fn is_segment(seg: &str) -> bool {
    seg.starts_with(|c: char| c.is_ascii_lowercase())
        && seg.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// §13: intent and outcome at most 500 characters and free of instruction patterns.
pub fn text_rules(key: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let len = text.chars().count();
    if len > 500 {
        out.push(format!(
            "`{key}` is {len} characters; validators cap it at 500 (§13)"
        ));
    }
    let lower = text.to_lowercase();
    if let Some(p) = INJECTION_PATTERNS.iter().find(|p| lower.contains(*p)) {
        out.push(format!(
            "`{key}` contains the instruction pattern \"{p}\" (prompt injection, §13)"
        ));
    }
    out
}

/// Pass 6 (§6.3): the intent's opening verb must not contradict the method's class.
pub fn consistency(method: &str, intent: &str) -> Option<String> {
    let method_class = verbs::class_of(&method.to_ascii_lowercase())?;
    let (word, intent_class) = verbs::intent_verb(intent)?;
    if word.eq_ignore_ascii_case(method) || !verbs::conflicts(method_class, intent_class) {
        return None;
    }
    Some(format!(
        "`{method}` means {} but the intent opens with `{word}`, {} (§6.3)",
        method_class.describe(),
        intent_class.describe()
    ))
}

/// A shallow check that a value is a JSON Schema: known keywords have the right types, and
/// `properties` hold schemas too. Returns the first problem.
pub fn schema_shape(s: &Map<String, Value>) -> Option<String> {
    const TYPES: [&str; 7] = [
        "object", "array", "string", "integer", "number", "boolean", "null",
    ];
    // The members looked at, found in one pass: a large API's expanded schemas hold millions
    // of them, and a lookup each would hash every key again.
    let (mut kind, mut required, mut additional, mut properties, mut items) =
        (None, None, None, None, None);
    const LISTS: [&str; 4] = ["enum", "allOf", "anyOf", "oneOf"];
    let mut not_array = [false; LISTS.len()];
    for (key, value) in s {
        match key.as_str() {
            "type" => kind = Some(value),
            "required" => required = Some(value),
            "additionalProperties" => additional = Some(value),
            "properties" => properties = Some(value),
            "items" => items = Some(value),
            k => {
                if let Some(i) = LISTS.iter().position(|l| *l == k) {
                    not_array[i] = !value.is_array();
                }
            }
        }
    }
    match kind {
        None => {}
        Some(Value::String(t)) if TYPES.contains(&t.as_str()) => {}
        Some(Value::Array(ts))
            if ts
                .iter()
                .all(|t| t.as_str().is_some_and(|t| TYPES.contains(&t))) => {}
        Some(t) => return Some(format!("`type` {t} is not a JSON Schema type")),
    }
    if let Some(r) = required {
        let ok = r.as_array().is_some_and(|a| a.iter().all(Value::is_string));
        if !ok {
            return Some("`required` must be an array of property names".into());
        }
        // With other properties allowed, a required name need not be listed (JSON Schema).
        let others_allowed = matches!(additional, Some(Value::Bool(true) | Value::Object(_)));
        if let (Some(req), Some(props), false) = (
            r.as_array(),
            properties.and_then(Value::as_object),
            others_allowed,
        ) {
            for name in req.iter().filter_map(Value::as_str) {
                if !props.contains_key(name) {
                    return Some(format!("`{name}` is required but not among the properties"));
                }
            }
        }
    }
    // The first in `LISTS`' order, as the rules read them.
    if let Some(i) = not_array.iter().position(|b| *b) {
        return Some(format!("`{}` must be an array", LISTS[i]));
    }
    match properties {
        None => {}
        Some(Value::Object(props)) => {
            for (name, p) in props {
                match p {
                    Value::Object(inner) => {
                        if let Some(rule) = schema_shape(inner) {
                            return Some(format!("property `{name}`: {rule}"));
                        }
                    }
                    Value::Bool(_) => {}
                    _ => return Some(format!("property `{name}` is not a schema")),
                }
            }
        }
        Some(_) => return Some("`properties` must be an object".into()),
    }
    if let Some(Value::Object(items)) = items {
        return schema_shape(items).map(|r| format!("`items`: {r}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schema_shape_reports_the_first_problem_in_rule_order() {
        let shape = |v: Value| schema_shape(v.as_object().unwrap());
        let cases = [
            (
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
                None,
            ),
            (
                json!({"oneOf": 1, "type": "text", "required": 3}),
                Some("`type` \"text\" is not a JSON Schema type"),
            ),
            (
                json!({"oneOf": 1, "required": 3}),
                Some("`required` must be an array of property names"),
            ),
            (
                json!({"oneOf": 1, "properties": {}, "required": ["x"]}),
                Some("`x` is required but not among the properties"),
            ),
            (
                json!({"additionalProperties": true, "properties": {}, "required": ["x"], "oneOf": 1, "enum": 2}),
                Some("`enum` must be an array"),
            ),
            (
                json!({"anyOf": {}, "allOf": 1}),
                Some("`allOf` must be an array"),
            ),
            (
                json!({"properties": {"a": {"properties": {"b": {"type": 1}}}}}),
                Some("property `a`: property `b`: `type` 1 is not a JSON Schema type"),
            ),
            (
                json!({"properties": {"a": true, "b": 3}}),
                Some("property `b` is not a schema"),
            ),
            (
                json!({"properties": [], "items": {"type": "x"}}),
                Some("`properties` must be an object"),
            ),
            (
                json!({"items": {"items": {"enum": {}}}}),
                Some("`items`: `items`: `enum` must be an array"),
            ),
            (
                json!({"type": ["string", "null"], "enum": ["a", null]}),
                None,
            ),
        ];
        for (schema, want) in cases {
            assert_eq!(shape(schema.clone()).as_deref(), want, "{schema}");
        }
    }

    #[test]
    fn every_lexicon_verb_is_a_valid_method() {
        for m in verbs::all_methods() {
            assert!(method_syntax(&m).is_empty(), "{m}: {:?}", method_syntax(&m));
            assert!(method_class(&m).is_empty(), "{m}: {:?}", method_class(&m));
        }
    }

    #[test]
    fn the_drafts_method_table() {
        for ok in ["BOOK", "FIND", "SCHEDULE", "RECONCILE"] {
            assert!(method_syntax(ok).is_empty(), "{ok}");
        }
        for (bad, why) in [
            ("BOOKING", "participle"),
            ("BOOK_TABLE", "underscore"),
            ("book-reservation", "hyphen"),
            ("FindRestaurant", "compound"),
            ("SEARCH2", "numeral"),
        ] {
            let rules = method_syntax(bad).join(" ");
            assert!(rules.contains(why), "{bad}: {rules}");
        }
    }

    #[test]
    fn the_drafts_path_table() {
        for ok in [
            "/reservation",
            "/restaurant/{id}",
            "/patient-record/{id}",
            "/calendar/event/{id}",
        ] {
            assert!(
                path_syntax(ok, "BOOK").is_empty(),
                "{ok}: {:?}",
                path_syntax(ok, "BOOK")
            );
        }
        for (bad, why) in [
            ("/bookReservation", "capitals"),
            ("/get-restaurant", "verb `get`"),
            ("/reservation?type=dinner", "query string"),
            ("/RESERVATION", "lowercase"),
            ("/book-reservation", "repeats the method"),
            ("reservation", "begin with"),
            ("/{id}", "not a parameter"),
            ("/order/:id", "curly-brace"),
        ] {
            let rules = path_syntax(bad, "BOOK").join(" ");
            assert!(rules.contains(why), "{bad}: {rules}");
        }
    }

    #[test]
    fn the_drafts_consistency_examples() {
        assert!(consistency("BOOK", "Returns a list of available restaurants").is_some());
        assert!(consistency("FIND", "Creates a new reservation in the system").is_some());
        assert!(consistency("CANCEL", "Retrieves cancellation policy").is_some());
        assert!(
            consistency(
                "BOOK",
                "Books a restaurant reservation on behalf of the requesting agent"
            )
            .is_none()
        );
        assert!(consistency("TRIAGE", "Assesses and prioritizes a patient for care").is_none());
        assert!(
            consistency(
                "RECONCILE",
                "Reconciles account records against transaction ledger"
            )
            .is_none()
        );
    }
}
