//! The summary a single `wellgen build` ends with: bytes and tokens (o200k_base, cl100k_base)
//! per served document, as a table or `--json`, and for an OpenAPI source the ratio of its
//! tokens to /.well-known/ai's.

use crate::common::*;
use serde_json::Value;

fn build_json(source: &std::path::Path) -> Value {
    let out = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = run(wellgen()
        .arg("build")
        .arg(source)
        .arg("-o")
        .arg(out.path())
        .arg("--json"));
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).expect("the summary is JSON on stdout")
}

#[test]
fn json_summary_counts_every_served_document() {
    let v = build_json(&root().join("examples/bookshelf/service.toml"));
    let docs = v["documents"].as_array().unwrap();
    let paths: Vec<&str> = docs.iter().map(|d| d["path"].as_str().unwrap()).collect();
    assert!(paths.contains(&"/.well-known/ai") && paths.contains(&"/llms.txt"));
    assert!(
        !paths.contains(&"/_headers"),
        "host files are not documents"
    );
    // A twin serves the same bytes: listed with its document, counted once.
    let ai = &docs[paths.iter().position(|p| *p == "/.well-known/ai").unwrap()];
    assert_eq!(ai["also"], serde_json::json!(["/ai"]));
    assert!(!paths.contains(&"/ai") && !paths.contains(&"/.well-known/ia.json"));
    for d in docs {
        let (bytes, o, c) = (
            d["bytes"].as_u64().unwrap(),
            d["o200k_base"].as_u64().unwrap(),
            d["cl100k_base"].as_u64().unwrap(),
        );
        // JSON and prose run at 2-6 bytes a token in both encodings.
        assert!(o * 2 <= bytes && bytes <= o * 8, "{d}");
        assert!(c * 2 <= bytes && bytes <= c * 8, "{d}");
    }
    let sum = |k: &str| docs.iter().map(|d| d[k].as_u64().unwrap()).sum::<u64>();
    for k in ["bytes", "o200k_base", "cl100k_base"] {
        assert_eq!(v["total"][k].as_u64().unwrap(), sum(k), "{k}");
    }
    assert!(
        v.get("ratio").is_none(),
        "a service.toml has no OpenAPI source"
    );
    // Host files (`_headers`, `_redirects`) are written but not counted.
    assert!(v["files"].as_u64().unwrap() as usize > docs.len());
}

#[test]
fn an_openapi_source_is_compared_with_the_ai_document() {
    let spec = root().join("tests/fixtures/import-petstore30/openapi.json");
    let v = build_json(&spec);
    let source = &v["openapi"];
    assert_eq!(
        source["bytes"].as_u64().unwrap(),
        std::fs::metadata(&spec).unwrap().len()
    );
    let ai = v["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"] == "/.well-known/ai")
        .unwrap();
    let expected = source["o200k_base"].as_f64().unwrap() / ai["o200k_base"].as_f64().unwrap();
    let ratio = v["ratio"]["o200k_base"].as_f64().unwrap();
    assert!((ratio - expected).abs() < 0.006, "{ratio} vs {expected}");

    // The same through `[source] openapi` in a service.toml.
    let v = build_json(&root().join("tests/fixtures/import-petstore30/service.toml"));
    assert!(
        v["openapi"]["path"]
            .as_str()
            .unwrap()
            .ends_with("openapi.json")
    );
    assert!(v["ratio"]["cl100k_base"].as_f64().unwrap() > 0.0);
}

#[test]
fn table_on_stdout_unless_quiet() {
    let source = root().join("examples/simplenotes/service.toml");
    let out = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = run(wellgen()
        .arg("build")
        .arg(&source)
        .arg("-o")
        .arg(out.path()));
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("document") && lines[0].ends_with("cl100k_base"),
        "{stdout}"
    );
    assert!(lines.last().unwrap().starts_with("total "), "{stdout}");
    // Twins are one line, counted once in the total.
    assert!(
        lines.iter().any(|l| l.starts_with("/.well-known/ai, /ai ")),
        "{stdout}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("/ai ")), "{stdout}");
    assert!(
        stderr.contains("built "),
        "the build line stays on stderr: {stderr}"
    );

    let (code, stdout, stderr) = run(wellgen()
        .arg("build")
        .arg(&source)
        .arg("-o")
        .arg(out.path())
        .args(["--quiet", "--json"]));
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
}
