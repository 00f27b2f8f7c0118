//! The service.toml laid over an OpenAPI import (`[source] openapi`, `--openapi`).

use std::collections::HashMap;

use serde_json::Value;

use super::Imported;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::service_toml::{CapabilityTable, ServiceToml, SourceTable};

/// The service.toml's values laid over an import. Tables merge key by key (the service.toml
/// wins), capabilities are matched by `id` (unmatched ones are added after the imported ones),
/// any other list is replaced whole unless the service.toml's is empty.
pub struct Merged {
    pub doc: ServiceToml,
    /// For each merged capability, its index in the service.toml, if it has one there.
    pub overlay_index: Vec<Option<usize>>,
    /// For each merged capability, the operation it was imported from, if any.
    pub origins: Vec<Option<String>>,
    /// For each imported named schema the service.toml does not replace, its component's place.
    pub schema_origins: HashMap<String, String>,
}

pub fn merge(
    mut imported: Imported,
    overlay: ServiceToml,
    diags: &mut Diagnostics,
) -> Option<Merged> {
    // `[source]` says how to read and publish; only `split` and `compact` matter after the
    // import.
    let split = overlay.source.as_ref().and_then(|s| s.split.clone());
    let compact = overlay.source.as_ref().and_then(|s| s.compact);
    let source_bytes = imported.doc.source_bytes;
    let schemas = std::mem::take(&mut imported.doc.schemas);
    // Capabilities the service.toml does not name keep their import as it is: the trip through
    // JSON values and back is most of a large import's merge (20 ms of GitHub's build), and the
    // build of the OpenAPI file alone, which has nothing to merge, takes them as they are too.
    let mut slots: Vec<Slot> = std::mem::take(&mut imported.doc.capabilities)
        .into_iter()
        .map(Slot::Kept)
        .collect();
    let mut base = serde_json::to_value(&imported.doc).ok()?;
    let mut top = serde_json::to_value(&overlay).ok()?;
    if let Some(t) = top.as_object_mut() {
        t.remove("source");
    }
    for (key, d) in imported.deferred {
        if !is_set(&top, &key) {
            diags.push(d.help(format!("set `{key}` in service.toml")));
        }
    }
    take_list(&mut base, "capabilities");
    let top_caps = take_list(&mut top, "capabilities");
    merge_values(&mut base, top);
    // A service.toml table names the first capability with its id, imported or added by an
    // earlier table.
    let mut first_with_id: HashMap<String, usize> = HashMap::new();
    if !top_caps.is_empty() {
        for (j, slot) in slots.iter().enumerate() {
            if let Slot::Kept(CapabilityTable { id: Some(id), .. }) = slot {
                first_with_id.entry(id.clone()).or_insert(j);
            }
        }
    }
    let mut origins: Vec<Option<String>> = imported.origins.into_iter().map(Some).collect();
    let mut overlay_index = vec![None; slots.len()];
    for (i, cap) in top_caps.into_iter().enumerate() {
        let id = cap.get("id").and_then(Value::as_str);
        let Some(&j) = id.and_then(|id| first_with_id.get(id)) else {
            if let Some(id) = id {
                first_with_id.insert(id.to_owned(), slots.len());
            }
            slots.push(Slot::Laid(cap, None));
            origins.push(None);
            overlay_index.push(Some(i));
            continue;
        };
        if let Slot::Kept(c) = &mut slots[j] {
            // The response schema skips the trip, and is merged with the service.toml's after.
            let schema = c.output_schema.take();
            slots[j] = Slot::Laid(serde_json::to_value(&*c).ok()?, schema);
        }
        let Slot::Laid(merged, _) = &mut slots[j] else {
            return None;
        };
        // A description written in service.toml replaces the operation's text, whose long
        // form must not come back as `details` (set `details` to keep one).
        if cap.get("description").is_some_and(|d| !d.is_null())
            && cap.get("details").is_none_or(Value::is_null)
            && let Some(c) = merged.as_object_mut()
        {
            c.remove("details");
        }
        merge_values(merged, cap);
        overlay_index[j] = Some(i);
    }
    let mut doc = read::<ServiceToml>(base, diags)?;
    doc.capabilities = Vec::with_capacity(slots.len());
    for slot in slots {
        doc.capabilities.push(match slot {
            Slot::Kept(cap) => cap,
            Slot::Laid(merged, schema) => {
                let mut cap = read::<CapabilityTable>(merged, diags)?;
                if let Some(mut schema) = schema {
                    if let Some(over) = cap.output_schema.take() {
                        merge_values(
                            std::sync::Arc::make_mut(&mut schema),
                            std::sync::Arc::unwrap_or_clone(over),
                        );
                    }
                    cap.output_schema = Some(schema);
                }
                cap
            }
        });
    }
    doc.source_bytes = source_bytes;
    // The service.toml's own named schemas replace the imported ones of their names.
    let own = std::mem::take(&mut doc.schemas);
    let mut schema_origins = std::mem::take(&mut imported.schema_origins);
    schema_origins.retain(|name, _| own.get(name).is_none());
    doc.schemas = schemas.merged(own);
    if split.is_some() || compact.is_some() {
        doc.source = Some(SourceTable {
            split,
            compact,
            ..Default::default()
        });
    }
    Some(Merged {
        doc,
        overlay_index,
        origins,
        schema_origins,
    })
}

fn read<T: serde::de::DeserializeOwned>(merged: Value, diags: &mut Diagnostics) -> Option<T> {
    serde_json::from_value(merged)
        .map_err(|e| {
            diags.push(Diagnostic::new(
                Code::OpenapiInvalid,
                format!("merging service.toml over the import failed: {e}"),
            ));
        })
        .ok()
}

/// A capability of the merge: as imported, or a service.toml table laid over an imported one
/// (with the imported response schema, kept aside) or added.
// Nearly every slot is `Kept`: boxing it would allocate once per capability for nothing.
#[allow(clippy::large_enum_variant)]
enum Slot {
    Kept(CapabilityTable),
    Laid(Value, Option<std::sync::Arc<Value>>),
}

fn take_list(v: &mut Value, key: &str) -> Vec<Value> {
    match v.as_object_mut().and_then(|o| o.remove(key)) {
        Some(Value::Array(a)) => a,
        _ => Vec::new(),
    }
}

/// `top` over `base`: `null` (unset) never wins, an empty list does not clear an imported one.
fn merge_values(base: &mut Value, top: Value) {
    match (base, top) {
        (_, Value::Null) => {}
        (Value::Object(b), Value::Object(t)) => {
            for (k, v) in t {
                match b.get_mut(&k) {
                    Some(slot) => merge_values(slot, v),
                    None => {
                        if !v.is_null() {
                            b.insert(k, v);
                        }
                    }
                }
            }
        }
        (b, Value::Array(a)) if a.is_empty() && b.is_array() => {}
        (b, t) => *b = t,
    }
}

/// Whether a dotted key (`service.base_url`) has a value in a serialised service.toml.
fn is_set(doc: &Value, key: &str) -> bool {
    key.split('.')
        .try_fold(doc, |v, k| v.get(k))
        .is_some_and(|v| !v.is_null())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::openapi::{Options, import_text};
    use crate::source::parse_service_toml;

    const OPENAPI: &str = r#"{"openapi": "3.0.3",
      "info": {"title": "Pets", "version": "1", "description": "Pets for agents."},
      "servers": [{"url": "https://api.example.com"}],
      "paths": {
        "/pets": {"get": {"operationId": "listPets", "summary": "List pets.",
          "description": "List pets. Long text.",
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
            {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}},
        "/pets/{id}": {"get": {"operationId": "getPet", "summary": "Get a pet.",
          "description": "Get a pet. Long text.",
          "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
            {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}}}}}}},
        "/toys": {"get": {"operationId": "listToys", "summary": "List toys.",
          "responses": {"200": {"description": "ok"}}}}
      }}"#;

    fn imported() -> Imported {
        let mut diags = Diagnostics::default();
        let imported = import_text(None, OPENAPI, &Options::default(), &mut diags);
        assert!(!diags.has_errors(), "{diags:?}");
        imported.expect("the document imports")
    }

    fn value(cap: &CapabilityTable) -> Value {
        serde_json::to_value(cap).unwrap()
    }

    #[test]
    fn capabilities_the_service_toml_does_not_name_stay_as_imported() {
        let import = imported();
        let before: Vec<Value> = import.doc.capabilities.iter().map(value).collect();
        let named = import.doc.capabilities[1].id.clone().unwrap();
        let overlay = parse_service_toml(&format!(
            "[service]\nname = \"Named\"\n\n[[capabilities]]\nid = \"{named}\"\n\
             description = \"Fetches one pet by id.\"\noutput_schema = {{ required = [\"id\"] }}\n"
        ))
        .unwrap();
        let mut diags = Diagnostics::default();
        let merged = merge(import, overlay, &mut diags).expect("merges");
        assert!(!diags.has_errors(), "{diags:?}");
        assert_eq!(merged.doc.service.name.as_deref(), Some("Named"));
        let caps = &merged.doc.capabilities;
        assert_eq!(caps.len(), 3);
        assert_eq!(value(&caps[0]), before[0]);
        assert_eq!(value(&caps[2]), before[2]);
        assert!(
            caps[0].output_schema.is_some(),
            "kept with its response schema"
        );
        // The named one: its description replaced, the long form gone, the schemas merged.
        let pet = &caps[1];
        assert_eq!(pet.description.as_deref(), Some("Fetches one pet by id."));
        assert_eq!(pet.details, None);
        let schema = pet.output_schema.as_ref().unwrap();
        assert_eq!(schema["required"], serde_json::json!(["id"]));
        assert_eq!(schema["properties"]["name"]["type"], "string");
        assert_eq!(merged.overlay_index, [None, Some(0), None]);
        assert!(merged.origins.iter().all(Option::is_some));
    }

    #[test]
    fn tables_with_one_new_id_add_one_capability() {
        let import = imported();
        let first = import.doc.capabilities[0].id.clone().unwrap();
        let overlay = parse_service_toml(&format!(
            "[[capabilities]]\nid = \"adopt\"\ndescription = \"Adopt a pet.\"\n\
             method = \"POST\"\npath = \"/adoptions\"\n\n\
             [[capabilities]]\nid = \"{first}\"\nreturns = \"pets[]\"\n\n\
             [[capabilities]]\nid = \"adopt\"\nconfirm = true\n\n\
             [[capabilities]]\ndescription = \"No id.\"\n"
        ))
        .unwrap();
        let mut diags = Diagnostics::default();
        let merged = merge(import, overlay, &mut diags).expect("merges");
        let caps = &merged.doc.capabilities;
        let ids: Vec<_> = caps.iter().map(|c| c.id.as_deref()).collect();
        assert_eq!(ids[3..], [Some("adopt"), None]);
        assert_eq!(caps[0].returns.as_deref(), Some("pets[]"));
        // The third table lands on the capability the first one added.
        assert_eq!(caps[3].confirm, Some(true));
        assert_eq!(caps[3].method.as_deref(), Some("POST"));
        assert_eq!(
            merged.overlay_index,
            [Some(1), None, None, Some(2), Some(3)]
        );
        assert_eq!(merged.origins[3..], [None, None]);
        assert!(merged.origins[..3].iter().all(Option::is_some));
    }
}
