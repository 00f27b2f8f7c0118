//! The JSON Schema of service.toml: the checked-in copy is the command's output, it accepts
//! every service.toml the suite builds, and it agrees with the parser on what is a known key.

use crate::common::{root, run, sources, wellgen};
use serde_json::Value;

const CHECKED_IN: &str = "schema/service.schema.json";

fn generated() -> String {
    let (code, stdout, stderr) = run(wellgen().arg("schema"));
    assert_eq!(code, 0, "{stderr}");
    stdout
}

fn validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(&generated()).expect("the schema is JSON");
    // Formats asserted, as everywhere in the suite: an editor that checks them agrees.
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles")
}

/// TOML as the JSON an editor validates: dates and times become their RFC 3339 text.
fn to_json(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Value::from(*f),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.iter().map(|(k, v)| (k.clone(), to_json(v))).collect())
        }
    }
}

/// The JSON image of a TOML file the schema judges; none for a file that is not TOML, or that
/// holds a `nan` or `inf`, which JSON (and so a JSON Schema) has no way to say.
fn toml_file(path: &std::path::Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    let table = toml::Value::Table(toml::from_str(&text).ok()?);
    if wellgen::source::service_toml::non_finite(&table).is_some() {
        return None;
    }
    Some(to_json(&table))
}

#[test]
fn checked_in_schema_is_the_generated_one() {
    let path = root().join(CHECKED_IN);
    let generated = generated();
    if crate::common::blessing() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &generated).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "{CHECKED_IN} differs from `wellgen schema`: run `wellgen schema > {CHECKED_IN}` \
         (or WELLGEN_BLESS=1 cargo test --test it schema::) and review the diff"
    );
}

#[test]
fn schema_is_valid_draft_7() {
    let schema: Value = serde_json::from_str(&generated()).unwrap();
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    assert!(
        jsonschema::meta::is_valid(&schema),
        "schema fails its meta-schema"
    );
}

#[test]
fn every_service_toml_the_suite_builds_validates() {
    let v = validator();
    let all = sources();
    assert!(all.len() > 10, "found only {} sources", all.len());
    for path in all {
        let doc = toml_file(&path).unwrap_or_else(|| panic!("{} reads", path.display()));
        let errors = crate::common::schema_errors(&v, &doc);
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
    }
}

#[test]
fn the_starter_validates() {
    let table: toml::Table = toml::from_str(wellgen::cli::STARTER).unwrap();
    let doc = to_json(&toml::Value::Table(table));
    let errors = crate::common::schema_errors(&validator(), &doc);
    assert!(errors.is_empty(), "{errors:#?}");
}

/// The schema and the parser agree on every bad-input case that is TOML at all: a document
/// the parser rejects (an unknown key) is one the schema rejects, and the other way round.
#[test]
fn schema_and_parser_agree_on_the_bad_input_cases() {
    let v = validator();
    let mut rejected = 0;
    let mut cases: Vec<_> = std::fs::read_dir(root().join("tests/cases"))
        .unwrap()
        .map(|e| e.unwrap().path().join("service.toml"))
        .collect();
    cases.sort();
    for path in cases {
        let Some(doc) = toml_file(&path) else {
            continue; // nothing for a schema to say
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let parses = wellgen::source::parse_service_toml(&text).is_ok();
        assert_eq!(
            v.is_valid(&doc),
            parses,
            "{}: schema and parser disagree",
            path.display()
        );
        rejected += usize::from(!parses);
    }
    assert!(rejected > 0, "no case exercises a rejection");
}

#[test]
fn unknown_keys_and_wrong_types_are_rejected_everywhere() {
    let v = validator();
    let bad = [
        // an unknown key at the top, in a table, in a capability and in a parameter table
        r#"servce = {}"#,
        "[service]\nnmae = \"x\"",
        "[[capabilities]]\nid = \"a\"\nverb = \"GET\"",
        "[[capabilities]]\nparams = { q = { type = \"string\", requried = true } }",
        // wrong types
        "[service]\nname = 3",
        "[rate_limits]\nrequests_per_minute = \"60\"",
        "[[capabilities]]\nparams = { q = 5 }",
        "capabilities = { id = \"a\" }",
        "[features]\ncheckout = \"yes\"",
    ];
    for text in bad {
        let table: toml::Table = toml::from_str(text).unwrap();
        let doc = to_json(&toml::Value::Table(table));
        assert!(!v.is_valid(&doc), "schema accepts {text:?}");
        assert!(
            wellgen::source::parse_service_toml(text).is_err(),
            "parser accepts {text:?}"
        );
    }
    let good = [
        "[service]\nname = \"x\"",
        "[[capabilities]]\nparams = { q = \"string, required\", n = { type = \"integer\" } }",
        "[meta]\nlast_updated = 2026-03-10",
        "[rfc002]\ngovernance = { anything = [1, { goes = true }] }",
        "[[capabilities]]\noutput_schema = { type = \"object\" }",
    ];
    for text in good {
        let table: toml::Table = toml::from_str(text).unwrap();
        let doc = to_json(&toml::Value::Table(table));
        let errors = crate::common::schema_errors(&v, &doc);
        assert!(errors.is_empty(), "schema rejects {text:?}: {errors:?}");
        assert!(
            wellgen::source::parse_service_toml(text).is_ok(),
            "parser rejects {text:?}"
        );
    }
}

#[test]
fn schema_carries_descriptions_and_closes_every_table() {
    let schema: Value = serde_json::from_str(&generated()).unwrap();
    let defs = schema["definitions"].as_object().unwrap();
    for (name, def) in defs {
        if def.get("type") == Some(&Value::from("object")) && def.get("properties").is_some() {
            assert_eq!(
                def["additionalProperties"],
                Value::Bool(false),
                "{name} accepts unknown keys"
            );
        }
    }
    assert_eq!(schema["additionalProperties"], Value::Bool(false));
    let name = &defs["ServiceTable"]["properties"]["name"];
    assert!(
        name["description"]
            .as_str()
            .is_some_and(|d| d.contains("1-100"))
    );
    // renames: the TOML key is `type`, not the Rust field `site_type`
    assert!(defs["ServiceTable"]["properties"].get("type").is_some());
    assert!(
        defs["ServiceTable"]["properties"]
            .get("site_type")
            .is_none()
    );
    // no null anywhere: TOML has none
    assert!(!generated().contains("\"null\""));
}
