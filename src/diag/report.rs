//! Diagnostics for people, tools and CI: `wellgen check --format human|json|github|sarif`.
//!
//! Every format renders the same list (errors first, duplicates dropped) at the same positions
//! the human renderer's carets point at, so a tool and a person always see the same problems.

use std::io::Write as _;

use serde::Serialize;
use serde_json::json;

use super::{Diagnostic, Diagnostics, Position, SourceText};

/// How `wellgen check` prints its diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// `file:line:col`, the line and a caret, on stderr.
    #[default]
    Human,
    /// One JSON document on stdout: `{"diagnostics": [...], "errors": N, "warnings": N}`.
    Json,
    /// GitHub Actions annotations (`::error file=…,line=…::message`) on stdout.
    Github,
    /// A SARIF 2.1.0 log on stdout, for code scanning and IDEs.
    Sarif,
}

impl Format {
    /// Formats read by people follow `--quiet`; documents for tools always hold everything.
    pub fn follows_quiet(self) -> bool {
        match self {
            Format::Human | Format::Github => true,
            Format::Json | Format::Sarif => false,
        }
    }

    /// Whether the output is one document on stdout, which a summary line must not clutter.
    pub fn is_document(self) -> bool {
        match self {
            Format::Human | Format::Github => false,
            Format::Json | Format::Sarif => true,
        }
    }

    /// Renders diagnostics, already in the order they are shown. Every format prints them
    /// with secrets masked (`SourceText::masked`), at the positions of the unmasked ones.
    pub fn render(self, src: &SourceText, diags: &[&Diagnostic]) -> String {
        match self {
            Format::Human => diags.iter().map(|d| src.render(d) + "\n").collect(),
            Format::Json => to_json(&JsonReport::new(src, diags)),
            Format::Github => diags.iter().map(|d| github_annotation(src, d)).collect(),
            Format::Sarif => to_json(&sarif(src, diags)),
        }
    }
}

/// Prints a run's diagnostics once, errors first: human text to stderr, the others to stdout.
pub fn print(format: Format, src: &SourceText, diags: &Diagnostics, errors_only: bool) {
    print_to(
        format,
        src,
        diags,
        errors_only,
        &mut std::io::stderr().lock(),
    );
}

/// `print`, with the human format written to `human` (batch builds collect each service's
/// diagnostics to print them whole); machine formats always go to stdout.
pub fn print_to(
    format: Format,
    src: &SourceText,
    diags: &Diagnostics,
    errors_only: bool,
    human: &mut dyn std::io::Write,
) {
    let mut shown = in_order(diags);
    if errors_only && format.follows_quiet() {
        shown.retain(|d| d.is_error());
    }
    let text = format.render(src, &shown);
    let _ = match format {
        Format::Human => human.write_all(text.as_bytes()),
        Format::Json | Format::Github | Format::Sarif => {
            std::io::stdout().lock().write_all(text.as_bytes())
        }
    };
}

/// The diagnostics as every format shows them: errors first, duplicates dropped.
pub fn in_order(diags: &Diagnostics) -> Vec<&Diagnostic> {
    let mut shown: Vec<&Diagnostic> = diags.iter().collect();
    shown.sort_by_key(|d| std::cmp::Reverse(d.severity));
    shown.dedup();
    shown
}

fn to_json(value: &impl Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// `--format json`: one document, a stable shape with every key always present.
#[derive(Serialize)]
struct JsonReport {
    diagnostics: Vec<JsonDiagnostic>,
    errors: usize,
    warnings: usize,
}

#[derive(Serialize)]
struct JsonDiagnostic {
    severity: &'static str,
    message: String,
    file: String,
    line: Option<usize>,
    column: Option<usize>,
    field: Option<String>,
    help: Option<String>,
}

impl JsonReport {
    fn new(src: &SourceText, diags: &[&Diagnostic]) -> Self {
        let errors = diags.iter().filter(|d| d.is_error()).count();
        let diagnostics = diags
            .iter()
            .map(|d| {
                let at = src.position(d);
                let d = src.masked(d).into_owned();
                JsonDiagnostic {
                    severity: d.severity.label(),
                    message: d.message,
                    file: src.file(),
                    line: at.map(|p| p.line),
                    column: at.map(|p| p.column),
                    field: d.field,
                    help: d.help,
                }
            })
            .collect();
        JsonReport {
            diagnostics,
            errors,
            warnings: diags.len() - errors,
        }
    }
}

/// The message with its help on a second line, for formats that have one text field.
fn message_with_help(d: &Diagnostic) -> String {
    match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    }
}

/// One workflow command: `::error file=F,line=L,col=C,endColumn=E,title=T::message`.
fn github_annotation(src: &SourceText, d: &Diagnostic) -> String {
    let mut props = vec![("file", src.file())];
    if let Some(Position {
        line,
        column,
        width,
    }) = src.position(d)
    {
        props.push(("line", line.to_string()));
        props.push(("col", column.to_string()));
        props.push(("endColumn", (column + width).to_string()));
    }
    let d = src.masked(d);
    props.push(("title", d.field.clone().unwrap_or_else(|| "wellgen".into())));
    let props: Vec<String> = props
        .into_iter()
        .map(|(k, v)| format!("{k}={}", escape_property(&v)))
        .collect();
    format!(
        "::{} {}::{}\n",
        d.severity.label(),
        props.join(","),
        escape_data(&message_with_help(&d))
    )
}

/// The escaping @actions/core applies to a command's message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// The escaping @actions/core applies to a command's properties: the message's, plus `:` and `,`.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The one rule every wellgen diagnostic is reported under: checks have no codes yet.
const SARIF_RULE: &str = "wellgen/check";

fn sarif(src: &SourceText, diags: &[&Diagnostic]) -> serde_json::Value {
    let uri = file_uri(&src.file());
    let results: Vec<serde_json::Value> = diags
        .iter()
        .map(|d| {
            let mut location = json!({ "artifactLocation": { "uri": uri } });
            if let Some(p) = src.position(d) {
                location["region"] = json!({
                    "startLine": p.line,
                    "startColumn": p.column,
                    "endColumn": p.column + p.width,
                });
            }
            let d = src.masked(d);
            let mut result = json!({
                "ruleId": SARIF_RULE,
                "level": d.severity.label(),
                "message": { "text": message_with_help(&d) },
                "locations": [{ "physicalLocation": location }],
            });
            if let Some(field) = &d.field {
                result["properties"] = json!({ "field": field });
            }
            result
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "wellgen",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": [{
                    "id": SARIF_RULE,
                    "shortDescription": { "text": "service.toml check" },
                }],
            }},
            // Columns count characters, as the human output's do.
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// A relative URI reference for a path: `/` separators, and any character a URI cannot hold
/// bare percent-encoded.
fn file_uri(path: &str) -> String {
    let mut out = String::new();
    for c in path.replace('\\', "/").chars() {
        if c.is_ascii_alphanumeric() || "-._~/!$&'()*+,;=:@".contains(c) {
            out.push(c);
        } else {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn source(text: &str) -> SourceText<'_> {
        SourceText {
            path: Path::new("api/service.toml"),
            text,
            locator: None,
        }
    }

    #[test]
    fn github_properties_and_message_are_escaped() {
        let text = "[service]\nname = \"\"\n";
        let start = text.find("\"\"").unwrap();
        let mut d = Diagnostic::error("")
            .at("service.name")
            .with_span(start..start + 2)
            .help("a, b: c");
        // Set directly: `Diagnostic::error` would already have escaped the carriage return.
        d.message = "100% empty,\r\nreally: yes".into();
        assert_eq!(
            github_annotation(&source(text), &d),
            "::error file=api/service.toml,line=2,col=8,endColumn=10,title=service.name::\
             100%25 empty,%0D%0Areally: yes%0Ahelp: a, b: c\n"
        );
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn a_diagnostic_without_a_place_has_only_a_file() {
        let d = Diagnostic::warning("no capabilities");
        assert_eq!(
            github_annotation(&source(""), &d),
            "::warning file=api/service.toml,title=wellgen::no capabilities\n"
        );
        let report = JsonReport::new(&source(""), &[&d]);
        assert_eq!((report.errors, report.warnings), (0, 1));
        let v = serde_json::to_value(&report).unwrap();
        assert_eq!(v["diagnostics"][0]["line"], serde_json::Value::Null);
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(file_uri(r"my dir\service.toml"), "my%20dir/service.toml");
        assert_eq!(file_uri("é.toml"), "%C3%A9.toml");
    }
}
