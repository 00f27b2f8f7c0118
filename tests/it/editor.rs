//! Editor and CI support: `check --format json|github|sarif` agree with the human output on the
//! same inputs, the starter names the schema, and completions and man pages list the commands.

use std::path::{Path, PathBuf};

use crate::common::{root, run, wellgen};
use serde_json::Value;

/// The bad-input cases and the examples: errors of every kind, and files with many warnings.
fn inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["tests/cases", "examples"] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path().join("service.toml"))
            .filter(|p| p.exists())
            .collect();
        entries.sort();
        out.extend(entries);
    }
    assert!(out.len() > 15, "found only {} inputs", out.len());
    out
}

fn check(source: &Path, extra: &[&str]) -> (i32, String, String) {
    run(wellgen()
        .current_dir(root())
        .arg("check")
        .arg(source.strip_prefix(root()).unwrap_or(source))
        .args(extra))
}

/// One human diagnostic, from its header line: severity, line and column (if any), message.
#[derive(Debug, PartialEq)]
struct Header {
    severity: String,
    line: Option<u64>,
    column: Option<u64>,
    message: String,
}

fn human_headers(file: &str, stderr: &str) -> Vec<Header> {
    let header = regex::Regex::new(&format!(
        r"^{}(?::(\d+):(\d+))?: (error|warning|note)\[[A-Za-z0-9-]+\]: (.*)$",
        regex::escape(file)
    ))
    .unwrap();
    stderr
        .lines()
        .filter_map(|line| header.captures(line))
        .map(|c| Header {
            severity: c[3].to_string(),
            line: c.get(1).map(|m| m.as_str().parse().unwrap()),
            column: c.get(2).map(|m| m.as_str().parse().unwrap()),
            message: c[4].to_string(),
        })
        .collect()
}

fn json_headers(report: &Value) -> Vec<Header> {
    report["diagnostics"]
        .as_array()
        .expect("a diagnostics array")
        .iter()
        .map(|d| Header {
            severity: d["severity"].as_str().unwrap().into(),
            line: d["line"].as_u64(),
            column: d["column"].as_u64(),
            message: d["message"].as_str().unwrap().into(),
        })
        .collect()
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn json_holds_what_the_human_output_shows() {
    let mut seen = 0;
    for source in inputs() {
        let file = rel(&source);
        // Every instance, notes too: what the JSON document holds.
        let (human_code, human_out, human_err) = check(&source, &["--verbose", "--notes"]);
        let (code, stdout, stderr) = check(&source, &["--format", "json"]);
        assert_eq!(code, human_code, "{file}: exit codes differ");
        assert!(human_out.is_empty(), "{file}: human output on stdout");
        assert!(
            stderr.is_empty(),
            "{file}: json run wrote to stderr:\n{stderr}"
        );
        let report: Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{file}: stdout is not one JSON document: {e}\n{stdout}"));
        let human = human_headers(&file, &human_err);
        assert_eq!(json_headers(&report), human, "{file}");
        seen += human.len();
        let errors = human.iter().filter(|h| h.severity == "error").count();
        assert_eq!(report["errors"], errors, "{file}");
        let notes = human.iter().filter(|h| h.severity == "note").count();
        assert_eq!(report["warnings"], human.len() - errors - notes, "{file}");
        assert_eq!(report["notes"], notes, "{file}");
        for d in report["diagnostics"].as_array().unwrap() {
            let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                [
                    "code", "severity", "message", "file", "line", "column", "field", "origin",
                    "help"
                ]
            );
            assert_eq!(d["file"], file.as_str());
        }
    }
    assert!(seen > 50, "only {seen} diagnostics compared");
}

/// Undoes @actions/core's escaping; `None` if a `%` starts anything but an escape.
fn unescape(s: &str, property: bool) -> Option<String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let code = rest.get(i + 1..i + 3)?;
        out.push(match code {
            "25" => '%',
            "0D" => '\r',
            "0A" => '\n',
            "3A" if property => ':',
            "2C" if property => ',',
            _ => return None,
        });
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    Some(out)
}

/// Parses `::error file=F,line=L,...::message` by the workflow-command grammar.
fn parse_annotation(line: &str) -> (String, Vec<(String, String)>, String) {
    let body = line.strip_prefix("::").expect("starts with ::");
    let (command, message) = body.split_once("::").expect("a second ::");
    let (level, props) = command.split_once(' ').unwrap_or((command, ""));
    assert!(["error", "warning", "notice"].contains(&level), "{line}");
    assert!(!message.contains(['\r', '\n']), "{line}");
    let props = props
        .split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').expect("key=value");
            assert!(!v.contains(':'), "unescaped `:` in {line}");
            let v = unescape(v, true).unwrap_or_else(|| panic!("bad escape in {line}"));
            (k.to_string(), v)
        })
        .collect();
    let message = unescape(message, false).unwrap_or_else(|| panic!("bad escape in {line}"));
    (level.to_string(), props, message)
}

#[test]
fn github_annotations_follow_the_grammar_and_match_json() {
    for source in inputs() {
        let file = rel(&source);
        let (_, json, _) = check(&source, &["--format", "json"]);
        let report: Value = serde_json::from_str(&json).unwrap();
        let diags = report["diagnostics"].as_array().unwrap();
        let (code, stdout, _) = check(&source, &["--format", "github", "--notes"]);
        assert_eq!(code, if report["errors"] == 0 { 0 } else { 1 }, "{file}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), diags.len(), "{file}:\n{stdout}");
        for (line, d) in lines.iter().zip(diags) {
            let (level, props, message) = parse_annotation(line);
            let severity = d["severity"].as_str().unwrap();
            let severity = if severity == "note" {
                "notice"
            } else {
                severity
            };
            assert_eq!(level, severity, "{line}");
            let get = |k: &str| {
                props
                    .iter()
                    .find(|(key, _)| key == k)
                    .map(|(_, v)| v.clone())
            };
            assert_eq!(get("file").as_deref(), Some(file.as_str()));
            assert_eq!(get("line"), d["line"].as_u64().map(|n| n.to_string()));
            assert_eq!(get("col"), d["column"].as_u64().map(|n| n.to_string()));
            let keys: Vec<&str> = props.iter().map(|(k, _)| k.as_str()).collect();
            for k in &keys {
                assert!(
                    ["file", "line", "col", "endColumn", "title"].contains(k),
                    "{line}"
                );
            }
            let mut expected = d["message"].as_str().unwrap().to_string();
            if let Some(help) = d["help"].as_str() {
                expected += &format!("\nhelp: {help}");
            }
            assert_eq!(message, expected);
        }
    }
}

#[test]
fn sarif_is_a_2_1_0_log_with_the_same_results() {
    for source in inputs() {
        let file = rel(&source);
        let (_, json, _) = check(&source, &["--format", "json"]);
        let report: Value = serde_json::from_str(&json).unwrap();
        let diags = report["diagnostics"].as_array().unwrap();
        let (_, stdout, _) = check(&source, &["--format", "sarif"]);
        let log: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "wellgen");
        let rules: Vec<&Value> = run["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| &r["id"])
            .collect();
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), diags.len(), "{file}");
        for (r, d) in results.iter().zip(diags) {
            assert_eq!(r["level"], d["severity"]);
            assert_eq!(r["ruleId"], d["code"]);
            assert!(rules.contains(&&r["ruleId"]), "{r}");
            assert!(r["message"]["text"].as_str().is_some());
            let loc = &r["locations"][0]["physicalLocation"];
            assert_eq!(loc["artifactLocation"]["uri"], file.as_str());
            match d["line"].as_u64() {
                Some(line) => {
                    assert_eq!(loc["region"]["startLine"], line);
                    assert_eq!(loc["region"]["startColumn"], d["column"]);
                    assert!(loc["region"]["endColumn"].as_u64() > d["column"].as_u64());
                }
                None => assert!(loc.get("region").is_none()),
            }
        }
    }
}

#[test]
fn quiet_drops_warnings_from_human_formats_only() {
    // `[plugin]` asks for ai-plugin.json, which simplenotes lacks a logo and an e-mail for.
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    let text = std::fs::read_to_string(root().join("examples/simplenotes/service.toml")).unwrap();
    std::fs::write(&source, format!("{text}\n[plugin]\n")).unwrap();
    let (code, stdout, _) = check(&source, &["--format", "github", "--quiet"]);
    assert_eq!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    let (_, stdout, _) = check(&source, &["--format", "github"]);
    assert!(stdout.lines().all(|l| l.starts_with("::warning ")));
    assert!(!stdout.is_empty());
    let (_, stdout, _) = check(&source, &["--format", "json", "--quiet"]);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert!(report["warnings"].as_u64() > Some(0), "{report}");
    // --strict fails on those warnings in every format
    for format in ["human", "json", "github", "sarif"] {
        let (code, _, _) = check(&source, &["--strict", "--format", format]);
        assert_eq!(code, 1, "{format}");
    }
}

#[test]
fn an_unreadable_source_is_still_one_document_and_exits_2() {
    let (code, stdout, stderr) = check(Path::new("no/such/service.toml"), &["--format", "json"]);
    assert_eq!(code, 2, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["errors"], 1);
    assert_eq!(report["diagnostics"][0]["line"], Value::Null);
    assert_eq!(report["diagnostics"][0]["file"], "no/such/service.toml");
    let (code, stdout, _) = check(Path::new("no/such/service.toml"), &["--format", "github"]);
    assert_eq!(code, 2);
    assert!(
        stdout.starts_with(
            "::error file=no/such/service.toml,title=E-source-unreadable::cannot read"
        ),
        "{stdout}"
    );
    let (code, _, stderr) = check(Path::new("service.toml"), &["--format", "xml"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn help_documents_the_exit_codes_and_formats() {
    let (_, stdout, _) = run(wellgen().arg("--help"));
    assert!(stdout.contains("0 success, 1 invalid input"), "{stdout}");
    assert!(stdout.contains("2 usage or I/O error"), "{stdout}");
    let (_, stdout, _) = run(wellgen().args(["check", "--help"]));
    for format in ["human", "json", "github", "sarif"] {
        assert!(stdout.contains(format), "{stdout}");
    }
}

#[test]
fn init_names_the_published_schema_and_passes_strict_check() {
    let work = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(wellgen().arg("init").arg(work.path()));
    assert_eq!(code, 0, "{stderr}");
    let path = work.path().join("service.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let first = text.lines().next().unwrap();
    assert_eq!(first, format!("#:schema {}", wellgen::cli::SCHEMA_URL));
    let (_, schema, _) = run(wellgen().arg("schema"));
    let schema: Value = serde_json::from_str(&schema).unwrap();
    assert_eq!(schema["$id"], wellgen::cli::SCHEMA_URL);
    let (code, stdout, stderr) = run(wellgen()
        .arg("check")
        .arg(&path)
        .args(["--strict", "--format", "json"]));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["diagnostics"], Value::Array(vec![]));
}

const COMMANDS: [&str; 8] = [
    "build",
    "check",
    "targets",
    "import",
    "init",
    "schema",
    "completions",
    "man",
];

#[test]
fn completions_offer_every_command() {
    let (code, bash, stderr) = run(wellgen().args(["completions", "bash"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(bash.contains("complete -F _wellgen"), "{bash}");
    for c in COMMANDS {
        assert!(bash.contains(&format!("wellgen,{c})")), "bash misses {c}");
    }
    assert!(bash.contains("--format"));
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let (code, out, _) = run(wellgen().args(["completions", shell]));
        assert_eq!(code, 0, "{shell}");
        assert!(out.contains("check") && out.contains("schema"), "{shell}");
    }
    let (code, _, _) = run(wellgen().args(["completions", "tcsh"]));
    assert_eq!(code, 2);
}

#[test]
fn man_pages_name_every_command() {
    let (code, page, stderr) = run(wellgen().arg("man"));
    assert_eq!(code, 0, "{stderr}");
    assert!(page.contains(".TH wellgen 1"), "{page}");
    assert!(page.contains(".SH NAME"));
    assert!(page.contains(".SH SUBCOMMANDS"));
    for c in COMMANDS {
        assert!(
            page.contains(&format!("wellgen\\-{c}(1)")),
            "man misses {c}"
        );
    }
    assert!(
        !page.contains("wellgen\\-help(1)"),
        "no page exists for help"
    );
    // every page the main one refers to exists
    for c in COMMANDS {
        let (code, sub, _) = run(wellgen().args(["man", c]));
        assert_eq!(code, 0, "{c}");
        assert!(sub.contains(&format!(".TH wellgen-{c} 1")), "{sub}");
    }
    let (_, check, _) = run(wellgen().args(["man", "check"]));
    assert!(check.contains("\\-\\-format"));
    let (code, _, stderr) = run(wellgen().args(["man", "nope"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("no command `nope`"));
}
