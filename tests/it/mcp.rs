//! The MCP tools/list result on every example and fixture: valid against the 2026-07-28
//! schema's ListToolsResult, named per AGIS Appendix C, unique and within MCP's name rules.

use std::path::PathBuf;

use serde_json::{Value, json};
use wellgen::diag::{Diagnostics, Severity};
use wellgen::emit::Target;

const EXAMPLE: &str =
    include_str!("../schemas/mcp/examples/ListToolsResult/tools-list-with-cursor-and-ttl.json");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn validator(def: &str) -> jsonschema::Validator {
    crate::common::mcp_validator(def)
}

/// Builds the tools list from a source file, any kind `wellgen build` accepts.
fn build_file(source: &std::path::Path) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::default();
    let service = wellgen::pipeline::load(source, &mut diags)
        .unwrap_or_else(|| panic!("{} lowers: {diags:?}", source.display()));
    let artifacts = Target::Mcp.emit(&service, &mut diags);
    assert_eq!(artifacts.len(), 1);
    (serde_json::from_slice(&artifacts[0].body).unwrap(), diags)
}

fn build(text: &str) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::default();
    let raw = wellgen::source::parse_service_toml(text).unwrap();
    let service = wellgen::model::lower(raw, &mut diags).unwrap();
    let artifacts = Target::Mcp.emit(&service, &mut diags);
    assert_eq!(artifacts.len(), 1);
    assert_eq!(artifacts[0].path, "/.well-known/mcp/tools.json");
    (serde_json::from_slice(&artifacts[0].body).unwrap(), diags)
}

fn check_names(result: &Value) {
    let mut seen = Vec::new();
    for t in result["tools"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        assert!((1..=128).contains(&name.len()));
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)),
            "{name}"
        );
        assert!(!seen.contains(&name), "{name} twice");
        seen.push(name);
        assert!(!t["description"].as_str().unwrap().is_empty());
        assert_eq!(t["inputSchema"]["type"], "object");
    }
}

#[test]
fn the_harness_accepts_the_official_example_and_rejects_broken_results() {
    let v = validator("ListToolsResult");
    let example: Value = serde_json::from_str(EXAMPLE).unwrap();
    assert!(v.is_valid(&example));
    assert!(!v.is_valid(&json!({})));
    assert!(
        !v.is_valid(&json!({"tools": []})),
        "2025-11-25 shape lacks resultType/ttlMs/cacheScope"
    );
    for (key, bad) in [
        ("ttlMs", json!(-1)),
        ("ttlMs", json!(1.5)),
        ("cacheScope", json!("shared")),
    ] {
        let mut e = example.clone();
        e[key] = bad;
        assert!(!v.is_valid(&e), "{key}");
    }
    let mut e = example.clone();
    e["tools"][0]["inputSchema"]["type"] = json!("array");
    assert!(!v.is_valid(&e));
}

#[test]
fn every_example_and_fixture_yields_a_valid_tools_list() {
    let v = validator("ListToolsResult");
    let tool = validator("Tool");
    for src in crate::common::sources() {
        let (result, diags) = build_file(&src);
        let problems: Vec<String> = v
            .iter_errors(&result)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(problems.is_empty(), "{}: {problems:?}", src.display());
        for t in result["tools"].as_array().unwrap() {
            assert!(tool.is_valid(t));
        }
        assert_eq!(result["resultType"], "complete");
        assert_eq!(result["cacheScope"], "public");
        assert_eq!(result["ttlMs"], 3_600_000);
        check_names(&result);
        assert!(!diags.has_errors(), "{}", src.display());
    }
}

#[test]
fn appendix_c_names_descriptions_and_input_schemas() {
    let text = std::fs::read_to_string(root().join("tests/fixtures/agis-restaurant/service.toml"))
        .unwrap();
    let (result, _) = build(&text);
    let names: Vec<&str> = result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["book_reservation", "find_restaurants"]);
    let book = &result["tools"][0];
    assert_eq!(
        book["description"],
        "Books a restaurant reservation on behalf of the requesting agent"
    );
    assert_eq!(
        crate::common::sorted_strs(&book["inputSchema"]["required"]),
        ["datetime", "party_size", "restaurant_id"]
    );
    assert_eq!(
        book["inputSchema"]["properties"]["restaurant_id"],
        json!({"type": "integer"})
    );
    // Appendix C(d): no output, errors, confidence or state transition in the tool.
    for key in [
        "output",
        "outputSchema",
        "errors",
        "confidence_guidance",
        "state_transition",
    ] {
        assert!(book.get(key).is_none(), "{key}");
    }
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/agis-finance/service.toml")).unwrap();
    let (result, _) = build(&text);
    assert_eq!(result["tools"][1]["name"], "reconcile_account");
    assert_eq!(
        result["tools"][0]["annotations"],
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false})
    );
    assert_eq!(
        result["tools"][1]["annotations"],
        json!({"readOnlyHint": true})
    );
}

const HEAD: &str = "[service]\nname = \"Diner\"\ndescription = \"Tables\"\nbase_url = \"https://diner.example\"\n\n";

#[test]
fn parameter_hints_are_appended_to_the_description() {
    let text = format!(
        "{HEAD}[[capabilities]]\nid = \"book_table\"\nmethod = \"POST\"\npath = \"/reservations\"\ndescription = \"Book a table\"\nparams = {{ party_size = \"integer, required\", datetime = \"string, required\" }}\n\n[capabilities.semantic]\nverb = \"BOOK\"\npath = \"/reservation\"\nintent = \"Books a restaurant reservation on behalf of the agent\"\n\n[capabilities.semantic.parameter_hints]\nparty_size = [\"number of guests\", \"for N people\", \"table for N\"]\ndatetime = [\"next Tuesday\", \"Saturday at 7\"]\n"
    );
    let (result, _) = build(&text);
    // The hints keep the model's key order (which the TOML reader decides), so compare as a set.
    let d = result["tools"][0]["description"].as_str().unwrap();
    let hints = d
        .strip_prefix("Books a restaurant reservation on behalf of the agent. Hints: ")
        .unwrap_or_else(|| panic!("{d}"));
    let mut parts: Vec<&str> = hints.split("; ").collect();
    parts.sort();
    assert_eq!(
        parts,
        [
            "datetime = ['next Tuesday', 'Saturday at 7']",
            "party_size = ['number of guests', 'for N people', 'table for N']"
        ]
    );
}

#[test]
fn colliding_names_fall_back_to_the_capability_id_with_a_note() {
    let cap = |id: &str, path: &str, extra: &str| {
        format!(
            "[[capabilities]]\nid = \"{id}\"\npath = \"{path}\"\ndescription = \"Find restaurants\"\n{extra}\n"
        )
    };
    let text = format!(
        "{HEAD}{}{}{}",
        cap(
            "find_restaurants",
            "/restaurants",
            "semantic = { verb = \"FIND\" }"
        ),
        cap(
            "find_restaurant",
            "/restaurants/{id}",
            "semantic = { verb = \"FIND\" }"
        ),
        cap(
            "nearby",
            "/nearby",
            "semantic = { verb = \"FIND\", mcp_tool_name = \"restaurants_nearby\" }"
        ),
    );
    let (result, diags) = build(&text);
    let names: Vec<&str> = result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["find_restaurants", "find_restaurant", "restaurants_nearby"]
    );
    // A derived name, said as a note: not something the author must act on.
    assert!(diags.iter().any(|d| d.severity == Severity::Note
        && d.message.contains("`find_restaurants` is already taken")
        && d.field.as_deref() == Some("capabilities.1.id")));
    check_names(&result);

    let text = format!(
        "{HEAD}{}",
        cap(
            "x",
            "/things",
            "semantic = { mcp_tool_name = \"Find Things\" }"
        )
    );
    let (_, diags) = build(&text);
    assert!(diags.iter().any(|d| d.severity == Severity::Error
        && d.field.as_deref() == Some("capabilities.0.semantic.mcp_tool_name")));
}

#[test]
fn the_agis_document_records_names_that_are_not_the_default() {
    let text = format!(
        "{HEAD}[[capabilities]]\nid = \"find_restaurants\"\npath = \"/restaurants\"\ndescription = \"Find restaurants\"\nsemantic = {{ verb = \"FIND\" }}\n[[capabilities]]\nid = \"find_restaurant\"\npath = \"/restaurants/{{id}}\"\ndescription = \"Find a restaurant\"\nsemantic = {{ verb = \"FIND\" }}\n"
    );
    let mut diags = Diagnostics::default();
    let service = wellgen::model::lower(
        wellgen::source::parse_service_toml(&text).unwrap(),
        &mut diags,
    )
    .unwrap();
    let artifacts = Target::Agis.emit(&service, &mut diags);
    let doc: Value = serde_json::from_slice(&artifacts[0].body).unwrap();
    assert!(
        doc["endpoints"][0]["semantic"]
            .get("mcp_tool_name")
            .is_none()
    );
    assert_eq!(
        doc["endpoints"][1]["semantic"]["mcp_tool_name"],
        "find_restaurant"
    );
    assert!(crate::support_agis::validate(&doc).is_empty());
}
