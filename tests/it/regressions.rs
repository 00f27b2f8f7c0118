//! Inputs that once broke wellgen, replayed in the normal suite: fuzz crashes
//! (`tests/regressions/<target>/*`, through the fuzz targets' own entry points) and the
//! resource bombs the input limits exist for, generated here.

use std::fs;
use std::panic;
use std::time::Instant;

use crate::common::*;

/// The fuzz targets (`fuzz/fuzz_targets/<target>.rs`), each a folder name under
/// `tests/regressions` and `fuzz/seeds`.
const TARGETS: [&str; 6] = [
    "service_toml",
    "openapi_json",
    "openapi_yaml",
    "openapi_yaml_read",
    "headers_merge",
    "serve_rules",
];

#[test]
fn fuzz_crashes_stay_fixed() {
    let count = replay(&root().join("tests/regressions"));
    // Two openapi_json crashes are kept today; fewer means inputs went missing.
    assert!(count >= 2, "only {count} inputs under tests/regressions");
}

/// The seeds written for code the fuzz corpus had not reached (`fuzz/seeds/README.md`) run
/// through the same entry points: they reach rare paths, so a panic there shows here first.
#[test]
fn fuzz_seeds_run_without_panic() {
    let count = replay(&root().join("fuzz/seeds"));
    assert!(count >= 50, "only {count} inputs under fuzz/seeds");
}

/// Every input under `dir/<target>/` through its fuzz target's entry point; the number run.
/// A missing `dir`, or a folder in it named after no target, fails: neither may pass quietly.
fn replay(dir: &std::path::Path) -> usize {
    let mut failures = Vec::new();
    let mut count = 0;
    let folders = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for folder in folders {
        let path = folder.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(
            !path.is_dir() || TARGETS.contains(&name.as_ref()),
            "{}: no fuzz target is named {name}",
            dir.display()
        );
    }
    for target in TARGETS {
        let Ok(entries) = fs::read_dir(dir.join(target)) else {
            continue; // no input for this target (yet)
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = fs::read(&path).unwrap();
            count += 1;
            let outcome = panic::catch_unwind(|| match target {
                "headers_merge" => wellgen::fuzzing::headers_merge(&data),
                "serve_rules" => wellgen::fuzzing::serve_rules(&data),
                _ => {
                    let Ok(text) = std::str::from_utf8(&data) else {
                        return;
                    };
                    match target {
                        "service_toml" => wellgen::fuzzing::service_toml(text),
                        "openapi_yaml_read" => wellgen::fuzzing::openapi_yaml_read(text),
                        _ => wellgen::fuzzing::openapi(text),
                    }
                }
            });
            if outcome.is_err() {
                failures.push(path.display().to_string());
            }
        }
    }
    assert!(failures.is_empty(), "still panicking: {failures:?}");
    count
}

/// An OpenAPI document whose one large enum is named, through `$ref`s, by every property of
/// every request body (`request`) or response: a few MB that would expand to many GB.
fn ref_bomb(request: bool) -> String {
    let big: Vec<String> = (0..20_000).map(|i| format!("\"value-{i:040}\"")).collect();
    let props: Vec<String> = (0..150)
        .map(|i| format!("\"p{i}\": {{\"$ref\": \"#/components/schemas/Big\"}}"))
        .collect();
    let many =
        r##"{"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Many"}}}}"##;
    let paths: Vec<String> = (0..60)
        .map(|i| {
            let operation = if request {
                format!(
                    r#""post": {{"operationId": "thing_{i}", "requestBody": {many}, "responses": {{"200": {{"description": "ok"}}}}}}"#
                )
            } else {
                let ok = many.replacen('{', r#"{"description": "ok", "#, 1);
                format!(r#""get": {{"operationId": "thing_{i}", "responses": {{"200": {ok}}}}}"#)
            };
            format!("\"/things/t{i}\": {{{operation}}}")
        })
        .collect();
    format!(
        "{{\"openapi\": \"3.0.3\", \"info\": {{\"title\": \"Bomb\", \"version\": \"1\"}}, \
         \"servers\": [{{\"url\": \"https://bomb.example.com\"}}], \"paths\": {{{}}}, \
         \"components\": {{\"schemas\": {{\"Big\": {{\"type\": \"string\", \"enum\": [{}]}}, \
         \"Many\": {{\"type\": \"object\", \"properties\": {{{}}}}}}}}}}}",
        paths.join(", "),
        big.join(", "),
        props.join(", ")
    )
}

#[test]
fn a_billion_laughs_of_refs_fails_fast_with_a_clear_error() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("bomb.json");
    fs::write(&file, ref_bomb(true)).unwrap();
    let start = Instant::now();
    let (code, _, stderr) = run(wellgen().arg("check").arg(&file));
    let took = start.elapsed();
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("a `$ref` bomb?"), "{stderr}");
    assert!(took.as_secs() < 30, "took {took:?}");
}

/// The same bomb in the responses: they refer to the components by name, so nothing is
/// copied; each document holds the enum at most once, and whatever writes a response whole
/// (ia.json, the examples) stops at its bounds.
#[test]
fn a_billion_laughs_of_refs_in_responses_is_published_by_reference() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("bomb.json");
    let text = ref_bomb(false);
    fs::write(&file, &text).unwrap();
    let out = work.path().join("dist");
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(&file)
        .arg("-o")
        .arg(&out)
        .arg("-q"));
    assert_eq!(code, 0, "{stderr}");
    for entry in fs::read_dir(&out).unwrap().flatten() {
        let len = entry.metadata().unwrap().len();
        assert!(
            len < 2 * text.len() as u64,
            "{}: {len}",
            entry.path().display()
        );
    }
    let oas: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("openapi.json")).unwrap()).unwrap();
    let named = oas["components"]["schemas"].as_object().unwrap();
    assert_eq!(named.keys().collect::<Vec<_>>(), ["Many", "Big"]);
    assert_eq!(
        oas["paths"]["/things/t0"]["get"]["responses"]["200"]["content"]["application/json"]["schema"],
        serde_json::json!({"$ref": "#/components/schemas/Many"})
    );
}

/// A chain of 20,000 `$ref`s to `$ref`s in a request body is refused where it nests too deep;
/// in a response, each link is a named schema of its own, made one after the other.
#[test]
fn a_long_chain_of_refs_is_an_error_not_a_stack_overflow() {
    let n = 20_000;
    let mut schemas: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "\"C{i}\": {{\"$ref\": \"#/components/schemas/C{}\"}}",
                i + 1
            )
        })
        .collect();
    schemas.push(format!("\"C{n}\": {{\"type\": \"string\"}}"));
    let doc = format!(
        "{{\"openapi\": \"3.0.3\", \"info\": {{\"title\": \"Chain\", \"version\": \"1\"}}, \
         \"servers\": [{{\"url\": \"https://chain.example.com\"}}], \"paths\": {{\"/x\": {{\"get\": \
         {{\"operationId\": \"x\", \"responses\": {{\"200\": {{\"description\": \"ok\", \"content\": \
         {{\"application/json\": {{\"schema\": {{\"$ref\": \"#/components/schemas/C0\"}}}}}}}}}}}}}}, \
         \"/y\": {{\"post\": {{\"operationId\": \"y\", \"requestBody\": {{\"content\": \
         {{\"application/json\": {{\"schema\": {{\"$ref\": \"#/components/schemas/C0\"}}}}}}}}, \
         \"responses\": {{\"204\": {{\"description\": \"done\"}}}}}}}}}}, \
         \"components\": {{\"schemas\": {{{}}}}}}}",
        schemas.join(", ")
    );
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("chain.json");
    fs::write(&file, doc).unwrap();
    let (code, _, stderr) = run(wellgen().arg("check").arg(&file));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`$ref`s nest more than 64 deep"),
        "{stderr}"
    );
}

/// A YAML alias bomb through the command line, as a user meets it: a fast error that names it,
/// and nothing written.
#[test]
fn a_billion_laughs_of_yaml_aliases_fails_fast_with_a_clear_error() {
    let mut text = String::from("openapi: 3.0.3\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = format!("*a{}", i - 1);
        text.push_str(&format!("a{i}: &a{i} [{}]\n", [p.as_str(); 10].join(", ")));
    }
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("bomb.yaml");
    fs::write(&file, text).unwrap();
    let start = Instant::now();
    let (code, _, stderr) =
        run(wellgen()
            .current_dir(work.path())
            .args(["build", "bomb.yaml", "-o", "dist"]));
    let took = start.elapsed();
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("an alias bomb?"), "{stderr}");
    assert!(stderr.contains("bomb.yaml"), "{stderr}");
    assert!(took.as_secs() < 30, "took {took:?}");
    assert!(!work.path().join("dist").exists());
}

/// Nesting deep enough to overflow a recursive parser's stack is an error, in YAML (block and
/// flow) and in JSON, not a crash; and a fast one: YAML's depth is measured before libyaml,
/// whose scanner is quadratic in it, runs (100,000 `[` took 15 s in release, 200,000 the
/// whole time limit).
#[test]
fn deeply_nested_documents_are_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let inputs = [
        (
            "flow.yaml",
            format!(
                "openapi: 3.0.3\nx: {}{}\n",
                "[".repeat(depth),
                "]".repeat(depth)
            ),
        ),
        ("block.yaml", {
            let mut t = String::from("openapi: 3.0.3\n");
            for i in 0..2_000 {
                t.push_str(&" ".repeat(i));
                t.push_str("k:\n");
            }
            t
        }),
        (
            "deep.json",
            format!(
                "{{\"openapi\": \"3.0.3\", \"x\": {}{}}}",
                "[".repeat(depth),
                "]".repeat(depth)
            ),
        ),
    ];
    let work = tempfile::tempdir().unwrap();
    for (name, text) in inputs {
        fs::write(work.path().join(name), text).unwrap();
        let start = Instant::now();
        let (code, _, stderr) = run(wellgen().current_dir(work.path()).args(["check", name]));
        let took = start.elapsed();
        assert_eq!(code, 1, "{name}: {stderr}");
        assert!(stderr.contains(name), "{name}: {stderr}");
        // YAML: the depth scan's error, where the limit (128, serde_norway's too) is crossed;
        // JSON: serde_json's own limit, met as fast.
        let (expected, at) = match name {
            "flow.yaml" => ("YAML nested more than 128 levels deep", ":2:131:"),
            "block.yaml" => ("YAML nested more than 128 levels deep", ":130:129:"),
            _ => ("recursion limit exceeded", ":1:"),
        };
        assert!(stderr.contains(expected), "{name}: {stderr}");
        assert!(stderr.contains(&format!("{name}{at}")), "{name}: {stderr}");
        assert!(took.as_secs() < 10, "{name} took {took:?}");
    }
}

#[test]
fn inputs_larger_than_the_limit_are_refused() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    let mut text = fs::read_to_string(root().join("examples/worldweather/service.toml")).unwrap();
    text.push_str(&format!("# {}\n", "x".repeat(4096)));
    fs::write(&source, &text).unwrap();
    let (code, _, stderr) = run(wellgen()
        .args(["check", "--max-input-size", "4K"])
        .arg(&source));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is larger than 4 KB"), "{stderr}");
    let (code, _, stderr) = run(wellgen()
        .args(["check", "--max-input-size", "64K"])
        .arg(&source));
    assert_eq!(code, 0, "{stderr}");

    // A referenced file counts towards the same limit.
    let api = work.path().join("api.yaml");
    fs::write(
        &api,
        "openapi: 3.0.3\ninfo: {title: Refs, version: '1'}\nservers: [{url: 'https://refs.example.com'}]\n\
         paths:\n  /x:\n    get:\n      operationId: x\n      responses:\n        '200':\n          description: ok\n\
         \x20         content:\n            application/json:\n              schema: {$ref: 'big.yaml'}\n",
    )
    .unwrap();
    fs::write(
        work.path().join("big.yaml"),
        format!("type: string\ndescription: '{}'\n", "y".repeat(8192)),
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen()
        .args(["check", "--max-input-size", "4K"])
        .arg(&api));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("big.yaml is larger than"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn an_endless_input_is_refused_not_read_forever() {
    let (code, _, stderr) = run(wellgen().args(["check", "/dev/zero", "--max-input-size", "1M"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("larger than 1 MB"), "{stderr}");
}

/// Forty levels of schemas, each naming the next ten times, behind 6,000 operations:
/// every expansion is cut at 200 schemas, but the whole takes seconds, even optimised (1,000
/// took 0.4–0.8 s by 2026-11, too close to a one-second limit).
fn slow_laughs() -> String {
    let mut schemas: Vec<String> = (0..40)
        .map(|i| {
            let props: Vec<String> = (0..10)
                .map(|k| {
                    format!(
                        "\"p{k}\": {{\"$ref\": \"#/components/schemas/L{}\"}}",
                        i + 1
                    )
                })
                .collect();
            format!(
                "\"L{i}\": {{\"type\": \"object\", \"properties\": {{{}}}}}",
                props.join(", ")
            )
        })
        .collect();
    schemas.push("\"L40\": {\"type\": \"string\"}".into());
    let paths: Vec<String> = (0..6000)
        .map(|j| {
            format!(
                "\"/p{j}\": {{\"get\": {{\"operationId\": \"op{j}\", \"responses\": {{\"200\": \
                 {{\"description\": \"ok\", \"content\": {{\"application/json\": {{\"schema\": \
                 {{\"$ref\": \"#/components/schemas/L0\"}}}}}}}}}}}}}}"
            )
        })
        .collect();
    format!(
        "{{\"openapi\": \"3.0.3\", \"info\": {{\"title\": \"Laughs\", \"version\": \"1\"}}, \
         \"servers\": [{{\"url\": \"https://laughs.example.com\"}}], \"paths\": {{{}}}, \
         \"components\": {{\"schemas\": {{{}}}}}}}",
        paths.join(", "),
        schemas.join(", ")
    )
}

#[test]
fn the_time_limit_stops_a_slow_input_and_writes_nothing() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("laughs.json");
    fs::write(&file, slow_laughs()).unwrap();
    let out = work.path().join("dist");
    let start = Instant::now();
    let (code, _, stderr) = run(wellgen()
        .args(["build", "--time-limit", "1", "-o"])
        .arg(&out)
        .arg(&file));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("gave up after 1 s"), "{stderr}");
    assert!(start.elapsed().as_secs() < 10);
    assert!(!out.exists());
}

/// The time-limit message names the file that was being read: the OpenAPI document when
/// `--openapi` is given alone, not the `service.toml` that does not exist.
#[test]
fn the_time_limit_message_names_the_source_read() {
    let work = tempfile::tempdir().unwrap();
    fs::write(work.path().join("laughs.json"), slow_laughs()).unwrap();
    let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
        "check",
        "--openapi",
        "laughs.json",
        "--time-limit",
        "1",
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("gave up after 1 s reading and checking laughs.json;"),
        "{stderr}"
    );
    assert!(!stderr.contains("service.toml"), "{stderr}");

    // Both given: both named.
    fs::write(
        work.path().join("service.toml"),
        "[service]\nname = \"Laughs\"\n",
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
        "check",
        "--openapi",
        "laughs.json",
        "--time-limit",
        "1",
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("reading and checking service.toml with laughs.json;"),
        "{stderr}"
    );
}

/// A batch build whose one slow service runs out of time while another's write is under way:
/// the process ends only once that write is done, so its folder holds the whole new output.
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the pause hook (WELLGEN_TEST_PAUSE) exists in debug builds only"
)]
fn the_time_limit_of_a_batch_never_cuts_another_services_write_short() {
    let work = tempfile::tempdir().unwrap();
    let slow = work.path().join("slow");
    let quick = work.path().join("quick");
    fs::create_dir_all(&slow).unwrap();
    fs::create_dir_all(&quick).unwrap();
    fs::write(slow.join("laughs.json"), slow_laughs()).unwrap();
    fs::write(
        slow.join("service.toml"),
        "[source]\nopenapi = \"laughs.json\"\n",
    )
    .unwrap();
    fs::copy(
        root().join("examples/worldweather/service.toml"),
        quick.join("service.toml"),
    )
    .unwrap();
    let reference = build(&quick.join("service.toml"), &[]);
    // The quick service pauses for 4 s after its commit point, mid-way through its renames;
    // the slow one's 1 s limit runs out meanwhile.
    let (code, _, stderr) = run(wellgen()
        .args(["build", "--jobs", "2", "--time-limit", "1"])
        .arg(work.path())
        .env("WELLGEN_TEST_PAUSE", "committed")
        .env("WELLGEN_TEST_PAUSE_SECONDS", "4"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("gave up after 1 s"), "{stderr}");
    assert!(stderr.contains("paused at committed"), "{stderr}");
    let written = quick.join("dist");
    assert!(
        !written.join(".wellgen-journal").exists(),
        "a write was cut short"
    );
    assert_eq!(files(&written), files(reference.path()));
    assert!(!slow.join("dist").exists());
}

#[test]
fn the_time_limit_stops_a_slow_import_and_an_import_writes_whole_or_nothing() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("laughs.json");
    fs::write(&file, slow_laughs()).unwrap();
    let out = work.path().join("service.toml");
    let (code, _, stderr) = run(wellgen()
        .args(["import", "--time-limit", "1", "-o"])
        .arg(&out)
        .arg(&file));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("gave up after 1 s importing"), "{stderr}");
    let left: Vec<_> = fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec!["laughs.json"], "{stderr}");

    // A successful import leaves the file and nothing staged beside it.
    let api = work.path().join("petstore.json");
    fs::copy(
        root().join("tests/fixtures/import-petstore30/openapi.json"),
        &api,
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen().arg("import").arg("-o").arg(&out).arg(&api));
    assert_eq!(code, 0, "{stderr}");
    let mut names: Vec<_> = fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["laughs.json", "petstore.json", "service.toml"]);
    assert!(
        fs::read_to_string(&out)
            .unwrap()
            .contains("[[capabilities]]")
    );
}
