//! Round trip (issue 5): an OpenAPI 3.0, 3.1 or Swagger 2.0 input, imported, lowered and written
//! back as OpenAPI 3.1, keeps every operation (method + path), every parameter (name + location)
//! and every security requirement of the input. Input and output are compared structurally: the
//! input is read here with its own small `$ref` follower, not with the importer's.
//!
//! What the importer leaves out on purpose, always with a warning (docs/openapi-import.md), is
//! left out of the comparison too and listed in `expected_operations`/`expected_params`: the
//! `head`/`options`/`trace` methods, cookie parameters, and the `Accept`, `Content-Type` and
//! `Authorization` headers OpenAPI itself says are ignored. Parameter names outside
//! `[A-Za-z0-9_-]` are compared in the spelling the import gives them (`_` for each such
//! character).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;
use wellgen::diag::Diagnostics;
use wellgen::source::openapi::{self, Options, load};

/// The inputs: the import fixtures that build, and real documents copied from the shared
/// corpus (tests/fixtures/import-README.md names their sources).
const INPUTS: [&str; 19] = [
    "import-petstore30/openapi.yaml",
    "import-petstore30/openapi.json",
    "import-openapi31/openapi.yaml",
    "import-openapi31/openapi.json",
    "import-swagger20/swagger.yaml",
    "import-swagger20/swagger.json",
    "import-refs-external/api/openapi.yaml",
    "import-refs-circular/openapi.yaml",
    "import-naming/openapi.yaml",
    "import-overlay/openapi.yaml",
    "import-real-adyen/TransactionService-v4.yaml",
    "import-real-1forge/swagger.yaml",
    "import-real-circular/circular.yaml",
    "import-real-nytimes/openapi.yaml",
    "import-roundtrip-corpus/adyen-RaiseDisputesService-v2.yaml",
    "import-roundtrip-corpus/apisguru-adyen-TestCardService-1.yaml",
    "import-roundtrip-corpus/apisguru-amazonaws-mobileanalytics.yaml",
    "import-roundtrip-corpus/apisguru-googleapis-cloudprofiler-v2.yaml",
    "import-roundtrip-corpus/apisguru-gov.bc.ca-bcdc-3.0.1.yaml",
];

const METHODS: [&str; 5] = ["get", "put", "post", "delete", "patch"];
const IGNORED_HEADERS: [&str; 3] = ["accept", "content-type", "authorization"];

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    load::parse_text(&text, &path.display().to_string())
        .unwrap_or_else(|d| panic!("{}: {}", path.display(), d.message))
}

/// Follows `$ref`s (local pointers and files relative to the referring file) until a value
/// that is not a reference; returns it with the file it sits in.
fn deref(file: &Path, value: &Value) -> (PathBuf, Value) {
    let (mut file, mut value) = (file.to_path_buf(), value.clone());
    for _ in 0..32 {
        let Some(r) = value.get("$ref").and_then(Value::as_str) else {
            return (file, value);
        };
        let (target, pointer) = r.split_once('#').unwrap_or((r, ""));
        if !target.is_empty() {
            file = file.parent().unwrap().join(target);
        }
        let doc = read(&file);
        value = doc
            .pointer(&pointer.replace("%7B", "{").replace("%7D", "}"))
            .unwrap_or_else(|| panic!("{}: `{r}` points to nothing", file.display()))
            .clone();
    }
    panic!("{}: a chain of more than 32 refs", file.display());
}

/// A parameter name as the import spells it.
fn import_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A path with its parameter names spelt as the import spells them, any query string or
/// fragment written into it dropped (AWS writes `/events#x-amz-Client-Context`).
fn import_path(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push('{');
        out.push_str(&import_name(&rest[open + 1..open + close]));
        out.push('}');
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// One operation as compared: its parameters (name, location), whether it takes a body, and
/// its effective security (`None` = public; else the scheme *types* required, with scopes).
#[derive(Debug, Default, PartialEq)]
struct Op {
    params: BTreeSet<(String, String)>,
    body: bool,
    security: Option<Vec<BTreeMap<String, BTreeSet<String>>>>,
}

/// Security requirements with scheme names replaced by what the scheme is (`apiKey:header:X-Key`,
/// `http:bearer`, `oauth2`), so that the importer's renaming of schemes does not count.
fn requirements(
    reqs: Option<&Value>,
    kind_of: &BTreeMap<String, String>,
) -> Option<Vec<BTreeMap<String, BTreeSet<String>>>> {
    let list = reqs?.as_array()?;
    if list.is_empty()
        || list
            .iter()
            .any(|r| r.as_object().is_some_and(|o| o.is_empty()))
    {
        return None;
    }
    Some(
        list.iter()
            .map(|r| {
                r.as_object()
                    .unwrap()
                    .iter()
                    .map(|(name, scopes)| {
                        let kind = kind_of
                            .get(name)
                            .cloned()
                            .unwrap_or(format!("unknown:{name}"));
                        let scopes = scopes
                            .as_array()
                            .map(|s| {
                                s.iter()
                                    .filter_map(|v| v.as_str().map(String::from))
                                    .collect()
                            })
                            .unwrap_or_default();
                        (kind, scopes)
                    })
                    .collect()
            })
            .collect(),
    )
}

fn scheme_kind(scheme: &Value) -> String {
    match scheme["type"].as_str().unwrap_or_default() {
        "apiKey" => format!(
            "apiKey:{}:{}",
            scheme["in"].as_str().unwrap_or_default(),
            scheme["name"]
                .as_str()
                .unwrap_or_default()
                .to_ascii_lowercase()
        ),
        "http" => format!(
            "http:{}",
            scheme["scheme"]
                .as_str()
                .unwrap_or_default()
                .to_ascii_lowercase()
        ),
        "basic" => "http:basic".into(),
        other => other.to_string(),
    }
}

/// Every operation of an OpenAPI document (any version), keyed by (method, path).
fn operations(file: &Path) -> BTreeMap<(String, String), Op> {
    let doc = read(file);
    let swagger = doc.get("swagger").is_some();
    let schemes = if swagger {
        doc.get("securityDefinitions")
    } else {
        doc.pointer("/components/securitySchemes")
    };
    let kind_of: BTreeMap<String, String> = schemes
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(name, s)| (name.clone(), scheme_kind(&deref(file, s).1)))
                .collect()
        })
        .unwrap_or_default();
    let mut out = BTreeMap::new();
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
        return out;
    };
    for (path, item) in paths {
        let (item_file, item) = deref(file, item);
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            let (op_file, op) = deref(&item_file, op);
            let mut params = BTreeMap::new();
            let mut body = op.get("requestBody").is_some();
            for (f, list) in [
                (&item_file, item.get("parameters")),
                (&op_file, op.get("parameters")),
            ] {
                for p in list.and_then(Value::as_array).into_iter().flatten() {
                    let (_, p) = deref(f, p);
                    let name = p["name"].as_str().unwrap_or_default().to_string();
                    let location = p["in"].as_str().unwrap_or_default().to_string();
                    match location.as_str() {
                        "body" | "formData" => body = true,
                        "cookie" => {}
                        "header"
                            if IGNORED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) => {}
                        _ => {
                            // Operation parameters override path-item ones of the same name and place.
                            params.insert((import_name(&name), location.clone()), ());
                        }
                    }
                }
            }
            let security = requirements(op.get("security").or(doc.get("security")), &kind_of);
            out.insert(
                (method.to_string(), import_path(path)),
                Op {
                    params: params.into_keys().collect(),
                    body,
                    security,
                },
            );
        }
    }
    out
}

/// Imports `file` (with `base_url` and `[auth]` supplied when the document has none usable, as a
/// completing service.toml would) and returns the OpenAPI 3.1 document wellgen writes for it.
fn round_trip(file: &Path) -> Value {
    let mut diags = Diagnostics::default();
    let imported = openapi::import_file(file, &Options::default(), &mut diags)
        .unwrap_or_else(|| panic!("{}: {:#?}", file.display(), messages(&diags)));
    let mut doc = imported.doc;
    for (key, d) in imported.deferred {
        if key == "service.base_url" {
            doc.service.base_url = Some("https://api.example.com".into());
        } else if key == "auth" {
            let auth = serde_json::json!({ "type": "api_key", "header": "X-Api-Key" });
            doc.auth = Some(serde_json::from_value(auth).unwrap());
        } else {
            diags.push(d);
        }
    }
    let service = wellgen::model::lower(doc, &mut diags)
        .unwrap_or_else(|| panic!("{}: {:#?}", file.display(), messages(&diags)));
    let out = wellgen::emit::targets::openapi::document(&service, &mut diags);
    assert!(
        !diags.has_errors(),
        "{}: {:#?}",
        file.display(),
        messages(&diags)
    );
    // What an OpenAPI 3.1 reader makes of it.
    let text = serde_json::to_string(&out).unwrap();
    let spec = oas3::from_json(&text).unwrap_or_else(|e| panic!("{}: oas3: {e}", file.display()));
    spec.validate_version().expect("3.1");
    out
}

fn messages(diags: &Diagnostics) -> Vec<String> {
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

/// The written document, read back as the input was. A file beside nothing: refs are local.
fn output_operations(out: &Value) -> BTreeMap<(String, String), Op> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.json");
    std::fs::write(&path, serde_json::to_vec(out).unwrap()).unwrap();
    operations(&path)
}

/// The published schemes' kinds (every scheme the input requires is carried, the first one
/// as the primary).
fn published(out: &Value) -> Vec<String> {
    let Some(schemes) = out
        .pointer("/components/securitySchemes")
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    schemes.values().map(scheme_kind).collect()
}

fn compare(file: &Path) -> Vec<String> {
    let input = operations(file);
    assert!(!input.is_empty(), "{}: no operations read", file.display());
    let out = round_trip(file);
    let output = output_operations(&out);
    let scheme = published(&out);
    let mut problems = Vec::new();
    for (key, want) in &input {
        let Some(got) = output.get(key) else {
            problems.push(format!("{} {}: operation lost", key.0, key.1));
            continue;
        };
        for p in want.params.difference(&got.params) {
            problems.push(format!("{} {}: parameter {p:?} lost", key.0, key.1));
        }
        for p in got.params.difference(&want.params) {
            problems.push(format!("{} {}: parameter {p:?} added", key.0, key.1));
        }
        if want.body != got.body {
            problems.push(format!(
                "{} {}: request body {} in the input, {} in the output",
                key.0, key.1, want.body, got.body
            ));
        }
        match (&want.security, &got.security) {
            (None, None) => {}
            (None, Some(_)) => problems.push(format!(
                "{} {}: public in the input, not in the output",
                key.0, key.1
            )),
            (Some(_), None) => problems.push(format!(
                "{} {}: requires auth in the input, public in the output",
                key.0, key.1
            )),
            (Some(w), Some(g)) => {
                // Every alternative of the input naming the published scheme survives with its
                // scopes.
                for (alt, kind) in w.iter().flat_map(|a| scheme.iter().map(move |k| (a, k))) {
                    let Some(scopes) = alt.get(kind) else {
                        continue;
                    };
                    let kept = g
                        .iter()
                        .any(|a| a.get(kind).is_some_and(|s| s.is_superset(scopes)));
                    if !kept {
                        problems.push(format!(
                            "{} {}: requirement {kind} {scopes:?} lost (output {g:?})",
                            key.0, key.1
                        ));
                    }
                }
            }
        }
    }
    for key in output.keys().filter(|k| !input.contains_key(*k)) {
        problems.push(format!("{} {}: operation added", key.0, key.1));
    }
    problems
}

#[test]
fn every_operation_parameter_and_requirement_survives() {
    let mut versions = BTreeSet::new();
    let mut failures = Vec::new();
    let mut operations_checked = 0;
    for rel in INPUTS {
        let file = fixture(rel);
        let doc = read(&file);
        let version = doc
            .get("openapi")
            .or(doc.get("swagger"))
            .and_then(Value::as_str)
            .unwrap()
            .chars()
            .take(3)
            .collect::<String>();
        versions.insert(version);
        operations_checked += operations(&file).len();
        let problems = compare(&file);
        if !problems.is_empty() {
            failures.push(format!("{rel}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        versions,
        BTreeSet::from(["2.0".into(), "3.0".into(), "3.1".into()]),
        "every version is in the set"
    );
    assert!(
        operations_checked >= 80,
        "only {operations_checked} operations"
    );
}

/// The comparison itself can fail: an operation, a parameter and a requirement taken out of
/// the output are each reported.
#[test]
fn the_comparison_sees_losses() {
    let file = fixture("import-petstore30/openapi.yaml");
    let input = operations(&file);
    let mut out = round_trip(&file);
    let before = output_operations(&out);
    assert_eq!(before.len(), input.len());
    // Take one operation, one parameter and one requirement out.
    let paths = out["paths"].as_object_mut().unwrap();
    let (first_path, _) = paths
        .iter()
        .next()
        .map(|(k, v)| (k.clone(), v.clone()))
        .unwrap();
    let item = paths[&first_path].as_object_mut().unwrap();
    let method = item.keys().next().unwrap().clone();
    item.remove(&method);
    let mut took_param = false;
    let mut took_security = false;
    for item in paths.values_mut() {
        for op in item.as_object_mut().unwrap().values_mut() {
            if !took_param && op.get("parameters").is_some() {
                op["parameters"].as_array_mut().unwrap().pop();
                took_param = true;
            }
            if !took_security
                && op
                    .get("security")
                    .is_some_and(|s| s.as_array().is_some_and(|a| !a.is_empty()))
            {
                op.as_object_mut()
                    .unwrap()
                    .insert("security".into(), Value::Array(Vec::new()));
                took_security = true;
            }
        }
    }
    assert!(
        took_param && took_security,
        "the fixture has a parameter and a requirement to take"
    );
    let after = output_operations(&out);
    let lost: Vec<_> = input.keys().filter(|k| !after.contains_key(*k)).collect();
    assert_eq!(lost.len(), 1);
    let changed = input
        .iter()
        .filter(|(k, v)| after.get(*k).is_some_and(|o| o != *v))
        .count();
    assert!(
        changed >= 2,
        "a parameter and a requirement were taken out: {changed} changed"
    );
}
