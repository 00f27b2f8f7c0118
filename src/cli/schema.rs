//! `wellgen schema`: the JSON Schema of service.toml, derived from its serde mirror.
//!
//! Editors (Taplo, Even Better TOML) read it through the `#:schema` line `wellgen init` writes;
//! the copy at `schema/service.schema.json` is this output, kept equal by a drift test.

use schemars::Schema;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use serde_json::Value;

use super::EXIT_OK;
use crate::source::service_toml::ServiceToml;

/// Where the published schema lives: the `$id` of the schema and the target of `#:schema`.
pub const SCHEMA_URL: &str =
    "https://raw.githubusercontent.com/wellgen/wellgen/main/schema/service.schema.json";

pub(super) fn schema() -> u8 {
    print!("{}", service_schema());
    EXIT_OK
}

/// The schema as pretty JSON with one trailing newline.
pub fn service_schema() -> String {
    // Draft 7, the draft editor tooling (Taplo, the SchemaStore catalogue) is built around.
    // Nulls go first, so the draft's own transforms (`$ref` siblings into `allOf`) see the result.
    let generator = SchemaSettings::draft07()
        .with(|s| {
            s.transforms
                .insert(0, Box::new(RecursiveTransform(without_null)))
        })
        .into_generator();
    let root = generator.into_root_schema_for::<ServiceToml>();
    let mut value = root.to_value();
    if let Value::Object(map) = &mut value {
        // `$id` first after `$schema`, so a reader sees where the document is published.
        let mut ordered = serde_json::Map::new();
        if let Some(meta) = map.remove("$schema") {
            ordered.insert("$schema".into(), meta);
        }
        ordered.insert("$id".into(), SCHEMA_URL.into());
        ordered.insert("title".into(), "wellgen service.toml".into());
        map.remove("title");
        ordered.extend(std::mem::take(map));
        *map = ordered;
    }
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// TOML has no null: an absent key is how a file leaves an `Option` out. So `null` is dropped
/// from every type list and `anyOf`, and defaults that only serialise `None`s are dropped.
fn without_null(schema: &mut Schema) {
    let Some(map) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            map.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(any)) = map.get_mut("anyOf") {
        any.retain(|s| s.get("type").is_none_or(|t| t != "null"));
        if let [Value::Object(only)] = any.as_slice() {
            let only = only.clone();
            map.remove("anyOf");
            for (k, v) in only {
                map.entry(k).or_insert(v);
            }
        }
    }
    if map.get("default").is_some_and(holds_null) {
        map.remove("default");
    }
}

fn holds_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(items) => items.iter().any(holds_null),
        Value::Object(map) => map.values().any(holds_null),
        _ => false,
    }
}
