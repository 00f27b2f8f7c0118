//! The compact `returns` notation (`products[] {id, name}, total`) read into a JSON Schema, so
//! every target has a response shape even when no `output_schema` was written: OpenAPI and AGIS
//! use the schema, ADP builds its example response from it.
//!
//! Grammar: `fields := field ("," field)*`, `field := name ["[]"] ["{" fields "}"]`. Field types
//! are not in the notation, so leaves are the empty schema (any value) and nothing is required.

use serde_json::{Map, Value, json};

/// The object schema the notation describes, or `None` when the text is not the notation
/// (free prose such as "the created note"): then only the words go into the description.
pub fn schema(text: &str) -> Option<Value> {
    let mut p = Parser {
        rest: text.trim(),
        depth: 0,
    };
    let props = p.fields()?;
    p.rest.is_empty().then(|| object(props))
}

struct Parser<'a> {
    rest: &'a str,
    depth: usize,
}

/// Nesting deeper than this is not an API shape anyone writes by hand.
const MAX_DEPTH: usize = 16;

impl Parser<'_> {
    fn fields(&mut self) -> Option<Map<String, Value>> {
        let mut props = Map::new();
        loop {
            let (name, value) = self.field()?;
            if props.insert(name, value).is_some() {
                return None;
            }
            self.skip_space();
            match self.rest.strip_prefix(',') {
                Some(after) => self.rest = after,
                None => return Some(props),
            }
        }
    }

    fn field(&mut self) -> Option<(String, Value)> {
        self.skip_space();
        let end = self
            .rest
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '$')))
            .unwrap_or(self.rest.len());
        if end == 0 {
            return None;
        }
        let name = self.rest[..end].to_string();
        self.rest = &self.rest[end..];
        self.skip_space();
        let array = if let Some(after) = self.rest.strip_prefix("[]") {
            self.rest = after;
            self.skip_space();
            true
        } else {
            false
        };
        let mut value = json!({});
        if let Some(after) = self.rest.strip_prefix('{') {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return None;
            }
            self.rest = after;
            let props = self.fields()?;
            self.skip_space();
            self.rest = self.rest.strip_prefix('}')?;
            self.depth -= 1;
            value = object(props);
        }
        if array {
            value = typed("array", "items", value);
        }
        Some((name, value))
    }

    fn skip_space(&mut self) {
        self.rest = self.rest.trim_start();
    }
}

fn object(props: Map<String, Value>) -> Value {
    typed("object", "properties", Value::Object(props))
}

/// `{"type": kind, key: value}`, `value` moved in: `json!` would serialise a copy of it.
fn typed(kind: &str, key: &str, value: Value) -> Value {
    let mut m = Map::with_capacity(2);
    m.insert("type".into(), kind.into());
    m.insert(key.into(), value);
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_drafts_examples() {
        let s = schema("products[] {id, name, price_usd}").unwrap();
        assert_eq!(
            s,
            json!({"type": "object", "properties": {"products": {"type": "array", "items": {
                "type": "object", "properties": {"id": {}, "name": {}, "price_usd": {}}}}}})
        );
        let s = schema("city {name, country}, condition, forecast[] {date, temp_high}").unwrap();
        let props = s["properties"].as_object().unwrap();
        assert_eq!(
            props.keys().collect::<Vec<_>>(),
            ["city", "condition", "forecast"]
        );
        assert_eq!(props["city"]["properties"]["country"], json!({}));
        assert_eq!(
            props["forecast"]["items"]["properties"]["temp_high"],
            json!({})
        );
        let s = schema("product {id, images[], url}").unwrap();
        assert_eq!(
            s["properties"]["product"]["properties"]["images"],
            json!({"type": "array", "items": {}})
        );
    }

    #[test]
    fn prose_and_broken_notation_are_not_a_schema() {
        for text in [
            "the created note",
            "notes {id, title",
            "a, , b",
            "x {}",
            "id, id",
            "",
            "items}",
        ] {
            assert_eq!(schema(text), None, "{text}");
        }
        let deep = format!("{}x{}", "a {".repeat(40), "}".repeat(40));
        assert_eq!(schema(&deep), None);
    }
}
