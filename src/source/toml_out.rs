//! Writing a service.toml back out: `wellgen import` renders the imported mirror as an
//! editable, commented file that parses back to the very same mirror.
//!
//! Tables and keys keep the mirror's field order (serialised through `serde_json`, whose maps
//! keep insertion order); parameters, errors and schemas are written as one-line inline tables
//! so each capability stays a compact block.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::source::service_toml::ServiceToml;

/// Comments a rendering carries: a header, a line above each capability, and keys the author
/// must still set (written commented out, with the reason).
#[derive(Debug, Default)]
pub struct Notes {
    pub header: Vec<String>,
    /// One comment per capability, in order (e.g. `GET /pets  ← openapi.yaml#/paths/~1pets/get`).
    pub capabilities: Vec<String>,
    /// (`service.base_url` or a whole table such as `auth`, why it is missing).
    pub missing: Vec<(String, String)>,
}

/// Tables of a capability written as `[capabilities.<key>]` blocks; every other table is inline.
const CAPABILITY_TABLES: [&str; 2] = ["params", "semantic"];

/// Lists of tables inside a top-level table written as `[[table.key]]` blocks (every other
/// list is inline): the further schemes of `[auth]`, which read best as tables of their own.
const TABLE_ARRAYS: [&str; 1] = ["auth.also"];

/// Text made safe for a TOML comment, which may not hold control characters (a DEL in a
/// server URL once made `wellgen import` write a file it could not read back): each becomes
/// its `\u{..}` escape, on the same line.
fn comment(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' => c.to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

pub fn render(doc: &ServiceToml, notes: &Notes) -> String {
    let mut out = String::new();
    for line in &notes.header {
        let _ = writeln!(out, "# {}", comment(line));
    }
    let Ok(Value::Object(root)) = serde_json::to_value(doc) else {
        return out;
    };
    for (key, value) in &root {
        match value {
            Value::Object(table) => {
                let missing: Vec<&(String, String)> = notes
                    .missing
                    .iter()
                    .filter(|(k, _)| k.split_once('.').is_some_and(|(t, _)| t == key))
                    .collect();
                if is_empty(value) && missing.is_empty() {
                    continue;
                }
                let _ = writeln!(out, "\n[{}]", bare(key));
                for (k, why) in missing {
                    let leaf = k.rsplit('.').next().unwrap_or(k);
                    let _ = writeln!(out, "# {leaf} = \"…\"   # set this: {}", comment(why));
                }
                table_body(&mut out, key, table, &[]);
            }
            Value::Array(list) if list.iter().all(Value::is_object) => {
                for (i, item) in list.iter().enumerate() {
                    let Value::Object(table) = item else { continue };
                    out.push('\n');
                    if key == "capabilities"
                        && let Some(c) = notes.capabilities.get(i)
                    {
                        let _ = writeln!(out, "# {}", comment(c));
                    }
                    let _ = writeln!(out, "[[{}]]", bare(key));
                    let blocks: &[&str] = if key == "capabilities" {
                        &CAPABILITY_TABLES
                    } else {
                        &[]
                    };
                    table_body(&mut out, key, table, blocks);
                }
            }
            _ => {}
        }
    }
    // Whole tables the author must add: written commented out at the end, where a table
    // header may stand once uncommented.
    for (key, why) in notes.missing.iter().filter(|(k, _)| !k.contains('.')) {
        if root.get(key.as_str()).is_none_or(is_empty) {
            let _ = writeln!(out, "\n# set this: {}\n# [{}]", comment(why), bare(key));
        }
    }
    out
}

/// Writes a table's keys; nested tables become `[prefix.key]` blocks when named in `blocks`
/// (or always, at the top level where `blocks` is empty), inline tables otherwise.
fn table_body(out: &mut String, prefix: &str, table: &Map<String, Value>, blocks: &[&str]) {
    let as_block = |k: &str, v: &Value| {
        v.is_object() && (blocks.contains(&k) || (blocks.is_empty() && prefix != "capabilities"))
    };
    let mut later = Vec::new();
    let mut arrays = Vec::new();
    for (k, v) in table {
        if is_empty(v) {
            continue;
        }
        if as_block(k, v) {
            later.push((k, v));
        } else if TABLE_ARRAYS.contains(&format!("{prefix}.{k}").as_str())
            && let Value::Array(list) = v
            && list.iter().all(Value::is_object)
        {
            arrays.push((k, list));
        } else {
            let _ = writeln!(out, "{} = {}", bare(k), inline(v));
        }
    }
    for (k, v) in later {
        let Value::Object(sub) = v else { continue };
        let _ = writeln!(out, "\n[{}.{}]", bare(prefix), bare(k));
        for (sk, sv) in sub {
            if !sv.is_null() {
                let _ = writeln!(out, "{} = {}", bare(sk), inline(sv));
            }
        }
    }
    for (k, list) in arrays {
        for item in list {
            let Value::Object(sub) = item else { continue };
            let _ = writeln!(out, "\n[[{}.{}]]", bare(prefix), bare(k));
            for (sk, sv) in sub {
                if !is_empty(sv) {
                    let _ = writeln!(out, "{} = {}", bare(sk), inline(sv));
                }
            }
        }
    }
}

/// `null`, an empty table and an empty list are all "not set" in the mirror.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(m) => m.values().all(Value::is_null),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// A key, quoted when it is not a bare TOML key: always as a one-line basic string, since a
/// key may not be a multi-line string, which `toml` picks for a value holding a newline.
fn bare(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return key.to_string();
    }
    let mut out = String::with_capacity(key.len() + 2);
    out.push('"');
    for c in key.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

const DATETIME: &str = "$__toml_private_datetime";

/// One value in TOML's inline syntax; `null`s are left out (TOML has none).
fn inline(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => toml::Value::Float(n.as_f64().unwrap_or_default()).to_string(),
        },
        Value::String(s) => toml::Value::String(s.clone()).to_string(),
        Value::Array(a) => {
            let items: Vec<String> = a.iter().filter(|v| !v.is_null()).map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        // A TOML date serialised through serde: write it back as a date.
        Value::Object(m) if m.len() == 1 && m.contains_key(DATETIME) => {
            m[DATETIME].as_str().unwrap_or_default().to_string()
        }
        Value::Object(m) => {
            let items: Vec<String> = m
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| format!("{} = {}", bare(k), inline(v)))
                .collect();
            if items.is_empty() {
                "{}".into()
            } else {
                format!("{{ {} }}", items.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::parse_service_toml;

    #[test]
    fn any_key_is_written_as_a_key_toml_reads_back() {
        for key in [
            "plain",
            "a b",
            "line\nbreak",
            "\"quoted\"",
            "back\\slash",
            "tab\there",
            "del\u{7f}",
            "nul\u{0}",
            "c1\u{85}",
            "crlf\r\n",
            "ünï",
            "",
            "'single'",
            "\"\"\"",
        ] {
            let text = format!("{} = 1\n", bare(key));
            let table: toml::Table = text
                .parse()
                .unwrap_or_else(|e| panic!("{key:?}: {e}\n{text}"));
            assert_eq!(table.keys().collect::<Vec<_>>(), [key], "{text}");
        }
    }

    #[test]
    fn rendering_parses_back_to_the_same_mirror() {
        let text = r#"
[service]
name = "Pets"
description = "Pet store"
base_url = "https://api.example.com/v1"
contact = { name = "Ops", email = "ops@example.com" }

[auth]
type = "oauth2"
authorization_url = "https://example.com/auth"
token_url = "https://example.com/token"
scopes = { "read:pets" = "read your pets" }

[[capabilities]]
id = "list_pets"
description = "List \"all\" pets"
path = "/pets/{id}"
scopes = ["read:pets"]
output_schema = { type = "object", properties = { "a b" = { type = "number", minimum = 1.5 } } }
errors = [{ name = "not_found", status = 404 }]
[capabilities.params]
"ids[]" = { type = "array", items = "integer", in = "query", default = [1, 2] }
id = "string, required -- the id"
[capabilities.semantic]
verb = "FIND"
"#;
        let doc = parse_service_toml(text).unwrap();
        let rendered = render(&doc, &Notes::default());
        let again = parse_service_toml(&rendered).unwrap_or_else(|e| panic!("{e:?}\n{rendered}"));
        assert_eq!(
            serde_json::to_value(&doc).unwrap(),
            serde_json::to_value(&again).unwrap(),
            "{rendered}"
        );
        assert!(rendered.contains("[service.contact]"), "{rendered}");
        assert!(rendered.contains("[capabilities.params]"), "{rendered}");
    }
}
