//! The MCP tools/list result on every example and fixture: valid against the 2026-07-28
//! schema's ListToolsResult, named after the capabilities, unique and within MCP's name rules,
//! each tool's HTTP binding valid against its schema and making the call its arguments say.

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
fn an_id_declared_as_another_tools_name_takes_a_number_with_a_note() {
    let cap = |id: &str, path: &str, extra: &str| {
        format!(
            "[[capabilities]]\nid = \"{id}\"\npath = \"{path}\"\ndescription = \"Find restaurants\"\n{extra}\n"
        )
    };
    let text = format!(
        "{HEAD}{}{}{}",
        cap("find_restaurants", "/restaurants", ""),
        cap("find_restaurant", "/restaurants/{id}", ""),
        cap(
            "nearby",
            "/nearby",
            "semantic = { mcp_tool_name = \"find_restaurant\" }"
        ),
    );
    let (result, diags) = build(&text);
    assert_eq!(
        names(&result),
        ["find_restaurants", "find_restaurant_2", "find_restaurant"]
    );
    // A derived name, said as a note: not something the author must act on.
    assert!(diags.iter().any(|d| d.severity == Severity::Note
        && d.message.contains("`find_restaurant` is already taken")
        && d.message.contains("published as `find_restaurant_2`")
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

fn names(result: &Value) -> Vec<&str> {
    result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect()
}

/// Operations of Discord's API (the shared corpus), all under `/channels`: Appendix C's default
/// named the first of them `find_channels` and the rest after their ids only when that was
/// taken. Each is named after what it does, and the hints read the operation, not only its
/// method.
#[test]
fn tools_are_named_after_their_capability_and_hinted_by_what_it_does() {
    let cap = |id: &str, method: &str, path: &str, description: &str| {
        format!(
            "[[capabilities]]\nid = \"{id}\"\nmethod = \"{method}\"\npath = \"{path}\"\ndescription = \"{description}\"\n\n"
        )
    };
    let text = format!(
        "{HEAD}{}{}{}{}{}",
        cap(
            "list_channel_invites",
            "GET",
            "/channels/{channel_id}/invites",
            "List a channel's invites"
        ),
        cap(
            "get_channel",
            "GET",
            "/channels/{channel_id}",
            "Get a channel"
        ),
        cap(
            "bulk_delete_messages",
            "POST",
            "/channels/{channel_id}/messages/bulk-delete",
            "Bulk delete messages"
        ),
        cap(
            "create_message",
            "POST",
            "/channels/{channel_id}/messages",
            "Create a message"
        ),
        cap(
            "set_channel_permission_overwrite",
            "PUT",
            "/channels/{channel_id}/permissions/{overwrite_id}",
            "Set a permission overwrite"
        ),
    );
    let (result, diags) = build(&text);
    assert_eq!(
        names(&result),
        [
            "list_channel_invites",
            "get_channel",
            "bulk_delete_messages",
            "create_message",
            "set_channel_permission_overwrite"
        ]
    );
    // Nothing was renamed: ids are unique.
    assert!(!diags.iter().any(|d| d.message.contains("already taken")));
    let hints: Vec<&Value> = result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["annotations"])
        .collect();
    assert_eq!(*hints[0], json!({"readOnlyHint": true}));
    assert_eq!(
        *hints[2],
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false})
    );
    assert_eq!(
        *hints[3],
        json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false})
    );
    assert_eq!(
        *hints[4],
        json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true})
    );

    // The AGIS document says the published name wherever Appendix C's default would differ,
    // and its impact tier agrees with the MCP hint.
    let mut diags = Diagnostics::default();
    let raw = wellgen::source::parse_service_toml(&text).unwrap();
    let service = wellgen::model::lower(raw, &mut diags).unwrap();
    let doc: Value =
        serde_json::from_slice(&Target::Agis.emit(&service, &mut diags)[0].body).unwrap();
    for (endpoint, tool) in doc["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .zip(names(&result))
    {
        let default = format!(
            "{}_{}",
            endpoint["method"].as_str().unwrap(),
            endpoint["path"].as_str().unwrap()[1..]
                .split('/')
                .next()
                .unwrap()
        )
        .to_lowercase();
        match endpoint["semantic"].get("mcp_tool_name") {
            Some(n) => assert_eq!(n, tool),
            None => assert_eq!(default, tool),
        }
    }
    assert_eq!(
        doc["endpoints"][2]["semantic"]["impact_tier"],
        "irreversible"
    );
    assert!(crate::support_agis::validate(&doc).is_empty());
}

/// Its first capability declares `mcp_tool_name`; the others are named after their ids.
#[test]
fn the_bookshelf_example_keeps_its_ids_as_tool_names() {
    let (result, _) = build_file(&root().join("examples/bookshelf/service.toml"));
    assert_eq!(
        names(&result),
        ["find_books", "get_book", "add_to_list", "remove_from_list"]
    );
}

const BINDING_SCHEMA: &str = include_str!("../schemas/mcp-http/schema.json");
const DOC: &str = include_str!("../../docs/targets/mcp.md");

fn binding_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(BINDING_SCHEMA).unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the binding schema compiles")
}

/// The binding of a tool, checked against its schema and its tool: one argument per input
/// property (and no other), and every placeholder of the URL a path argument's wire name.
fn check_binding(tool: &Value, v: &jsonschema::Validator, source: &str) {
    let name = tool["name"].as_str().unwrap();
    let http = &tool["_meta"]["dev.wellgen/http"];
    let problems: Vec<String> = v
        .iter_errors(http)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(problems.is_empty(), "{source} {name}: {problems:?}");
    let mut properties: Vec<&String> = tool["inputSchema"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    let mut arguments: Vec<&String> = http["arguments"].as_object().unwrap().keys().collect();
    properties.sort();
    arguments.sort();
    assert_eq!(properties, arguments, "{source} {name}");
    let url = http["url"].as_str().unwrap();
    let path_names: Vec<&str> = http["arguments"]
        .as_object()
        .unwrap()
        .values()
        .filter(|a| a["in"] == "path")
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    for placeholder in url.split('{').skip(1).map(|s| s.split('}').next().unwrap()) {
        assert!(
            path_names.contains(&placeholder),
            "{source} {name}: `{{{placeholder}}}` of {url} is no path argument"
        );
    }
    for p in &path_names {
        assert!(url.contains(&format!("{{{p}}}")), "{source} {name}: {p}");
    }
    let has_body = http["arguments"]
        .as_object()
        .unwrap()
        .values()
        .any(|a| a["in"] == "body");
    assert_eq!(
        http.get("contentType").is_some(),
        has_body,
        "{source} {name}"
    );
    let whole = http["arguments"]
        .as_object()
        .unwrap()
        .values()
        .filter(|a| a.get("whole").is_some())
        .count();
    assert!(whole == 0 || (whole == 1 && has_body), "{source} {name}");
}

#[test]
fn every_tool_of_every_example_and_fixture_has_a_binding_that_makes_its_call() {
    let v = binding_validator();
    let mut tools = 0;
    for src in crate::common::sources() {
        let (result, _) = build_file(&src);
        for t in result["tools"].as_array().unwrap() {
            check_binding(t, &v, &src.display().to_string());
            tools += 1;
        }
    }
    assert!(tools > 50, "{tools}");
}

#[test]
fn the_binding_schema_is_the_one_the_documentation_prints() {
    let start = DOC
        .find("```json\n{\n  \"$schema\"")
        .expect("docs/targets/mcp.md prints the binding's schema");
    let block = &DOC[start + "```json\n".len()..];
    let block = &block[..block.find("```").unwrap()];
    let printed: Value = serde_json::from_str(block).unwrap();
    let file: Value = serde_json::from_str(BINDING_SCHEMA).unwrap();
    assert_eq!(printed, file);
}

#[test]
fn the_binding_schema_refuses_what_a_client_could_not_call() {
    let v = binding_validator();
    let good = json!({
        "method": "POST",
        "url": "https://api.example.com/v1/things/{thingId}",
        "arguments": {
            "thingId": {"in": "path", "name": "thingId"},
            "body_id": {"in": "body", "name": "id"},
            "payload": {"in": "body", "whole": true}
        },
        "contentType": "application/json",
        "security": [
            {"type": "apiKey", "in": "query", "name": "api_key", "description": "a key"},
            {"type": "http", "scheme": "basic"},
            {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://a.example/t", "scopes": {}}}},
            {"type": "openIdConnect", "openIdConnectUrl": "https://a.example/.well-known/openid-configuration"},
            {"type": "mutualTLS"}
        ]
    });
    assert!(v.is_valid(&good), "{:?}", v.validate(&good).err());
    for (pointer, bad) in [
        ("/method", json!("get")),
        ("/url", json!("/v1/things")),
        ("/arguments/thingId", json!({"in": "path"})),
        (
            "/arguments/thingId",
            json!({"in": "form", "name": "thingId"}),
        ),
        ("/arguments/payload", json!({"in": "query", "whole": true})),
        (
            "/arguments/payload",
            json!({"in": "body", "whole": true, "name": "x"}),
        ),
        ("/security/0", json!({"type": "apiKey", "name": "api_key"})),
        ("/security/1", json!({"type": "http"})),
        ("/security/2", json!({"type": "oauth2", "flows": {}})),
        ("/security/3", json!({"type": "openIdConnect"})),
        ("/security/4", json!({"type": "basic"})),
    ] {
        let mut b = good.clone();
        *b.pointer_mut(pointer).unwrap() = bad;
        assert!(!v.is_valid(&b), "{pointer}");
    }
}

/// Every place a value can go, the content type, and the schemes: a public capability takes
/// none, the others any of the service's.
#[test]
fn the_binding_says_where_each_argument_goes_and_how_to_authenticate() {
    let text = r#"[service]
name = "Things"
description = "Things"
base_url = "https://api.things.example/v1"

[auth]
type = "api_key"
in = "query"
name = "api_key"
docs_url = "https://things.example/docs/keys"

[[auth.also]]
type = "basic"

[[capabilities]]
id = "update_thing"
method = "PUT"
path = "/things/{thing_id}"
description = "Update a thing"
content_type = "application/x-www-form-urlencoded"
[capabilities.params]
thing_id = "string, required"
verbose = { type = "boolean", in = "query" }
X-Request-Id = { type = "string", in = "header", required = true }
label = { type = "string", in = "body" }

[[capabilities]]
id = "list_things"
path = "/things"
description = "List things"
access = "public"
"#;
    let (result, diags) = build(text);
    assert!(!diags.has_errors(), "{diags:?}");
    assert_eq!(
        result["tools"][0]["_meta"],
        json!({"dev.wellgen/http": {
            "method": "PUT",
            "url": "https://api.things.example/v1/things/{thing_id}",
            "arguments": {
                "thing_id": {"in": "path", "name": "thing_id"},
                "verbose": {"in": "query", "name": "verbose"},
                "X-Request-Id": {"in": "header", "name": "X-Request-Id"},
                "label": {"in": "body", "name": "label"}
            },
            "contentType": "application/x-www-form-urlencoded",
            "security": [
                {"type": "apiKey", "in": "query", "name": "api_key",
                 "description": "See https://things.example/docs/keys"},
                {"type": "http", "scheme": "basic"}
            ]
        }})
    );
    // A header parameter is an input like any other.
    assert_eq!(
        result["tools"][0]["inputSchema"]["required"],
        json!(["thing_id", "X-Request-Id"])
    );
    assert_eq!(
        result["tools"][1]["_meta"],
        json!({"dev.wellgen/http": {
            "method": "GET",
            "url": "https://api.things.example/v1/things",
            "arguments": {},
            "security": []
        }})
    );
}

/// Imported: a body that is not an object of fields is the whole body; a Swagger 2.0 header
/// parameter is an argument sent as a header; a body field named like a path placeholder keeps
/// its wire name.
#[test]
fn an_imported_api_binds_whole_bodies_headers_and_renamed_fields() {
    let dir = tempfile::tempdir().unwrap();
    let openapi = dir.path().join("openapi.yaml");
    std::fs::write(
        &openapi,
        r#"openapi: 3.0.3
info: {title: Tags, version: "1"}
servers: [{url: "https://api.tags.example"}]
paths:
  /items/{id}/tags:
    put:
      operationId: replaceTags
      summary: Replace an item's tags
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: X-Trace, in: header, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: array, items: {type: string}}
      responses: {"200": {description: OK}}
  /items/{id}:
    patch:
      operationId: renameItem
      summary: Rename an item
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                id: {type: string}
                name: {type: string}
      responses: {"200": {description: OK}}
"#,
    )
    .unwrap();
    let (result, diags) = build_file(&openapi);
    assert!(!diags.has_errors(), "{diags:?}");
    assert_eq!(names(&result), ["replace_tags", "rename_item"]);
    let http = &result["tools"][0]["_meta"]["dev.wellgen/http"];
    assert_eq!(
        http["arguments"],
        json!({
            "id": {"in": "path", "name": "id"},
            "X-Trace": {"in": "header", "name": "X-Trace"},
            "body": {"in": "body", "whole": true}
        })
    );
    assert_eq!(http["contentType"], "application/json");
    let http = &result["tools"][1]["_meta"]["dev.wellgen/http"];
    assert_eq!(http["arguments"]["body_id"]["in"], "body");
    let v = binding_validator();
    for t in result["tools"].as_array().unwrap() {
        check_binding(t, &v, "inline");
    }
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
