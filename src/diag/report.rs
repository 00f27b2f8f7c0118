//! Diagnostics for people, tools and CI: `wellgen check --format human|json|github|sarif`.
//!
//! Every format renders the same list (errors first, duplicates dropped) at the same positions
//! the human renderer's carets point at, so a tool and a person always see the same problems.

use std::io::Write as _;

use serde::Serialize;
use serde_json::json;

use super::{Code, Diagnostic, Diagnostics, Origin, Position, Severity, SourceText};

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
    /// The human format groups the warnings and notes of one code unless `verbose`; errors are
    /// never grouped.
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
    let keep = super::first_of_each(&shown);
    let mut keep = keep.into_iter();
    shown.retain(|_| keep.next().unwrap_or(false));
    shown
}

/// The most lines the grouped human output takes, errors aside: with a build's summary lines
/// (2) and its token table (at most `tokens::TABLE_ROWS` files and 5 more lines), the whole
/// output of a build without errors stays under 40.
const LINES: usize = 26;

/// How many places a grouped line names.
const PLACES: usize = 3;

/// The human format: every error in full (each says what to fix), then the warnings and notes
/// grouped by kind within the lines left.
fn grouped(src: &SourceText, diags: &[&Diagnostic]) -> String {
    let (errors, others): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
        diags.iter().partition(|d| d.is_error());
    let mut out: String = errors.iter().map(|d| src.render(d) + "\n").collect();
    let left = LINES.saturating_sub(out.lines().count()).max(PLACES);
    out.push_str(&grouped_within(src, &others, left));
    out
}

/// What groups diagnostics: their code, and for findings at places of an imported document,
/// their message (one kind of finding, found at many places).
type Kind<'d> = (Code, Option<&'d str>);

fn kind(d: &Diagnostic) -> Kind<'_> {
    let message =
        matches!(d.origin.as_deref(), Some(Origin::Document(_))).then_some(d.message.as_str());
    (d.code, message)
}

/// Warnings and notes in at most `lines` lines, grouped by kind: the first `shown` of each
/// kind in full, the rest as one line with their count and first places. `shown` is all, else
/// 3, else 1, else 0 (one line per kind), whichever first fits, the notes cut down before the
/// warnings; kinds past one line each are counted on a last line.
fn grouped_within(src: &SourceText, diags: &[&Diagnostic], lines: usize) -> String {
    let mut groups: Vec<(Kind, Vec<&Diagnostic>)> = Vec::new();
    for d in diags {
        match groups.iter_mut().find(|(k, _)| *k == kind(d)) {
            Some((_, members)) => members.push(d),
            None => groups.push((kind(d), vec![d])),
        }
    }
    const ALL: usize = usize::MAX;
    // (warnings, notes) shown in full of each kind, from the most.
    let levels = [
        (ALL, ALL),
        (ALL, PLACES),
        (PLACES, PLACES),
        (ALL, 1),
        (PLACES, 1),
        (1, 1),
        (ALL, 0),
        (PLACES, 0),
        (1, 0),
    ];
    for (warnings, notes) in levels {
        let text: String = groups
            .iter()
            .map(|(_, members)| {
                let shown = match members[0].severity {
                    Severity::Note => notes,
                    _ => warnings,
                };
                group(src, members, shown)
            })
            .collect();
        if text.lines().count() <= lines {
            return text;
        }
    }
    let mut out = String::new();
    let mut used = 0;
    for (i, (_, members)) in groups.iter().enumerate() {
        let text = group(src, members, 0);
        let n = text.lines().count();
        if used + n > lines - 1 {
            let rest: usize = groups[i..].iter().map(|(_, m)| m.len()).sum();
            let mut codes: Vec<Code> = groups[i..].iter().map(|((c, _), _)| *c).collect();
            codes.sort();
            codes.dedup();
            out.push_str(&format!(
                "… and {} more of {} other code{} (--verbose)\n",
                thousands(rest),
                codes.len(),
                if codes.len() == 1 { "" } else { "s" }
            ));
            break;
        }
        used += n;
        out.push_str(&text);
    }
    out
}

/// The diagnostics of one kind: the first `shown` in full, then the others summed up. One
/// left to sum up is its first line.
fn group(src: &SourceText, members: &[&Diagnostic], shown: usize) -> String {
    let mut out: String = members
        .iter()
        .take(shown)
        .map(|d| src.render(d) + "\n")
        .collect();
    let rest = &members[shown.min(members.len())..];
    let Some(&first) = rest.first() else {
        return out;
    };
    if shown == 0 && rest.len() == 1 {
        out.push_str(&src.headline(first));
        out.push('\n');
        return out;
    }
    let about = match (shown, first.origin.as_deref()) {
        (0, Some(Origin::Document(_))) => format!(
            "{} ({} places)",
            src.masked(first).message,
            thousands(rest.len())
        ),
        (0, _) => format!("{} × {}", thousands(rest.len()), first.code.info().summary),
        _ => format!("… and {} more like this", thousands(rest.len())),
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

/// Where a diagnostic is, in a few words: `line:col`, else its place in an imported document
/// (`#/paths/~1pets/get`), else its field, else its message's start. With `by_message`, its
/// message's start (for diagnostics at one place).
fn place(src: &SourceText, d: &Diagnostic, by_message: bool) -> String {
    let d_masked = src.masked(d);
    if !by_message {
        if let Some(p) = src.position(d) {
            return format!("{}:{}", p.line, p.column);
        }
        if let Some(Origin::Document(at)) = d_masked.origin.as_deref() {
            let file = src.file();
            return at
                .strip_prefix(file.as_str())
                .filter(|rest| rest.starts_with('#'))
                .unwrap_or(at)
                .to_string();
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
    /// Where the value came from when not from the file: a flag, the environment, or the
    /// place in an imported document (`openapi.yaml#/paths/~1pets/get`).
    origin: Option<String>,
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
                    origin: d.origin.as_deref().map(Origin::describe),
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

/// The message, then where its value came from and its help on lines of their own, for
/// formats that have one text field.
fn message_with_help(d: &Diagnostic) -> String {
    let mut text = d.message.clone();
    match d.origin.as_deref() {
        Some(o @ (Origin::Flag(_) | Origin::Env(_))) => {
            text.push_str(&format!("\nfrom: {}", o.describe()));
        }
        Some(Origin::Document(at)) => text.push_str(&format!("\nat: {at}")),
        None => {}
    }
    if let Some(help) = &d.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    text
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
            if let Some(origin) = &d.origin {
                result["properties"]["origin"] = json!(origin.describe());
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
            Code::AgisProcessVerb,
            Code::OpenapiLost,
            Code::McpRenamed,
        ];
        let mut diags: Vec<Diagnostic> = Vec::new();
        for i in 0..2000 {
            let code = codes[i % codes.len()];
            diags.push(Diagnostic::new(code, format!("finding {i}")).at(format!("x.{i}")));
        }
        for c in Code::ALL.iter().filter(|c| c.severity() != Severity::Error) {
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
    fn errors_are_never_grouped_and_warnings_fit_the_lines_left() {
        let text = "[service]\nname = \"\"\n";
        let mut diags: Vec<Diagnostic> = (0..12)
            .map(|i| Diagnostic::new(Code::InvalidValue, format!("error {i}")).help("fix it"))
            .collect();
        diags.extend(
            (0..40).map(|i| Diagnostic::new(Code::AgisProcessVerb, format!("warning {i}")).at("x")),
        );
        let shown: Vec<&Diagnostic> = diags.iter().collect();
        let out = Format::Human.render(&source(text), &shown, false);
        for i in 0..12 {
            assert!(
                out.contains(&format!("error[E-invalid-value]: error {i}\n")),
                "{out}"
            );
        }
        assert!(!out.contains("more like this: error"), "{out}");
        assert!(out.contains("warning[W-agis-rule]"), "{out}");
        assert!(out.contains("(--verbose)"), "{out}");
    }

    #[test]
    fn one_finding_on_one_line_is_said_once() {
        let d = Diagnostic::new(Code::AuthUndeclared, "no [auth] table: agents assume it");
        let many: Vec<Diagnostic> = (0..40)
            .map(|i| Diagnostic::new(Code::AgisProcessVerb, format!("rule {i}")).help("h"))
            .collect();
        let mut shown: Vec<&Diagnostic> = many.iter().collect();
        shown.push(&d);
        let out = Format::Human.render(&source(""), &shown, false);
        let line = out
            .lines()
            .find(|l| l.contains("N-auth-undeclared"))
            .expect("the note has a line");
        assert_eq!(
            line,
            "api/service.toml: note[N-auth-undeclared]: no [auth] table: agents assume it"
        );
    }

    #[test]
    fn findings_at_places_of_a_document_are_grouped_by_kind_and_listed_in_json() {
        let at = |i: usize| Origin::Document(format!("api/service.toml#/paths/~1p{i}/get"));
        let mut diags: Vec<Diagnostic> = (0..30)
            .map(|i| {
                Diagnostic::new(Code::ImportLost, "cookie parameters are left out").from(at(i))
            })
            .collect();
        diags.extend(
            (0..30)
                .map(|i| Diagnostic::new(Code::ImportLost, "callbacks are left out").from(at(i))),
        );
        let shown: Vec<&Diagnostic> = diags.iter().collect();
        let out = Format::Human.render(&source(""), &shown, false);
        for kind in ["cookie parameters are left out", "callbacks are left out"] {
            assert!(out.contains(&format!("]: {kind}\n")), "{kind}: {out}");
        }
        assert!(
            out.contains("more like this: #/paths/~1p3/get; #/paths/~1p4/get"),
            "{out}"
        );
        let json: serde_json::Value =
            serde_json::from_str(&Format::Json.render(&source(""), &shown, false)).unwrap();
        let listed = json["diagnostics"].as_array().unwrap();
        assert_eq!(listed.len(), 60);
        assert_eq!(listed[7]["origin"], "api/service.toml#/paths/~1p7/get");
    }

    #[test]
    fn a_value_from_a_flag_or_the_environment_has_no_caret() {
        let text = "[deploy]\nhost = \"netlify\"\n";
        let src = SourceText {
            path: Path::new("service.toml"),
            text,
            locator: Some(&crate::source::TomlLocator::new(text)),
        };
        for (origin, said) in [
            (Origin::Flag("--host"), "--host on the command line"),
            (
                Origin::Env("NETLIFY=true"),
                "NETLIFY=true in the environment",
            ),
        ] {
            let d = Diagnostic::new(Code::HostHeaders, "GitHub Pages cannot set headers")
                .at("deploy.host")
                .from(origin);
            let out = src.render(&d);
            assert_eq!(
                out,
                format!(
                    "service.toml: warning[W-host-headers]: GitHub Pages cannot set headers\n  \
                     = field: deploy.host\n  = from: {said}\n"
                )
            );
            let json: serde_json::Value =
                serde_json::from_str(&Format::Json.render(&src, &[&d], false)).unwrap();
            assert_eq!(json["diagnostics"][0]["origin"], said);
            assert_eq!(json["diagnostics"][0]["line"], serde_json::Value::Null);
        }
        // From the file, the caret points at the line.
        let d = Diagnostic::new(Code::HostHeaders, "x").at("deploy.host");
        assert!(src.render(&d).starts_with("service.toml:2:8: "));
    }

    #[test]
    fn fatal_errors_come_first_then_errors_warnings_notes() {
        let mut diags = Diagnostics::default();
        diags.push(Diagnostic::new(Code::AgisDerived, "note"));
        diags.push(Diagnostic::new(Code::AgisProcessVerb, "warning"));
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
