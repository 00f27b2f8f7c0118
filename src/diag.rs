//! Diagnostics: errors and warnings as values, collected during a run and rendered once.
//!
//! A diagnostic names the *field* it is about (`capabilities.2.description`); the source it came
//! from turns that field path into `file:line:col` plus the offending line and a caret, so every
//! stage after parsing can point into the author's file without carrying spans around.

pub mod report;

use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    /// The word diagnostics print: `error` or `warning`.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// Dotted path of the source field, e.g. `capabilities.0.params.q`.
    pub field: Option<String>,
    /// An exact byte range, for errors found before a field path exists (syntax errors).
    pub span: Option<Range<usize>>,
    pub help: Option<String>,
    /// The source text at this position is a secret: the printed line shows it masked, so a CI
    /// log does not publish what the message itself masks.
    pub conceal: bool,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            message: printable(message.into()),
            field: None,
            span: None,
            help: None,
            conceal: false,
        }
    }

    pub fn warning(message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(message)
        }
    }

    pub fn at(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub fn with_span(mut self, span: Range<usize>) -> Self {
        self.span = Some(span);
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(printable(help.into()));
        self
    }

    pub fn concealed(mut self) -> Self {
        self.conceal = true;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `text` with control characters escaped (`\u{1b}`), but for line breaks and tabs: messages
/// quote values decoded from the input (a TOML `"\u001b[2J"`), and a terminal or a CI log must
/// not run them as escape sequences.
pub(crate) fn printable(text: String) -> String {
    let hidden = |c: char| c.is_control() && !matches!(c, '\n' | '\t');
    if !text.chars().any(hidden) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A source line with each control character but tab shown as one visible character (its
/// Unicode control picture, `␛` for ESC), so the caret under it still lines up: a parse error
/// points at a raw control character, which must not reach the terminal.
fn visible(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            '\t' => c,
            '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
            '\u{7f}' => '\u{2421}',
            c if c.is_control() => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// The diagnostics of one run, in the order they were found.
#[derive(Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    pub fn error(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.push(Diagnostic::error(message).at(field));
    }

    pub fn warning(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.push(Diagnostic::warning(message).at(field));
    }

    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(other);
    }

    pub fn append(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }

    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count()
    }

    pub fn warning_count(&self) -> usize {
        self.items.len() - self.error_count()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    /// Errors first, then warnings, each in the order found; identical entries dropped.
    pub fn into_sorted(self) -> Vec<Diagnostic> {
        let mut items = self.items;
        items.sort_by_key(|d| std::cmp::Reverse(d.severity));
        items.dedup();
        items
    }
}

/// Maps field paths to byte ranges in a source text.
pub trait Locate {
    fn locate(&self, field: &str) -> Option<Range<usize>>;
}

/// A source file as read, kept for rendering diagnostics.
pub struct SourceText<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub locator: Option<&'a dyn Locate>,
}

/// Where a diagnostic points: 1-based line and column (in characters), and the caret's width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
    /// Characters underlined, at least 1, never past the end of the line.
    pub width: usize,
}

impl SourceText<'_> {
    /// The file name as diagnostics print it.
    pub fn file(&self) -> String {
        display_path(self.path)
    }

    /// The line and column a diagnostic points at, if it can be located in this text.
    pub fn position(&self, d: &Diagnostic) -> Option<Position> {
        self.position_and_line(d).map(|(p, _)| p)
    }

    fn position_and_line(&self, d: &Diagnostic) -> Option<(Position, &str)> {
        let span = d.span.clone().or_else(|| {
            let field = d.field.as_deref()?;
            self.locator?.locate(field)
        })?;
        let (line_no, col, line) = line_of(self.text, span.start);
        let width = span_width(line, col, &span);
        Some((
            Position {
                line: line_no,
                column: col,
                width,
            },
            line,
        ))
    }

    /// `file:line:col: severity: message`, then the line with a caret, then `help:`.
    pub fn render(&self, d: &Diagnostic) -> String {
        let label = d.severity.label();
        let mut out = String::new();
        let file = self.file();
        match self.position_and_line(d) {
            Some((
                Position {
                    line: line_no,
                    column: col,
                    width,
                },
                line,
            )) => {
                let _ = writeln!(out, "{file}:{line_no}:{col}: {label}: {}", d.message);
                let gutter = " ".repeat(line_no.to_string().len());
                let _ = writeln!(out, "{gutter} |");
                let shown = if d.conceal {
                    conceal(line, col, width)
                } else {
                    line.to_string()
                };
                let _ = writeln!(out, "{line_no} | {}", visible(&shown));
                let pad: String = line
                    .chars()
                    .take(col - 1)
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                let _ = writeln!(out, "{gutter} | {pad}{}", "^".repeat(width));
            }
            None => {
                let _ = writeln!(out, "{file}: {label}: {}", d.message);
            }
        }
        if let Some(field) = &d.field {
            let _ = writeln!(out, "  = field: {field}");
        }
        if let Some(help) = &d.help {
            let _ = writeln!(out, "  = help: {help}");
        }
        out
    }
}

/// `line` with the `width` characters from column `col` masked but for the first four of the
/// value (after an opening quote) and a closing quote; the length is kept, so the caret still fits.
fn conceal(line: &str, col: usize, width: usize) -> String {
    let span = col - 1..col - 1 + width;
    let quoted = matches!(line.chars().nth(span.start), Some('"' | '\''));
    let shown = span.start + 4 + usize::from(quoted);
    let last = span.end - 1;
    line.chars()
        .enumerate()
        .map(|(i, c)| {
            let hidden = span.contains(&i) && i >= shown && !(i == last && matches!(c, '"' | '\''));
            if hidden { '*' } else { c }
        })
        .collect()
}

fn display_path(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// 1-based line and column (in characters) of a byte offset, and the text of that line.
fn line_of(text: &str, offset: usize) -> (usize, usize, &str) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = text[start..end].trim_end_matches('\r');
    let line_no = text[..start].matches('\n').count() + 1;
    let col = text[start..offset].chars().count() + 1;
    (line_no, col, line)
}

fn span_width(line: &str, col: usize, span: &Range<usize>) -> usize {
    let rest = line.chars().count().saturating_sub(col - 1);
    let len = span.end.saturating_sub(span.start).max(1);
    len.min(rest).max(1)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Closest candidate to `word` by edit distance, if close enough to be a likely typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_and_count_characters() {
        let text = "a = 1\nné = \"x\"\n";
        let at = text.find('=').unwrap();
        assert_eq!(line_of(text, at), (1, 3, "a = 1"));
        let at = text.rfind('"').unwrap();
        assert_eq!(line_of(text, at), (2, 8, "né = \"x\""));
    }

    #[test]
    fn control_characters_in_messages_are_escaped() {
        let d = Diagnostic::error("`\u{1b}[2Jhttp` and \u{9b}31m and \0 and \r")
            .help("line\nbreak\tand tab stay; \u{7}bell does not");
        assert_eq!(d.message, "`\\u{1b}[2Jhttp` and \\u{9b}31m and \\0 and \\r");
        assert_eq!(
            d.help.as_deref(),
            Some("line\nbreak\tand tab stay; \\u{7}bell does not")
        );
        assert_eq!(Diagnostic::error("plain é ❤️").message, "plain é ❤️");
    }

    fn service_toml(text: &str) -> SourceText<'_> {
        SourceText {
            path: Path::new("service.toml"),
            text,
            locator: None,
        }
    }

    #[test]
    fn control_characters_in_the_source_line_are_shown_as_pictures() {
        let text = "[service]\nname = \"a\u{1b}[2Jb\u{7f}\u{9b}\"\n";
        let at = text.find("[2J").unwrap();
        let d = Diagnostic::error("bad").with_span(at..at + 1);
        // One character for one: the caret stays under `[`.
        assert_eq!(
            service_toml(text).render(&d),
            "service.toml:2:11: error: bad\n  |\n2 | name = \"a\u{241b}[2Jb\u{2421}\u{fffd}\"\n  |           ^\n"
        );
    }

    #[test]
    fn render_points_a_caret_at_the_span() {
        let text = "[service]\nname = \"\"\n";
        let src = service_toml(text);
        let start = text.find("\"\"").unwrap();
        let d = Diagnostic::error("name is empty")
            .with_span(start..start + 2)
            .help("give it a name");
        assert_eq!(
            src.render(&d),
            "service.toml:2:8: error: name is empty\n  |\n2 | name = \"\"\n  |        ^^\n  = help: give it a name\n"
        );
    }

    #[test]
    fn suggestions_only_for_near_misses() {
        let keys = ["name", "description", "base_url"];
        assert_eq!(did_you_mean("nmae", keys), Some("name"));
        assert_eq!(did_you_mean("descripton", keys), Some("description"));
        assert_eq!(did_you_mean("zzz", keys), None);
    }
}
