//! What the benches share: the in-memory pipeline (what `wellgen check` runs: read, import or
//! parse, lower, check, emit every target) and generated services for batch builds.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

// The allocator the wellgen binary uses (src/main.rs), so the benches measure what it does.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use wellgen::emit::Artifact;
use wellgen::pipeline;

/// What to build for a corpus file: a service.toml that imports it and sets `base_url`, which
/// Swagger 2.0 files without `host` lack (under target/bench-sources/; every file gets one, so
/// all are built the same way).
pub fn source_for(file: &Path) -> PathBuf {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("spec");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/bench-sources")
        .join(name);
    std::fs::create_dir_all(&dir).expect("target/bench-sources is writable");
    let abs = std::fs::canonicalize(file).expect("the corpus file exists");
    let toml = format!(
        "[service]\nbase_url = \"https://api.example.com\"\n\n[source]\nopenapi = {:?}\n",
        abs.display().to_string()
    );
    let service = dir.join("service.toml");
    std::fs::write(&service, toml).expect("service.toml is writable");
    service
}

/// Every target's artifacts for a source, in memory: the build without the disk.
pub fn build_all(source: &Path) -> Vec<Artifact> {
    let text = std::fs::read_to_string(source).expect("readable");
    let sources = pipeline::Sources {
        path: source,
        text: &text,
        openapi: None,
    };
    let (compiled, _) = pipeline::compile(sources, &pipeline::Options::default());
    if !compiled.succeeded() {
        // Measured all the same: the time to find the errors is what such a build costs.
        eprintln!(
            "note: {} does not build (errors found before emission)",
            source.display()
        );
    }
    compiled.artifacts
}

/// The floor for an OpenAPI file: read it, parse it into a `serde_json::Value` (YAML with
/// wellgen's own reader) and serialise that with serde_json. Returns the serialised length.
pub fn floor(source: &Path) -> usize {
    let text = std::fs::read_to_string(source).expect("readable");
    if source.extension().is_some_and(|e| e == "json") {
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        serde_json::to_vec(&value).expect("serialises").len()
    } else {
        // Through the YAML reader wellgen uses (libyaml with an alias budget): openai.yaml's
        // `-9223372036854776000` fits no 64-bit integer, and both serde_json's `Value` and
        // serde_norway's refuse it.
        let value = wellgen::source::openapi::load::parse_text(&text, "floor").expect("YAML");
        serde_json::to_vec(&value).expect("serialises").len()
    }
}

/// The JSON documents a build serialises, parsed back: what `serialise_outputs` writes again.
/// A twin shares its document's bytes, so it is counted once.
pub fn output_values(artifacts: &[Artifact]) -> Vec<serde_json::Value> {
    let mut seen = std::collections::HashSet::new();
    artifacts
        .iter()
        .filter(|a| {
            a.serving
                .as_ref()
                .is_some_and(|s| s.content_type.contains("json"))
        })
        .filter(|a| seen.insert(a.body.as_ptr()))
        .filter_map(|a| serde_json::from_slice(&a.body).ok())
        .collect()
}

/// A lower bound for any build: writing its JSON documents (as wellgen does) from values that
/// already exist. scripts/bench counts only this function's instructions.
#[inline(never)]
pub fn serialise_outputs(values: &[serde_json::Value]) -> usize {
    values
        .iter()
        .map(|v| wellgen::emit::to_json_bytes(v).len())
        .sum()
}

/// The corpus of big OpenAPI files, or `None` (with a message) when ../shared is absent.
pub fn big_corpus() -> Option<Vec<PathBuf>> {
    let dir = std::env::var_os("WELLGEN_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/big"),
        PathBuf::from,
    );
    let names = [
        "stripe.json",
        "openai.yaml",
        "kubernetes-swagger2.json",
        "docker-swagger2.yaml",
    ];
    let files: Vec<PathBuf> = names.iter().map(|n| dir.join(n)).collect();
    if files.iter().all(|f| f.is_file()) {
        Some(files)
    } else {
        println!(
            "skipping the corpus benches: {} does not hold {} (set WELLGEN_CORPUS to its folder)",
            dir.display(),
            names.join(", ")
        );
        None
    }
}

/// A small service.toml, different for each `i`, that builds without problems.
pub fn small_service(i: usize) -> String {
    format!(
        r#"[service]
name = "Shop {i}"
description = "Search the products and orders of shop number {i}, and look up its customers."
base_url = "https://api.shop{i}.example.com"
categories = ["ecommerce"]

[auth]
type = "api_key"
header = "X-API-Key"

[[capabilities]]
id = "search_products"
description = "Search products by keyword"
method = "GET"
path = "/products/search"
returns = "products[] {{id, name, price}}"

[capabilities.params]
q = "string, required -- search keyword"
limit = {{ type = "integer", default = 10, max = 50 }}

[[capabilities]]
id = "get_order"
description = "Get one order by its id"
method = "GET"
path = "/orders/{{id}}"
returns = "order {{id, total, status}}"

[capabilities.params]
id = "string, required -- the order id"
"#
    )
}

/// Writes `n` small services below `root`, ten to a group folder: `root/g<k>/s<i>/service.toml`.
pub fn write_services(root: &Path, n: usize) {
    for i in 0..n {
        let dir = root
            .join(format!("g{:03}", i / 10))
            .join(format!("s{i:04}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("service.toml"), small_service(i)).expect("write");
    }
}
