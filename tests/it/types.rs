//! Types survive import: every parameter declared in slices of real API descriptions
//! (tests/fixtures/openapi/types/) has the same JSON types, format, enum values and a
//! description in the MCP tools list and in the OpenAPI output as in the source; bodies appear
//! only where the operation has one; nested objects keep `NESTED_DEPTH` (2) levels of
//! properties; HTML becomes plain text; random-looking example values are left out.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::*;

const FIXTURES: &str = "tests/fixtures/openapi/types";

fn build_spec(name: &str) -> (tempfile::TempDir, Value, String) {
    let source = root().join(FIXTURES).join(name);
    let out = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(&source)
        .arg("-o")
        .arg(out.path()));
    assert_eq!(code, 0, "building {name} failed:\n{stderr}");
    let spec: Value = serde_json::from_str(&std::fs::read_to_string(&source).unwrap()).unwrap();
    (out, spec, stderr)
}

/// A local `$ref`'s target, followed until it is no reference.
fn resolve<'a>(doc: &'a Value, mut schema: &'a Value) -> &'a Value {
    for _ in 0..64 {
        let Some(r) = schema.get("$ref").and_then(Value::as_str) else {
            return schema;
        };
        schema = doc
            .pointer(r.trim_start_matches('#'))
            .expect("a local $ref");
    }
    schema
}

/// The JSON types a source schema admits (`type`, 3.0 `nullable`, 3.1 lists, `anyOf`/`oneOf`
/// alternatives, `allOf` members); `None` when it admits any type.
fn declared_types(doc: &Value, schema: &Value) -> Option<BTreeSet<String>> {
    let s = resolve(doc, schema);
    let mut out = BTreeSet::new();
    match s.get("type") {
        Some(Value::String(t)) => {
            out.insert(t.clone());
        }
        Some(Value::Array(list)) => {
            out.extend(list.iter().filter_map(Value::as_str).map(str::to_string));
        }
        _ => {
            if let Some(list) = s
                .get("anyOf")
                .or_else(|| s.get("oneOf"))
                .and_then(Value::as_array)
            {
                for v in list {
                    out.extend(declared_types(doc, v)?);
                }
            } else if let Some(list) = s.get("allOf").and_then(Value::as_array) {
                out = list.iter().find_map(|v| declared_types(doc, v))?;
            } else if s.get("properties").is_some() {
                out.insert("object".into());
            } else {
                return None;
            }
        }
    }
    if s.get("nullable") == Some(&Value::Bool(true)) {
        out.insert("null".into());
    }
    Some(out)
}

/// The JSON types an output schema admits, following `$ref`s into `root` (a tool's `$defs`,
/// the OpenAPI document's components).
fn output_types_in(root: &Value, schema: &Value) -> BTreeSet<String> {
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
    {
        return output_types_in(root, target);
    }
    match schema.get("type") {
        Some(Value::String(t)) => BTreeSet::from([t.clone()]),
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => schema
            .get("anyOf")
            .or_else(|| schema.get("oneOf"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .flat_map(|v| output_types_in(root, v))
            .collect(),
    }
}

/// The one non-null alternative of a nullable schema, or the schema itself.
fn non_null<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    let s = resolve(doc, schema);
    for key in ["anyOf", "oneOf"] {
        if let Some(list) = s.get(key).and_then(Value::as_array) {
            let rest: Vec<&Value> = list
                .iter()
                .filter(|v| resolve(doc, v).get("type") != Some(&Value::String("null".into())))
                .collect();
            if let [only] = rest[..] {
                return resolve(doc, only);
            }
        }
    }
    s
}

/// A declared parameter: where it is, its name, its schema and its own description.
struct Declared<'a> {
    name: String,
    body: bool,
    schema: &'a Value,
    description: Option<&'a str>,
}

/// The parameters and top-level body properties an operation declares.
fn declared<'a>(doc: &'a Value, op: &'a Value) -> Vec<Declared<'a>> {
    let mut out = Vec::new();
    for p in op["parameters"].as_array().into_iter().flatten() {
        let p = resolve(doc, p);
        let location = p["in"].as_str().unwrap();
        let name = p["name"].as_str().unwrap();
        if location == "cookie"
            || ["accept", "content-type", "authorization"].contains(&name.to_lowercase().as_str())
        {
            continue;
        }
        out.push(Declared {
            name: name.to_string(),
            body: false,
            schema: &p["schema"],
            description: p["description"].as_str(),
        });
    }
    let Some(content) = op
        .get("requestBody")
        .map(|b| resolve(doc, b))
        .and_then(|b| b["content"].as_object())
    else {
        return out;
    };
    let media = content.values().next().unwrap();
    // The body and its `allOf` members, nested ones too.
    let mut members = vec![resolve(doc, &media["schema"])];
    let mut i = 0;
    while i < members.len() {
        let more: Vec<&Value> = members[i]
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|m| resolve(doc, m))
            .collect();
        members.extend(more);
        i += 1;
    }
    for member in members {
        for (name, prop) in member["properties"].as_object().into_iter().flatten() {
            // Declared again by a later member: both hold, the narrower is checked.
            if let Some(earlier) = out.iter_mut().find(|d| d.body && d.name == *name) {
                let narrower = match (
                    declared_types(doc, prop),
                    declared_types(doc, earlier.schema),
                ) {
                    (Some(later), Some(first)) => later.is_subset(&first) && later != first,
                    _ => false,
                };
                if narrower {
                    earlier.schema = prop;
                }
                continue;
            }
            out.push(Declared {
                name: name.clone(),
                body: true,
                schema: prop,
                description: None,
            });
        }
    }
    out
}

/// `search_products` → "Search products", as the MCP target titles a capability's tool.
fn title(id: &str) -> String {
    let words = id.replace(['_', '-', '.'], " ");
    let mut chars = words.trim().chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// The output schema of one parameter in the OpenAPI output.
fn openapi_schema<'a>(op: &'a Value, d: &Declared) -> Option<&'a Value> {
    if d.body {
        let content = op["requestBody"]["content"].as_object()?;
        return content.values().next()?["schema"]["properties"].get(&d.name);
    }
    op["parameters"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == d.name.as_str())
        .map(|p| &p["schema"])
}

#[derive(Default)]
struct Tally {
    typed: usize,
    untyped: usize,
}

fn check_types(name: &str) -> Tally {
    let (out, doc, _) = build_spec(name);
    let mcp = read_json(&out.path().join(".well-known/mcp/tools.json"));
    let openapi = read_json(&out.path().join("openapi.json"));
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let out_op = &openapi["paths"][path][method];
            let id = out_op["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{name}: {method} {path} is in the OpenAPI output"));
            let tool = mcp["tools"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["title"] == title(id).as_str())
                .unwrap_or_else(|| panic!("{name}: a tool for {id}"));
            let props = &tool["inputSchema"]["properties"];
            for d in declared(&doc, op) {
                let at = format!("{name} {method} {path} {}", d.name);
                let Some(types) = declared_types(&doc, d.schema) else {
                    tally.untyped += 1;
                    continue;
                };
                tally.typed += 1;
                let source = non_null(&doc, d.schema);
                let in_mcp = &props[&d.name];
                let in_openapi = openapi_schema(out_op, &d).unwrap_or(&Value::Null);
                for (target, schema, root) in [
                    ("MCP", in_mcp, &tool["inputSchema"]),
                    ("OpenAPI", in_openapi, &openapi),
                ] {
                    if output_types_in(root, schema) != types {
                        failures.push(format!(
                            "{at}: {target} types {:?}, declared {types:?}",
                            output_types_in(root, schema)
                        ));
                    }
                    if let Some(f) = source.get("format")
                        && schema.get("format") != Some(f)
                    {
                        failures.push(format!("{at}: {target} lost format {f}"));
                    }
                    for v in source["enum"].as_array().into_iter().flatten() {
                        if !schema["enum"].as_array().is_some_and(|e| e.contains(v)) {
                            failures.push(format!("{at}: {target} lost enum value {v}"));
                        }
                    }
                }
                let described = d.description.is_some()
                    || source.get("description").is_some()
                    || resolve(&doc, d.schema).get("description").is_some();
                if described && in_mcp["description"].as_str().is_none_or(str::is_empty) {
                    failures.push(format!("{at}: MCP lost the description"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    tally
}

#[test]
fn every_declared_parameter_type_of_openais_create_response_survives() {
    let tally = check_types("openai-slice.json");
    assert!(
        tally.typed >= 30,
        "{} typed, {} untyped",
        tally.typed,
        tally.untyped
    );
}

#[test]
fn every_declared_parameter_type_of_stripe_operations_survives() {
    let tally = check_types("stripe-slice.json");
    assert!(
        tally.typed >= 60,
        "{} typed, {} untyped",
        tally.typed,
        tally.untyped
    );
}

#[test]
fn every_declared_parameter_type_of_the_shapes_survives() {
    let tally = check_types("shapes.json");
    assert_eq!((tally.typed, tally.untyped), (8, 0));
}

#[test]
fn openais_temperature_is_a_nullable_number_with_its_description() {
    let (out, _, _) = build_spec("openai-slice.json");
    let mcp = read_json(&out.path().join(".well-known/mcp/tools.json"));
    let tool = &mcp["tools"][0];
    for name in ["temperature", "top_p"] {
        let p = &tool["inputSchema"]["properties"][name];
        assert_eq!(
            p["type"],
            serde_json::json!(["number", "null"]),
            "{name}: {p}"
        );
        assert!(
            p["description"].as_str().is_some_and(|d| d.len() > 20),
            "{p}"
        );
        assert_eq!(
            p["maximum"],
            serde_json::json!(if name == "temperature" { 2 } else { 1 })
        );
    }
}

#[test]
fn a_get_has_no_body_where_its_body_is_an_empty_object() {
    for name in ["stripe-slice.json", "shapes.json"] {
        let (out, doc, _) = build_spec(name);
        let openapi = read_json(&out.path().join("openapi.json"));
        let mcp = read_json(&out.path().join(".well-known/mcp/tools.json"));
        let ai = std::fs::read_to_string(out.path().join(".well-known/ai")).unwrap();
        for (path, item) in doc["paths"].as_object().unwrap() {
            if let Some(get) = openapi["paths"][path].get("get") {
                assert!(item.get("get").is_some());
                assert!(get.get("requestBody").is_none(), "{name} GET {path}: {get}");
            }
        }
        for tool in mcp["tools"].as_array().unwrap() {
            if tool["annotations"]["readOnlyHint"] == true {
                assert!(
                    tool["inputSchema"]["properties"].get("body").is_none(),
                    "{tool}"
                );
            }
        }
        assert!(!ai.contains("\"body\": \"object, optional"), "{name}");
    }
}

/// A body field that is a whole component refers to it, keeping the facts read from it (its
/// example, its description); the component keeps its own levels and references.
#[test]
fn nested_components_are_referred_to_by_name_with_their_example() {
    let (out, _, _) = build_spec("shapes.json");
    let openapi = read_json(&out.path().join("openapi.json"));
    let body = &openapi["paths"]["/orders"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        ["properties"];
    let shipping = &body["shipping"];
    assert_eq!(shipping["type"], "object");
    assert_eq!(shipping["$ref"], "#/components/schemas/Shipping");
    assert_eq!(shipping["description"], "Where the order goes.");
    assert_eq!(
        shipping["examples"][0]["address"]["city"], "Paris",
        "{shipping}"
    );
    let named = &openapi["components"]["schemas"];
    assert_eq!(
        named["Shipping"]["properties"]["address"]["$ref"],
        "#/components/schemas/Address"
    );
    let address = &named["Address"];
    assert_eq!(address["properties"]["city"]["type"], "string");
    assert_eq!(
        address["properties"]["country"]["description"],
        "ISO 3166-1 alpha-2."
    );
    // The component's levels, not the two an inline field keeps.
    assert_eq!(
        address["properties"]["geo"]["properties"]["lat"]["type"],
        "number"
    );
    let mcp = read_json(&out.path().join(".well-known/mcp/tools.json"));
    let create = mcp["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["title"] == "Create order")
        .unwrap();
    let input = &create["inputSchema"];
    assert_eq!(input["properties"]["shipping"]["$ref"], "#/$defs/Shipping");
    assert_eq!(
        input["$defs"]["Address"]["properties"]["city"]["type"],
        "string"
    );
    assert_eq!(input["properties"]["placed_at"]["format"], "date-time");
}

#[test]
fn html_and_markdown_descriptions_become_plain_text() {
    let (out, _, _) = build_spec("shapes.json");
    let mcp = std::fs::read_to_string(out.path().join(".well-known/mcp/tools.json")).unwrap();
    let ai = std::fs::read_to_string(out.path().join(".well-known/ai")).unwrap();
    for text in [&mcp, &ai] {
        for markup in ["<p>", "<b>", "&amp;", "&#39;", "**", "`closed`", "href"] {
            assert!(!text.contains(markup), "{markup} in {text}");
        }
    }
    assert!(
        mcp.contains("Lists orders & their totals. See the guide."),
        "{mcp}"
    );
    assert!(ai.contains("The item's SKU."), "{ai}");
}

#[test]
fn a_random_looking_example_is_left_out_with_one_warning() {
    let (out, _, stderr) = build_spec("shapes.json");
    assert_eq!(
        stderr.matches("look like random tokens").count(),
        1,
        "{stderr}"
    );
    for entry in walkdir::WalkDir::new(out.path()) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            assert!(!text.contains("Zk3Jq9"), "{}", entry.path().display());
        }
    }
}
