//! Shared schemas (`emit::schemas`): an OpenAPI file whose operations repeat the same big
//! schemas is imported (the components its schemas name kept by name, request fields rebuilt
//! as parameters) and built; the OpenAPI, AGIS and MCP documents must each hold every repeated schema once,
//! point at it with `$ref`s that resolve inside the document, stay valid for the suite's
//! checkers, and mean the same as when inlined. Named schemas (`[schemas]`) are published under
//! their names.

use serde_json::{Value, json};

use crate::common::{build, mcp_validator, read_json, schema_errors};
use crate::support_agis;

/// How many copies of the shop's paths the generated service has: enough for its schemas to
/// pass the size from which OpenAPI and AGIS share them.
const STORES: usize = 12;

/// An address of about 2 KB: above the sharing threshold; three of them fill an MCP input
/// past the size from which a tool shares its own schemas.
fn address() -> Value {
    let fields = [
        "line1",
        "line2",
        "line3",
        "city",
        "district",
        "state",
        "postal_code",
        "country",
        "phone",
        "email",
        "company",
        "attention",
    ];
    let properties: serde_json::Map<String, Value> = fields
        .iter()
        .map(|f| {
            let d = format!(
                "The `{f}` part of the address, as printed on an envelope and read by a carrier."
            );
            (
                f.to_string(),
                json!({"type": "string", "description": d, "maxLength": 200}),
            )
        })
        .collect();
    json!({
        "type": "object",
        "description": "A postal address, as printed on an envelope.",
        "properties": properties,
        "required": ["line1", "city", "country"],
    })
}

/// Builds the OpenAPI document `doc` (written as `shop.json`, indented) into a fresh folder.
fn build_openapi(doc: &Value) -> tempfile::TempDir {
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("shop.json");
    std::fs::write(&spec, serde_json::to_vec_pretty(doc).unwrap()).unwrap();
    build(&spec, &[])
}

/// A generated shop API: `STORES` copies of four customer operations, all on one customer
/// schema that holds the address schema three times.
fn source() -> Value {
    let address_ref = json!({"$ref": "#/components/schemas/Address"});
    let customer = json!({
        "type": "object",
        "description": "A customer of the shop.",
        "properties": {
            "id": {"type": "string", "description": "The customer's identifier."},
            "name": {"type": "string", "description": "The customer's full name."},
            "billing": address_ref,
            "shipping": address_ref,
            "invoice": address_ref,
        },
        "required": ["id", "name"],
    });
    let ok = |r: &str| json!({"200": {"description": "The customer.", "content": {"application/json": {"schema": {"$ref": r}}}}});
    let id = json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}]);
    let mut paths = serde_json::Map::new();
    for i in 0..STORES {
        let op = |verb: &str, what: &str| json!({"operationId": format!("{verb}_customer{what}_{i}"), "summary": format!("{verb} a customer{what} of store {i}."), "tags": ["customers"]});
        let mut create = op("create", "");
        create["requestBody"] = json!({"required": true, "content": {"application/json": {"schema": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "billing": address_ref, "shipping": address_ref, "invoice": address_ref},
            "required": ["name"],
        }}}});
        create["responses"] = ok("#/components/schemas/Customer");
        paths.insert(format!("/s{i}/customers"), json!({"post": create}));
        let mut get = op("get", "");
        let mut delete = op("delete", "");
        let mut address = op("get", "_address");
        for (o, r) in [
            (&mut get, "Customer"),
            (&mut delete, "Customer"),
            (&mut address, "Address"),
        ] {
            o["parameters"] = id.clone();
            o["responses"] = ok(&format!("#/components/schemas/{r}"));
        }
        paths.insert(
            format!("/s{i}/customers/{{id}}"),
            json!({"get": get, "delete": delete}),
        );
        paths.insert(
            format!("/s{i}/customers/{{id}}/address"),
            json!({"get": address}),
        );
    }
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Shop", "version": "1.0.0", "description": "Customers of a shop."},
        "servers": [{"url": "https://api.shop.example"}],
        "paths": paths,
        "components": {"schemas": {"Address": address(), "Customer": customer}},
    })
}

/// Every `$ref` under `v`, in document order.
fn refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                out.push(r);
            }
            m.values().for_each(|c| refs(c, out));
        }
        Value::Array(a) => a.iter().for_each(|c| refs(c, out)),
        _ => {}
    }
}

/// How many values under `v` equal `x`.
fn occurrences(v: &Value, x: &Value) -> usize {
    let inner = match v {
        Value::Object(m) => m.values().map(|c| occurrences(c, x)).sum(),
        Value::Array(a) => a.iter().map(|c| occurrences(c, x)).sum(),
        _ => 0,
    };
    inner + usize::from(v == x)
}

/// `v` with every local `$ref` replaced by what it points at in `doc` (`#/…` JSON pointers).
fn expand(v: &Value, doc: &Value) -> Value {
    match v {
        Value::Object(m) => match m.get("$ref").and_then(Value::as_str) {
            Some(r) if m.len() == 1 => {
                let target = r
                    .strip_prefix('#')
                    .and_then(|p| doc.pointer(p))
                    .unwrap_or_else(|| panic!("`{r}` does not resolve"));
                expand(target, doc)
            }
            _ => m.iter().map(|(k, c)| (k.clone(), expand(c, doc))).collect(),
        },
        Value::Array(a) => a.iter().map(|c| expand(c, doc)).collect(),
        other => other.clone(),
    }
}

/// Each shared schema under `defs` is referenced at least twice, lies in the document once,
/// and every reference resolves. Returns the shared names.
fn check_shared(doc: &Value, scope: &Value, defs: &Value, prefix: &str) -> Vec<String> {
    let defs = defs.as_object().expect("shared schemas are an object");
    let mut all = Vec::new();
    refs(scope, &mut all);
    for (name, body) in defs {
        let r = format!("{prefix}{name}");
        let uses = all.iter().filter(|x| **x == r).count();
        assert!(
            uses >= 2,
            "`{name}` is shared but referenced {uses} time(s)"
        );
        assert_eq!(
            occurrences(scope, body),
            1,
            "`{name}` is written more than once"
        );
    }
    for r in all {
        let name = r
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("`{r}` is not local"));
        assert!(defs.contains_key(name), "`{r}` points at nothing");
    }
    assert!(expand(scope, doc).is_object());
    defs.keys().cloned().collect()
}

#[test]
fn repeated_schemas_are_written_once_and_referenced() {
    let out = build_openapi(&source());
    let read = |p: &str| read_json(&out.path().join(p));

    // OpenAPI: `components/schemas`, and a 3.1 reader resolves every operation.
    let text = std::fs::read_to_string(out.path().join("openapi.json")).unwrap();
    let spec = oas3::from_json(&text).expect("oas3 reads it");
    for (path, method, op) in spec.operations() {
        op.parameters(&spec)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        op.request_body(&spec)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    }
    let oas: Value = serde_json::from_str(&text).unwrap();
    let shared = &oas["components"]["schemas"];
    let names = check_shared(&oas, &oas, shared, "#/components/schemas/");
    assert!(names.len() >= 2, "the customer and the address: {names:?}");
    // Each keeps the name the source gave it, not one made from a property or an operation.
    for name in ["Customer", "Address"] {
        assert!(shared.get(name).is_some(), "{name}: {names:?}");
    }
    // The customer's own schema, inlined by the import, is the shared one; its addresses too.
    let get = &oas["paths"]["/s0/customers/{id}"]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"];
    let customer = expand(get, &oas);
    assert_eq!(
        customer["properties"]["billing"]["properties"]["city"]["type"],
        "string"
    );
    assert_eq!(
        customer["properties"]["billing"],
        customer["properties"]["shipping"]
    );

    // AGIS: the top-level `schemas`; the eight passes hold, `input` keeps `required` in place,
    // and the YAML says the same.
    let agis = read(".well-known/agis/service.agis.json");
    let violations = support_agis::validate(&agis);
    assert!(violations.is_empty(), "{violations:?}");
    check_shared(&agis, &agis, &agis["schemas"], "#/schemas/");
    for name in ["Customer", "Address"] {
        assert!(
            agis["schemas"].get(name).is_some(),
            "{name}: {}",
            agis["schemas"]
        );
    }
    for e in agis["endpoints"].as_array().unwrap() {
        assert!(e["input"]["required"].is_array());
    }
    let mut dangling = agis.clone();
    dangling["endpoints"][0]["output"] = json!({"$ref": "#/schemas/missing"});
    let caught = support_agis::validate(&dangling);
    assert!(
        caught.iter().any(|v| v.rule.contains("#/schemas/missing")),
        "{caught:?}"
    );
    let yaml = std::fs::read_to_string(out.path().join(".well-known/agis/service.agis")).unwrap();
    assert_eq!(
        wellgen::emit::targets::agis::parse_yaml(&yaml).unwrap(),
        agis
    );
    let outputs: Vec<Value> = agis["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| expand(&e["output"], &agis))
        .collect();
    assert_eq!(
        outputs.iter().filter(|o| **o == customer).count(),
        3 * STORES
    );

    // MCP: each tool's `inputSchema` stands alone; the create tool's two addresses share a
    // `$defs` entry, and the tools list is valid against the MCP schema.
    let tools = read(".well-known/mcp/tools.json");
    let errors = schema_errors(&mcp_validator("ListToolsResult"), &tools);
    assert!(errors.is_empty(), "{errors:?}");
    let mut with_defs = 0;
    for t in tools["tools"].as_array().unwrap() {
        let input = &t["inputSchema"];
        assert_eq!(input["type"], "object");
        if let Some(defs) = input.get("$defs") {
            with_defs += 1;
            check_shared(input, input, defs, "#/$defs/");
            // The body's own fields were the source's `Address`: the name comes with them.
            assert!(defs.get("Address").is_some(), "{defs}");
            let expanded = expand(input, input);
            assert_eq!(
                expanded["properties"]["billing"],
                expanded["properties"]["shipping"]
            );
        }
    }
    assert_eq!(with_defs, STORES, "only the create tools repeat a schema");
}

/// A component inside a request body's field, and one in a response, keep their source names
/// in every document that shares them; no mark of the import is left in any file.
#[test]
fn components_inside_request_fields_keep_their_names() {
    let mut source = source();
    for (_, item) in source["paths"].as_object_mut().unwrap() {
        if let Some(body) = item.pointer_mut("/post/requestBody/content/application~1json/schema") {
            body["properties"]["customer"] = json!({"$ref": "#/components/schemas/Customer"});
        }
    }
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("shop.json");
    std::fs::write(&spec, serde_json::to_vec(&source).unwrap()).unwrap();
    let out = build(&spec, &[]);
    let read = |p: &str| read_json(&out.path().join(p));
    let tools = read(".well-known/mcp/tools.json");
    let create = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "create_customer_0")
        .expect("the create tool");
    let input = &create["inputSchema"];
    // The fields that are whole components refer to them, and the customer's three addresses
    // to one definition, each named as the source names it; every reference resolves.
    let defs = &input["$defs"];
    assert_eq!(
        input["properties"]["customer"]["$ref"], "#/$defs/Customer",
        "{input}"
    );
    assert_eq!(
        input["properties"]["billing"]["$ref"], "#/$defs/Address",
        "{input}"
    );
    for field in ["billing", "shipping", "invoice"] {
        assert_eq!(
            defs["Customer"]["properties"][field]["$ref"],
            "#/$defs/Address"
        );
    }
    assert_eq!(defs["Address"]["type"], "object", "{input}");
    expand(input, input);
    let oas = read("openapi.json");
    assert!(oas["components"]["schemas"].get("Customer").is_some());
    for entry in walkdir::WalkDir::new(out.path()) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let text = String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).into_owned();
            assert!(!text.contains("x-wellgen"), "{}", entry.path().display());
        }
    }
}

/// A service.toml that completes the OpenAPI file (`[source] openapi`) keeps the names too,
/// for the capabilities it corrects as for the others.
#[test]
fn a_completing_service_toml_keeps_the_source_names() {
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        work.path().join("shop.json"),
        serde_json::to_vec(&source()).unwrap(),
    )
    .unwrap();
    let toml = work.path().join("service.toml");
    std::fs::write(
        &toml,
        "[service]\nname = \"Shop\"\n\n[source]\nopenapi = \"shop.json\"\n\n\
         [[capabilities]]\nid = \"get_customer_0\"\ndescription = \"Fetches a customer of store 0.\"\n",
    )
    .unwrap();
    let out = build(&toml, &[]);
    let oas: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("openapi.json")).unwrap()).unwrap();
    let shared = &oas["components"]["schemas"];
    for name in ["Customer", "Address"] {
        assert!(shared.get(name).is_some(), "{name}: {shared}");
    }
}

/// A request refers to a component wherever the import does not rebuild it: a whole body that
/// is not split into fields, a field of alternatives of no one type (with no type rendered
/// beside the reference to narrow them); a closed empty object is no body and no schema.
#[test]
fn whole_bodies_and_alternatives_refer_to_their_components() {
    let spec = json!({"openapi": "3.1.0",
        "info": {"title": "Bodies", "version": "1", "description": "Bodies that are components."},
        "servers": [{"url": "https://api.example.com"}],
        "paths": {
            "/lists": {"post": {"operationId": "make_list", "summary": "Makes a list.",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PetList"}}}},
                "responses": {"200": {"description": "ok"}}}},
            "/empty": {"get": {"operationId": "get_empty", "summary": "Gets.",
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Empty"}}}},
                "responses": {"200": {"description": "ok"}}}},
            "/ssl": {"post": {"operationId": "set_ssl", "summary": "Sets.",
                "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"insecure": {"$ref": "#/components/schemas/Ssl"}}}}}},
                "responses": {"200": {"description": "ok"}}}}},
        "components": {"schemas": {
            "PetList": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}},
            "Pet": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
            "Empty": {"type": "object", "additionalProperties": false},
            "Ssl": {"oneOf": [{"type": "string"}, {"type": "number"}]}}}});
    let out = build_openapi(&spec);
    let read = |p: &str| read_json(&out.path().join(p));
    let oas = read("openapi.json");
    let named = oas["components"]["schemas"].as_object().unwrap();
    let names: Vec<&str> = named.keys().map(String::as_str).collect();
    assert_eq!(names, ["PetList", "Pet", "Ssl"], "no Empty: it is no body");
    // The whole body is the array itself, as the notation and the MCP binding send it.
    let list = &oas["paths"]["/lists"]["post"]["requestBody"];
    assert_eq!(list["required"], true);
    let body = &list["content"]["application/json"]["schema"];
    assert_eq!(body["type"], "array", "{body}");
    assert_eq!(body["$ref"], "#/components/schemas/PetList", "{body}");
    assert!(oas["paths"]["/empty"]["get"].get("requestBody").is_none());
    let field = &oas["paths"]["/ssl"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        ["properties"]["insecure"];
    assert_eq!(field, &json!({"$ref": "#/components/schemas/Ssl"}));
    // The MCP tool says the same from its own `$defs`: a number is a value of the field.
    let tools = read(".well-known/mcp/tools.json");
    let set = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "set_ssl")
        .unwrap();
    let input = jsonschema::validator_for(&set["inputSchema"]).unwrap();
    assert!(input.is_valid(&json!({"insecure": 1})));
    assert!(input.is_valid(&json!({"insecure": "1"})));
    assert!(!input.is_valid(&json!({"insecure": true})));
}

#[test]
fn small_schemas_stay_inline() {
    let mut small = source();
    small["components"]["schemas"]["Address"] =
        json!({"type": "object", "properties": {"city": {"type": "string"}}});
    small["components"]["schemas"]["Customer"] =
        json!({"type": "object", "properties": {"id": {"type": "string"}}});
    small["paths"] = json!({"/s0/customers": small["paths"]["/s0/customers"].clone()});
    let out = build_openapi(&small);
    // The source's own components are referred to by name (by a tool from its own `$defs`);
    // the documents share nothing else.
    for (p, prefix) in [
        ("openapi.json", "#/components/schemas/"),
        (".well-known/agis/service.agis.json", "#/schemas/"),
        (".well-known/mcp/tools.json", "#/$defs/"),
    ] {
        let text = std::fs::read_to_string(out.path().join(p)).unwrap();
        let refs: std::collections::BTreeSet<&str> = text
            .split("\"$ref\": \"")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap()])
            .collect();
        let named: std::collections::BTreeSet<String> = ["Customer", "Address"]
            .iter()
            .map(|n| format!("{prefix}{n}"))
            .collect();
        assert!(refs.iter().all(|r| named.contains(*r)), "{p}: {refs:?}");
    }
}

// ---- the size rule: no document larger than a large source (docs/openapi-import.md) ----------

/// The query parameters a Google-style API repeats on every operation, with their texts.
const COMMON: [(&str, &str); 8] = [
    (
        "alt",
        "Data format for response, json unless the caller asks for media.",
    ),
    (
        "fields",
        "Selector specifying which fields to include in a partial response.",
    ),
    (
        "key",
        "API key. Your API key identifies your project and provides you with API access, quota, and reports.",
    ),
    (
        "oauth_token",
        "OAuth 2.0 token for the current user, when the caller has one.",
    ),
    (
        "prettyPrint",
        "Returns response with indentations and line breaks.",
    ),
    (
        "quotaUser",
        "Available to use for quota purposes for server-side applications. Can be any arbitrary string assigned to a user.",
    ),
    (
        "uploadType",
        "Legacy upload protocol for media (e.g. \"media\", \"multipart\").",
    ),
    (
        "callback",
        "JSONP callback name, for callers that wrap the response.",
    ),
];

/// A generated API of `resources` resources with five operations each, every operation taking
/// the common parameters, every resource a nested schema with descriptions two levels down: the
/// shape of the large real APIs whose documents outgrew their source. Written as indented
/// JSON, as most large JSON descriptions are (in YAML, with every parameter a reference, the
/// same API is smaller than the AGIS document's required per-endpoint blocks alone).
fn large_source(resources: usize) -> String {
    let mut params = serde_json::Map::new();
    let mut common_refs = Vec::new();
    for (name, text) in COMMON {
        params.insert(
            name.into(),
            json!({"name": name, "in": "query", "description": text, "schema": {"type": "string"}}),
        );
        common_refs.push(json!({"$ref": format!("#/components/parameters/{name}")}));
    }
    let mut schemas = serde_json::Map::new();
    let mut paths = serde_json::Map::new();
    for r in 0..resources {
        let name = format!("Widget{r}");
        let part = |what: &str| {
            json!({"type": "object", "description": format!("The {what} of a widget {r}, as the service keeps it."), "properties": {
                "state": {"type": "string", "description": format!("The state of the {what}, one of the lifecycle states of widgets."), "enum": ["ACTIVE", "PAUSED", "DELETED"]},
                "updated": {"type": "string", "format": "date-time", "description": format!("When the {what} last changed, in RFC 3339 form.")},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}, "description": format!("Labels of the {what}, free-form keys and values set by the caller.")},
            }})
        };
        schemas.insert(
            name.clone(),
            json!({"type": "object", "description": format!("A widget of kind {r}."), "properties": {
                "name": {"type": "string", "description": "The resource name of the widget, projects/*/widgets/*."},
                "config": part("configuration"),
                "status": part("status"),
                "billing": part("billing settings"),
            }}),
        );
        let item = json!({"$ref": format!("#/components/schemas/{name}")});
        let ok = |schema: Value| json!({"200": {"description": "Successful response", "content": {"application/json": {"schema": schema}}}});
        let op = |verb: &str, extra: &[Value]| {
            let mut p = common_refs.clone();
            p.extend(extra.iter().cloned());
            json!({"operationId": format!("widgets{r}.{verb}"), "summary": format!("{verb} a widget of kind {r}."), "parameters": p})
        };
        let id = json!({"name": "widget", "in": "path", "required": true, "description": "The widget's resource name.", "schema": {"type": "string"}});
        let mut list = op("list", &[]);
        list["responses"] = ok(
            json!({"type": "object", "properties": {"widgets": {"type": "array", "items": item}, "nextPageToken": {"type": "string"}}}),
        );
        let mut create = op("create", &[]);
        create["requestBody"] = json!({"content": {"application/json": {"schema": item}}});
        create["responses"] = ok(item.clone());
        let mut get = op("get", std::slice::from_ref(&id));
        get["responses"] = ok(item.clone());
        let mut patch = op("patch", std::slice::from_ref(&id));
        patch["requestBody"] = json!({"content": {"application/json": {"schema": item}}});
        patch["responses"] = ok(item.clone());
        let mut delete = op("delete", std::slice::from_ref(&id));
        delete["responses"] = ok(json!({"type": "object"}));
        paths.insert(
            format!("/v1/kind{r}/widgets"),
            json!({"get": list, "post": create}),
        );
        paths.insert(
            format!("/v1/kind{r}/widgets/{{widget}}"),
            json!({"get": get, "patch": patch, "delete": delete}),
        );
    }
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "Widgets", "version": "v1", "description": "Widgets of many kinds."},
        "servers": [{"url": "https://widgets.example.com"}],
        "paths": paths,
        "components": {"schemas": schemas, "parameters": params},
    });
    serde_json::to_string_pretty(&doc).unwrap()
}

#[test]
fn a_large_source_builds_into_no_document_larger_than_itself() {
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("widgets.json");
    let text = large_source(24);
    assert!(text.len() >= 100_000, "{}", text.len());
    std::fs::write(&spec, &text).unwrap();
    let out = build(&spec, &[]);
    let files = crate::common::files(out.path());
    // The MCP tools' HTTP bindings are never cut: the list is measured without them.
    let measured = |p: &str, body: &[u8]| {
        if p != ".well-known/mcp/tools.json" {
            return body.len();
        }
        let mut list: Value = serde_json::from_slice(body).unwrap();
        for t in list["tools"].as_array_mut().unwrap() {
            t.as_object_mut().unwrap().remove("_meta");
        }
        serde_json::to_vec(&list).unwrap().len()
    };
    let larger: Vec<String> = files
        .iter()
        .filter(|(p, body)| measured(p, body) > text.len())
        .map(|(p, body)| format!("{p}: {} bytes", body.len()))
        .collect();
    assert!(larger.is_empty(), "source {} bytes: {larger:?}", text.len());
    let read = |p: &str| -> Value { serde_json::from_slice(&files[p]).unwrap() };

    // OpenAPI: compact, the common parameters and the repeated responses in `components`,
    // every reference resolving for a 3.1 reader.
    let oas_text = String::from_utf8(files["openapi.json"].clone()).unwrap();
    assert_eq!(oas_text.lines().count(), 1, "written compact");
    let oas: Value = serde_json::from_str(&oas_text).unwrap();
    let shared = oas["components"]["parameters"].as_object().unwrap();
    for (name, _) in COMMON {
        assert_eq!(shared[name]["name"], name, "{name} is shared");
    }
    assert!(oas["components"]["responses"].is_object());
    let spec = oas3::from_json(&oas_text).expect("oas3 reads it");
    for (path, method, op) in spec.operations() {
        let p = op
            .parameters(&spec)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        assert!(p.len() >= COMMON.len(), "{method} {path}");
    }
    let mut all = Vec::new();
    refs(&oas, &mut all);
    assert!(all.iter().all(|r| oas.pointer(&r[1..]).is_some()));

    // AGIS: the YAML serialisation of a compact document is its JSON text, which YAML reads
    // as the same value; the passes hold.
    let agis = read(".well-known/agis/service.agis.json");
    assert_eq!(
        files[".well-known/agis/service.agis"],
        files[".well-known/agis/service.agis.json"]
    );
    let yaml = String::from_utf8(files[".well-known/agis/service.agis"].clone()).unwrap();
    assert_eq!(
        wellgen::emit::targets::agis::parse_yaml(&yaml).unwrap(),
        agis
    );
    let violations = support_agis::validate(&agis);
    assert!(violations.is_empty(), "{violations:?}");

    // MCP and ia.json stay valid.
    let tools = read(".well-known/mcp/tools.json");
    let errors = schema_errors(&mcp_validator("ListToolsResult"), &tools);
    assert!(errors.is_empty(), "{errors:?}");
    let ia = read("ia.json");
    let errors = schema_errors(&crate::common::iajson_validator(true), &ia);
    assert!(errors.is_empty(), "{errors:?}");
}

/// Over the budget, ia.json, MCP and AGIS leave out what their formats let them leave out,
/// each with a note; the same service written as a service.toml (`wellgen import`: no source
/// size) keeps all, with no note, and its three documents are larger than the source.
#[test]
fn documents_over_a_large_source_leave_out_response_schemas_and_nested_descriptions_with_a_note() {
    // What tells each note (`Code::SizedToSource`) apart: ia.json cuts twice; OpenAPI fits
    // once it leaves out what it says twice (the fields a success returns, in prose, and its
    // `false` flags), so its schemas keep their descriptions; AGIS leaves out its binding
    // headers, its URLs' origin and the `is_idempotent: false` it derived (AGIS's default),
    // the values it derived for its read-only endpoints, the class it derived for the others,
    // and its schemas' descriptions, which makes the outputs of many endpoints equal: written
    // once in `schemas`, they bring it within the budget with its errors' descriptions and
    // every level of the outputs kept.
    const NOTES: [&str; 11] = [
        "ia.json would be larger than its ",
        "ia.json would still be larger than its ",
        "the MCP tools list would be ",
        "`x-rate-limited` and `x-requires-confirmation` are left out where `false`",
        "leaves out its `X-AGIS-*` headers",
        "gives its URL as a path on the documents' own origin (https://",
        "`is_idempotent` is left out of the 48 endpoints where wellgen derived `false`",
        "the semantic blocks of its 48 read-only endpoints leave out",
        "the semantic blocks of its 72 endpoints that change something leave out the `capability`",
        "descriptions of input and output schemas are left out",
        "the schemas it repeats go once into its `schemas`",
    ];
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("widgets.json");
    // Compact, so that all three documents outgrow it (indented, only ia.json does).
    let pretty: Value = serde_json::from_str(&large_source(24)).unwrap();
    let text = serde_json::to_string(&pretty).unwrap();
    std::fs::write(&spec, &text).unwrap();
    let stderr = check_notes(&spec);
    let notes: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("N-sized-to-source"))
        .collect();
    assert_eq!(notes.len(), NOTES.len(), "{stderr}");
    for start in NOTES {
        let of_target: Vec<&&str> = notes.iter().filter(|n| n.contains(start)).collect();
        assert_eq!(of_target.len(), 1, "{start}: {stderr}");
        assert!(
            of_target[0].contains("larger than its") && of_target[0].contains(" KB OpenAPI source"),
            "{}",
            of_target[0]
        );
    }

    // What each endpoint keeps: those that change something their impact and confidence, and
    // `is_idempotent` where it is true; the outputs every level.
    let built = build(&spec, &["-q"]);
    let agis: Value = serde_json::from_slice(
        &std::fs::read(built.path().join(".well-known/agis/service.agis.json")).unwrap(),
    )
    .unwrap();
    assert!(
        std::fs::metadata(built.path().join(".well-known/agis/service.agis.json"))
            .unwrap()
            .len()
            <= text.len() as u64
    );
    let violations = support_agis::validate(&agis);
    assert!(violations.is_empty(), "{violations:?}");
    let mut changing = 0;
    for e in agis["endpoints"].as_array().unwrap() {
        let semantic = e["semantic"].as_object().unwrap();
        assert!(!semantic.contains_key("capability"), "{e}");
        assert_ne!(semantic.get("is_idempotent"), Some(&json!(false)), "{e}");
        if e["http_binding"]["method"] != "GET" {
            changing += 1;
            assert!(semantic["impact_tier"].is_string(), "{e}");
            assert!(semantic["confidence_guidance"].is_number(), "{e}");
        }
    }
    assert_eq!(changing, 72);

    // The control: the same API as a plain service.toml has no source size, so no budget.
    let toml = work.path().join("service.toml");
    let (code, _, stderr) = crate::common::run(
        crate::common::wellgen()
            .arg("import")
            .arg(&spec)
            .arg("-o")
            .arg(&toml),
    );
    assert_eq!(code, 0, "{stderr}");
    let stderr = check_notes(&toml);
    assert!(!stderr.contains("N-sized-to-source"), "{stderr}");
    // It keeps what the budget left out: each of the three documents outgrows the source.
    let out = build(&toml, &["-q"]);
    for doc in [
        "ia.json",
        ".well-known/mcp/tools.json",
        ".well-known/agis/service.agis.json",
    ] {
        let len = std::fs::metadata(out.path().join(doc)).unwrap().len();
        assert!(len > text.len() as u64, "{doc}: {len} of {}", text.len());
    }
}

/// Google's descriptions share their common query parameters (`fields`, `key`, `alt`, …) as
/// components, each with its description, and every operation references them: every MCP
/// tool spells them out, as a tool's input schema cannot point into another's. With no nested
/// description to leave out, the parameters' own go too, so that the tools list does not
/// outgrow its source; the note says so. (AGIS shares them in its top-level `schemas`.)
#[test]
fn shared_parameter_descriptions_go_too_when_nested_ones_are_not_enough() {
    let names: Vec<String> = (0..12).map(|i| format!("common{i}")).collect();
    let params: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| {
            let description = format!(
                "The {n} query parameter, which every operation of this API takes: it selects how the response is written and which parts of it are sent back to the caller."
            );
            (n.clone(), json!({"name": n, "in": "query", "description": description, "schema": {"type": "string"}}))
        })
        .collect();
    let mut paths = serde_json::Map::new();
    for i in 0..150 {
        let refs: Vec<Value> = names
            .iter()
            .map(|n| json!({"$ref": format!("#/components/parameters/{n}")}))
            .collect();
        paths.insert(
            format!("/v1/things{i}"),
            json!({"get": {
                "operationId": format!("things{i}.list"),
                "description": format!("Lists the things of kind {i}, paged and sorted by name."),
                "parameters": refs,
                "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"type": "object", "properties": {"name": {"type": "string"}}}}}}}
            }}),
        );
    }
    let built = build_compact_with("Things", paths, json!({"parameters": params}));
    assert!(built.text.len() >= 64 * 1024, "{}", built.text.len());
    let list = built.tools_within();
    // ia.json likewise leaves out the optional parameters' descriptions, after the response
    // schemas; the required ones keep theirs while that is enough.
    let ia_bytes = built.within("ia.json");
    let ia: Value = serde_json::from_slice(ia_bytes).unwrap();
    let errors = schema_errors(&crate::common::iajson_validator(true), &ia);
    assert!(errors.is_empty(), "{errors:?}");
    let endpoint = ia["api"]["public"]
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap();
    assert_eq!(
        endpoint["parameters"]["common3"]["type"], "string",
        "{endpoint}"
    );
    assert!(
        endpoint["parameters"]["common3"]
            .get("description")
            .is_none(),
        "{endpoint}"
    );
    // Each parameter is still there, with its type; its description is not.
    let tools: Value = serde_json::from_slice(list).unwrap();
    let errors = schema_errors(&mcp_validator("ListToolsResult"), &tools);
    assert!(errors.is_empty(), "{errors:?}");
    let input = &tools["tools"][0]["inputSchema"]["properties"];
    assert_eq!(input.as_object().unwrap().len(), names.len(), "{input}");
    assert_eq!(input["common3"]["type"], "string");
    assert!(input["common3"].get("description").is_none(), "{input}");
    let agis: Value =
        serde_json::from_slice(&built.files[".well-known/agis/service.agis.json"]).unwrap();
    let violations = support_agis::validate(&agis);
    assert!(violations.is_empty(), "{violations:?}");

    let stderr = check_notes(&built.spec);
    let note = size_note(&stderr, "the MCP tools list would be ");
    assert!(
        note.contains("descriptions of input schemas are left out (the parameters' own too"),
        "{note}"
    );
    let note = size_note(&stderr, "ia.json would still be larger");
    assert!(
        note.contains("the descriptions and examples of 1800 parameters"),
        "{note}"
    );
}

/// What `wellgen check --notes --verbose` says of `source` (which must pass).
fn check_notes(source: &std::path::Path) -> String {
    let (code, _, stderr) = crate::common::run(
        crate::common::wellgen()
            .args(["check", "--notes", "--verbose"])
            .arg(source),
    );
    assert_eq!(code, 0, "{stderr}");
    stderr
}

/// The size note (`N-sized-to-source`) of `stderr` that holds `words`.
fn size_note<'a>(stderr: &'a str, words: &str) -> &'a str {
    stderr
        .lines()
        .find(|l| l.contains("N-sized-to-source") && l.contains(words))
        .unwrap_or_else(|| panic!("no size note with {words:?}: {stderr}"))
}

/// A compact OpenAPI 3.0 source of `paths`, titled `title`, built with every target.
struct Built {
    text: String,
    spec: std::path::PathBuf,
    files: std::collections::BTreeMap<String, Vec<u8>>,
    _work: tempfile::TempDir,
}

impl Built {
    /// The file at `path`, which must be no larger than the source.
    fn within(&self, path: &str) -> &[u8] {
        let bytes = &self.files[path];
        assert!(
            bytes.len() <= self.text.len(),
            "{path}: {} bytes, source {}",
            bytes.len(),
            self.text.len()
        );
        bytes
    }

    /// The MCP tools list, which must be no larger than the source but for its tools' HTTP
    /// bindings (`_meta`), which are never cut.
    fn tools_within(&self) -> &[u8] {
        let bytes = &self.files[".well-known/mcp/tools.json"];
        let mut list: Value = serde_json::from_slice(bytes).unwrap();
        for t in list["tools"].as_array_mut().unwrap() {
            t.as_object_mut().unwrap().remove("_meta");
        }
        let rest = serde_json::to_vec(&list).unwrap().len();
        assert!(
            rest <= self.text.len(),
            "tools.json without its bindings: {rest} bytes, source {}",
            self.text.len()
        );
        bytes
    }

    /// The AGIS document, which must be no larger than the source and pass the suite's
    /// validator.
    fn valid_agis(&self) -> Value {
        let agis: Value =
            serde_json::from_slice(self.within(".well-known/agis/service.agis.json")).unwrap();
        let violations = support_agis::validate(&agis);
        assert!(violations.is_empty(), "{violations:?}");
        agis
    }

    /// What `wellgen check --notes` says of the source, and its size note about `document`.
    fn size_note(&self, document: &str) -> (String, String) {
        let stderr = check_notes(&self.spec);
        let note = size_note(&stderr, document).to_string();
        (stderr, note)
    }
}

fn build_compact(title: &str, paths: serde_json::Map<String, Value>) -> Built {
    build_compact_with(title, paths, json!({}))
}

/// [`build_compact`] with `components`.
fn build_compact_with(
    title: &str,
    paths: serde_json::Map<String, Value>,
    components: Value,
) -> Built {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": title, "version": "v1", "description": format!("{title}.")},
        "servers": [{"url": format!("https://{}.example.com", title.to_lowercase())}],
        "paths": paths,
        "components": components,
    });
    let text = serde_json::to_string(&doc).unwrap();
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("source.json");
    std::fs::write(&spec, &text).unwrap();
    let files = crate::common::files(build(&spec, &[]).path());
    Built {
        text,
        spec,
        files,
        _work: work,
    }
}

/// Terse operations with long error texts: the AGIS document's required blocks per endpoint
/// (semantic fields, input, output, HTTP binding) outgrow the source with no schema
/// description to leave out, so the errors' descriptions (SHOULD, AGIS §7) go, each error
/// keeping its name, with a note; the document stays within its source and valid.
#[test]
fn agis_error_descriptions_go_when_no_schema_description_is_left() {
    let [not_found, unauthorized] = error_texts(3);
    let built = build_compact("Things", things(&not_found, &unauthorized));
    let agis = built.valid_agis();
    let endpoints = agis["endpoints"].as_array().unwrap();
    assert_eq!(endpoints.len(), 200);
    for e in endpoints {
        let errors = e["errors"].as_array().unwrap();
        assert!(errors.len() >= 2, "{e}");
        for error in errors {
            assert!(error["name"].as_str().is_some_and(|n| !n.is_empty()), "{e}");
            assert!(error.get("description").is_none(), "{e}");
        }
    }
    for e in endpoints {
        let binding = e["http_binding"].as_object().unwrap();
        assert_eq!(binding["method"], "GET", "{e}");
        assert!(!binding.contains_key("headers"), "{e}");
    }
    let (stderr, note) = built.size_note("the descriptions of its 400 errors are left out");
    assert!(note.contains("the AGIS document would be"), "{note}");
    size_note(&stderr, "leaves out its `X-AGIS-*` headers");

    // The OpenAPI document names each error in prose and in `x-errors`, twice the text of
    // the source's own response: lean, each error response is its text alone, and the same
    // one of 200 operations is one shared component.
    let oas: Value = serde_json::from_slice(built.within("openapi.json")).unwrap();
    let text = String::from_utf8(built.files["openapi.json"].clone()).unwrap();
    oas3::from_json(&text).expect("oas3 reads it");
    assert!(!text.contains("x-errors"));
    let shared = oas["components"]["responses"].as_object().unwrap();
    let descriptions: Vec<&str> = shared
        .values()
        .map(|r| r["description"].as_str().unwrap())
        .collect();
    assert_eq!(descriptions.len(), 2, "{descriptions:?}");
    // Each is the model's text of the error (the import keeps a long one's first sentences).
    for text in [&not_found, &unauthorized] {
        let of = |d: &&&str| d.len() > 80 && text.starts_with(**d);
        assert_eq!(
            descriptions.iter().filter(of).count(),
            1,
            "{descriptions:?}"
        );
    }
    for item in oas["paths"].as_object().unwrap().values() {
        for status in ["401", "404"] {
            let r = &item["get"]["responses"][status]["$ref"];
            assert!(
                r.as_str()
                    .is_some_and(|r| r.starts_with("#/components/responses/")),
                "{item}"
            );
        }
    }
    let note = size_note(&stderr, "without the names of their 400 errors");
    assert!(note.contains("the OpenAPI document would be"), "{note}");
    // The MCP tools list and ia.json do not carry errors: they change nothing for them.
    assert!(!stderr.contains("the MCP tools list would be"), "{stderr}");
}

/// The same operations with a third of the error text: without their descriptions the errors
/// are still too much, so each is written as its bare name (the draft's own form, §7), and
/// each binding's URL is the path that resolves to it from the document, on the same origin:
/// both say all they said, and the document fits.
#[test]
fn agis_errors_are_bare_names_and_binding_urls_paths_when_still_over() {
    let [not_found, unauthorized] = error_texts(1);
    let built = build_compact("Things", things(&not_found, &unauthorized));
    let agis = built.valid_agis();
    let summary: Value = serde_json::from_slice(&built.files[".well-known/agis.json"]).unwrap();
    let document = summary["agis_document"].as_str().unwrap();
    assert!(
        document.starts_with("https://things.example.com/"),
        "{document}"
    );
    let endpoints = agis["endpoints"].as_array().unwrap();
    assert_eq!(endpoints.len(), 200);
    for (i, e) in endpoints.iter().enumerate() {
        let errors = crate::common::sorted_strs(&e["errors"]);
        assert_eq!(errors.len(), 2, "{e}");
        assert!(errors.iter().all(|n| !n.is_empty()), "{e}");
        assert_eq!(e["http_binding"]["url"], format!("/v1/things{i}"), "{e}");
    }
    let (stderr, note) = built.size_note("written as their bare names");
    assert!(note.contains("its 400 errors"), "{note}");
    let note = size_note(
        &stderr,
        "gives its URL as a path on the documents' own origin",
    );
    assert!(
        note.contains("of 200 endpoints") && note.contains("(https://things.example.com)"),
        "{note}"
    );
}

/// Two long error texts, `repeat` sentences each: not found, and unauthorized.
fn error_texts(repeat: usize) -> [String; 2] {
    [
        "The thing was not found: it never existed, it was deleted, or the caller cannot see it. "
            .repeat(repeat),
        "The request carries no valid credentials: the token is missing, expired or revoked. "
            .repeat(repeat),
    ]
}

/// 200 terse reads, each with the two error texts.
fn things(not_found: &str, unauthorized: &str) -> serde_json::Map<String, Value> {
    (0..200)
        .map(|i| {
            (
                format!("/v1/things{i}"),
                json!({"get": {
                    "operationId": format!("things{i}.get"),
                    "summary": format!("Gets thing {i}."),
                    "responses": {
                        "200": {"description": "OK"},
                        "404": {"description": not_found},
                        "401": {"description": unauthorized},
                    }
                }}),
            )
        })
        .collect()
}

/// A source whose operations return one of two components by reference: written out in
/// each of 120 endpoints, the AGIS document would outgrow its source. It refers to each
/// component under the source's name instead, as the source does, so it stays within the
/// source with nothing left out (its headers and derived values kept) and no note.
#[test]
fn an_agis_document_refers_to_the_sources_components_and_leaves_nothing_out() {
    let long = "The widget as it is now, with its parts and their settings. ".repeat(8);
    let widget = json!({"type": "object", "properties": {
        "id": {"type": "string", "description": "The widget's identifier."},
        "name": {"type": "string", "description": "What people call the widget."},
        "colour": {"type": "string", "enum": ["red", "green", "blue"]},
        "parts": {"type": "integer", "minimum": 0},
    }, "required": ["id", "name"]});
    let small =
        json!({"type": "object", "properties": {"note": {"type": "string", "maxLength": 99}}});
    let paths: serde_json::Map<String, Value> = (0..120)
        .map(|i| {
            let schema = if i < 2 { "Small" } else { "Widget" };
            (
                format!("/widgets{i}"),
                json!({"get": {
                    "operationId": format!("getWidget{i}"),
                    "summary": format!("Gets widget {i}."),
                    "responses": {"200": {"description": long, "content": {"application/json": {
                        "schema": {"$ref": format!("#/components/schemas/{schema}")}
                    }}}},
                }}),
            )
        })
        .collect();
    let built = build_compact_with(
        "Widgets",
        paths,
        json!({"schemas": {"Widget": widget, "Small": small}}),
    );
    assert!(built.text.len() >= 64 * 1024, "{}", built.text.len());
    let agis = built.valid_agis();
    let shared = agis["schemas"].as_object().expect("a `schemas` block");
    assert_eq!(
        shared.keys().collect::<Vec<_>>(),
        ["Small", "Widget"],
        "{shared:?}"
    );
    let body = &shared["Widget"];
    assert_eq!(
        body["properties"]["name"]["description"],
        "What people call the widget."
    );
    assert_eq!(body["required"], json!(["id", "name"]));
    let endpoints = agis["endpoints"].as_array().unwrap();
    assert_eq!(endpoints.len(), 120);
    for (i, e) in endpoints.iter().enumerate() {
        let name = if i < 2 { "Small" } else { "Widget" };
        assert_eq!(
            e["output"],
            json!({"$ref": format!("#/schemas/{name}")}),
            "{e}"
        );
        assert!(e["http_binding"]["headers"].is_object(), "{e}");
        assert!(e["semantic"]["capability"].is_string(), "{e}");
    }
    let stderr = check_notes(&built.spec);
    assert!(
        !stderr
            .lines()
            .any(|l| l.contains("N-sized-to-source") && l.contains("the AGIS document")),
        "{stderr}"
    );
}

/// A terse source that says each path's parameters once, on the path, and has no summaries:
/// the OpenAPI document repeated both in every operation (a summary made of the method and
/// path, the path's parameters) and outgrew it. Lean, neither is said twice, the document is
/// within its source, valid, and reads back into the same operations and parameters.
#[test]
fn the_lean_openapi_document_lists_a_paths_shared_parameters_once_and_no_made_up_summary() {
    let param = |name: &str| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}});
    let ok = json!({"200": {"description": "The item as it is stored now"}});
    let paths: serde_json::Map<String, Value> = (0..170)
        .map(|i| {
            (
                format!("/orgs/{{org_id}}/items{i}/{{item_id}}"),
                json!({
                    "parameters": [param("org_id"), param("item_id")],
                    "get": {"operationId": format!("getItem{i}"), "responses": ok},
                    "put": {"operationId": format!("putItem{i}"), "responses": ok},
                    "delete": {"operationId": format!("deleteItem{i}"), "responses": ok},
                }),
            )
        })
        .collect();
    let built = build_compact("Orgs", paths);
    assert!(built.text.len() >= 64 * 1024, "{}", built.text.len());
    let text = String::from_utf8(built.within("openapi.json").to_vec()).unwrap();
    oas3::from_json(&text).expect("oas3 reads it");
    let oas: Value = serde_json::from_str(&text).unwrap();
    let items = oas["paths"].as_object().unwrap();
    assert_eq!(items.len(), 170);
    for (path, item) in items {
        let names: Vec<&str> = item["parameters"]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: {item}"))
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["org_id", "item_id"], "{path}");
        for method in ["get", "put", "delete"] {
            let op = item[method].as_object().unwrap();
            assert!(!op.contains_key("parameters"), "{path} {method}");
            assert!(!op.contains_key("summary"), "{path} {method}");
        }
    }
    let (_, note) = built.size_note("the OpenAPI document would be");
    assert!(note.contains("listed once, on the path"), "{note}");
    assert!(note.contains("only name the method and path"), "{note}");

    // Read back, every operation still takes both path parameters.
    let again = tempfile::tempdir().unwrap();
    let spec = again.path().join("openapi.json");
    std::fs::write(&spec, &text).unwrap();
    let out = build(&spec, &[]);
    let tools: Value = serde_json::from_slice(
        &std::fs::read(out.path().join(".well-known/mcp/tools.json")).unwrap(),
    )
    .unwrap();
    let tools = tools["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 510);
    for t in tools {
        let required = crate::common::sorted_strs(&t["inputSchema"]["required"]);
        assert_eq!(required, ["item_id", "org_id"], "{t}");
    }
}

/// Terse reads and a few deletes: the AGIS document's derived semantic values outgrow the
/// source, so the read-only endpoints leave out those AGIS recommends but does not require
/// (before any of the source's own text goes); the deletes keep their impact and confidence,
/// and a value the author declared stays.
#[test]
fn read_only_endpoints_leave_out_the_derived_agis_values_first() {
    // A long text of the source that no AGIS block carries, so that the derived values are
    // what takes the document over.
    let long = "The widget as it is now, with its parts and their settings. ".repeat(7);
    let paths: serde_json::Map<String, Value> = (0..350)
        .map(|i| {
            let mut item = json!({"get": {
                "operationId": format!("getWidget{i}"),
                "summary": format!("Gets widget {i} with its parts and their current settings."),
                "responses": {"200": {"description": long}},
            }});
            if i % 10 == 0 {
                item["delete"] = json!({
                    "operationId": format!("deleteWidget{i}"),
                    "summary": format!("Deletes widget {i} and everything it holds."),
                    "responses": {"204": {"description": "Gone."}},
                });
            }
            if i % 50 == 0 {
                item["get"]["x-agent-impact"] = json!("informational");
            }
            (format!("/widgets{i}/{{id}}"), item)
        })
        .collect();
    let built = build_compact("Widgets", paths);
    assert!(built.text.len() >= 64 * 1024, "{}", built.text.len());
    let agis = built.valid_agis();
    let guesses = [
        "capability",
        "confidence_guidance",
        "impact_tier",
        "is_idempotent",
    ];
    let (mut reads, mut deletes, mut declared) = (0, 0, 0);
    for e in agis["endpoints"].as_array().unwrap() {
        let semantic = e["semantic"].as_object().unwrap();
        for required in ["intent", "actor", "outcome"] {
            assert!(semantic.contains_key(required), "{e}");
        }
        let path = e["path"].as_str().unwrap();
        let i: usize = path["/widgets".len()..path.len() - "/{id}".len()]
            .parse()
            .unwrap();
        match e["http_binding"]["method"].as_str().unwrap() {
            "DELETE" => {
                deletes += 1;
                assert_eq!(semantic["impact_tier"], "irreversible", "{e}");
                assert!(
                    semantic["confidence_guidance"].as_f64().unwrap() >= 0.85,
                    "{e}"
                );
            }
            _ if i.is_multiple_of(50) => {
                declared += 1;
                assert_eq!(semantic["impact_tier"], "informational", "{e}");
            }
            _ => {
                reads += 1;
                for key in guesses {
                    assert!(!semantic.contains_key(key), "{key}: {e}");
                }
            }
        }
    }
    assert_eq!((reads, deletes, declared), (343, 35, 7));
    let (stderr, note) = built.size_note("read-only endpoints leave out");
    assert!(
        note.contains("the semantic blocks of its 350 read-only endpoints"),
        "{note}"
    );
    // Nothing of the source's own text had to go.
    assert!(
        !stderr.contains("descriptions of input and output schemas are left out"),
        "{stderr}"
    );
    // The summary still lists what the endpoints do.
    let summary: Value = serde_json::from_slice(&built.files[".well-known/agis.json"]).unwrap();
    let classes = crate::common::sorted_strs(&summary["capability_summary"]);
    assert!(
        classes.contains(&"retrieval") || classes.contains(&"discovery"),
        "{summary}"
    );
}

/// Request bodies whose fields are described at length, each body its own: rewritten in
/// OpenAPI 3.1 with every operation's own blocks, the document would outgrow its source, so
/// the descriptions inside its schemas go (the fields' types stay), with a note; it stays a
/// valid OpenAPI document that says every operation and field.
#[test]
fn the_openapi_document_leaves_out_schema_descriptions_to_stay_within_its_source() {
    let explanation = "a long explanation of what this value means and how the service uses it when it processes the request. ".repeat(2);
    let paths: serde_json::Map<String, Value> = (0..100)
        .map(|i| {
            let props: serde_json::Map<String, Value> = (0..10)
                .map(|j| {
                    (
                        format!("field{j}"),
                        json!({"type": "string", "description": format!("Field {j} of form {i}: {explanation}")}),
                    )
                })
                .collect();
            (
                format!("/v1/forms{i}"),
                json!({"post": {
                    "operationId": format!("forms{i}.submit"),
                    "summary": format!("Submits form {i}."),
                    "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": props}}}},
                    "responses": {"200": {"description": "OK"}},
                }}),
            )
        })
        .collect();
    let built = build_compact("Forms", paths);
    let bytes = built.within("openapi.json");
    assert_eq!(bytes, &built.files["api/discovery.openapi.json"][..]);
    let oas_text = String::from_utf8(bytes.to_vec()).unwrap();
    let spec_read = oas3::from_json(&oas_text).expect("oas3 reads it");
    assert_eq!(spec_read.operations().count(), 100);
    let oas: Value = serde_json::from_str(&oas_text).unwrap();
    let mut fields = 0;
    for item in oas["paths"].as_object().unwrap().values() {
        let schema = &item["post"]["requestBody"]["content"]["application/json"]["schema"];
        let schema = match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => oas.pointer(&r[1..]).unwrap(),
            None => schema,
        };
        for (name, field) in schema["properties"].as_object().unwrap() {
            assert_eq!(field["type"], "string", "{name}");
            assert!(field.get("description").is_none(), "{name}: {field}");
            fields += 1;
        }
    }
    assert_eq!(fields, 1000);
    let (stderr, note) = built.size_note("1000 descriptions nested inside its schemas");
    assert!(note.contains("the OpenAPI document would be"), "{note}");
    // First, the flags that say `false` went, all of them.
    let flags = size_note(&stderr, "`x-rate-limited` and `x-requires-confirmation`");
    assert!(flags.contains("the OpenAPI document would be"), "{flags}");
    assert!(!oas_text.contains("x-rate-limited"));
}

/// Every form posts two addresses, each with a description of its own: the copies differ only
/// in it, so the document's sharing leaves them inline. With the descriptions left out they are
/// equal, and the document shared anew (nothing left out, a note) fits its source.
#[test]
fn the_openapi_document_shares_anew_what_leaving_out_descriptions_made_equal() {
    let lines: serde_json::Map<String, Value> = (0..24)
        .map(|j| {
            (
                format!("line{j}"),
                json!({"type": "string", "maxLength": 80}),
            )
        })
        .collect();
    let components = json!({"schemas": {"Address": {"type": "object", "properties": lines}}});
    let address = |role: &str, i: usize| {
        json!({
            "allOf": [{"$ref": "#/components/schemas/Address"}],
            "description": format!("{role} address of form {i}."),
        })
    };
    let paths: serde_json::Map<String, Value> = (0..250)
        .map(|i| {
            let body = json!({"type": "object", "properties": {
                "billing": address("Billing", i),
                "shipping": address("Shipping", i),
            }});
            (
                format!("/v1/forms{i}"),
                json!({"post": {
                    "operationId": format!("forms{i}.submit"),
                    "summary": format!("Submits form {i}."),
                    "requestBody": {"content": {"application/json": {"schema": body}}},
                    "responses": {"200": {"description": "OK"}},
                }}),
            )
        })
        .collect();
    let built = build_compact_with("Forms", paths, components);
    let text = String::from_utf8(built.within("openapi.json").to_vec()).unwrap();
    let spec_read = oas3::from_json(&text).expect("oas3 reads it");
    assert_eq!(spec_read.operations().count(), 250);
    let oas: Value = serde_json::from_str(&text).unwrap();
    let whole = |v: &Value| -> Value {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => oas.pointer(&r[1..]).unwrap().clone(),
            None => v.clone(),
        }
    };
    let lines = |v: &Value| v["properties"].as_object().map_or(0, |p| p.len());
    let mut addresses = 0;
    for item in oas["paths"].as_object().unwrap().values() {
        let body = whole(&item["post"]["requestBody"]);
        let schema = whole(&body["content"]["application/json"]["schema"]);
        for role in ["billing", "shipping"] {
            let address = &schema["properties"][role];
            assert!(address.get("$ref").is_some(), "{role} is shared: {address}");
            let address = whole(address);
            assert_eq!(lines(&address), 24, "{address}");
            assert_eq!(address["properties"]["line7"]["maxLength"], 80);
            addresses += 1;
        }
    }
    assert_eq!(addresses, 500);
    // One component holds the address's lines.
    let schemas = oas["components"]["schemas"].as_object().unwrap();
    assert_eq!(schemas.values().filter(|s| lines(s) == 24).count(), 1);
    let (stderr, note) = built.size_note("go once into `components`");
    assert!(note.contains("the OpenAPI document would be"), "{note}");
    assert!(
        size_note(&stderr, "descriptions nested inside its schemas").contains("OpenAPI document"),
        "the descriptions went first"
    );
}

/// Writes with request bodies of their own, three levels deep, and nothing else: the OpenAPI
/// document has no description to leave out, nothing repeated to share and no response schema
/// to cut, so its request bodies keep the levels of fields that fit, with a note; every
/// operation, field and its fields' names stay, and it stays a valid OpenAPI document.
#[test]
fn openapi_request_schemas_keep_the_levels_that_fit_when_nothing_else_is_left() {
    let paths: serde_json::Map<String, Value> = (0..300)
        .map(|i| {
            let fields: serde_json::Map<String, Value> = (0..4)
                .map(|j| (format!("c{i}_{j}"), json!({"type": "string"})))
                .collect();
            let inner = json!({"type": "object", "properties": {format!("b{i}"): {"type": "object", "properties": fields}}});
            let body = json!({"type": "object", "properties": {format!("a{i}"): inner}});
            (
                format!("/v1/forms{i}"),
                json!({"post": {
                    "requestBody": {"content": {"application/json": {"schema": body}}},
                    "responses": {"204": {"description": "Done"}},
                }}),
            )
        })
        .collect();
    let built = build_compact("Forms", paths);
    let text = String::from_utf8(built.within("openapi.json").to_vec()).unwrap();
    let spec_read = oas3::from_json(&text).expect("oas3 reads it");
    assert_eq!(spec_read.operations().count(), 300);
    let oas: Value = serde_json::from_str(&text).unwrap();
    for i in 0..300 {
        let op = &oas["paths"][format!("/v1/forms{i}")]["post"];
        let body = &op["requestBody"]["content"]["application/json"]["schema"];
        let a = &body["properties"][format!("a{i}")];
        assert_eq!(a["type"], "object", "{op}");
        let b = &a["properties"][format!("b{i}")];
        assert_eq!(b["type"], "object", "{op}");
        let fields = b["properties"].as_object().unwrap();
        assert_eq!(fields.len(), 4, "{op}");
        assert!(fields.values().all(|f| *f == json!({})), "{op}");
    }
    let words = "and its request bodies' and parameters' schemas keep ";
    let (stderr, note) = built.size_note(words);
    assert!(note.contains("the OpenAPI document would be"), "{note}");
    assert_eq!(levels_kept(&note, words), 2, "{note}");
    let outputs_alone = "its response schemas keep 1 level of fields, the";
    assert!(!stderr.contains(outputs_alone), "{stderr}");
}

/// The number of levels a levels-of-fields note says, after `words`.
fn levels_kept(note: &str, words: &str) -> usize {
    note.split(words)
        .nth(1)
        .and_then(|rest| rest.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {words:?} and a number in {note}"))
}

/// Components `C{c}_{k}` for chains `c` of seven: each an object with sixteen string fields
/// and, but the last, the next in `next`.
fn chains(count: usize) -> serde_json::Map<String, Value> {
    let mut components = serde_json::Map::new();
    for c in 0..count {
        for k in 0..7 {
            let mut props: serde_json::Map<String, Value> = (0..16)
                .map(|j| (format!("f{c}_{k}_{j}"), json!({"type": "string"})))
                .collect();
            if k < 6 {
                let next = format!("#/components/schemas/C{c}_{}", k + 1);
                props.insert("next".into(), json!({ "$ref": next }));
            }
            components.insert(
                format!("C{c}_{k}"),
                json!({"type": "object", "properties": props}),
            );
        }
    }
    components
}

/// Responses that are the same chains of components entered at different links (as a real
/// API's `Account` is reached from its own operation and from inside an `Order`): the import
/// expands each only five levels deep from where it is entered, so the same component comes
/// out cut at different depths, and the copies share nothing. With nothing else left to
/// leave out, the OpenAPI and AGIS documents keep as many levels of fields as fit within the
/// source (fields below become `{}`, any value), with a note, and stay valid; every operation
/// and each response's top fields stay.
#[test]
fn output_schemas_keep_the_levels_that_fit_when_nothing_else_is_left() {
    let mut paths = serde_json::Map::new();
    for c in 0..40 {
        for start in [0, 1, 2] {
            let schema = json!({"$ref": format!("#/components/schemas/C{c}_{start}")});
            paths.insert(
                format!("/v1/chains{c}/from{start}"),
                json!({"get": {"responses": {"200": {"description": "OK", "content": {
                    "application/json": {"schema": schema},
                }}}}}),
            );
        }
    }
    let built = build_compact_with("Chains", paths, json!({"schemas": chains(40)}));
    let text = String::from_utf8(built.within("openapi.json").to_vec()).unwrap();
    let spec_read = oas3::from_json(&text).expect("oas3 reads it");
    assert_eq!(spec_read.operations().count(), 120);
    let oas: Value = serde_json::from_str(&text).unwrap();
    built.valid_agis();
    let (stderr, note) = built.size_note("its response schemas keep");
    for document in ["the OpenAPI document", "the AGIS document"] {
        let note = stderr
            .lines()
            .find(|l| l.contains(document) && l.contains(" level"))
            .unwrap_or_else(|| panic!("{document}: {stderr}"));
        assert!(
            note.contains("schemas below becoming `{}` (any value)"),
            "{note}"
        );
        assert!(
            note.contains("with no description left to leave out"),
            "{note}"
        );
    }
    assert!(note.contains("larger than its"), "{note}");
    let said = levels_kept(&note, "its response schemas keep ");
    // Each response keeps its own top fields with their types, and the levels the note says
    // below them: the last kept level's fields are `{}`.
    let resolve = |s: &Value| -> Value {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) => oas.pointer(&r[1..]).unwrap().clone(),
            None => s.clone(),
        }
    };
    for (path, item) in oas["paths"].as_object().unwrap() {
        let mut schema =
            resolve(&item["get"]["responses"]["200"]["content"]["application/json"]["schema"]);
        let mut typed_levels = 0;
        while let Some(props) = schema.get("properties").and_then(Value::as_object) {
            let typed = props
                .values()
                .filter(|p| resolve(p).get("type").is_some())
                .count();
            if typed == 0 {
                break;
            }
            typed_levels += 1;
            let Some(next) = props.get("next") else { break };
            schema = resolve(next);
        }
        assert_eq!(typed_levels, said, "{path}: {item}");
    }
}

/// A request body of form `k`: 8 fields, each a list of objects with 6 fields of their own
/// that take one of 6 values (an array's `items` is a level of its own).
fn nested_form(k: usize) -> Value {
    let item = |j: usize| {
        let fields: serde_json::Map<String, Value> = (0..6)
            .map(|i| {
                let values: Vec<String> = (0..6).map(|v| format!("choice_{i}_{v}")).collect();
                (
                    format!("f{k}_{j}_{i}"),
                    json!({"type": "string", "enum": values}),
                )
            })
            .collect();
        json!({"type": "object", "properties": fields})
    };
    let lists: serde_json::Map<String, Value> = (0..8)
        .map(|j| {
            (
                format!("f{k}_{j}"),
                json!({"type": "array", "items": item(j)}),
            )
        })
        .collect();
    json!({"type": "object", "properties": lists})
}

/// The same for inputs: the source's request bodies are components, each used by the three
/// operations that write one form. The MCP tools list repeats each in every tool (an input
/// schema stands alone), so with every description gone it keeps the levels of fields that
/// fit, with a note; every tool, field and its fields stay, and it stays a valid tools list.
#[test]
fn mcp_input_schemas_keep_the_levels_that_fit_when_nothing_else_is_left() {
    let mut paths = serde_json::Map::new();
    let mut forms = serde_json::Map::new();
    for k in 0..40 {
        forms.insert(format!("Form{k}"), nested_form(k));
        let body = json!({"content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/Form{k}")}}}});
        let write = json!({"requestBody": body, "responses": {"204": {"description": "Done"}}});
        paths.insert(format!("/v1/forms{k}"), json!({"post": write}));
        paths.insert(format!("/v1/forms{k}/{{id}}"), json!({
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "put": write, "patch": write,
        }));
    }
    let built = build_compact_with("Forms", paths, json!({"schemas": forms}));
    let tools: Value = serde_json::from_slice(built.tools_within()).unwrap();
    let errors = schema_errors(&mcp_validator("ListToolsResult"), &tools);
    assert!(errors.is_empty(), "{errors:?}");
    let (stderr, note) = built.size_note("the tools' input schemas keep");
    assert!(note.contains("the MCP tools list would be"), "{note}");
    let said = levels_kept(&note, "the tools' input schemas keep ");
    assert_eq!(said, 2, "{note}");
    let tools = tools["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 120);
    for t in tools {
        // The body's fields are the input's properties (level 1, beside `id`): each keeps
        // its type and its items' type (level 2); the items' fields, level 3, are `{}`.
        let props = t["inputSchema"]["properties"].as_object().unwrap();
        let lists: Vec<&Value> = props
            .iter()
            .filter(|(n, _)| *n != "id")
            .map(|(_, v)| v)
            .collect();
        assert_eq!(lists.len(), 8, "{t}");
        for list in lists {
            assert_eq!(list["type"], "array", "{t}");
            assert_eq!(list["items"]["type"], "object", "{t}");
            let fields = list["items"]["properties"].as_object().unwrap();
            assert_eq!(fields.len(), 6, "{t}");
            assert!(fields.values().all(|f| *f == json!({})), "{t}");
        }
    }
    // OpenAPI and AGIS refer to each body once, with nothing cut from them.
    assert!(!stderr.contains("the endpoints' outputs keep"), "{stderr}");
}

// ---- named schemas: `[schemas]` in service.toml, kept by an import (values::schemas) ----------

/// Books that name their author, and authors that list their books: named schemas in a cycle.
const BOOKS_AND_AUTHORS: &str = r##"
[schemas.Book]
type = "object"
required = ["id", "title"]
properties = { id = { type = "string" }, title = { type = "string" }, author = { "$ref" = "#/schemas/Author" } }

[schemas.Author]
type = "object"
properties = { name = { type = "string" }, books = { type = "array", items = { "$ref" = "#/schemas/Book" } } }
"##;

/// A service.toml (in a fresh folder) whose first capability lists books of the named schema
/// `book`, followed by `rest`.
fn library(book: &str, rest: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let work = tempfile::tempdir().unwrap();
    let toml = work.path().join("service.toml");
    let text = format!(
        r##"[service]
name = "Library"
description = "Lists the books of a small library and who wrote them."
base_url = "https://api.library.example.com"

[[capabilities]]
id = "list_books"
description = "List every book of the library"
path = "/books"
output_schema = {{ type = "array", items = {{ "$ref" = "#/schemas/{book}" }} }}
"##
    );
    std::fs::write(&toml, text + rest).unwrap();
    (work, toml)
}

/// A hand-written service.toml names its shapes once in `[schemas]`: OpenAPI and AGIS publish
/// each one its capabilities reach under its name, cycles included; ia.json, which has no
/// references, writes each response whole, the cycle cut.
#[test]
fn named_schemas_of_a_service_toml_are_published_by_name_and_inlined_where_they_must_be() {
    let (_work, toml) = library(
        "Book",
        &(r##"
[[capabilities]]
id = "get_author"
description = "Get one author and the books they wrote"
path = "/authors/:id"
params = { id = "string, required -- the author" }
output_schema = { "$ref" = "#/schemas/Author" }

[schemas.Unused]
type = "string"
"##
        .to_string()
            + BOOKS_AND_AUTHORS),
    );
    let out = build(&toml, &[]);
    let read = |p: &str| read_json(&out.path().join(p));
    let oas = read("openapi.json");
    let components = oas["components"]["schemas"].as_object().unwrap();
    assert_eq!(components.keys().collect::<Vec<_>>(), ["Book", "Author"]);
    assert_eq!(
        components["Book"]["properties"]["author"],
        json!({"$ref": "#/components/schemas/Author"})
    );
    let list = &oas["paths"]["/books"]["get"]["responses"]["200"]["content"]["application/json"];
    assert_eq!(
        list["schema"],
        json!({"type": "array", "items": {"$ref": "#/components/schemas/Book"}})
    );
    let agis = read(".well-known/agis/service.agis.json");
    assert_eq!(
        agis["schemas"]["Author"]["properties"]["books"]["items"],
        json!({"$ref": "#/schemas/Book"})
    );
    let violations = support_agis::validate(&agis);
    assert!(violations.is_empty(), "{violations:?}");
    let ia = read("ia.json");
    let text = ia.to_string();
    assert!(!text.contains("$ref"), "{text}");
    assert!(
        text.contains("circular reference to `Author`; not expanded"),
        "{text}"
    );
}

/// A parameter's schema may refer to named schemas, whole (`schema = { "$ref" = … }`) or in
/// its fields: OpenAPI and AGIS publish them by name, the MCP tool carries them in its own
/// `$defs` (it stands alone), and the notation, which has no references, reads through them.
#[test]
fn a_parameter_that_refers_to_named_schemas_is_read_through_them_by_every_document() {
    let (_work, toml) = library(
        "Book",
        &(r##"
[[capabilities]]
id = "add_book"
description = "Add a book to the library"
method = "POST"
path = "/books"

[capabilities.params]
book = { type = "object", required = true, description = "the book", schema = { "$ref" = "#/schemas/Book" } }
shelves = { type = "array", schema = { items = { "$ref" = "#/schemas/Shelf" } } }

[schemas.Shelf]
type = "string"
enum = ["fiction", "poetry"]
"##
        .to_string()
            + BOOKS_AND_AUTHORS),
    );
    let out = build(&toml, &[]);
    let read = |p: &str| read_json(&out.path().join(p));
    let oas = read("openapi.json");
    let body =
        &oas["paths"]["/books"]["post"]["requestBody"]["content"]["application/json"]["schema"];
    assert_eq!(
        body["properties"]["book"]["$ref"], "#/components/schemas/Book",
        "{body}"
    );
    assert_eq!(
        body["properties"]["shelves"]["items"],
        json!({"$ref": "#/components/schemas/Shelf"})
    );
    let components = oas["components"]["schemas"].as_object().unwrap();
    for name in ["Book", "Author", "Shelf"] {
        assert!(components.contains_key(name), "{name}: {components:?}");
    }
    let agis = read(".well-known/agis/service.agis.json");
    let input = &agis["endpoints"][1]["input"];
    assert_eq!(
        input["properties"]["book"]["$ref"], "#/schemas/Book",
        "{input}"
    );
    assert_eq!(
        agis["schemas"]["Shelf"]["enum"],
        json!(["fiction", "poetry"])
    );
    let violations = support_agis::validate(&agis);
    assert!(violations.is_empty(), "{violations:?}");

    // The tool's input schema stands alone: what the named schemas require, it requires.
    let tools = read(".well-known/mcp/tools.json");
    let add = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["inputSchema"]["properties"]["book"].is_object())
        .expect("the add_book tool");
    let schema = &add["inputSchema"];
    assert!(!schema.to_string().contains("#/schemas/"), "{schema}");
    let defs = schema["$defs"].as_object().unwrap();
    for name in ["Book", "Author", "Shelf"] {
        assert!(defs.contains_key(name), "{name}: {schema}");
    }
    let validator = jsonschema::options().build(schema).unwrap();
    let good = json!({"book": {"id": "b1", "title": "Dune"}, "shelves": ["fiction"]});
    assert!(validator.is_valid(&good), "{schema}");
    for bad in [
        json!({"book": {"id": "b1"}}),
        json!({"book": {"id": "b1", "title": "Dune", "author": {"books": [{"id": 1}]}}}),
        json!({"book": {"id": "b1", "title": "Dune"}, "shelves": ["cookery"]}),
    ] {
        assert!(!validator.is_valid(&bad), "{bad} against {schema}");
    }

    // The notation has no references: it says the fields and values they stand for.
    let ai: Value = read(".well-known/ai");
    let text = ai.to_string();
    assert!(!text.contains("$ref"), "{text}");
    let add = ai["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "add_book")
        .unwrap();
    let book = add["params"]["book"].as_str().unwrap();
    assert!(book.contains("id") && book.contains("title"), "{book}");
    let shelves = add["params"]["shelves"].as_str().unwrap();
    assert!(shelves.contains("fiction"), "{shelves}");
    // The skill's example call sends the fields the named schema requires.
    let skill =
        std::fs::read_to_string(out.path().join(".well-known/agent-skills/library/SKILL.md"))
            .unwrap();
    assert!(
        skill.contains(r#"{"book":{"id":"example","title":"example"}}"#),
        "{skill}"
    );
}

/// A reference to a name `[schemas]` does not define is an error at the field that holds it,
/// in a capability and in another named schema alike; so are names that only refer to one
/// another.
#[test]
fn a_reference_to_an_undefined_named_schema_is_an_error_at_its_field() {
    let (_work, toml) = library(
        "Bok",
        r##"
[schemas.Book]
type = "object"
properties = { author = { "$ref" = "#/schemas/Writer" } }

[[capabilities]]
id = "add_book"
description = "Add a book to the library"
method = "POST"
path = "/books"
params = { book = { type = "object", schema = { "$ref" = "#/schemas/Boook" } } }

[schemas.Loop]
"$ref" = "#/schemas/Round"

[schemas.Round]
"$ref" = "#/schemas/Loop"
"##,
    );
    let (code, _, stderr) = crate::common::run(crate::common::wellgen().arg("check").arg(&toml));
    assert_eq!(code, 1, "{stderr}");
    for (field, name) in [
        ("capabilities.0.output_schema", "Bok"),
        ("schemas.Book", "Writer"),
        ("capabilities.1.params.book.schema", "Boook"),
    ] {
        let message = format!("refers to `#/schemas/{name}`, which `[schemas]` does not define");
        let at = stderr
            .find(&message)
            .unwrap_or_else(|| panic!("{message}: {stderr}"));
        assert!(
            stderr[at..].contains(&format!("= field: {field}")),
            "{field}: {stderr}"
        );
    }
    assert!(stderr.contains("service.toml:10:"), "{stderr}");
    // Names that only refer to one another say nothing of a value: an error at each.
    let message = "is only a reference, and its references lead back to it";
    assert_eq!(stderr.matches(message).count(), 2, "{stderr}");
    for name in ["Loop", "Round"] {
        assert!(
            stderr.contains(&format!("= field: schemas.{name}\n")),
            "{stderr}"
        );
    }
}

/// A service.toml that completes an OpenAPI document replaces an imported component by
/// writing its own under that name.
#[test]
fn a_completing_service_toml_replaces_an_imported_named_schema() {
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        work.path().join("openapi.json"),
        json!({
            "openapi": "3.0.3",
            "info": {"title": "Pets", "version": "1", "description": "Pets of the shop."},
            "servers": [{"url": "https://api.pets.example.com"}],
            "paths": {"/pets/{id}": {"get": {
                "operationId": "getPet",
                "summary": "Get one pet",
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Pet"}
                }}}}
            }}},
            "components": {"schemas": {"Pet": {"type": "object", "properties": {"id": {"type": "string"}}}}}
        })
        .to_string(),
    )
    .unwrap();
    let toml = work.path().join("service.toml");
    std::fs::write(
        &toml,
        "[source]\nopenapi = \"openapi.json\"\n\n[schemas.Pet]\ntype = \"object\"\nrequired = [\"id\"]\nproperties = { id = { type = \"string\" }, name = { type = \"string\" } }\n",
    )
    .unwrap();
    let out = build(&toml, &[]);
    let oas: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("openapi.json")).unwrap()).unwrap();
    let pet = &oas["components"]["schemas"]["Pet"];
    assert_eq!(pet["required"], json!(["id"]), "{pet}");
    assert!(pet["properties"]["name"].is_object(), "{pet}");
}

/// A finding about an imported named schema says which component it came from, as one about a
/// capability says its operation; a schema the completing service.toml replaces is its own.
#[test]
fn a_finding_in_an_imported_schema_names_its_component() {
    const GHP: &str = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    let work = tempfile::tempdir().unwrap();
    let openapi = json!({
        "openapi": "3.0.3",
        "info": {"title": "Charges", "version": "1", "description": "Card charges."},
        "servers": [{"url": "https://pay.example"}],
        "paths": {"/charges/{id}": {"get": {
            "operationId": "getCharge",
            "summary": "Get a charge.",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Charge"}}}}}
        }}},
        "components": {"schemas": {"Charge": {
            "type": "object",
            "description": format!("A charge, made with token {GHP}."),
            "properties": {"id": {"type": "string"}}
        }}}
    });
    std::fs::write(
        work.path().join("pay.json"),
        serde_json::to_vec(&openapi).unwrap(),
    )
    .unwrap();
    let (code, _, stderr) = crate::common::run(
        crate::common::wellgen()
            .current_dir(work.path())
            .args(["check", "pay.json"]),
    );
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("schemas.Charge.description"), "{stderr}");
    assert!(
        stderr.contains("(imported from pay.json#/components/schemas/Charge)"),
        "{stderr}"
    );
    assert!(!stderr.contains("ghp_a1B2"), "{stderr}");

    let toml = work.path().join("service.toml");
    std::fs::write(
        &toml,
        format!(
            "[service]\nname = \"Charges\"\n\n[source]\nopenapi = \"pay.json\"\n\n\
             [schemas.Charge]\ntype = \"object\"\ndescription = \"A charge, token {GHP}.\"\n"
        ),
    )
    .unwrap();
    let (code, _, stderr) = crate::common::run(
        crate::common::wellgen()
            .current_dir(work.path())
            .args(["check", "service.toml"]),
    );
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("schemas.Charge.description"), "{stderr}");
    assert!(!stderr.contains("imported from"), "{stderr}");
}
