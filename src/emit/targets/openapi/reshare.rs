//! A document over its source's budget shared anew: leaving out its schemas' descriptions
//! makes schemas and parameters equal that were not when `render_cut` shared them, and leaves
//! components too small to be worth their references.

use serde_json::{Map, Value};

use super::{SHARING, parts, share_schemas, shared_components};
use crate::emit::schemas::{self, Policy};

/// Every repeated schema whose references and one definition take fewer bytes than its
/// copies, however small the document's schemas are together.
const SHARING_TO_FIT: Policy = Policy {
    min_total: 0,
    only_where_smaller: true,
    ..SHARING
};

/// The Components Object's fields the document's own sharing fills.
const SHARED_FIELDS: [&str; 4] = ["schemas", "responses", "parameters", "requestBodies"];

/// `doc` with every shared schema, parameter, response and request body put back in place,
/// then shared again: schemas wherever a reference is shorter than the copies, the operations'
/// parts as `render_cut` shares them. The same document for a reader: nothing is left out.
/// The schemas named in `named` (the model's) stay as they are, first, and are referred to.
pub(super) fn reshared(doc: &Value, named: &[String]) -> Value {
    let (Some(source), Some(given)) = (doc.as_object(), doc.get("paths")) else {
        return doc.clone();
    };
    // The paths are copied once, by inlining, not cloned first.
    let mut map: Map<String, Value> = source
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                if k == "paths" { Value::Null } else { v.clone() },
            )
        })
        .collect();
    let mut others = map
        .get_mut("components")
        .and_then(Value::as_object_mut)
        .map(std::mem::take)
        .unwrap_or_default();
    let mut shared = Map::new();
    for field in SHARED_FIELDS {
        if let Some(entries) = others.shift_remove(field) {
            shared.insert(field.into(), entries);
        }
    }
    let mut kept = Vec::new();
    if let Some(Value::Object(entries)) = shared.get_mut("schemas") {
        let (fixed, rest) = std::mem::take(entries)
            .into_iter()
            .partition(|(k, _)| named.contains(k));
        kept = fixed;
        *entries = rest.into_iter().collect();
    }
    let paths = map.entry("paths").or_insert(Value::Null);
    *paths = inlined(given, &shared);
    let own = shared.get("schemas").and_then(Value::as_object);
    let target = |r: &str| own?.get(r.strip_prefix(SHARING.prefix)?);
    let names = own.map_or_else(Default::default, |n| schemas::names_of(n, &target));
    let schemas = share_schemas(paths, &[], SHARING_TO_FIT, &[&names], named);
    let schemas = kept.into_iter().chain(schemas).collect();
    let parts = parts::share(paths);
    let mut components = shared_components(schemas, parts);
    components.extend(others);
    if components.is_empty() {
        map.shift_remove("components");
    } else if let Some(slot) = map.get_mut("components") {
        *slot = Value::Object(components);
    } else {
        let after_paths = map
            .keys()
            .position(|k| k == "paths")
            .map_or(map.len(), |i| i + 1);
        map.shift_insert(after_paths, "components".into(), Value::Object(components));
    }
    Value::Object(map)
}

/// `v` with each reference to an entry of `shared` (a Components field → its entries)
/// replaced by the entry, itself inlined.
fn inlined(v: &Value, shared: &Map<String, Value>) -> Value {
    let target = |r: &str| {
        let (field, name) = r.strip_prefix("#/components/")?.split_once('/')?;
        shared.get(field)?.get(name)
    };
    schemas::inlined(v, &target)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shared anew, with no named schema of the model.
    fn reshared(doc: &Value) -> Value {
        super::reshared(doc, &[])
    }
    use serde_json::json;

    /// `doc`'s paths with every reference put back, for comparing what two documents say.
    fn said(doc: &Value) -> Value {
        let shared = doc["components"].as_object().cloned().unwrap_or_default();
        inlined(&doc["paths"], &shared)
    }

    fn keys(v: &Value) -> Vec<&str> {
        v.as_object().unwrap().keys().map(String::as_str).collect()
    }

    fn address(extra: &str) -> Value {
        let lines: Map<String, Value> = (0..12)
            .map(|j| {
                (
                    format!("{extra}line{j}"),
                    json!({"type": "string", "maxLength": 80}),
                )
            })
            .collect();
        json!({"type": "object", "properties": lines})
    }

    #[test]
    fn a_document_shared_anew_says_the_same() {
        // What `render_cut` shared with descriptions, left as a description cut leaves it: two
        // equal schemas under two names, an empty one, references between components, a
        // parameter on the path (hoisted) and one in each operation.
        let doc = json!({
            "openapi": "3.1.0",
            "paths": {
                "/a/{id}": {
                    "parameters": [{"$ref": "#/components/parameters/id"}],
                    "get": {
                        "operationId": "a",
                        "parameters": [{"name": "q", "in": "query", "schema": {"$ref": "#/components/schemas/address"}}],
                        "responses": {"200": {"$ref": "#/components/responses/ok"}},
                    },
                    "post": {
                        "operationId": "b",
                        "requestBody": {"content": {"application/json": {"schema": {
                            "type": "object",
                            "properties": {
                                "home": {"$ref": "#/components/schemas/address_2"},
                                "any": {"$ref": "#/components/schemas/empty"},
                            },
                        }}}},
                        "responses": {"200": {"$ref": "#/components/responses/ok"}},
                    },
                },
                "/b/{id}": {
                    "parameters": [{"$ref": "#/components/parameters/id"}],
                    "get": {
                        "operationId": "c",
                        "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": address("")}}}},
                    },
                },
            },
            "components": {
                "schemas": {"address": address(""), "address_2": address(""), "empty": {}},
                "responses": {"ok": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/address"}}}}},
                "parameters": {"id": {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}},
                "securitySchemes": {"key": {"type": "apiKey", "name": "k", "in": "header"}},
            },
            "x-after": true,
        });
        let again = reshared(&doc);
        assert_eq!(said(&again), said(&doc));
        let components = again["components"].as_object().unwrap();
        let schemas = components["schemas"].as_object().unwrap();
        assert_eq!(
            schemas.len(),
            1,
            "one address, no empty schema: {schemas:?}"
        );
        assert_eq!(schemas.values().next(), Some(&address("")));
        let fields = keys(&again["components"]);
        assert_eq!(fields.last(), Some(&"securitySchemes"), "{fields:?}");
        assert_eq!(keys(&again), ["openapi", "paths", "components", "x-after"]);
        // Shared anew, it stays as it is.
        assert_eq!(reshared(&again), again);
    }

    #[test]
    fn components_come_after_the_paths_when_there_were_none() {
        let op = |id: &str| {
            json!({"operationId": id, "responses": {"200": {"description": "OK",
                "content": {"application/json": {"schema": address("many_")}}}}})
        };
        let doc = json!({
            "openapi": "3.1.0",
            "paths": {"/a": {"get": op("a")}, "/b": {"get": op("b")}},
            "tags": [],
        });
        let again = reshared(&doc);
        assert_eq!(said(&again), said(&doc));
        assert_eq!(keys(&again), ["openapi", "paths", "components", "tags"]);
        let plain = json!({"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {}}}}});
        assert_eq!(reshared(&plain), plain);
    }
}
