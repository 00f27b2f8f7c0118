//! Inputs that once built ADP documents the ADP checker (tests/it/support_adp.rs) rejects, with
//! no error: a service name that is nothing but tags, example request values of the wrong type.
//! Each must now build valid documents with a warning saying what was derived, and anything the
//! back end cannot fit must be an error from its `lower` rather than a silently invalid document.

use crate::support_adp::{check_detail, check_manifest};
use serde_json::{Value, json};
use wellgen::diag::{Diagnostic, Diagnostics, Severity};
use wellgen::emit::targets::adp;
use wellgen::emit::{Artifact, Target};

fn build(text: &str) -> (Vec<Artifact>, Diagnostics) {
    let mut diags = Diagnostics::default();
    let raw = wellgen::source::parse_service_toml(text).expect("service.toml parses");
    let service = wellgen::model::lower(raw, &mut diags)
        .unwrap_or_else(|| panic!("lowering failed: {:?}", diags.iter().collect::<Vec<_>>()));
    let artifacts = Target::Adp.emit(&service, &mut diags);
    (artifacts, diags)
}

fn json_of(artifacts: &[Artifact], path: &str) -> Value {
    let a = artifacts
        .iter()
        .find(|a| a.path == path)
        .unwrap_or_else(|| panic!("no artifact at {path}"));
    serde_json::from_slice(&a.body).unwrap()
}

fn at<'a>(diags: &'a Diagnostics, field: &str, severity: Severity) -> Vec<&'a Diagnostic> {
    diags
        .iter()
        .filter(|d| d.severity == severity && d.field.as_deref() == Some(field))
        .collect()
}

fn errors(diags: &Diagnostics) -> Vec<&Diagnostic> {
    diags.iter().filter(|d| d.is_error()).collect()
}

const DETAIL: &str = "/api/capabilities/look_up";

fn service(name: &str, capability: &str) -> String {
    format!(
        "[service]\nname = {name:?}\ndescription = \"Looks things up for agents that need them.\"\n\
         base_url = \"https://api.t.example/v1\"\n\n[auth]\ntype = \"none\"\n\n\
         [[capabilities]]\nid = \"look_up\"\n{capability}"
    )
}

const CAP: &str = "description = \"Look one thing up by its name.\"\npath = \"/things\"\n";

#[test]
fn a_name_of_only_tags_publishes_the_api_host() {
    for name in ["<b>", "<b> <b>", "<i></i>"] {
        let (artifacts, diags) = build(&service(name, CAP));
        let manifest = json_of(&artifacts, adp::MANIFEST_PATH);
        assert_eq!(check_manifest(&manifest), Vec::<String>::new(), "{name}");
        assert_eq!(manifest["name"], "api.t.example", "{name}");
        let warned = at(&diags, "service.name", Severity::Warning);
        assert_eq!(warned.len(), 1, "{name}: {warned:?}");
        assert!(warned[0].message.contains("`api.t.example`"), "{warned:?}");
        assert!(errors(&diags).is_empty(), "{name}: {:?}", errors(&diags));
    }
    // A name with visible text around its tags is published as written.
    let (artifacts, _) = build(&service("<b>Shelf</b>", CAP));
    assert_eq!(
        json_of(&artifacts, adp::MANIFEST_PATH)["name"],
        "<b>Shelf</b>"
    );
}

#[test]
fn a_description_of_only_tags_is_completed_to_the_registrys_minimum() {
    let cap = "description = \"<b><i></i></b>\"\npath = \"/\"\n";
    let (artifacts, diags) = build(&service("T", cap));
    let manifest = json_of(&artifacts, adp::MANIFEST_PATH);
    assert_eq!(check_manifest(&manifest), Vec::<String>::new());
    assert_eq!(
        check_detail(&json_of(&artifacts, DETAIL)),
        Vec::<String>::new()
    );
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
}

#[test]
fn a_mistyped_example_request_value_is_not_published_as_the_parameters_example() {
    let cap = format!(
        "{CAP}params.n = \"integer, required\"\n[capabilities.example]\nrequest = {{ n = \"ten\" }}\n"
    );
    let (artifacts, diags) = build(&service("T", &cap));
    let detail = json_of(&artifacts, DETAIL);
    assert_eq!(check_detail(&detail), Vec::<String>::new());
    assert_eq!(detail["parameters"][0]["example"], json!(1));
    // The request example agrees with the parameter.
    assert_eq!(
        detail["request_example"]["url"],
        "https://api.t.example/v1/things?n=1"
    );
    let warned = at(
        &diags,
        "capabilities.0.example.request.n",
        Severity::Warning,
    );
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(warned[0].message.contains("\"ten\""), "{warned:?}");
    assert!(errors(&diags).is_empty(), "{:?}", errors(&diags));
}

#[test]
fn a_value_that_says_the_same_in_the_right_type_is_converted() {
    let cap = format!(
        "{CAP}params.s = \"string, optional\"\nparams.m = \"number, optional\"\n\
         params.b = \"boolean, optional\"\n\
         [capabilities.example]\nrequest = {{ s = 7, m = \"2.5\", b = \"true\" }}\n"
    );
    let (artifacts, diags) = build(&service("T", &cap));
    let detail = json_of(&artifacts, DETAIL);
    assert_eq!(check_detail(&detail), Vec::<String>::new());
    let examples: Vec<&Value> = (0..3)
        .map(|i| &detail["parameters"][i]["example"])
        .collect();
    assert_eq!(examples, [&json!("7"), &json!(2.5), &json!(true)]);
    for name in ["s", "m", "b"] {
        let field = format!("capabilities.0.example.request.{name}");
        assert_eq!(at(&diags, &field, Severity::Warning).len(), 1, "{name}");
    }
}

#[test]
fn a_mistyped_request_value_is_replaced_even_when_the_parameter_has_its_own_example() {
    let cap = format!(
        "{CAP}params.n = {{ type = \"integer\", required = true, example = 3 }}\n\
         [capabilities.example]\nrequest = {{ n = \"ten\" }}\n"
    );
    let (artifacts, diags) = build(&service("T", &cap));
    let detail = json_of(&artifacts, DETAIL);
    assert_eq!(check_detail(&detail), Vec::<String>::new());
    assert_eq!(detail["parameters"][0]["example"], json!(3));
    assert_eq!(
        detail["request_example"]["url"],
        "https://api.t.example/v1/things?n=3"
    );
    let warned = at(
        &diags,
        "capabilities.0.example.request.n",
        Severity::Warning,
    );
    assert_eq!(warned.len(), 1, "{warned:?}");
}

/// What the back end cannot fit is an error from its `lower`, at the field behind it, and the
/// checker finds the same problem in the output.
#[test]
fn whatever_still_breaks_the_rules_is_an_error() {
    let text = service("T", CAP).replace("/v1", "/{v}");
    let (artifacts, diags) = build(&text);
    let detail = json_of(&artifacts, DETAIL);
    let problems = check_detail(&detail);
    assert!(!problems.is_empty());
    let reported = at(&diags, "capabilities.0.path", Severity::Error);
    assert_eq!(reported.len(), problems.len(), "{reported:?}");
    assert!(reported[0].message.contains(&problems[0]), "{reported:?}");
}

/// A rule broken by a derived value is an error from `lower`, at the field behind it: here a
/// detail_url made too long by the site's host name. The checker reads the same on the output.
#[test]
fn a_detail_url_over_the_registrys_limit_is_an_error_on_site_url() {
    let host = format!("{}.example", "s".repeat(2100));
    let text = service("T", CAP).replace(
        "base_url = \"https://api.t.example/v1\"",
        &format!("base_url = \"https://api.t.example/v1\"\nsite_url = \"https://{host}\""),
    );
    let (artifacts, diags) = build(&text);
    let problems = check_manifest(&json_of(&artifacts, adp::MANIFEST_PATH));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("capabilities[0].detail_url: is 2141 characters"),
        "{problems:?}"
    );
    let reported = at(&diags, "service.site_url", Severity::Error);
    assert_eq!(reported.len(), 1, "{reported:?}");
    assert_eq!(
        reported[0].message,
        format!("the ADP document would break ADP's rules: {}", problems[0])
    );
    assert_eq!(errors(&diags).len(), 1, "{:?}", errors(&diags));
}
