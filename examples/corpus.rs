//! Imports every OpenAPI document under a folder, builds every target from it through the
//! library, checks every built document against the schemas and checkers we hold, and prints
//! counts: built, rejected by reason, invalid outputs, panics (each file runs under
//! `catch_unwind`, so one panic is counted, not fatal). Exits 1 on any invalid output or panic.
//!
//! `cargo run --release --example corpus -- /work/shared/corpus` (scripts/check-corpus)
//!
//! The checks, every JSON Schema with its formats asserted (a URI must be a URI, an e-mail an
//! address): `/.well-known/ai` against the aiendpoint draft's schema, `/ia.json` against the
//! ia.json registry of schemas, `agents.json` against RFC-002's agents.v1.json, the MCP tools
//! list against the MCP schema's `ListToolsResult`, ADP and AGIS through the test suite's
//! checkers (tests/it/support_adp.rs, tests/it/support_agis.rs; the AGIS YAML twin equal to its
//! JSON), the OpenAPI document re-read by `oas3` with every operation's parameters and body
//! resolved;
//! every JSON artifact parses, and documents published at two paths are identical.
//!
//! The size rule (docs/openapi-import.md): a source of at least `LARGE` bytes is built into no
//! file larger than itself; every file over it is listed and fails the run.
//!
//! Files that are not entry documents (fragments of multi-file APIs, reached only by `$ref`)
//! are counted apart. Each document is also built a second time with `base_url` supplied, as a
//! completing service.toml would, to show what the import gives once that one key is set.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;
use wellgen::diag::Diagnostics;
use wellgen::emit::{
    Artifact, Target,
    targets::{adp, agis, ai, ia_json, mcp, openapi, rfc002},
};
use wellgen::source::openapi::{self as import, Options};

/// The ADP and AGIS checkers of the test suite: wellgen checks these rules before writing,
/// these read the written JSON.
#[path = "../tests/it/support_adp.rs"]
#[allow(dead_code)]
mod support_adp;
#[path = "../tests/it/support_agis.rs"]
mod support_agis;

#[derive(Default)]
struct Counts {
    built: usize,
    rejected: BTreeMap<String, usize>,
    /// Files whose build wrote a document some check refuses, with the first problems.
    invalid: Vec<(PathBuf, Vec<String>)>,
    panics: Vec<PathBuf>,
    warnings: usize,
    /// Built sources of at least `LARGE` bytes, and those that wrote a larger file, with them.
    large: usize,
    oversized: Vec<(PathBuf, Vec<String>)>,
    /// Entry documents outside `edge/` (real APIs, not torture tests), and those built.
    real: usize,
    real_built: usize,
}

/// Sources from this size up must build into no file larger than themselves.
const LARGE: usize = 100_000;

enum Outcome {
    Built {
        warnings: usize,
        /// The source is at least `LARGE` bytes: the files larger than it.
        oversized: Option<Vec<String>>,
    },
    Rejected(String),
    Invalid(Vec<String>),
    NotEntry,
}

fn main() {
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpus".into());
    if !Path::new(&root).is_dir() {
        eprintln!("corpus: {root} is not a folder");
        std::process::exit(2);
    }
    let mut files = Vec::new();
    walk(Path::new(&root), &mut files);
    files.sort();
    let checks = Checks::new();
    // Keep panic messages short: the count is what matters, the file is printed below.
    std::panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
    let started = Instant::now();
    let (mut plain, mut with_base) = (Counts::default(), Counts::default());
    let mut fragments = 0;
    let mut slowest = (0.0, PathBuf::new());
    for file in &files {
        let t = Instant::now();
        for (counts, set_base) in [(&mut plain, false), (&mut with_base, true)] {
            let outcome = catch_unwind(AssertUnwindSafe(|| build(file, set_base, &checks)));
            let real = !file.components().any(|c| c.as_os_str() == "edge");
            if real && !matches!(outcome, Ok(Outcome::NotEntry)) {
                counts.real += 1;
                counts.real_built += usize::from(matches!(outcome, Ok(Outcome::Built { .. })));
            }
            match outcome {
                Ok(Outcome::Built {
                    warnings,
                    oversized,
                }) => {
                    counts.built += 1;
                    counts.warnings += warnings;
                    if let Some(files) = oversized {
                        counts.large += 1;
                        if !files.is_empty() {
                            counts.oversized.push((file.clone(), files));
                        }
                    }
                }
                Ok(Outcome::Rejected(reason)) => *counts.rejected.entry(reason).or_default() += 1,
                Ok(Outcome::Invalid(problems)) => counts.invalid.push((file.clone(), problems)),
                Ok(Outcome::NotEntry) => {
                    if !set_base {
                        fragments += 1;
                    }
                }
                Err(_) => counts.panics.push(file.clone()),
            }
        }
        let secs = t.elapsed().as_secs_f64();
        if secs > slowest.0 {
            slowest = (secs, file.clone());
        }
    }
    println!("corpus: {root}");
    println!(
        "files: {} ({} entry documents, {fragments} fragments or other files)",
        files.len(),
        files.len() - fragments
    );
    report("as imported", &plain);
    report("with base_url supplied by service.toml", &with_base);
    println!(
        "time: {:.1}s in all, slowest {:.2}s ({})",
        started.elapsed().as_secs_f64(),
        slowest.0,
        slowest.1.display()
    );
    let failed = [&plain, &with_base]
        .iter()
        .any(|c| !c.panics.is_empty() || !c.invalid.is_empty() || !c.oversized.is_empty());
    if failed {
        println!(
            "FAILED: invalid outputs, panics or files larger than their source (listed above)"
        );
        std::process::exit(1);
    }
}

fn report(title: &str, c: &Counts) {
    let rejected: usize = c.rejected.values().sum();
    println!(
        "\n{title}: built {} (every document valid), rejected {rejected}, invalid outputs {}, panics {} ({} warnings in built ones)",
        c.built,
        c.invalid.len(),
        c.panics.len(),
        c.warnings
    );
    println!(
        "  real APIs (outside edge/, the torture tests): built {} of {} ({:.1}%)",
        c.real_built,
        c.real,
        100.0 * c.real_built as f64 / c.real.max(1) as f64
    );
    let mut reasons: Vec<(&String, &usize)> = c.rejected.iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (reason, n) in reasons {
        println!("  {n:5}  {reason}");
    }
    for (p, problems) in &c.invalid {
        println!("  INVALID  {}", p.display());
        for problem in problems.iter().take(5) {
            println!("           {problem}");
        }
        if problems.len() > 5 {
            println!("           … and {} more", problems.len() - 5);
        }
    }
    for p in &c.panics {
        println!("  PANIC  {}", p.display());
    }
    println!(
        "  sources of {LARGE} bytes or more: {}, with a file larger than the source: {}",
        c.large,
        c.oversized.len()
    );
    for (p, files) in &c.oversized {
        println!("  LARGER  {}: {}", p.display(), files.join(", "));
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("json" | "yaml" | "yml")
        ) {
            out.push(p);
        }
    }
}

fn build(file: &Path, set_base: bool, checks: &Checks) -> Outcome {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Outcome::Rejected("not UTF-8 text".into());
    };
    if !is_entry(&text) {
        return Outcome::NotEntry;
    }
    let mut diags = Diagnostics::default();
    let Some(imported) = import::import_text(Some(file), &text, &Options::default(), &mut diags)
    else {
        return Outcome::Rejected(format!("import: {}", first_error(&diags)));
    };
    let mut doc = if set_base {
        let mut d = imported.doc;
        d.service.base_url = Some("https://api.example.com".into());
        for (key, diag) in imported.deferred {
            if key != "service.base_url" {
                diags.push(diag);
            }
        }
        d
    } else {
        import::finish(imported, &mut diags)
    };
    if diags.has_errors() {
        return Outcome::Rejected(format!("import: {}", first_error(&diags)));
    }
    doc.source = None;
    let Some(service) = wellgen::model::lower(doc, &mut diags) else {
        return Outcome::Rejected(format!("model: {}", first_error(&diags)));
    };
    // The publication checks `wellgen build` runs (secrets, hidden Unicode, local addresses).
    let policy = wellgen::check::Policy {
        allow_secret_like: Vec::new(),
        allow_local: false,
    };
    wellgen::check::run(&service, &policy, &mut diags);
    if diags.has_errors() {
        return Outcome::Rejected(format!("check: {}", first_error(&diags)));
    }
    let artifacts = wellgen::pipeline::emit(&service, &Target::ALL, &mut diags);
    if diags.has_errors() || artifacts.is_empty() {
        return Outcome::Rejected(format!("emit: {}", first_error(&diags)));
    }
    let problems = checks.run(&artifacts);
    if !problems.is_empty() {
        return Outcome::Invalid(problems);
    }
    let oversized = (text.len() >= LARGE).then(|| {
        artifacts
            .iter()
            .filter(|a| a.body.len() > text.len() + binding_bytes(a))
            .map(|a| format!("{} ({} bytes, source {})", a.path, a.body.len(), text.len()))
            .collect()
    });
    Outcome::Built {
        warnings: diags.warning_count(),
        oversized,
    }
}

/// Every schema and checker held for the targets, compiled once.
struct Checks {
    aiendpoint: jsonschema::Validator,
    iajson: jsonschema::Validator,
    /// agents.json as published, formats asserted, as tests/it/rfc002.rs: against the whole
    /// schema when it claims it (`$schema`), else without `issuer`, which RFC-002 itself does
    /// not require and which wellgen leaves out when the author declared none.
    agents: jsonschema::Validator,
    agents_unclaimed: jsonschema::Validator,
    tools: jsonschema::Validator,
}

const SCHEMAS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas");

fn read_schema(rel: &str) -> Value {
    let path = Path::new(SCHEMAS).join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A held schema with formats asserted (uri, uri-reference, email, date-time, …), as a strict
/// consumer validates: under 2020-12 they are only annotations unless asked for.
fn compile(schema: &Value, registry: Option<&jsonschema::Registry>) -> jsonschema::Validator {
    let mut options = jsonschema::options().should_validate_formats(true);
    if let Some(r) = registry {
        options = options.with_registry(r);
    }
    options.build(schema).expect("a held schema compiles")
}

impl Checks {
    fn new() -> Self {
        // ia.json: the root schema with each `defs/` file registered under its `$id`, as
        // tests/it/iajson.rs builds it.
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
            let schema = read_schema(&format!("iajson/defs/{name}.schema.json"));
            let id = schema["$id"]
                .as_str()
                .expect("every def has an $id")
                .to_owned();
            registry = registry.add(id, schema).expect("def registers");
        }
        let registry = registry.prepare().expect("registry resolves");
        // The MCP schema file has no root: point it at ListToolsResult, as tests/it/mcp.rs does.
        let mut tools = read_schema("mcp/schema.json");
        tools
            .as_object_mut()
            .expect("the MCP schema is an object")
            .insert("$ref".into(), "#/$defs/ListToolsResult".into());
        let agents = read_schema("rfc002/agents.v1.json");
        let mut unclaimed = agents.clone();
        unclaimed["required"]
            .as_array_mut()
            .expect("the schema lists what it requires")
            .retain(|r| r != "issuer");
        Self {
            aiendpoint: compile(&read_schema("aiendpoint/schema.json"), None),
            iajson: compile(&read_schema("iajson/ia.schema.json"), Some(&registry)),
            agents: compile(&agents, None),
            agents_unclaimed: compile(&unclaimed, None),
            tools: compile(&tools, None),
        }
    }

    /// Every problem of a build's documents, each naming the document.
    fn run(&self, artifacts: &[Artifact]) -> Vec<String> {
        let mut out = Vec::new();
        let mut json = BTreeMap::new();
        for a in artifacts {
            let is_json = a.serving.as_ref().is_some_and(|s| {
                s.content_type.starts_with("application/") && s.content_type.contains("json")
            });
            if !is_json {
                continue;
            }
            match serde_json::from_slice::<Value>(&a.body) {
                Ok(v) => {
                    json.insert(a.path.as_str(), v);
                }
                Err(e) => out.push(format!("{}: not JSON: {e}", a.path)),
            }
        }
        let get = |path: &str, out: &mut Vec<String>| -> Option<&Value> {
            let v = json.get(path);
            if v.is_none() {
                out.push(format!("{path}: not written"));
            }
            v
        };
        let same = |paths: &[&str], out: &mut Vec<String>| {
            let bodies: Vec<&[u8]> = paths
                .iter()
                .filter_map(|p| artifacts.iter().find(|a| a.path == *p))
                .map(|a| &a.body[..])
                .collect();
            if bodies.len() == paths.len() && bodies.windows(2).any(|w| w[0] != w[1]) {
                out.push(format!("{}: the copies differ", paths.join(" and ")));
            }
        };

        same(&ai::PATHS, &mut out);
        if let Some(doc) = get(ai::PATHS[0], &mut out) {
            schema(&self.aiendpoint, doc, ai::PATHS[0], &mut out);
        }
        same(&ia_json::PATHS, &mut out);
        if let Some(doc) = get(ia_json::PATHS[0], &mut out) {
            schema(&self.iajson, doc, ia_json::PATHS[0], &mut out);
        }
        if let Some(doc) = get(rfc002::AGENTS_PATH, &mut out) {
            let validator = if doc.get("$schema").is_some() {
                &self.agents
            } else {
                &self.agents_unclaimed
            };
            schema(validator, doc, rfc002::AGENTS_PATH, &mut out);
        }
        if let Some(doc) = get(mcp::PATH, &mut out) {
            schema(&self.tools, doc, mcp::PATH, &mut out);
        }
        if let Some(doc) = get(adp::MANIFEST_PATH, &mut out) {
            tagged(
                adp::MANIFEST_PATH,
                support_adp::check_manifest(doc),
                &mut out,
            );
            let details = doc["capabilities"].as_array().map_or(0, Vec::len);
            let written: Vec<&str> = artifacts
                .iter()
                .map(|a| a.path.as_str())
                .filter(|p| p.starts_with(adp::DETAIL_PREFIX))
                .collect();
            if written.len() != details {
                out.push(format!(
                    "{}: {details} capabilities but {} detail documents",
                    adp::MANIFEST_PATH,
                    written.len()
                ));
            }
            for path in written {
                if let Some(detail) = json.get(path) {
                    tagged(path, support_adp::check_detail(detail), &mut out);
                }
            }
        }
        if let Some(doc) = get(agis::JSON_PATH, &mut out) {
            let violations: Vec<String> = support_agis::validate(doc)
                .iter()
                .map(ToString::to_string)
                .collect();
            tagged(agis::JSON_PATH, violations, &mut out);
            match artifacts.iter().find(|a| a.path == agis::YAML_PATH) {
                None => out.push(format!("{}: not written", agis::YAML_PATH)),
                Some(a) => match std::str::from_utf8(&a.body)
                    .map_err(|e| e.to_string())
                    .and_then(agis::parse_yaml)
                {
                    Ok(yaml) if &yaml == doc => {}
                    Ok(_) => out.push(format!(
                        "{}: differs from {}",
                        agis::YAML_PATH,
                        agis::JSON_PATH
                    )),
                    Err(e) => out.push(format!("{}: not YAML: {e}", agis::YAML_PATH)),
                },
            }
        }
        same(&openapi::PATHS, &mut out);
        match artifacts.iter().find(|a| a.path == openapi::PATHS[0]) {
            None => out.push(format!("{}: not written", openapi::PATHS[0])),
            Some(a) => tagged(openapi::PATHS[0], reparse_openapi(&a.body), &mut out),
        }
        out
    }
}

/// The bytes the MCP tools' HTTP bindings (`_meta`) take in the compact list: the size rule
/// measures the list without them, as the build's own budget does (docs/targets/mcp.md), since
/// they are what makes a tool callable.
fn binding_bytes(artifact: &Artifact) -> usize {
    if artifact.path != mcp::PATH {
        return 0;
    }
    let Ok(doc) = serde_json::from_slice::<Value>(&artifact.body) else {
        return 0;
    };
    doc["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("_meta"))
        .map(|m| r#","_meta":"#.len() + serde_json::to_vec(m).map_or(0, |v| v.len()))
        .sum()
}

fn schema(v: &jsonschema::Validator, doc: &Value, path: &str, out: &mut Vec<String>) {
    out.extend(
        v.iter_errors(doc)
            .take(10)
            .map(|e| format!("{path}: {e} at {}", e.instance_path())),
    );
}

fn tagged(path: &str, problems: Vec<String>, out: &mut Vec<String>) {
    out.extend(problems.into_iter().map(|p| format!("{path}: {p}")));
}

/// The OpenAPI document as a 3.1 reader sees it: it parses, says 3.1, and every operation's
/// parameters and request body resolve.
fn reparse_openapi(body: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(body);
    let spec = match oas3::from_json(&text) {
        Ok(s) => s,
        Err(e) => return vec![format!("oas3 cannot read it: {e}")],
    };
    let mut out = Vec::new();
    if let Err(e) = spec.validate_version() {
        out.push(format!("version: {e}"));
    }
    for (path, method, op) in spec.operations() {
        if let Err(e) = op.parameters(&spec) {
            out.push(format!("{method} {path}: parameters: {e}"));
        }
        if let Err(e) = op.request_body(&spec) {
            out.push(format!("{method} {path}: request body: {e}"));
        }
    }
    out
}

/// An entry document names its version at the top level; fragments do not.
fn is_entry(text: &str) -> bool {
    let head: String = text.chars().take(2000).collect();
    head.lines().any(|l| {
        let l = l.trim_start_matches('\u{feff}');
        l.starts_with("openapi:")
            || l.starts_with("swagger:")
            || l.starts_with("\"openapi\"")
            || l.starts_with("\"swagger\"")
    }) || (head.trim_start().starts_with('{')
        && (head.contains("\"openapi\"") || head.contains("\"swagger\"")))
}

/// The first error, with file names, pointers and quoted values taken out so that like
/// problems count together.
fn first_error(diags: &Diagnostics) -> String {
    let Some(d) = diags.iter().find(|d| d.is_error()) else {
        return "no error reported".into();
    };
    let mut m = d.message.clone();
    // `file#/pointer: message` → `message`.
    if let Some((head, rest)) = m.split_once(": ")
        && (head.contains('#')
            || head.contains('/')
            || head.ends_with(".yaml")
            || head.ends_with(".json"))
    {
        m = rest.to_string();
    }
    if let Some(i) = m.find(" (imported from") {
        m.truncate(i);
    }
    // Absolute paths name files of this machine: fold them too.
    let m: Vec<&str> = m
        .split(' ')
        .map(|w| {
            if w.starts_with('/') && w[1..].contains('/') {
                "…"
            } else {
                w
            }
        })
        .collect();
    let m = m.join(" ");
    let mut out = String::new();
    let mut quoted = false;
    for c in m.chars() {
        if c == '`' {
            quoted = !quoted;
            if quoted {
                out.push_str("`…`");
            }
        } else if !quoted {
            out.push(if c.is_ascii_digit() { '#' } else { c });
        }
    }
    let field = d
        .field
        .as_deref()
        .map(|f| {
            let parts: Vec<&str> = f
                .split('.')
                .map(|p| {
                    if p.chars().all(|c| c.is_ascii_digit()) {
                        "N"
                    } else {
                        p
                    }
                })
                .collect();
            format!(" [{}]", parts.join("."))
        })
        .unwrap_or_default();
    let mut line = format!("{out}{field}");
    if line.chars().count() > 150 {
        line = line.chars().take(150).collect::<String>() + "…";
    }
    line
}
