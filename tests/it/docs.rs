//! The user documentation keeps up with the code: docs/service-toml.md names every key of
//! schema/service.schema.json (itself `wellgen schema`'s output, see `schema.rs`), and the
//! limits the starter of `wellgen init` states in its comments are the ones the checks enforce.

use std::collections::BTreeMap;

use regex::Regex;
use serde_json::Value;

use crate::common::{root, run, wellgen};

// ---- docs/service-toml.md names every key --------------------------------------------------

/// A section of the reference: the names its heading gives (`## [security] and
/// [security.auto_block]` gives `security` and `security.auto_block`; a bare `### params` under
/// `## [[capabilities]]` gives `capabilities.params`) and the names written in backticks in it,
/// its subsections included.
struct Section {
    names: Vec<String>,
    keys: Vec<String>,
}

fn sections(doc: &str) -> Vec<Section> {
    let bracketed = Regex::new(r"\[\[?([a-z0-9_.]+)\]\]?").unwrap();
    let mut headings = Vec::new(); // (line index, level, names)
    let lines: Vec<&str> = doc.lines().collect();
    let mut parent = String::new();
    for (i, line) in lines.iter().enumerate() {
        let level = line.chars().take_while(|&c| c == '#').count();
        if level < 2 || !line[level..].starts_with(' ') {
            continue;
        }
        let title = line[level..].trim();
        let mut names: Vec<String> = bracketed
            .captures_iter(title)
            .map(|c| c[1].to_string())
            .collect();
        if level == 2 {
            parent = names.first().cloned().unwrap_or_default();
        } else if names.is_empty() && !parent.is_empty() {
            names.push(format!("{parent}.{title}"));
        }
        headings.push((i, level, names));
    }
    let code = Regex::new(r"`([^`\n]+)`").unwrap();
    headings
        .iter()
        .enumerate()
        .map(|(n, (start, level, names))| {
            let end = headings[n + 1..]
                .iter()
                .find(|(_, l, _)| l <= level)
                .map_or(lines.len(), |(i, _, _)| *i);
            let text = lines[*start..end].join("\n");
            Section {
                names: names.clone(),
                keys: code
                    .captures_iter(&text)
                    .map(|c| c[1].to_string())
                    .collect(),
            }
        })
        .collect()
}

/// Every key of the schema: (the definition it belongs to, or its table for a key defined in
/// place; the table it is in, as a dotted name with no array or map marks; the key).
fn schema_keys(schema: &Value) -> Vec<(String, String, String)> {
    fn walk(
        schema: &Value,
        node: &Value,
        owner: &str,
        table: &str,
        out: &mut Vec<(String, String, String)>,
    ) {
        if let Some(r) = node["$ref"].as_str() {
            let name = r.rsplit('/').next().unwrap();
            // A definition inside itself (`[[auth.also]]` tables are `[auth]` tables): its keys
            // were listed at the outer table.
            let inside_itself = table
                .rsplit_once('.')
                .is_some_and(|(outer, _)| out.iter().any(|(o, t, _)| o == name && t == outer));
            if !inside_itself {
                walk(schema, &schema["definitions"][name], name, table, out);
            }
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            for sub in node[key].as_array().into_iter().flatten() {
                walk(schema, sub, owner, table, out);
            }
        }
        for (key, value) in node["properties"].as_object().into_iter().flatten() {
            let owner = if owner.is_empty() { table } else { owner };
            out.push((owner.to_string(), table.to_string(), key.clone()));
            let inner = if table.is_empty() {
                key.clone()
            } else {
                format!("{table}.{key}")
            };
            walk(schema, value, "", &inner, out);
        }
        // Array items and the values of open maps (`params`, `payload`) are tables of the same name.
        for inner in [&node["items"], &node["additionalProperties"]] {
            if inner.is_object() {
                walk(schema, inner, owner, table, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(schema, schema, "", "", &mut out);
    out.sort();
    out.dedup();
    out
}

/// A top-level table is documented by a heading of its own (`## [auth]`); any other key by its
/// name in backticks, alone (`` `email` ``) or in a dotted name (`` `auto_block.failed_attempts` ``,
/// `` `data_manifest.available_data[].class` ``), in the section of the deepest
/// heading that names its table or a table around it (`[service.contact]` for
/// `service.contact.email`, else `[service]`). A key of a definition several tables share (a
/// parameter table, in `params` and in a webhook's `payload`) is documented once, in any of them.
#[test]
fn service_toml_reference_names_every_key_of_the_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("schema/service.schema.json")).unwrap(),
    )
    .unwrap();
    let doc = std::fs::read_to_string(root().join("docs/service-toml.md")).unwrap();
    let sections = sections(&doc);
    let keys = schema_keys(&schema);
    assert!(keys.len() > 150, "found only {} keys", keys.len());
    // (owner, key) -> where it was looked for, or None once found.
    let mut looked: BTreeMap<(&str, &str), Option<Vec<String>>> = BTreeMap::new();
    for (owner, table, key) in &keys {
        let entry = looked
            .entry((owner.as_str(), key.as_str()))
            .or_insert_with(|| Some(Vec::new()));
        let Some(places) = entry else {
            continue;
        };
        if table.is_empty() {
            if sections.iter().any(|s| s.names.contains(key)) {
                *entry = None;
            } else {
                places.push(format!("a heading for [{key}]"));
            }
            continue;
        }
        // The deepest heading naming the table or a table around it.
        let mut scope = table.as_str();
        let section = loop {
            if let Some(s) = sections.iter().find(|s| s.names.iter().any(|n| n == scope)) {
                break Some(s);
            }
            match scope.rsplit_once('.') {
                Some((outer, _)) => scope = outer,
                None => break None,
            }
        };
        let Some(section) = section else {
            places.push(format!("`{key}`: no heading names [{table}]"));
            continue;
        };
        let documented = section.keys.iter().any(|written| {
            written == key
                || (written.contains('.')
                    && written.replace("[]", "").split('.').any(|part| part == key))
        });
        if documented {
            *entry = None;
        } else {
            places.push(format!("`{key}` of [{table}], in the section of [{scope}]"));
        }
    }
    let missing: Vec<String> = looked.into_values().flatten().flatten().collect();
    assert!(
        missing.is_empty(),
        "docs/service-toml.md does not name:\n{}",
        missing.join("\n")
    );
}

// ---- the starter's limits ------------------------------------------------------------------

/// Every length the starter's comments state, as `N-M characters`: the key (its table, then the
/// key), the field the checks report it on, the range the code enforces, written once here and
/// confirmed by `starter_limits_are_the_enforced_ones` below against the checks themselves, and
/// whether only errors count (a hard limit other targets' warnings sit inside) or any diagnostic.
const LIMITS: [(&str, &str, usize, usize, bool); 4] = [
    // src/model/lower.rs: `self.text(name, "service.name", 1, 100)`; ai-plugin.json's derived
    // name_for_human warns over 20.
    ("service.name", "service.name", 1, 100, true),
    // src/emit/adp/check.rs: DESCRIPTION_MIN..=DESCRIPTION_MAX (lowering allows 1-300; the ai
    // target warns over 200).
    ("service.description", "service.description", 20, 200, false),
    // src/emit/rfc002/ai_plugin.rs: DESCRIPTION_FOR_MODEL_TARGET (RFC-002 §3.2).
    (
        "plugin.description_for_model",
        "plugin.description_for_model",
        500,
        1000,
        false,
    ),
    // src/emit/adp/check.rs: CAPABILITY_DESCRIPTION_MIN; src/model/lower.rs: the 200 of
    // `self.text(description, &f("description"), 1, 200)`.
    (
        "capabilities.description",
        "capabilities.0.description",
        10,
        200,
        false,
    ),
];

/// The starter as `wellgen init` writes it.
fn starter() -> String {
    let work = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(wellgen().arg("init").arg(work.path()));
    assert_eq!(code, 0, "{stderr}");
    std::fs::read_to_string(work.path().join("service.toml")).unwrap()
}

/// Every `N-M characters` of a comment, by the key it is about: the key on the same line, or
/// for a comment on a line of its own, the next key.
fn stated_limits(text: &str) -> BTreeMap<String, Vec<(usize, usize)>> {
    let range = Regex::new(r"(\d+)\s*[-–]\s*(\d+) characters").unwrap();
    let header = Regex::new(r"^\[\[?([a-z0-9_.]+)\]\]?").unwrap();
    let assignment = Regex::new(r"^([a-z0-9_]+)\s*=").unwrap();
    let (mut table, mut pending) = (String::new(), Vec::new());
    let mut out: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    for line in text.lines() {
        let comment = line.find('#').map_or("", |i| &line[i..]);
        let stated: Vec<(usize, usize)> = range
            .captures_iter(comment)
            .map(|c| (c[1].parse().unwrap(), c[2].parse().unwrap()))
            .collect();
        if let Some(c) = header.captures(line) {
            table = c[1].to_string();
            pending.clear();
        }
        if let Some(c) = assignment.captures(line) {
            let key = format!("{table}.{}", &c[1]);
            let all = out.entry(key).or_default();
            all.append(&mut pending);
            all.extend(stated);
            continue;
        }
        pending.extend(stated);
    }
    assert!(pending.is_empty(), "a limit stated after the last key");
    out.retain(|_, v| !v.is_empty());
    out
}

#[test]
fn starter_comments_state_the_enforced_limits() {
    let stated = stated_limits(&starter());
    let expected: BTreeMap<String, Vec<(usize, usize)>> = LIMITS
        .iter()
        .map(|(key, _, min, max, _)| (key.to_string(), vec![(*min, *max)]))
        .collect();
    assert_eq!(
        stated, expected,
        "the starter's comments (templates/service.toml) and the limits the code enforces \
         (LIMITS in tests/it/docs.rs) differ"
    );
}

/// `check --format json` on `text`: the messages on `field` (its errors only, if `errors`).
fn messages_on(text: &str, field: &str, errors: bool) -> Vec<String> {
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("service.toml"), text).unwrap();
    let (_, stdout, stderr) =
        run(wellgen()
            .current_dir(work.path())
            .args(["check", "--format", "json", "service.toml"]));
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["field"] == field && (!errors || d["severity"] == "error"))
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

/// Plain words, `n` characters long, with no space at either end.
fn words(n: usize) -> String {
    let mut s: String = "Finds widgets ".chars().cycle().take(n).collect();
    if s.ends_with(' ') {
        s.pop();
        s.push('s');
    }
    s
}

#[test]
fn starter_limits_are_the_enforced_ones() {
    let mut starter: toml::Table = toml::from_str(&starter()).unwrap();
    // Written, so that ai-plugin.json's shorter limits on the values it would derive from
    // `service.name` and `service.description` do not speak about those.
    let plugin = starter["plugin"].as_table_mut().unwrap();
    plugin.insert("name_for_human".into(), "Widgets".into());
    plugin.insert(
        "description_for_human".into(),
        "Find widgets by name.".into(),
    );
    for (key, field, min, max, errors) in LIMITS {
        let (table, name) = key.split_once('.').unwrap();
        let with_length = |n: usize| {
            let mut doc = starter.clone();
            let slot = match &mut doc[table] {
                toml::Value::Array(tables) => &mut tables[0],
                value => value,
            };
            slot[name] = toml::Value::String(words(n));
            messages_on(&toml::to_string(&doc).unwrap(), field, errors)
        };
        for n in [min, max] {
            let said = with_length(n);
            assert!(said.is_empty(), "{key} of {n} characters: {said:?}");
        }
        for n in [min - 1, max + 1] {
            assert!(
                !with_length(n).is_empty(),
                "{key} of {n} characters draws no diagnostic"
            );
        }
    }
}

// ---- docs/diagnostics.md lists exactly the codes ----------------------------------------------

#[test]
fn the_diagnostics_doc_lists_exactly_the_codes_with_their_severity() {
    use wellgen::diag::Code;
    let doc = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap();
    let row = Regex::new(r"(?m)^\| `([A-Z]-[a-z0-9-]+)` \| (\w+) \|").unwrap();
    let listed: Vec<(String, String)> = row
        .captures_iter(&doc)
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect();
    let table: Vec<(String, String)> = Code::ALL
        .iter()
        .map(|c| {
            let info = c.info();
            let kind = if info.fatal {
                "fatal"
            } else {
                info.severity.label()
            };
            (info.code.to_string(), kind.to_string())
        })
        .collect();
    assert_eq!(
        listed, table,
        "docs/diagnostics.md must list every code of src/diag/codes.rs, in its order"
    );
}
