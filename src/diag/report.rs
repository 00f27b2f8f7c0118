//! Diagnostics for people, tools and CI: `wellgen check --format human|json|github|sarif`.
//!
//! Every format renders the same list (errors first, duplicates dropped) at the same positions
//! the human renderer's carets point at, so a tool and a person always see the same problems.

use std::io::Write as _;

use serde::Serialize;
use serde_json::json;

use super::{Code, Diagnostic, Diagnostics, Position, Severity, SourceText};

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
    /// Formats read by people follow `--quiet`, `--notes` and `--verbose`; documents for tools
    /// always hold everything, notes included.
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
    /// The human format groups the diagnostics of one code unless `verbose`.
    pub fn render(self, src: &SourceText, diags: &[&Diagnostic], verbose: bool) -> String {
        match self {
            Format::Human if verbose => diags.iter().map(|d| src.render(d) + "\n").collect(),
            Format::Human => grouped(src, diags),
            Format::Json => to_json(&JsonReport::new(src, diags)),
            Format::Github => diags.iter().map(|d| github_annotation(src, d)).collect(),
            Format::Sarif => to_json(&sarif(src, diags)),
        }
    }
}

/// What a run shows of its diagnostics.
#[derive(Debug, Clone, Copy, Default)]
pub struct Shown {
    /// Errors only (`--quiet`).
    pub errors_only: bool,
    /// Notes too (`--notes`).
    pub notes: bool,
    /// Every instance in full (`--verbose`).
    pub verbose: bool,
}

/// Prints a run's diagnostics once, errors first: human text to stderr, the others to stdout.
pub fn print(format: Format, src: &SourceText, diags: &Diagnostics, shown: Shown) {
    print_to(format, src, diags, shown, &mut std::io::stderr().lock());
}

/// `print`, with the human format written to `human` (batch builds collect each service's
/// diagnostics to print them whole); machine formats always go to stdout.
pub fn print_to(
    format: Format,
    src: &SourceText,
    diags: &Diagnostics,
    shown: Shown,
    human: &mut dyn std::io::Write,
) {
    let mut list = in_order(diags);
    if format.follows_quiet() {
        if shown.errors_only {
            list.retain(|d| d.is_error());
        } else if !shown.notes {
            list.retain(|d| d.severity != Severity::Note);
        }
    }
    let text = format.render(src, &list, shown.verbose);
    let _ = match format {
        Format::Human => human.write_all(text.as_bytes()),
        Format::Json | Format::Github | Format::Sarif => {
            std::io::stdout().lock().write_all(text.as_bytes())
        }
    };
}

/// The diagnostics as every format shows them: fatal errors, errors, warnings, notes;
/// duplicates dropped.
pub fn in_order(diags: &Diagnostics) -> Vec<&Diagnostic> {
    let mut shown: Vec<&Diagnostic> = diags.iter().collect();
    shown.sort_by_key(|d| d.rank());
    shown.dedup();
    shown
}

/// The most lines the grouped human output takes: with a build's summary lines (2) and its
/// token table (at most `tokens::TABLE_ROWS` files and 5 more lines), the whole output of a
/// build stays under 40.
const LINES: usize = 26;

/// How many places a grouped line names.
const PLACES: usize = 3;

/// The human format, grouped by code: the first `shown` diagnostics of each code in full, the
/// rest as one line with their count and first places. `shown` is all, else 3, else 1, else 0
/// (one line per code), whichever first fits the budget; codes past it are counted on a last line.
fn grouped(src: &SourceText, diags: &[&Diagnostic]) -> String {
    let mut groups: Vec<(Code, Vec<&Diagnostic>)> = Vec::new();
    for d in diags {
        match groups.iter_mut().find(|(c, _)| *c == d.code) {
            Some((_, members)) => members.push(d),
            None => groups.push((d.code, vec![d])),
        }
    }
    for shown in [usize::MAX, PLACES, 1] {
        let text: String = groups
            .iter()
            .map(|(_, members)| group(src, members, shown))
            .collect();
        if text.lines().count() <= LINES {
            return text;
        }
    }
    let mut out = String::new();
    let mut used = 0;
    for (i, (_, members)) in groups.iter().enumerate() {
        // An error keeps one instance in full: its message says what to fix.
        let text = group(src, members, usize::from(members[0].is_error()));
        let n = text.lines().count();
        if used + n > LINES - 1 {
            let rest: usize = groups[i..].iter().map(|(_, m)| m.len()).sum();
            out.push_str(&format!(
                "… and {} more of {} other codes (--verbose)\n",
                thousands(rest),
                groups.len() - i
            ));
            break;
        }
        used += n;
        out.push_str(&text);
    }
    out
}

/// The diagnostics of one code: the first `shown` in full, then the others summed up.
fn group(src: &SourceText, members: &[&Diagnostic], shown: usize) -> String {
    let mut out: String = members
        .iter()
        .take(shown)
        .map(|d| src.render(d) + "\n")
        .collect();
    let rest = &members[shown.min(members.len())..];
    if rest.is_empty() {
        return out;
    }
    let first = rest[0];
    let about = match (shown, rest.len()) {
        (0, 1) => src.masked(first).message.clone(),
        (0, n) => format!("{} × {}", thousands(n), first.code.info().summary),
        (_, n) => format!("… and {} more like this", thousands(n)),
    };
    let mut places: Vec<String> = Vec::new();
    for d in rest.iter().take(PLACES) {
        let at = place(src, d, false);
        places.push(if places.contains(&at) {
            place(src, d, true)
        } else {
            at
        });
    }
    out.push_str(&format!(
        "{}: {}[{}]: {about}: {}\n",
        src.file(),
        first.severity.label(),
        first.code,
        places.join("; ")
    ));
    if rest.len() > PLACES {
        out.push_str(&format!(
            "  … and {} more (--verbose)\n",
            thousands(rest.len() - PLACES)
        ));
    }
    out
}

/// Where a diagnostic is, in a few words: `line:col`, else its field, else its message's start.
/// With `by_message`, its message's start (for diagnostics at one place).
fn place(src: &SourceText, d: &Diagnostic, by_message: bool) -> String {
    let d_masked = src.masked(d);
    if !by_message {
        if let Some(p) = src.position(d) {
            return format!("{}:{}", p.line, p.column);
        }
        if let Some(f) = &d_masked.field {
            return f.clone();
        }
    }
    let d = d_masked;
    let m = d
        .message
        .split([';', ':'])
        .next()
        .unwrap_or_default()
        .trim();
    let short: String = m.chars().take(50).collect();
    if short.len() < m.len() {
        format!("{short}…")
    } else {
        short
    }
}

/// `1,220`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
    notes: usize,
}

#[derive(Serialize)]
struct JsonDiagnostic {
    code: &'static str,
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
        let count = |s: Severity| diags.iter().filter(|d| d.severity == s).count();
        let diagnostics = diags
            .iter()
            .map(|d| {
                let at = src.position(d);
                let d = src.masked(d).into_owned();
                JsonDiagnostic {
                    code: d.code.as_str(),
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
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            notes: count(Severity::Note),
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
    let title = match &d.field {
        Some(f) => format!("{} {f}", d.code),
        None => d.code.to_string(),
    };
    props.push(("title", title));
    let props: Vec<String> = props
        .into_iter()
        .map(|(k, v)| format!("{k}={}", escape_property(&v)))
        .collect();
    // Actions has error, warning and notice annotations.
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    };
    format!(
        "::{command} {}::{}\n",
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
                "ruleId": d.code.as_str(),
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
    // One rule per code the log uses, in the table's order.
    let mut used: Vec<Code> = diags.iter().map(|d| d.code).collect();
    used.sort();
    used.dedup();
    let rules: Vec<serde_json::Value> = used
        .iter()
        .map(|c| {
            let info = c.info();
            json!({
                "id": info.code,
                "shortDescription": { "text": info.summary },
                "help": { "text": info.fix },
                "defaultConfiguration": { "level": info.severity.label() },
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "wellgen",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
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
        let mut d = Diagnostic::new(Code::InvalidValue, "")
            .at("service.name")
            .with_span(start..start + 2)
            .help("a, b: c");
        // Set directly: `Diagnostic::new` would already have escaped the carriage return. A
        // line break from the input is printed escaped; only the help's own starts a line.
        d.message = "100% empty,\r\nreally: yes".into();
        assert_eq!(
            github_annotation(&source(text), &d),
            "::error file=api/service.toml,line=2,col=8,endColumn=10,title=E-invalid-value service.name::\
             100%25 empty,\\r\\nreally: yes%0Ahelp: a, b: c\n"
        );
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn a_diagnostic_without_a_place_has_only_a_file() {
        let d = Diagnostic::new(Code::LongText, "no capabilities");
        assert_eq!(
            github_annotation(&source(""), &d),
            "::warning file=api/service.toml,title=W-long-text::no capabilities\n"
        );
        let report = JsonReport::new(&source(""), &[&d]);
        assert_eq!((report.errors, report.warnings, report.notes), (0, 1, 0));
        let v = serde_json::to_value(&report).unwrap();
        assert_eq!(v["diagnostics"][0]["line"], serde_json::Value::Null);
    }

    #[test]
    fn many_diagnostics_stay_under_the_line_budget_and_verbose_shows_all() {
        let text = "[service]\nname = \"\"\n";
        let codes = [
            Code::LongText,
            Code::AgisRule,
            Code::OpenapiLost,
            Code::McpRenamed,
        ];
        let mut diags: Vec<Diagnostic> = Vec::new();
        for i in 0..2000 {
            let code = codes[i % codes.len()];
            diags.push(Diagnostic::new(code, format!("finding {i}")).at(format!("x.{i}")));
        }
        for c in Code::ALL {
            diags.push(Diagnostic::new(*c, "once").help("do this"));
        }
        let shown: Vec<&Diagnostic> = diags.iter().collect();
        let out = Format::Human.render(&source(text), &shown, false);
        assert!(out.lines().count() <= LINES, "{out}");
        assert!(out.contains("… and 498 more (--verbose)"), "{out}");
        assert!(out.contains(" other codes (--verbose)"), "{out}");
        let all = Format::Human.render(&source(text), &shown, true);
        assert_eq!(all.matches("finding ").count(), 2000);
    }

    #[test]
    fn fatal_errors_come_first_then_errors_warnings_notes() {
        let mut diags = Diagnostics::default();
        diags.push(Diagnostic::new(Code::AgisDerived, "note"));
        diags.push(Diagnostic::new(Code::AgisRule, "warning"));
        diags.push(Diagnostic::new(Code::InvalidValue, "error"));
        diags.push(Diagnostic::new(Code::SourceUnreadable, "fatal"));
        let order: Vec<&str> = in_order(&diags)
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(order, ["fatal", "error", "warning", "note"]);
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(file_uri(r"my dir\service.toml"), "my%20dir/service.toml");
        assert_eq!(file_uri("é.toml"), "%C3%A9.toml");
    }
}
