//! OpenAPI import of servers and path keys as real descriptions write them: the https server
//! wherever it is listed, `--base-url` with a base path kept, query strings in path keys,
//! templates differing only in parameter names, missing placeholders and colliding
//! operationIds. Fixture: tests/fixtures/import-paths/.

use std::path::{Path, PathBuf};

use oas3::spec::Spec;
use serde_json::Value;
use wellgen::diag::Diagnostics;
use wellgen::model::{Capability, ParamIn, Service};
use wellgen::pipeline::{self, Sources};
use wellgen::source::openapi::{self, Options};

use crate::common::{build, run, wellgen};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// Builds an OpenAPI file (every target) through the pipeline the CLI uses.
fn compile(path: &Path, text: &str, options: &Options) -> pipeline::Compiled {
    let options = pipeline::Options {
        import: options.clone(),
        ..pipeline::Options::default()
    };
    let sources = Sources {
        path,
        text,
        openapi: None,
    };
    pipeline::compile(sources, &options).0
}

fn paths_fixture() -> pipeline::Compiled {
    let path = fixture("import-paths/openapi.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let compiled = compile(&path, &text, &Options::default());
    let errors: Vec<&str> = compiled
        .diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    assert!(compiled.succeeded(), "{errors:#?}");
    compiled
}

fn cap<'a>(service: &'a Service, id: &str) -> &'a Capability {
    service
        .capabilities
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no capability `{id}`"))
}

/// The OpenAPI document a build of `compiled` writes.
fn openapi_json(compiled: &pipeline::Compiled) -> &[u8] {
    let doc = compiled
        .artifacts
        .iter()
        .find(|a| a.path == "/openapi.json");
    &doc.expect("an /openapi.json artifact").body
}

fn warnings(compiled: &pipeline::Compiled, words: &str) -> usize {
    compiled
        .diags
        .iter()
        .filter(|d| !d.is_error() && d.message.contains(words))
        .count()
}

#[test]
fn the_https_server_is_chosen_wherever_it_is_listed() {
    let compiled = paths_fixture();
    let service = compiled.service.as_ref().unwrap();
    // http first, https second, both with a `{version}` variable.
    assert_eq!(service.base_url.as_str(), "https://api.paths.example/v1");

    let swagger = "swagger: '2.0'\ninfo: {title: T, version: '1'}\nhost: s.example\nbasePath: /v3\nschemes: [http, https]\npaths: {/a: {get: {responses: {'200': {description: ok}}}}}\n";
    let mut diags = Diagnostics::default();
    let imported = openapi::import_text(None, swagger, &Options::default(), &mut diags).unwrap();
    assert_eq!(
        imported.doc.service.base_url.as_deref(),
        Some("https://s.example/v3")
    );
}

#[test]
fn without_an_https_server_the_error_gives_the_command_that_fixes_it() {
    let text = "openapi: 3.0.0\ninfo: {title: T, version: '1'}\nservers: [{url: 'http://x.example.com/v2/'}]\npaths: {/a: {get: {responses: {'200': {description: ok}}}}}\n";
    let mut diags = Diagnostics::default();
    let imported = openapi::import_text(
        Some(Path::new("spec.yaml")),
        text,
        &Options::default(),
        &mut diags,
    )
    .unwrap();
    let (_, d) = imported
        .deferred
        .iter()
        .find(|(k, _)| k == "service.base_url")
        .unwrap();
    assert!(d.message.contains("uses http"), "{}", d.message);
    let help = d.help.as_deref().unwrap();
    assert!(
        help.contains("`wellgen build spec.yaml --base-url https://x.example.com/v2`"),
        "{help}"
    );

    // The same document with the flag: no error, the flag's URL.
    let options = Options {
        base_url: Some("https://y.example.com/v2".into()),
        ..Options::default()
    };
    let mut diags = Diagnostics::default();
    let imported = openapi::import_text(None, text, &options, &mut diags).unwrap();
    assert!(
        imported
            .deferred
            .iter()
            .all(|(k, _)| k != "service.base_url")
    );
    assert_eq!(
        imported.doc.service.base_url.as_deref(),
        Some("https://y.example.com/v2")
    );
}

#[test]
fn a_base_path_without_a_host_is_joined_to_the_base_url_given() {
    let swagger = "swagger: '2.0'\ninfo: {title: T, version: '1'}\nbasePath: /v2\npaths: {/a: {get: {responses: {'200': {description: ok}}}}}\n";
    let relative = "openapi: 3.0.0\ninfo: {title: T, version: '1'}\nservers: [{url: /api/}]\npaths: {/a: {get: {responses: {'200': {description: ok}}}}}\n";
    for (text, given, expected) in [
        (swagger, "https://x.example", "https://x.example/v2"),
        (swagger, "https://x.example/v2", "https://x.example/v2"),
        (relative, "https://x.example/", "https://x.example/api"),
    ] {
        let options = Options {
            base_url: Some(given.into()),
            ..Options::default()
        };
        let mut diags = Diagnostics::default();
        let imported = openapi::import_text(None, text, &options, &mut diags).unwrap();
        assert_eq!(
            imported.doc.service.base_url.as_deref(),
            Some(expected),
            "{given}"
        );
        assert_eq!(imported.doc.capabilities[0].path.as_deref(), Some("/a"));
    }
    // Without the flag, the error says so; the base path is remembered for a service.toml.
    let mut diags = Diagnostics::default();
    let imported = openapi::import_text(None, swagger, &Options::default(), &mut diags).unwrap();
    assert_eq!(imported.base_path.as_deref(), Some("/v2"));
    let base = imported
        .deferred
        .iter()
        .find(|(k, _)| k == "service.base_url");
    assert!(base.unwrap().1.message.contains("no `host`"));
}

#[test]
fn a_service_toml_base_url_gets_the_base_path_and_the_flag_wins_over_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("swagger.yaml"),
        "swagger: '2.0'\ninfo: {title: T, version: '1', description: D}\nbasePath: /v2\npaths: {/a: {get: {responses: {'200': {description: ok}}}}}\n",
    )
    .unwrap();
    let toml = dir.path().join("service.toml");
    let text =
        "[source]\nopenapi = \"swagger.yaml\"\n\n[service]\nbase_url = \"https://t.example\"\n";
    std::fs::write(&toml, text).unwrap();
    for (flag, expected) in [
        (None, "https://t.example/v2"),
        (Some("https://f.example"), "https://f.example/v2"),
    ] {
        let options = Options {
            base_url: flag.map(str::to_string),
            ..Options::default()
        };
        let compiled = compile(&toml, text, &options);
        assert!(compiled.succeeded(), "{:#?}", compiled.diags);
        assert_eq!(compiled.service.unwrap().base_url.as_str(), expected);
    }
}

#[test]
fn query_strings_in_path_keys_become_constant_parameters_and_every_operation_builds() {
    let compiled = paths_fixture();
    let service = compiled.service.as_ref().unwrap();
    let plain = cap(service, "create_response");
    let beta = cap(service, "beta_create_response");
    assert_eq!(
        (plain.path.braces(), beta.path.braces()),
        ("/responses".into(), "/responses".into())
    );
    assert!(plain.params.iter().all(|p| p.name != "beta"));
    let p = beta.params.iter().find(|p| p.name == "beta").unwrap();
    assert!(p.required && p.location == ParamIn::Query);
    assert_eq!(p.allowed, [Value::String("true".into())]);
    // A declared parameter of the same name is narrowed to the constant.
    let search = cap(service, "search_photos");
    let m = search.params.iter().find(|p| p.name == "method").unwrap();
    assert!(m.required);
    assert_eq!(m.allowed, [Value::String("flickr.photos.search".into())]);
    // AWS's `#WithTags`: a constant with no value.
    let tags = cap(service, "create_distribution_with_tags");
    let w = tags.params.iter().find(|p| p.name == "WithTags").unwrap();
    assert_eq!(w.allowed, [Value::String(String::new())]);
    // AWS's `#name&version`: declared parameters, required, each keeping its own schema.
    let export = cap(service, "get_export");
    assert_eq!(export.path.braces(), "/exports");
    let name = export.params.iter().find(|p| p.name == "name").unwrap();
    assert!(name.required && name.location == ParamIn::Query);
    assert_eq!(name.allowed, [Value::from("bot"), Value::from("intent")]);
    let version = export.params.iter().find(|p| p.name == "version").unwrap();
    assert!(version.required && version.location == ParamIn::Query);
    assert!(version.allowed.is_empty(), "{:?}", version.allowed);
    assert_eq!(version.kind, wellgen::model::ParamType::Array);
    assert_eq!(
        warnings(&compiled, "query strings written into paths"),
        9,
        "one at each place"
    );

    // The OpenAPI output holds every capability: those sharing method and path carry their
    // constants in the path key, and is re-read by an OpenAPI parser.
    let text = std::str::from_utf8(openapi_json(&compiled)).unwrap();
    let spec: Spec = oas3::from_json(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(spec.operations().count(), service.capabilities.len());
    let raw: Value = serde_json::from_str(text).unwrap();
    let keys: Vec<&str> = raw["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for key in [
        "/responses",
        "/responses?beta=true",
        "/rest?method=flickr.photos.getInfo",
        "/rest?method=flickr.photos.search",
        "/distribution?WithTags",
        "/distribution",
        "/#X-Amz-Target=Svc.ListThings",
        "/#X-Amz-Target=Svc.TagThing",
    ] {
        assert!(keys.contains(&key), "{key} in {keys:?}");
    }
    let search = &raw["paths"]["/rest?method=flickr.photos.search"]["get"];
    let names: Vec<&str> = search["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["text"],
        "the constant is not repeated as a parameter"
    );
    // A header constant (AWS's `X-Amz-Target`) is after a `#`, which no request carries: the
    // header stays a parameter, and is not made a query parameter.
    let list = &raw["paths"]["/#X-Amz-Target=Svc.ListThings"]["post"];
    assert_eq!(list["parameters"][0]["in"], "header");
    let c = cap(service, "list_things");
    assert_eq!(c.path.braces(), "/");
    assert!(c.params.iter().all(|p| p.location == ParamIn::Header));
    // Every JSON document parses.
    for a in &compiled.artifacts {
        if a.path.ends_with(".json") {
            serde_json::from_slice::<Value>(&a.body).unwrap_or_else(|e| panic!("{}: {e}", a.path));
        }
    }
}

#[test]
fn paths_differing_only_in_parameter_names_share_the_first_ones_names() {
    let compiled = paths_fixture();
    let service = compiled.service.as_ref().unwrap();
    let list = cap(service, "list_attestations");
    let delete = cap(service, "delete_attestation");
    assert_eq!(
        list.path.braces(),
        "/orgs/{org}/attestations/{subject_digest}"
    );
    assert_eq!(delete.path.braces(), list.path.braces());
    // The renamed parameter keeps its own type and description.
    let p = delete
        .params
        .iter()
        .find(|p| p.name == "subject_digest")
        .unwrap();
    assert_eq!(p.kind.as_str(), "integer");
    assert_eq!(p.description.as_deref(), Some("The attestation's id"));
    assert!(delete.params.iter().all(|p| p.name != "attestation_id"));
    assert_eq!(warnings(&compiled, "only in parameter names"), 1);
}

#[test]
fn a_missing_placeholder_is_restored_when_one_segment_names_it() {
    let compiled = paths_fixture();
    let service = compiled.service.as_ref().unwrap();
    let c = cap(service, "get_template");
    assert_eq!(c.path.braces(), "/templates/{templateId}");
    let p = c.params.iter().find(|p| p.name == "templateId").unwrap();
    assert_eq!(p.location, ParamIn::Path);
    assert_eq!(warnings(&compiled, "has no `{templateId}`"), 1);
}

#[test]
fn colliding_operation_ids_never_take_an_id_another_operation_asks_for() {
    let compiled = paths_fixture();
    let service = compiled.service.as_ref().unwrap();
    let ids: Vec<(&str, String)> = service
        .capabilities
        .iter()
        .filter(|c| c.id.starts_with("get_thing"))
        .map(|c| (c.id.as_str(), c.path.braces()))
        .collect();
    assert_eq!(
        ids,
        [
            ("get_thing", "/things".to_string()),
            ("get_thing_3", "/things/{id}".to_string()),
            ("get_thing_2", "/things/{id}".to_string()),
        ]
    );
}

#[test]
fn the_base_url_flag_builds_and_a_bad_value_is_refused_at_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec.yaml");
    std::fs::write(
        &spec,
        "swagger: '2.0'\ninfo: {title: T, version: '1', description: D}\nbasePath: /v2\npaths: {/a: {get: {responses: {'200': {description: ok}}}}}\n",
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen().arg("check").arg(&spec));
    assert_eq!(code, 1);
    assert!(stderr.contains("--base-url https://"), "{stderr}");
    let out = build(&spec, &["--base-url", "https://api.t.example"]);
    let doc: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("openapi.json")).unwrap()).unwrap();
    assert_eq!(doc["servers"][0]["url"], "https://api.t.example/v2");
    for (command, bad) in [
        ("build", "http://api.t.example"),
        ("import", "https://x.example/?q=1"),
    ] {
        let (code, _, stderr) = run(wellgen().arg(command).arg(&spec).args(["--base-url", bad]));
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("--base-url"), "{stderr}");
    }
}

/// When every operation was skipped for a path no target can represent, the error counts
/// them: with `-q`, the warnings that say why are hidden, and "0 filtered out" alone misled.
#[test]
fn no_operation_to_import_counts_the_skipped_ones() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("openapi.yaml");
    std::fs::write(
        &spec,
        "openapi: 3.0.3\ninfo: {title: T, version: '1', description: D}\nservers: [{url: 'https://t.example'}]\npaths:\n  /a/{x}/b/{x}:\n    get:\n      parameters: [{name: x, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n    delete:\n      parameters: [{name: x, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n",
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(&spec)
        .arg("-o")
        .arg(dir.path().join("dist"))
        .arg("-q"));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(
            "no operation to import (2 found, 0 filtered out, 2 skipped as the warnings say)"
        ),
        "{stderr}"
    );
}

/// A document with webhooks and no paths (Adyen publishes its notifications so), or whose
/// every operation the filter left out, says why nothing was imported.
#[test]
fn no_operation_to_import_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let head =
        "info: {title: T, version: '1', description: D}\nservers: [{url: 'https://t.example'}]\n";
    let hook = "post: {requestBody: {content: {application/json: {schema: {type: object}}}}, responses: {'200': {description: ok}}}";
    let cases = [
        (
            format!("openapi: 3.1.0\n{head}webhooks:\n  a: {{{hook}}}\n  b: {{{hook}}}\n"),
            None,
            "no operation to import (0 found, 0 filtered out)",
            Some("only webhooks (2)"),
        ),
        (
            format!("openapi: 3.0.3\n{head}paths: {{}}\nx-webhooks:\n  a: {{{hook}}}\n"),
            None,
            "no operation to import (0 found, 0 filtered out)",
            Some("only webhooks (1)"),
        ),
        (
            format!(
                "openapi: 3.0.3\n{head}paths:\n  /a:\n    get: {{operationId: a, responses: {{'200': {{description: ok}}}}}}\n"
            ),
            Some("op:b"),
            "no operation to import (1 found, 1 filtered out)",
            Some("include/exclude left out every operation"),
        ),
        (
            format!("openapi: 3.0.3\n{head}paths: {{}}\n"),
            None,
            "no operation to import (0 found, 0 filtered out)",
            None,
        ),
    ];
    for (text, include, message, help) in cases {
        let spec = dir.path().join("openapi.yaml");
        std::fs::write(&spec, &text).unwrap();
        let source = match include {
            Some(include) => {
                let toml = dir.path().join("service.toml");
                std::fs::write(
                    &toml,
                    format!("[source]\nopenapi = \"openapi.yaml\"\ninclude = [\"{include}\"]\n"),
                )
                .unwrap();
                toml
            }
            None => spec,
        };
        let (code, _, stderr) = run(wellgen().arg("check").arg(&source));
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        match help {
            Some(help) => assert!(stderr.contains(help), "{stderr}"),
            None => assert!(!stderr.contains("help:"), "{stderr}"),
        }
    }
}

/// Weatherbit writes `/current/airquality?city={city}&country={country}` beside
/// `…?postal_code={postal_code}`, declaring `city` and `country` as path parameters: each is a
/// required query parameter the caller fills in (the declared one keeps its schema), not the
/// constant `{city}`. OpenAPI tells the two operations apart by those names in the path key,
/// which validators accept (no template outside the path) and the import reads back alike.
#[test]
fn placeholders_in_a_path_keys_query_string_are_query_parameters_the_caller_fills_in() {
    let compiled = paths_fixture();
    let service = compiled.service.as_ref().unwrap();
    let city = cap(service, "weather_by_city");
    let postal = cap(service, "weather_by_postal_code");
    assert_eq!(city.path.braces(), "/current/weather");
    assert_eq!(postal.path.braces(), "/current/weather");
    let param = |c: &'_ Capability, name: &str| {
        c.params
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no `{name}` in {}", c.id))
            .clone()
    };
    for (c, name) in [(city, "city"), (city, "country"), (postal, "postal_code")] {
        let p = param(c, name);
        assert!(p.required && p.location == ParamIn::Query, "{name}: {p:?}");
        assert!(
            p.allowed.is_empty(),
            "{name} is no constant: {:?}",
            p.allowed
        );
    }
    assert_eq!(
        param(city, "city").description.as_deref(),
        Some("City name")
    );
    assert_eq!(
        param(city, "country").pattern.as_deref(),
        Some("^[A-Z]{2}$")
    );
    assert_eq!(
        warnings(&compiled, "OpenAPI has one operation per method and path"),
        0
    );
    // A path that goes on after a `#` is no query string: skipped, with a warning naming it.
    assert!(
        service
            .capabilities
            .iter()
            .all(|c| c.id != "list_transfers")
    );
    assert_eq!(warnings(&compiled, "goes on after a `?` or `#`"), 1);

    let body = openapi_json(&compiled);
    let raw: Value = serde_json::from_slice(body).unwrap();
    let by_city = &raw["paths"]["/current/weather?city&country"]["get"];
    let by_postal = &raw["paths"]["/current/weather?postal_code"]["get"];
    let names = |op: &Value| -> Vec<String> {
        op["parameters"]
            .as_array()
            .unwrap_or_else(|| panic!("no parameters in {op}"))
            .iter()
            .map(|p| {
                format!(
                    "{}:{}",
                    p["name"].as_str().unwrap(),
                    p["in"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(names(by_city), ["city:query", "country:query", "key:query"]);
    assert_eq!(names(by_postal), ["key:query", "postal_code:query"]);

    // Imported again, the keys give the same capabilities.
    let work = tempfile::tempdir().unwrap();
    let again = work.path().join("openapi.json");
    std::fs::write(&again, body).unwrap();
    let text = std::fs::read_to_string(&again).unwrap();
    let round = compile(&again, &text, &Options::default());
    assert!(round.succeeded(), "{:#?}", round.diags);
    let service = round.service.as_ref().unwrap();
    for (id, wanted) in [
        ("weather_by_city", vec!["city", "country", "key"]),
        ("weather_by_postal_code", vec!["key", "postal_code"]),
    ] {
        let c = cap(service, id);
        assert_eq!(c.path.braces(), "/current/weather");
        let mut required: Vec<&str> = c
            .params
            .iter()
            .filter(|p| p.required && p.location == ParamIn::Query)
            .map(|p| p.name.as_str())
            .collect();
        required.sort_unstable();
        assert_eq!(required, wanted, "{id}");
        assert!(
            c.params.iter().all(|p| p.allowed.is_empty()),
            "{id}: {:?}",
            c.params
        );
    }
}
