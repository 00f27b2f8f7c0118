//! `vercel.json` for Vercel: a `headers` entry per document and the `?format=openapi` route,
//! merged into the user's own vercel.json without losing any of their entries.
//!
//! Vercel checks the filesystem before `rewrites`, so a rewrite of `/api/discovery` (a file)
//! never applies; `redirects` run before the filesystem, so the query route is a redirect.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::Artifact;
use super::headers::document_headers;
use crate::emit::targets::{openapi, rfc002};

pub const PATH: &str = "/vercel.json";
const SCHEMA: &str = "https://openapi.vercel.sh/vercel.json";
/// The arrays whose entries wellgen may own, each identified by its `source`.
const LISTS: [&str; 3] = ["headers", "redirects", "rewrites"];

/// wellgen's own vercel.json: only its entries. `route_query` adds the `?format=openapi` redirect.
pub fn emit(artifacts: &[Artifact], route_query: bool) -> Artifact {
    let headers: Vec<Value> = artifacts
        .iter()
        .filter_map(|a| {
            let list: Vec<Value> = document_headers(a)?
                .into_iter()
                .map(|h| json!({ "key": h.name, "value": h.value }))
                .collect();
            Some(json!({ "source": a.path, "headers": list }))
        })
        .collect();
    let mut doc = Map::new();
    doc.insert("$schema".into(), SCHEMA.into());
    doc.insert("headers".into(), headers.into());
    if route_query {
        doc.insert(
            "redirects".into(),
            json!([{
                "source": rfc002::DISCOVERY_PATH,
                "has": [{ "type": "query", "key": "format", "value": "openapi" }],
                "destination": openapi::DISCOVERY_PATH,
                "permanent": false
            }]),
        );
    }
    Artifact {
        path: PATH.into(),
        body: crate::emit::to_json_bytes(&doc).into(),
        serving: None,
    }
}

/// Fits `ours` (wellgen's vercel.json, or "" to take wellgen's entries out) into `existing`.
///
/// `owned` holds the `source` paths of entries wellgen wrote before (the documents of its last
/// build): those entries are replaced. Any other entry is the user's and is kept as it was, in
/// its place; a user's entry for one of wellgen's paths is refused rather than silently merged.
/// Our headers go after the user's (later entries win on Vercel), our redirects before (the
/// first match wins). Returns "" when nothing but `$schema` would be left.
pub fn merge(existing: &str, ours: &str, owned: &BTreeSet<String>) -> Result<String, String> {
    let ours: Map<String, Value> = if ours.trim().is_empty() {
        Map::new()
    } else {
        serde_json::from_str(ours).map_err(|e| format!("internal error: {e}"))?
    };
    if existing.trim().is_empty() {
        return Ok(render(ours));
    }
    let mut doc: Map<String, Value> = match serde_json::from_str(existing) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err("it is not a JSON object".into()),
        Err(e) => return Err(format!("it is not valid JSON ({e})")),
    };
    let our_sources: BTreeSet<&str> = LISTS
        .iter()
        .flat_map(|k| entries(&ours, k))
        .filter_map(source)
        .collect();
    for key in LISTS {
        let Some(list) = doc.get_mut(key) else {
            continue;
        };
        let Value::Array(items) = list else {
            return Err(format!("its `{key}` is not an array"));
        };
        items.retain(|e| source(e).is_none_or(|s| !owned.contains(s)));
        if let Some(s) = items
            .iter()
            .filter_map(source)
            .find(|s| our_sources.contains(s))
        {
            return Err(format!(
                "its `{key}` already has an entry for `{s}` outside wellgen's; remove it so \
                 Vercel applies wellgen's"
            ));
        }
    }
    for key in LISTS {
        let mine: Vec<Value> = entries(&ours, key).cloned().collect();
        match doc.get_mut(key) {
            Some(Value::Array(items)) => {
                if key == "redirects" {
                    items.splice(0..0, mine);
                } else {
                    items.extend(mine);
                }
                if items.is_empty() {
                    doc.shift_remove(key);
                }
            }
            _ if !mine.is_empty() => {
                doc.insert(key.into(), Value::Array(mine));
            }
            _ => {}
        }
    }
    Ok(render(doc))
}

fn render(doc: Map<String, Value>) -> String {
    if doc.keys().all(|k| k == "$schema") {
        return String::new();
    }
    String::from_utf8(crate::emit::to_json_bytes(&doc)).unwrap_or_default()
}

fn entries<'a>(doc: &'a Map<String, Value>, key: &str) -> impl Iterator<Item = &'a Value> {
    doc.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn source(entry: &Value) -> Option<&str> {
    entry.get("source").and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours() -> String {
        json!({
            "$schema": SCHEMA,
            "headers": [{ "source": "/ai", "headers": [{ "key": "Cache-Control", "value": "x" }] }],
            "redirects": [{ "source": "/api/discovery", "destination": "/o.json" }]
        })
        .to_string()
    }

    fn owned(paths: &[&str]) -> BTreeSet<String> {
        paths.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn a_new_file_is_ours_alone() {
        let text = merge("", &ours(), &owned(&[])).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["$schema"], SCHEMA);
        assert_eq!(v["headers"][0]["source"], "/ai");
        assert!(text.ends_with("}\n"));
    }

    #[test]
    fn the_users_entries_and_keys_survive_in_place_and_ours_are_replaced() {
        let user = json!({
            "cleanUrls": true,
            "headers": [{ "source": "/(.*)", "headers": [{ "key": "X-Frame-Options", "value": "DENY" }] }],
            "redirects": [{ "source": "/old", "destination": "/new" }],
            "rewrites": [{ "source": "/(.*)", "destination": "/index.html" }]
        })
        .to_string();
        let first = merge(&user, &ours(), &owned(&[])).unwrap();
        let v: Value = serde_json::from_str(&first).unwrap();
        assert_eq!(v["cleanUrls"], true);
        assert_eq!(v["headers"][0]["source"], "/(.*)");
        assert_eq!(v["headers"][1]["source"], "/ai");
        assert_eq!(v["redirects"][0]["source"], "/api/discovery");
        assert_eq!(v["redirects"][1]["source"], "/old");
        assert_eq!(v["rewrites"][0]["destination"], "/index.html");
        assert!(
            v.get("$schema").is_none(),
            "the user's file gets no $schema"
        );
        // The next build replaces our entries in place of appending a second copy.
        let owned = owned(&["/ai", "/api/discovery", "/vercel.json"]);
        let newer = ours().replace("\"x\"", "\"y\"");
        let second = merge(&first, &newer, &owned).unwrap();
        let v2: Value = serde_json::from_str(&second).unwrap();
        assert_eq!(v2["headers"].as_array().unwrap().len(), 2);
        assert_eq!(v2["headers"][1]["headers"][0]["value"], "y");
        assert_eq!(merge(&second, &newer, &owned).unwrap(), second);
        // Taking ours out leaves exactly the user's entries.
        let removed: Value = serde_json::from_str(&merge(&second, "", &owned).unwrap()).unwrap();
        let original: Value = serde_json::from_str(&user).unwrap();
        assert_eq!(removed, original);
    }

    #[test]
    fn only_ours_removed_leaves_nothing() {
        let text = merge("", &ours(), &owned(&[])).unwrap();
        assert_eq!(
            merge(&text, "", &owned(&["/ai", "/api/discovery"])).unwrap(),
            ""
        );
    }

    #[test]
    fn refuses_a_users_entry_for_our_path_and_bad_files() {
        let user = json!({ "headers": [{ "source": "/ai", "headers": [] }] }).to_string();
        let err = merge(&user, &ours(), &owned(&[])).unwrap_err();
        assert!(err.contains("`/ai`"), "{err}");
        assert!(
            merge("[1]", &ours(), &owned(&[]))
                .unwrap_err()
                .contains("object")
        );
        assert!(
            merge("{", &ours(), &owned(&[]))
                .unwrap_err()
                .contains("not valid JSON")
        );
        let bad = json!({ "headers": {} }).to_string();
        assert!(
            merge(&bad, &ours(), &owned(&[]))
                .unwrap_err()
                .contains("not an array")
        );
    }
}
