//! Agent Discovery Protocol back end: every example and fixture builds documents that pass the
//! ADP rule checker, every detail_url lands on an emitted document, the checker agrees with the
//! upstream examples, and bad service.toml input is reported on the right field.

use std::path::{Path, PathBuf};

use crate::support_adp::{check_detail, check_manifest, description_length_message};
use serde_json::{Value, json};
use wellgen::diag::{Diagnostic, Diagnostics, Severity};
use wellgen::emit::targets::adp;
use wellgen::emit::{Artifact, Target};
use wellgen::model::Service;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every examples/*/service.toml and tests/fixtures/adp-*/service.toml.
fn sources() -> Vec<PathBuf> {
    crate::common::sources_with_fixtures("adp-")
}

fn lower(text: &str) -> (Option<Service>, Diagnostics) {
    let mut diags = Diagnostics::default();
    let raw = wellgen::source::parse_service_toml(text).expect("service.toml parses");
    let service = wellgen::model::lower(raw, &mut diags);
    (service, diags)
}

/// Lowers and emits ADP; the diagnostics hold lowering's and the back end's.
fn build(text: &str) -> (Service, Vec<Artifact>, Diagnostics) {
    let (service, mut diags) = lower(text);
    let service = service
        .unwrap_or_else(|| panic!("lowering failed: {:?}", diags.iter().collect::<Vec<_>>()));
    let artifacts = Target::Adp.emit(&service, &mut diags);
    (service, artifacts, diags)
}

fn json_of(artifacts: &[Artifact], path: &str) -> Value {
    let a = artifacts
        .iter()
        .find(|a| a.path == path)
        .unwrap_or_else(|| panic!("no artifact at {path}"));
    serde_json::from_slice(&a.body).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

fn errors(diags: &Diagnostics) -> Vec<&Diagnostic> {
    diags.iter().filter(|d| d.is_error()).collect()
}

fn at<'a>(diags: &'a Diagnostics, field: &str, severity: Severity) -> Vec<&'a Diagnostic> {
    diags
        .iter()
        .filter(|d| d.severity == severity && d.field.as_deref() == Some(field))
        .collect()
}

/// The URL a detail_url points at, resolved as the README's consumer and the registry do.
fn resolve(manifest: &Value, detail_url: &str) -> String {
    if detail_url.starts_with("http") {
        detail_url.to_string()
    } else {
        format!("{}{detail_url}", manifest["base_url"].as_str().unwrap())
    }
}

/// Every document of a build passes the checker, and every detail_url resolves to a document
/// at the site it is published on.
fn assert_valid_build(label: &str, service: &Service, artifacts: &[Artifact]) {
    let manifest = json_of(artifacts, adp::MANIFEST_PATH);
    // The registry's same-host rule for detail_url is not in the spec text: a site published on
    // a parent domain of the API (bookshelf.example for api.bookshelf.example) is warned about at
    // build time and is the one finding allowed here.
    let site_host = service.site_url.as_str().trim_start_matches("https://");
    let base_host = service
        .base_url
        .origin()
        .as_str()
        .trim_start_matches("https://")
        .to_string();
    let registry_only = |p: &String| {
        p.ends_with(&format!(
            "`{site_host}` is neither base_url's host `{base_host}` nor a subdomain of it"
        ))
    };
    let problems: Vec<String> = check_manifest(&manifest)
        .into_iter()
        .filter(|p| !registry_only(p))
        .collect();
    assert_eq!(problems, Vec::<String>::new(), "{label}: manifest");
    let caps = manifest["capabilities"].as_array().unwrap();
    assert_eq!(caps.len(), service.capabilities.len(), "{label}");
    assert_eq!(
        artifacts.len(),
        caps.len() + 1,
        "{label}: one detail per capability"
    );
    let site = service.site_url.as_str();
    for cap in caps {
        let url = resolve(&manifest, cap["detail_url"].as_str().unwrap());
        let path = url
            .strip_prefix(site)
            .unwrap_or_else(|| panic!("{label}: {url} is not on the site {site}"));
        let detail = json_of(artifacts, path);
        assert_eq!(
            check_detail(&detail),
            Vec::<String>::new(),
            "{label}: {path}"
        );
        assert_eq!(detail["name"], cap["name"], "{label}: {path}");
        assert_eq!(detail["description"], cap["description"], "{label}: {path}");
        let endpoint = detail["endpoint"].as_str().unwrap();
        let request_url = detail["request_example"]["url"].as_str().unwrap();
        if endpoint.starts_with('/') {
            let base = manifest["base_url"].as_str().unwrap();
            let fixed = endpoint.split('{').next().unwrap();
            assert!(
                request_url.starts_with(&format!("{base}{fixed}")),
                "{label}: {request_url} is not base_url + {endpoint}"
            );
        }
        assert_eq!(detail["request_example"]["method"], detail["method"]);
    }
    for a in artifacts {
        assert!(
            a.body.ends_with(b"}\n"),
            "{label}: {} ends with a newline",
            a.path
        );
        assert_eq!(
            a.serving.as_ref(),
            Some(&adp::SERVING),
            "{label}: {}",
            a.path
        );
        assert!(a.needs_content_type(), "{}", a.path);
    }
    let serving = &adp::SERVING;
    assert_eq!(serving.content_type, "application/json; charset=utf-8");
    assert_eq!(serving.cache_control, "public, max-age=3600");
    assert!(serving.cors);
}

#[test]
fn every_example_and_fixture_emits_valid_linked_documents() {
    let files = sources();
    assert!(files.len() >= 5, "found only {files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let (service, artifacts, diags) = build(&text);
        let label = file.display().to_string();
        assert!(errors(&diags).is_empty(), "{label}: {:?}", errors(&diags));
        assert_valid_build(&label, &service, &artifacts);
    }
}

#[test]
fn emission_is_deterministic() {
    for file in sources() {
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(build(&text).1, build(&text).1, "{}", file.display());
    }
}

/// Every published tree checked in (tests/golden/*, tests/fixtures/*/expected, the imported
/// OpenAPI fixtures among them) that holds an ADP manifest.
fn published_trees() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (dir, sub) in [("tests/golden", ""), ("tests/fixtures", "expected")] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap().flatten() {
            let tree = entry.path().join(sub);
            if tree.join(".well-known/agent").is_file() {
                out.push(tree);
            }
        }
    }
    out.sort();
    out
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The checker on the documents as checked in: every manifest and detail document passes, and
/// the manifest links exactly the detail documents published beside it.
#[test]
fn every_checked_in_adp_document_passes_the_checker() {
    let trees = published_trees();
    assert!(
        trees
            .iter()
            .any(|t| t.starts_with(root().join("tests/golden")))
            && trees
                .iter()
                .filter(|t| t.to_string_lossy().contains("import-"))
                .count()
                >= 5,
        "found only {trees:?}"
    );
    for tree in trees {
        let label = tree.display();
        let manifest = read_json(&tree.join(".well-known/agent"));
        // The one finding a build warns about instead (see assert_valid_build): a site on a
        // parent domain of the API, whose absolute detail_urls the registry refuses.
        let problems: Vec<String> = check_manifest(&manifest)
            .into_iter()
            .filter(|p| !p.ends_with("nor a subdomain of it"))
            .collect();
        assert_eq!(problems, Vec::<String>::new(), "{label}");
        let mut linked: Vec<String> = manifest["capabilities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let url = c["detail_url"].as_str().unwrap();
                // An absolute detail_url is on the site the tree is published at.
                let path = match url.strip_prefix("https://") {
                    Some(rest) => &rest[rest.find('/').unwrap()..],
                    None => url,
                };
                assert!(path.starts_with(adp::DETAIL_PREFIX), "{label}: {url}");
                path.to_string()
            })
            .collect();
        linked.sort();
        let dir = tree.join(adp::DETAIL_PREFIX.trim_matches('/'));
        let mut published = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let detail = read_json(&entry.path());
            assert_eq!(
                check_detail(&detail),
                Vec::<String>::new(),
                "{label}: {name}"
            );
            assert_eq!(detail["name"], name.as_str(), "{label}");
            published.push(format!("{}{name}", adp::DETAIL_PREFIX));
        }
        published.sort();
        assert_eq!(linked, published, "{label}");
    }
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        root()
            .join("tests/fixtures")
            .join(name)
            .join("service.toml"),
    )
    .unwrap()
}

#[test]
fn oauth_fixture_maps_auth_scopes_examples_and_limits() {
    let (_, artifacts, diags) = build(&fixture("adp-oauth"));
    let m = json_of(&artifacts, "/.well-known/agent");
    assert_eq!(m["base_url"], "https://api.invoicedesk.example");
    assert_eq!(
        m["auth"],
        json!({"type": "oauth2", "authorization_url": "https://auth.invoicedesk.example/authorize",
               "token_url": "https://auth.invoicedesk.example/token",
               "scopes": ["invoices.read", "invoices.write"]})
    );
    assert_eq!(m["pricing"]["type"], "freemium");
    assert_eq!(
        m["pricing"]["plans"][1],
        json!({"name": "Pro", "price": "$15/mo"})
    );
    assert_eq!(
        m["capabilities"][0]["detail_url"],
        "/api/capabilities/create_invoice"
    );

    let d = json_of(&artifacts, "/api/capabilities/create_invoice");
    assert_eq!(d["endpoint"], "/v2/clients/{client_id}/invoices");
    let names: Vec<&str> = d["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "client_id",
            "items",
            "currency",
            "due_days",
            "Idempotency-Key"
        ],
        "author order"
    );
    let types: Vec<&str> = d["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["string", "object[]", "string", "number", "string"]);
    assert_eq!(d["parameters"][2]["default"], "USD");
    assert_eq!(
        d["parameters"][2]["description"],
        "ISO 4217 currency code. One of `USD`, `EUR`."
    );
    assert_eq!(
        d["parameters"][3]["example"], 30,
        "taken from the author's request"
    );
    let r = &d["request_example"];
    assert_eq!(
        r["url"],
        "https://api.invoicedesk.example/v2/clients/cl_42/invoices"
    );
    assert_eq!(
        r["headers"],
        json!({"Authorization": "Bearer {access_token}", "Idempotency-Key": "b1946ac9",
               "Content-Type": "application/json"})
    );
    assert_eq!(
        r["body"],
        json!({"items": [{"description": "Consulting", "quantity": 3, "unit_price": 15000}], "due_days": 30})
    );
    assert_eq!(d["response_example"]["status"], 201);
    assert_eq!(d["auth_scopes"], json!(["invoices.write"]));
    assert_eq!(
        d["rate_limits"],
        json!({"requests_per_minute": 100, "daily_limit": 500})
    );
    // The author gave every example here: no example warning for this capability.
    assert!(at(&diags, "capabilities.0.example", Severity::Warning).is_empty());

    let d = json_of(&artifacts, "/api/capabilities/list_invoices");
    assert_eq!(
        d["rate_limits"],
        json!({"requests_per_minute": 120}),
        "2/second"
    );
    assert_eq!(d["parameters"][1]["type"], "string[]");
    assert_eq!(d["parameters"][2]["description"], "page size. At most 100.");
    assert_eq!(
        d["request_example"]["url"],
        "https://api.invoicedesk.example/v2/invoices"
    );
    assert_eq!(
        d["response_example"]["body"]["invoices"][0]["due_date"],
        "2026-01-01"
    );

    let d = json_of(&artifacts, "/api/capabilities/get_invoice");
    assert_eq!(
        d["endpoint"], "/v2/invoices/{invoice_id}",
        "`:param` is written `{{param}}`"
    );
    assert_eq!(
        d["rate_limits"],
        json!({"requests_per_minute": 100}),
        "the service's limit"
    );
    assert_eq!(
        d["response_example"]["body"],
        json!({"id": "inv_9xK3", "paid": true, "total": 0})
    );
}

#[test]
fn bearer_fixture_maps_to_api_key_and_keeps_other_hosts_absolute() {
    let (_, artifacts, diags) = build(&fixture("adp-bearer"));
    let m = json_of(&artifacts, "/.well-known/agent");
    assert_eq!(
        m["auth"],
        json!({"type": "api_key", "header": "Authorization", "prefix": "Bearer",
               "setup_url": "https://photovault.example/account/tokens"})
    );
    let d = json_of(&artifacts, "/api/capabilities/upload_photo");
    assert_eq!(
        d["endpoint"],
        "https://uploads.photovault.example/v1/photos/{photo_name}"
    );
    assert_eq!(
        d["request_example"]["url"],
        "https://uploads.photovault.example/v1/photos/beach%20day.jpg"
    );
    assert_eq!(
        d["request_example"]["headers"]["Authorization"],
        "Bearer {token}"
    );
    assert_eq!(
        d["request_example"]["body"],
        json!({"album": "Holidays 2025"})
    );
    assert_eq!(
        d["rate_limits"],
        json!({"requests_per_minute": 1}),
        "100/hour rounded down"
    );
    let hourly = at(&diags, "capabilities.0.rate_limit", Severity::Warning);
    assert_eq!(hourly.len(), 1);
    assert!(
        hourly[0].message.contains("requests_per_minute = 1"),
        "{}",
        hourly[0].message
    );

    let d = json_of(&artifacts, "/api/capabilities/find_photos");
    assert_eq!(
        d["request_example"]["headers"],
        json!({}),
        "a public capability sends no credentials"
    );
    assert_eq!(
        d["request_example"]["url"],
        "https://photovault.example/api/photos?tag=beach&tag=sunset"
    );
    assert!(
        d.get("rate_limits").is_none(),
        "30/hour has no per-minute form"
    );
    assert_eq!(
        d["response_example"]["body"]["photos"][0]["tags"],
        json!(["example tag"])
    );

    let d = json_of(&artifacts, "/api/capabilities/delete_photo");
    assert_eq!(
        d["request_example"]["url"],
        "https://photovault.example/api/photos/ph_1"
    );
    assert!(d["request_example"].get("body").is_none());
    assert_eq!(
        d["rate_limits"],
        json!({"requests_per_minute": 300}),
        "5/second"
    );
}

#[test]
fn api_key_publishes_its_header_with_an_empty_prefix() {
    let text = std::fs::read_to_string(root().join("examples/exampleshop/service.toml")).unwrap();
    let (_, artifacts, _) = build(&text);
    let m = json_of(&artifacts, "/.well-known/agent");
    assert_eq!(
        m["auth"],
        json!({"type": "api_key", "header": "X-API-Key", "prefix": "",
               "setup_url": "https://exampleshop.com/docs/auth"})
    );
    let d = json_of(&artifacts, "/api/capabilities/get_product");
    assert_eq!(d["endpoint"], "/api/ai/products/{id}");
    assert_eq!(
        d["request_example"]["headers"],
        json!({"X-API-Key": "{api_key}"})
    );
}

const HEAD: &str = "[service]\nname = \"T\"\ndescription = \"Looks things up for agents that need them.\"\nbase_url = \"https://api.t.example\"\n\n[auth]\ntype = \"none\"\n\n";
const CAP: &str = "[[capabilities]]\nid = \"look_up\"\ndescription = \"Look one thing up by its name.\"\npath = \"/things\"\n";

fn with_head(head: &str, rest: &str) -> String {
    format!("{head}{rest}")
}

#[test]
fn service_descriptions_outside_20_to_200_are_fitted_with_a_warning() {
    let long = format!("{} end", "word ".repeat(50));
    let cases = [
        ("Too short for ADP.", 18, "T: Too short for ADP".to_string()),
        ("Short.", 6, "T: Short (an API for AI agents)".to_string()),
        (
            long.as_str(),
            254,
            format!("{}…", "word ".repeat(39).trim_end()),
        ),
    ];
    for (description, len, published) in cases {
        let text = HEAD.replace("Looks things up for agents that need them.", description) + CAP;
        let (_, artifacts, diags) = build(&text);
        assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
        let warns = at(&diags, "service.description", Severity::Warning);
        assert_eq!(warns.len(), 1, "{len}: {warns:?}");
        assert!(
            warns[0].message.starts_with(&format!(
                "`service.description` {}",
                description_length_message(len)
            )),
            "{}",
            warns[0].message
        );
        let manifest = json_of(&artifacts, adp::MANIFEST_PATH);
        assert_eq!(manifest["description"], published.as_str());
        assert_eq!(check_manifest(&manifest), Vec::<String>::new());
    }
}

#[test]
fn a_capability_description_under_10_characters_is_completed_from_its_endpoint() {
    let text = with_head(
        HEAD,
        &CAP.replace("Look one thing up by its name.", "Look up."),
    );
    let (_, artifacts, diags) = build(&text);
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    let warns = at(&diags, "capabilities.0.description", Severity::Warning);
    assert_eq!(warns.len(), 1, "{warns:?}");
    assert!(
        warns[0].message.contains("is 8 characters"),
        "{}",
        warns[0].message
    );
    let manifest = json_of(&artifacts, adp::MANIFEST_PATH);
    assert_eq!(
        manifest["capabilities"][0]["description"],
        "Look up. (GET /things)"
    );
    let detail = json_of(&artifacts, "/api/capabilities/look_up");
    assert_eq!(detail["description"], "Look up. (GET /things)");
}

#[test]
fn an_array_of_arrays_is_published_as_json_text_with_a_warning() {
    let text = with_head(
        HEAD,
        &format!(
            "{CAP}params = {{ grid = {{ type = \"array\", items = \"array\", description = \"pairs\", example = [[1, 2]] }} }}\n"
        ),
    );
    let (_, artifacts, diags) = build(&text);
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    let warned = at(&diags, "capabilities.0.params.grid", Severity::Warning);
    assert!(
        warned
            .iter()
            .any(|d| d.message.contains("no array of arrays")),
        "{warned:?}"
    );
    let d = json_of(&artifacts, "/api/capabilities/look_up");
    assert!(check_detail(&d).is_empty(), "{:?}", check_detail(&d));
    let grid = &d["parameters"][0];
    assert_eq!(grid["type"], "string[]");
    assert_eq!(grid["example"], json!(["[1,2]"]));
    assert!(grid["description"].as_str().unwrap().starts_with("pairs."));
}

#[test]
fn missing_auth_is_published_as_none_with_a_warning() {
    let text = HEAD.replace("[auth]\ntype = \"none\"\n", "") + CAP;
    let (_, artifacts, diags) = build(&text);
    assert_eq!(
        json_of(&artifacts, "/.well-known/agent")["auth"],
        json!({"type": "none"})
    );
    let w: Vec<_> = diags
        .iter()
        .filter(|d| d.message.starts_with("no [auth] table"))
        .collect();
    assert_eq!(w.len(), 1);
    // A value filled in: a note.
    assert_eq!(w[0].severity, Severity::Note);
}

#[test]
fn signed_key_is_published_as_an_api_key_with_a_warning() {
    let head = HEAD.replace(
        "type = \"none\"",
        "type = \"signed_key\"\nkey_url = \"https://t.example/keys\"",
    );
    let (_, artifacts, diags) = build(&with_head(&head, CAP));
    assert_eq!(
        json_of(&artifacts, "/.well-known/agent")["auth"],
        json!({"type": "api_key", "header": "X-IA-Key", "prefix": "", "setup_url": "https://t.example/keys"})
    );
    assert_eq!(at(&diags, "auth.type", Severity::Warning).len(), 1);
    let d = json_of(&artifacts, "/api/capabilities/look_up");
    assert_eq!(
        d["request_example"]["headers"],
        json!({"X-IA-Key": "{api_key}"})
    );
}

#[test]
fn examples_made_up_warn_once_per_capability() {
    let two = format!("{CAP}\n{}", CAP.replace("look_up", "look_up_more"));
    let (_, _, diags) = build(&with_head(HEAD, &two));
    for i in 0..2 {
        let w = at(&diags, &format!("capabilities.{i}.example"), Severity::Note);
        assert_eq!(w.len(), 1, "capability {i}");
        assert!(w[0].message.contains("request_example"), "{}", w[0].message);
        assert!(
            w[0].message.contains("`{}`"),
            "no returns, no schema: {}",
            w[0].message
        );
    }
    let complete = format!(
        "{CAP}params = {{ name = {{ type = \"string\", required = true, description = \"its name\" }} }}\n\
         example = {{ request = {{ name = \"bolt\" }}, response = {{ id = \"t1\" }} }}\n"
    );
    let (_, artifacts, diags) = build(&with_head(HEAD, &complete));
    assert!(at(&diags, "capabilities.0.example", Severity::Warning).is_empty());
    let d = json_of(&artifacts, "/api/capabilities/look_up");
    assert_eq!(d["parameters"][0]["example"], "bolt");
    assert_eq!(
        d["request_example"]["url"],
        "https://api.t.example/things?name=bolt"
    );
}

#[test]
fn a_site_on_another_host_links_details_absolutely_and_warns() {
    let head = HEAD.replace(
        "base_url = \"https://api.t.example\"",
        "base_url = \"https://api.t.example\"\nsite_url = \"https://t.example\"",
    );
    let (_, artifacts, diags) = build(&with_head(&head, CAP));
    assert_eq!(at(&diags, "service.site_url", Severity::Warning).len(), 1);
    let m = json_of(&artifacts, "/.well-known/agent");
    assert_eq!(
        m["capabilities"][0]["detail_url"],
        "https://t.example/api/capabilities/look_up"
    );
    // The registry's same-host rule is what the warning is about: the checker says just that.
    let problems = check_manifest(&m);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("capabilities[0].detail_url: "),
        "{problems:?}"
    );

    let head = HEAD.replace(
        "base_url = \"https://api.t.example\"",
        "base_url = \"https://t.example/api\"\nsite_url = \"https://docs.t.example\"",
    );
    let (service, artifacts, diags) = build(&with_head(&head, CAP));
    assert!(
        at(&diags, "service.site_url", Severity::Warning).is_empty(),
        "a subdomain is fine"
    );
    assert_valid_build("subdomain site", &service, &artifacts);
}

#[test]
fn html_in_descriptions_warns() {
    let text = HEAD.replace("Looks things up", "Looks <b>things</b> up") + CAP;
    let (_, _, diags) = build(&text);
    let found = at(&diags, "service.description", Severity::Warning);
    assert_eq!(found.len(), 1);
    assert!(
        found[0]
            .message
            .starts_with("looks like it holds HTML tags")
    );
    // A placeholder is no HTML tag (an imported description keeps it), but the registry loses
    // it all the same: the warning quotes it and says how to keep it.
    let text = HEAD.replace("Looks things up", "Looks up things by <id>") + CAP;
    let (_, _, diags) = build(&text);
    let found = at(&diags, "service.description", Severity::Warning);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].message,
        "holds `<id>`, which the ADP registry strips as it strips every `<…>`"
    );
    assert!(found[0].help.as_deref().unwrap().contains("`{id}`"));
}

// --- the checker on upstream documents (tests/schemas/adp/examples, see SOURCE.md) ---

fn upstream() -> Vec<(String, Value)> {
    let dir = root().join("tests/schemas/adp/examples");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(e.path()).unwrap();
            (name, serde_json::from_str(&text).unwrap())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn upstream_file(name: &str) -> Value {
    let path: &Path = &root().join("tests/schemas/adp/examples").join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn upstream_examples_pass_except_their_long_descriptions() {
    let docs = upstream();
    let (mut manifests, mut details) = (0, 0);
    for (name, doc) in &docs {
        if name.ends_with("-detail.json") {
            details += 1;
            assert_eq!(check_detail(doc), Vec::<String>::new(), "{name}");
        } else if name.starts_with("spec-page-") {
            assert_eq!(check_manifest(doc), Vec::<String>::new(), "{name}");
        } else {
            manifests += 1;
            let len = doc["description"].as_str().unwrap().chars().count();
            assert!((207..=349).contains(&len), "{name}: {len}");
            assert_eq!(
                check_manifest(doc),
                vec![format!("description: {}", description_length_message(len))],
                "{name}"
            );
        }
    }
    assert_eq!((manifests, details), (6, 6));
}

/// A field-path prefix the checker must report, and the change that breaks it.
type Mutation = Box<dyn FnOnce(&mut Value)>;

fn mutated(base: &Value, change: impl FnOnce(&mut Value)) -> Value {
    let mut doc = base.clone();
    change(&mut doc);
    doc
}

#[test]
fn checker_reports_each_broken_manifest_rule_on_its_field() {
    let base = upstream_file("spec-page-mailforge.extracted.json");
    assert!(check_manifest(&base).is_empty());
    let cases: Vec<(&str, Mutation)> = vec![
        (
            "spec_version: ",
            Box::new(|d| d["spec_version"] = json!("1.1")),
        ),
        (
            "base_url: ",
            Box::new(|d| d["base_url"] = json!("http://api.mailforge.dev")),
        ),
        (
            "base_url: ",
            Box::new(|d| d["base_url"] = json!("https://api.mailforge.dev/")),
        ),
        (
            "base_url: ",
            Box::new(|d| d["base_url"] = json!("https://192.168.0.10")),
        ),
        ("name: ", Box::new(|d| d["name"] = json!("<b></b>"))),
        ("name: ", Box::new(|d| d["name"] = json!("n".repeat(101)))),
        (
            "description: ",
            Box::new(|d| d["description"] = json!("Nineteen characters")),
        ),
        (
            "description: ",
            Box::new(|d| d["description"] = json!("d".repeat(201))),
        ),
        (
            "capabilities[0].name: ",
            Box::new(|d| d["capabilities"][0]["name"] = json!("SendEmail")),
        ),
        (
            "capabilities[0].name: ",
            Box::new(|d| d["capabilities"][0]["name"] = json!("send-email")),
        ),
        (
            "capabilities[0].name: ",
            Box::new(|d| d["capabilities"][0]["name"] = json!("1send")),
        ),
        (
            "capabilities[1].name: ",
            Box::new(|d| d["capabilities"][1]["name"] = json!("send_email")),
        ),
        (
            "capabilities: ",
            Box::new(|d| d["capabilities"] = json!([])),
        ),
        (
            "capabilities[0].description: ",
            Box::new(|d| d["capabilities"][0]["description"] = json!("Send it.")),
        ),
        (
            "capabilities[0].detail_url: ",
            Box::new(|d| d["capabilities"][0]["detail_url"] = json!("capabilities/x")),
        ),
        (
            "capabilities[0].detail_url: ",
            Box::new(|d| d["capabilities"][0]["detail_url"] = json!("https://evil.example/x")),
        ),
        (
            "auth.header: ",
            Box::new(|d| {
                d["auth"].as_object_mut().unwrap().remove("header");
            }),
        ),
        (
            "auth.setup_url: ",
            Box::new(|d| d["auth"]["setup_url"] = json!("http://mailforge.dev/keys")),
        ),
        (
            "auth.type: ",
            Box::new(|d| d["auth"]["type"] = json!("bearer")),
        ),
        (
            "auth.token_url: ",
            Box::new(|d| {
                d["auth"] = json!({"type": "oauth2", "authorization_url": "https://a.example/auth"})
            }),
        ),
        (
            "pricing.type: ",
            Box::new(|d| {
                d["pricing"].as_object_mut().unwrap().remove("type");
            }),
        ),
        (
            "pricing.plans_url: ",
            Box::new(|d| d["pricing"]["plans_url"] = json!("ftp://x.example")),
        ),
        ("version: ", Box::new(|d| d["version"] = json!("2"))),
    ];
    for (field, change) in cases {
        let problems = check_manifest(&mutated(&base, change));
        assert_eq!(problems.len(), 1, "{field}: {problems:?}");
        assert!(problems[0].starts_with(field), "{field}: {problems:?}");
    }
    assert_eq!(
        check_manifest(&json!([])),
        ["(document): must be a JSON object"]
    );
}

#[test]
fn checker_reports_each_broken_detail_rule_on_its_field() {
    let base = upstream_file("weather-api-get_current_weather-detail.json");
    let cases: Vec<(&str, Mutation)> = vec![
        ("name: ", Box::new(|d| d["name"] = json!("GetWeather"))),
        (
            "method: ",
            Box::new(|d| {
                d["method"] = json!("get");
                d["request_example"]["method"] = json!("get");
            }),
        ),
        (
            "endpoint: ",
            Box::new(|d| d["endpoint"] = json!("v1/weather/current")),
        ),
        (
            "parameters[0].type: ",
            Box::new(|d| d["parameters"][0]["type"] = json!("integer")),
        ),
        (
            "parameters[0].example: ",
            Box::new(|d| d["parameters"][0]["example"] = json!(3)),
        ),
        (
            "parameters[0].example: ",
            Box::new(|d| {
                d["parameters"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("example");
            }),
        ),
        (
            "parameters[1].required: ",
            Box::new(|d| d["parameters"][1]["required"] = json!("no")),
        ),
        (
            "parameters[1].name: ",
            Box::new(|d| d["parameters"][1]["name"] = json!("location")),
        ),
        (
            "request_example.method: ",
            Box::new(|d| d["request_example"]["method"] = json!("POST")),
        ),
        (
            "request_example.url: ",
            Box::new(|d| {
                d["request_example"]["url"] = json!("https://api.openskyweather.com/v1/{x}")
            }),
        ),
        (
            "response_example.status: ",
            Box::new(|d| d["response_example"]["status"] = json!("200")),
        ),
        (
            "response_example.body: ",
            Box::new(|d| {
                d["response_example"]
                    .as_object_mut()
                    .unwrap()
                    .remove("body");
            }),
        ),
        (
            "auth_scopes: ",
            Box::new(|d| d["auth_scopes"] = json!("email.send")),
        ),
        (
            "rate_limits.daily_limit: ",
            Box::new(|d| d["rate_limits"]["daily_limit"] = json!(0)),
        ),
    ];
    for (field, change) in cases {
        let problems = check_detail(&mutated(&base, change));
        assert_eq!(problems.len(), 1, "{field}: {problems:?}");
        assert!(problems[0].starts_with(field), "{field}: {problems:?}");
    }
}

#[test]
fn odd_input_builds_without_panicking_and_stays_valid() {
    // (A `nan` bound is refused while lowering: tests/cases/nan-and-infinity.)
    let cap = "[[capabilities]]\nid = \"odd\"\ndescription = \"Accepts odd input of every kind.\"\nmethod = \"POST\"\npath = \"/\"\n\
               returns = \"ünïcode {a}\"\n\
               params = { n = { type = \"number\", min = -1.7976931348623157e308, description = \"the least float\" }, \"a b\" = \"string, optional -- spaced\" }\n\
               example = { request = [1, 2, 3], status = 202 }\n";
    let text = with_head(HEAD, cap).replace("\"a b\"", "\"a\u{e9}\"");
    let (service, artifacts, diags) = build(&text);
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
    assert_valid_build("odd", &service, &artifacts);
    let d = json_of(&artifacts, "/api/capabilities/odd");
    assert_eq!(
        d["request_example"]["body"],
        json!([1, 2, 3]),
        "a non-table request is the body"
    );
    assert_eq!(d["request_example"]["url"], "https://api.t.example/");
    // Field names in the `returns` notation may be any letters, not only ASCII.
    assert_eq!(
        d["response_example"],
        json!({"status": 202, "body": {"\u{fc}n\u{ef}code": {"a": "example a"}}})
    );
}
