//! No secret-like value reaches stderr or stdout, whatever stage reports it and in every
//! `--format`; `--allow-secret-like` names one value; long source lines are shown as a window.

use std::fs;

use crate::common::*;

const GHP: &str = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
const STRIPE: &str = "sk_live_51HqLyjWDarjtT1zdp7dcAbCdEf";
const JWT: &str =
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

/// A small valid service with ai-plugin.json published (logo and contact set).
const BASE: &str = r#"[service]
name = "Payments"
description = "Take card payments."
base_url = "https://pay.example"
logo_url = "https://pay.example/logo.png"

[service.contact]
email = "ops@pay.example"

[auth]
type = "api_key"
header = "X-API-Key"

[[capabilities]]
id = "create_charge"
description = "Create a charge"
method = "POST"
path = "/charges"

[capabilities.params]
amount = "integer, required -- in cents"

[capabilities.example]
request = { amount = 500 }
"#;

fn service(from: &str, to: &str) -> tempfile::TempDir {
    assert!(BASE.contains(from), "{from}");
    let work = tempfile::tempdir().unwrap();
    fs::write(work.path().join("service.toml"), BASE.replacen(from, to, 1)).unwrap();
    work
}

/// Everything `wellgen check` prints about `file` in `dir`, in every format, with and without `-q`.
fn every_output(dir: &std::path::Path, args: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for format in ["human", "json", "github", "sarif"] {
        for quiet in [false, true] {
            let mut cmd = wellgen();
            cmd.current_dir(dir).args(["check", "--format", format]);
            if quiet {
                cmd.arg("-q");
            }
            let (code, stdout, stderr) = run(cmd.args(args));
            assert_ne!(code, 0, "{format}: expected a refusal:\n{stderr}");
            out.push((format!("{format} quiet={quiet}"), stdout + &stderr));
        }
    }
    out
}

fn assert_hidden(dir: &std::path::Path, args: &[&str], secrets: &[&str]) {
    for (how, printed) in every_output(dir, args) {
        for secret in secrets {
            assert!(
                !printed.contains(secret),
                "{how} printed `{secret}`:\n{printed}"
            );
        }
    }
}

/// The part of a secret that must never be printed: all but its first characters.
fn tail(secret: &str) -> &str {
    &secret[8..]
}

#[test]
fn a_secret_as_a_toml_key_is_masked_in_the_field_and_the_help() {
    let work = service(
        "request = { amount = 500 }",
        &format!("response = {{ \"{STRIPE}\" = 1 }}"),
    );
    assert_hidden(work.path(), &["service.toml"], &[tail(STRIPE)]);
}

#[test]
fn a_secret_parameter_name_is_masked_where_the_line_shows_it() {
    let work = service("amount = \"integer", &format!("{STRIPE} = \"integer"));
    assert_hidden(work.path(), &["service.toml"], &[tail(STRIPE)]);
    let (_, _, stderr) = run(wellgen()
        .current_dir(work.path())
        .args(["check", "service.toml"]));
    // The key is masked, not the description next to it.
    assert!(
        stderr.contains("sk_l******************************* = \"integer, required -- in cents\""),
        "{stderr}"
    );
}

#[test]
fn a_secret_path_placeholder_is_masked_in_every_warning() {
    let work = service(
        "path = \"/charges\"",
        &format!("path = \"/charges/{{{GHP}}}\""),
    );
    // Also its snake_case spelling in the AGIS warning.
    assert_hidden(
        work.path(),
        &["service.toml"],
        &[tail(GHP), "b2c3_d4e5_f6g7"],
    );
}

#[test]
fn a_token_in_the_description_is_not_echoed_shortened_or_in_the_source_line() {
    let long = format!(
        "Take card payments with token {JWT} please. {}",
        "More words. ".repeat(10)
    );
    let work = service("Take card payments.", &long);
    for (how, printed) in every_output(work.path(), &["service.toml"]) {
        for piece in ["eyJhbGciOiJIUzI1", "IxMjM0NTY3", "dozjgNryP4J3"] {
            assert!(
                !printed.contains(piece),
                "{how} printed `{piece}`:\n{printed}"
            );
        }
    }
}

#[test]
fn a_token_as_the_auth_header_is_masked_in_the_ai_plugin_warning() {
    let work = service("header = \"X-API-Key\"", &format!("header = \"{GHP}\""));
    assert_hidden(work.path(), &["service.toml"], &[tail(GHP)]);
}

#[test]
fn agis_errors_on_semantic_fields_do_not_print_the_secret() {
    for semantic in [
        format!("path = \"/x/{GHP}\""),
        format!("mcp_tool_name = \"{GHP}\""),
        format!("state_transition = {{ \"{GHP}\" = \"done\" }}"),
        format!("state_transition = {{ open = \"{GHP}\" }}"),
    ] {
        let work = service(
            "request = { amount = 500 }",
            &format!("request = {{ amount = 500 }}\n\n[capabilities.semantic]\n{semantic}"),
        );
        assert_hidden(work.path(), &["service.toml"], &[tail(GHP)]);
    }
}

#[test]
fn url_passwords_are_masked_and_the_message_reads() {
    let work = service(
        "base_url = \"https://pay.example\"",
        "base_url = \"https://deploy:Hunter2Passw0rd@pay.example\"",
    );
    assert_hidden(work.path(), &["service.toml"], &["Hunter2"]);
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("api.yaml"),
        "openapi: 3.0.0\ninfo: {title: T, version: \"1\"}\nservers:\n  - url: https://deploy:Hunter2Passw0rd@api.example.com/v1\npaths:\n  /x:\n    get:\n      operationId: getX\n      responses: {\"200\": {description: ok}}\n",
    )
    .unwrap();
    assert_hidden(dir.path(), &["api.yaml"], &["Hunter2"]);
    let (_, _, stderr) = run(wellgen()
        .current_dir(dir.path())
        .args(["check", "api.yaml"]));
    assert!(
        stderr.contains(
            "`https://deploy:****@api.example.com/v1` is refused: a URL must not carry credentials"
        ),
        "{stderr}"
    );
}

#[test]
fn a_refused_capability_id_and_its_suggestion_are_masked() {
    let work = service("id = \"create_charge\"", "id = \"AKIAIOSFODNN7EXAMPLE\"");
    assert_hidden(work.path(), &["service.toml"], &["IOSFODNN7EXAMPLE"]);
    let (_, _, stderr) = run(wellgen()
        .current_dir(work.path())
        .args(["check", "service.toml"]));
    // No suggestion is made from a secret-like value: the key lowercased would repeat it.
    assert!(stderr.contains("(e.g. `my_capability`)"), "{stderr}");
    assert!(
        !stderr.to_ascii_lowercase().contains("iosfodnn7example"),
        "{stderr}"
    );
}

#[test]
fn an_allowance_names_one_value_and_keys_with_dots_are_quoted() {
    let work = service(
        "request = { amount = 500 }",
        "request = { amount = 500, a = { b = \"sk_test_4eC39HqLyjWDarjtT1zdp7dc\" }, \"a.b\" = \"sk_live_4eC39HqLyjWDarjtT1zdp7dc\" }",
    );
    let check = |allow: &[&str]| {
        let mut cmd = wellgen();
        cmd.current_dir(work.path())
            .args(["check", "--target", "ai"]);
        for a in allow {
            cmd.args(["--allow-secret-like", a]);
        }
        run(cmd.arg("service.toml"))
    };
    let (code, _, stderr) = check(&[]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("= field: capabilities.0.example.request.a.b\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("= field: capabilities.0.example.request.\"a.b\"\n"),
        "{stderr}"
    );
    // Each help gives the exact argument; passing one allows that value only.
    let args: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.split("pass `--allow-secret-like ").nth(1))
        .map(|a| a.trim_end_matches('`'))
        .collect();
    assert_eq!(args.len(), 2, "{stderr}");
    let (code, _, stderr) = check(&[args[0]]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("\"a.b\""), "{stderr}");
    let (code, _, stderr) = check(&args);
    assert_eq!(code, 0, "{stderr}");
    // The fingerprint of another value allows nothing.
    let (code, _, _) = check(&["capabilities.0.example.request.a.b@00000000"]);
    assert_eq!(code, 1);
    // A field alone still allows its one value.
    let (code, _, stderr) = check(&[
        "capabilities.0.example.request.a.b",
        "capabilities.0.example.request.\"a.b\"",
    ]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_field_alone_that_names_two_secret_values_allows_neither() {
    // A parameter's name and its description share a field path.
    let work = service(
        "amount = \"integer, required -- in cents\"",
        &format!("{STRIPE} = \"string, optional -- e.g. {GHP}\""),
    );
    let field = format!("capabilities.0.params.{STRIPE}");
    let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
        "check",
        "--target",
        "ai",
        "--allow-secret-like",
        &field,
        "service.toml",
    ]));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("names more than one secret-like value"),
        "{stderr}"
    );
    assert!(
        !stderr.contains(tail(STRIPE)) && !stderr.contains(tail(GHP)),
        "{stderr}"
    );
}

#[test]
fn a_huge_line_is_shown_as_a_window_once() {
    let dir = tempfile::tempdir().unwrap();
    let filler = "a".repeat(5_000_000);
    fs::write(
        dir.path().join("big.json"),
        format!("{{\"openapi\": \"3.0.0\", \"x\": \"{filler}\",}}"),
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen()
        .current_dir(dir.path())
        .args(["check", "big.json"]));
    assert_eq!(code, 1, "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.len() < 2_000, "{} bytes of stderr", stderr.len());
    let shown = stderr.lines().nth(2).unwrap();
    assert!(
        shown.starts_with("1 | …aaaa") && shown.ends_with("\",}"),
        "{stderr}"
    );
    // The caret is under the comma's brace.
    let caret = stderr.lines().nth(3).unwrap();
    assert_eq!(
        caret.find('^').unwrap(),
        shown.char_indices().count() - 1,
        "{stderr}"
    );
}

#[test]
fn a_yaml_error_names_the_file_once() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("block.yaml"),
        "openapi: 3.0.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x: [a, b\n  : c\n",
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen()
        .current_dir(dir.path())
        .args(["check", "block.yaml"]));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.starts_with("block.yaml:5:3: error[E-openapi-parse]: invalid YAML:"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("block.yaml").count(), 1, "{stderr}");
}

/// Through a service.toml the diagnostics are rendered against the service.toml: a parse error
/// of the OpenAPI file it names says that file's line and column in its message.
#[test]
fn a_parse_error_of_the_openapi_file_a_service_toml_names_says_where_in_that_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("block.yaml"),
        "openapi: 3.0.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x: [a, b\n  : c\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("service.toml"),
        "[source]\nopenapi = \"block.yaml\"\n",
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen()
        .current_dir(dir.path())
        .args(["check", "service.toml"]));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.starts_with("service.toml: error[E-openapi-parse]: block.yaml:5:3: invalid YAML:"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("block.yaml").count(), 1, "{stderr}");
}

#[test]
fn json_and_depth_errors_name_the_file_once_and_a_byte_order_mark_keeps_columns_right() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!(
        "openapi: 3.0.0\nx: {}{}\n",
        "[".repeat(200),
        "]".repeat(200)
    );
    let cases = [
        (
            "bad.json",
            "{\"openapi\": \"3.0.0\",, }".to_string(),
            "bad.json:1:21: error[E-openapi-parse]: invalid JSON:",
        ),
        (
            "bom.json",
            "\u{feff}{\"openapi\": \"3.0.0\",, }".to_string(),
            "bom.json:1:21: error[E-openapi-parse]: invalid JSON:",
        ),
        (
            "deep.yaml",
            deep,
            "deep.yaml:2:131: error[E-openapi-parse]: YAML nested more than 128 levels deep",
        ),
    ];
    for (name, text, start) in cases {
        fs::write(dir.path().join(name), text).unwrap();
        let (code, _, stderr) = run(wellgen().current_dir(dir.path()).args(["check", name]));
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.starts_with(start), "{name}: {stderr}");
        assert_eq!(stderr.matches(name).count(), 1, "{name}: {stderr}");
    }
}

/// Pieces of a token that survive its reshaping into an id (`glpat_x_y7k_q2m_…`) or tool name:
/// none may be printed, in any form.
fn holds_reshaped(output: &str, raw: &str) -> bool {
    let squeezed = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let out = squeezed(output);
    let raw = squeezed(raw);
    // Any 10 characters of the token in a row, case and separators aside.
    (0..raw.len().saturating_sub(10)).any(|i| out.contains(&raw[i + 4..(i + 14).min(raw.len())]))
}

#[test]
fn a_secret_reshaped_into_an_id_is_printed_in_no_format() {
    for token in [
        "glpat-xY7kQ2mN9pL4vB8cR3tZ",
        "sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8t",
        "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1w",
        "xoxe-1-My0xLTEyMzQ1Njc4OTAxMjM0",
    ] {
        let work = service("id = \"create_charge\"", &format!("id = \"{token}\""));
        for (format, output) in every_output(work.path(), &[]) {
            assert!(
                !holds_reshaped(&output, token),
                "{format} {token}:\n{output}"
            );
        }
    }
}

#[test]
fn an_operation_id_that_is_a_secret_is_refused_once_reshaped_and_never_published() {
    let work = tempfile::tempdir().unwrap();
    let token = "glpat-xY7kQ2mN9pL4vB8cR3tZ";
    fs::write(
        work.path().join("openapi.yaml"),
        format!(
            "openapi: 3.0.3\ninfo: {{title: Notes, version: '1.0', description: Create and retrieve notes.}}\n\
             servers: [{{url: 'https://notes.example'}}]\npaths:\n  /notes:\n    get:\n      \
             operationId: {token}\n      summary: List the notes of the account\n      \
             responses: {{'200': {{description: The notes}}}}\n"
        ),
    )
    .unwrap();
    let out = work.path().join("dist");
    let (code, stdout, stderr) = run(wellgen()
        .current_dir(work.path())
        .args(["build", "openapi.yaml", "-o"])
        .arg(&out));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("E-secret"), "{stderr}");
    assert!(!holds_reshaped(&(stdout + &stderr), token), "{stderr}");
    assert!(!out.exists(), "nothing is published");
}
