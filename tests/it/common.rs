//! Shared test support: running the binary, blessing goldens, comparing folders, JSON Schemas.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The wellgen binary with a clean, deterministic environment.
pub fn wellgen() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wellgen"));
    cmd.env_remove("SOURCE_DATE_EPOCH");
    // A host's build environment picks the host (pipeline::host_from_env): tests set it themselves.
    for var in ["NETLIFY", "CF_PAGES", "VERCEL"] {
        cmd.env_remove(var);
    }
    cmd
}

pub fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().expect("wellgen runs");
    (
        status.code().expect("wellgen exits, not killed"),
        String::from_utf8(stdout).expect("stdout is UTF-8"),
        String::from_utf8(stderr).expect("stderr is UTF-8"),
    )
}

pub fn blessing() -> bool {
    std::env::var_os("WELLGEN_BLESS").is_some_and(|v| v == "1")
}

/// Every file below `dir`, by relative path, with its bytes.
pub fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    if !dir.exists() {
        return out;
    }
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.expect("walk");
        if entry.file_type().is_file() {
            let rel = entry
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(rel, std::fs::read(entry.path()).unwrap());
        }
    }
    out
}

/// Compares two folders file by file; lists changed, missing and extra files.
pub fn diff_dirs(actual: &Path, expected: &Path) -> Vec<String> {
    let (a, e) = (files(actual), files(expected));
    let mut problems = Vec::new();
    for (path, bytes) in &e {
        match a.get(path) {
            None => problems.push(format!("missing: {path}")),
            Some(b) if b != bytes => problems.push(format!(
                "changed: {path}\n--- expected\n{}\n--- actual\n{}",
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(b)
            )),
            Some(_) => {}
        }
    }
    for path in a.keys().filter(|p| !e.contains_key(*p)) {
        problems.push(format!("extra: {path}"));
    }
    problems
}

/// Replaces `expected` with a copy of `actual`.
pub fn bless_dir(actual: &Path, expected: &Path) {
    let _ = std::fs::remove_dir_all(expected);
    for (path, bytes) in files(actual) {
        let dest = expected.join(&path);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::write(dest, bytes).unwrap();
    }
}

pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A validator for a single-file JSON Schema under tests/schemas, formats asserted.
pub fn schema_validator(rel: &str) -> jsonschema::Validator {
    let schema = read_json(&root().join("tests/schemas").join(rel));
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{rel} compiles: {e}"))
}

pub fn schema_errors(v: &jsonschema::Validator, doc: &serde_json::Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Every service.toml the suite builds: the examples and the fixtures.
pub fn sources() -> Vec<PathBuf> {
    sources_with_fixtures("")
}

/// The examples, and the fixtures whose folder name starts with `prefix`.
pub fn sources_with_fixtures(prefix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (dir, prefix) in [("examples", ""), ("tests/fixtures", prefix)] {
        let entries = std::fs::read_dir(root().join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
        let mut entries: Vec<_> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
            })
            .collect();
        entries.sort();
        let before = out.len();
        out.extend(
            entries
                .into_iter()
                .map(|p| p.join("service.toml"))
                .filter(|p| p.exists()),
        );
        // Callers loop over what is found: finding nothing must fail, not pass.
        assert!(out.len() > before, "no {dir}/{prefix}*/service.toml");
    }
    out
}

/// Builds `source` into a fresh temporary folder and returns it.
pub fn build(source: &Path, extra: &[&str]) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(source)
        .arg("-o")
        .arg(out.path())
        .args(extra));
    assert_eq!(code, 0, "building {} failed:\n{stderr}", source.display());
    out
}

/// A JSON array of strings, sorted (e.g. a schema's `required`, whose order is not asserted).
pub fn sorted_strs(v: &serde_json::Value) -> Vec<&str> {
    let mut out: Vec<&str> = v
        .as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string"))
        .collect();
    out.sort();
    out
}

/// The ia.json root schema with each `defs/` file registered under its `$id`, so its relative
/// `$ref`s resolve locally; `formats`: whether formats are assertions.
pub fn iajson_validator(formats: bool) -> jsonschema::Validator {
    let dir = root().join("tests/schemas/iajson");
    let mut registry = jsonschema::Registry::new();
    for name in [
        "common",
        "site",
        "api",
        "auth",
        "security",
        "capabilities",
        "webhooks",
        "metadata",
    ] {
        let schema = read_json(&dir.join(format!("defs/{name}.schema.json")));
        let id = schema["$id"]
            .as_str()
            .expect("every def has an $id")
            .to_owned();
        registry = registry.add(id, schema).expect("def registers");
    }
    let registry = registry.prepare().expect("registry resolves");
    jsonschema::options()
        .with_registry(&registry)
        .should_validate_formats(formats)
        .build(&read_json(&dir.join("ia.schema.json")))
        .expect("ia.json schema compiles")
}

/// The MCP schema file has no root schema: one of its `$defs` (e.g. `ListToolsResult`).
pub fn mcp_validator(def: &str) -> jsonschema::Validator {
    let mut schema = read_json(&root().join("tests/schemas/mcp/schema.json"));
    schema
        .as_object_mut()
        .expect("the MCP schema is an object")
        .insert("$ref".into(), format!("#/$defs/{def}").into());
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the MCP schema compiles")
}

/// The ar-agents JSON Schema of agents.json, as a document must pass it: whole for one that
/// claims it (`$schema`), else less its `issuer` requirement (RFC-002 asks for no issuer, and a
/// document without one claims no schema).
pub fn agents_schema(claimed: bool) -> serde_json::Value {
    let mut schema = read_json(&root().join("tests/schemas/rfc002/agents.v1.json"));
    if !claimed {
        schema["required"]
            .as_array_mut()
            .expect("the schema lists what it requires")
            .retain(|r| r != "issuer");
    }
    schema
}
