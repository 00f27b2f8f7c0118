//! Diagnostics: errors, warnings and notes as values, collected during a run and rendered once.
//! Each has a code (`codes::Code`), which decides its severity.
//!
//! A diagnostic names the *field* it is about (`capabilities.2.description`); the source it came
//! from turns that field path into `file:line:col` plus the offending line and a caret, so every
//! stage after parsing can point into the author's file without carrying spans around.

pub mod codes;
pub mod redact;
pub mod report;
pub mod shown;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

pub use codes::Code;

/// Ordered from the least to the most serious.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// wellgen filled in a value the author did not write.
    Note,
    /// Something is wrong, or worse than it could be, in what is published.
    Warning,
    /// Nothing is written.
    Error,
}

impl Severity {
    /// The word diagnostics print: `error`, `warning` or `note`.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub code: Code,
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
    /// Where the value it is about came from, when that is not the place `field` names in the
    /// source file: the renderer then says so instead of pointing a caret into the file.
    /// Boxed: most diagnostics have none, and every one is moved around.
    pub origin: Option<Box<Origin>>,
}

/// Where a value came from, when not from the source file a diagnostic is rendered against.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A command-line flag (`--host`), which wins over the file's value.
    Flag(&'static str),
    /// The environment: the variable and the value that decided it (`NETLIFY=true`).
    Env(&'static str),
    /// The place in an imported OpenAPI document a finding of the import is about
    /// (`openapi.yaml#/paths/~1pets/get`): findings of one kind share their message.
    Document(String),
}

impl Origin {
    /// How every format names it: `--host on the command line`, `NETLIFY=true in the
    /// environment`, or the document's place itself.
    pub fn describe(&self) -> String {
        match self {
            Origin::Flag(flag) => format!("{flag} on the command line"),
            Origin::Env(var) => format!("{var} in the environment"),
            Origin::Document(place) => place.clone(),
        }
    }
}

impl Diagnostic {
    /// A diagnostic of `code`, with the severity the code has.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            severity: code.severity(),
            message: printable(message.into()),
            field: None,
            span: None,
            help: None,
            conceal: false,
            origin: None,
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

    pub fn from(mut self, origin: Origin) -> Self {
        self.origin = Some(Box::new(origin));
        self
    }

    pub fn concealed(mut self) -> Self {
        self.conceal = true;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Errors that stop everything (an unsafe output folder, an unreadable source).
    pub fn is_fatal(&self) -> bool {
        self.code.info().fatal
    }

    /// The order diagnostics are shown in: fatal errors, errors, warnings, notes.
    pub fn rank(&self) -> (std::cmp::Reverse<Severity>, bool) {
        (std::cmp::Reverse(self.severity), !self.is_fatal())
    }
}

/// `text` with control characters escaped (`\u{1b}`), but for line breaks and tabs: messages
/// quote values decoded from the input (a TOML `"\u001b[2J"`), and a terminal or a CI log must
/// not run them as escape sequences.
pub(crate) fn printable(text: String) -> String {
    let hidden = |c: char| c.is_control() && !matches!(c, '\n' | '\t');
    // Every diagnostic's message passes here (thousands for a large API): bytes first. A
    // control character is a byte below 0x20, DEL, or U+0080–U+009F (0xC2 0x80–0x9F).
    let bytes = text.as_bytes();
    let suspect = |(i, &b): (usize, &u8)| {
        (b < 0x20 && b != b'\n' && b != b'\t')
            || b == 0x7f
            || (b == 0xc2 && bytes.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)))
    };
    if !bytes.iter().enumerate().any(suspect) {
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

/// The diagnostics of one run, in the order they were found.
#[derive(Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    /// A diagnostic of `code` about `field`.
    pub fn report(&mut self, code: Code, field: impl Into<String>, message: impl Into<String>) {
        self.push(Diagnostic::new(code, message).at(field));
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
        self.count(Severity::Warning)
    }

    pub fn note_count(&self) -> usize {
        self.count(Severity::Note)
    }

    fn count(&self, severity: Severity) -> usize {
        self.items.iter().filter(|d| d.severity == severity).count()
    }

    /// Drops every warning and note of the `allowed` codes (errors cannot be allowed).
    pub fn allow(&mut self, allowed: &[Code]) {
        self.items
            .retain(|d| d.is_error() || !allowed.contains(&d.code));
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Diagnostic> {
        self.items.iter_mut()
    }

    /// Fatal errors first, then errors, warnings and notes, each in the order found; identical
    /// entries dropped.
    pub fn into_sorted(self) -> Vec<Diagnostic> {
        let mut items = self.items;
        items.sort_by_key(Diagnostic::rank);
        let keep = first_of_each(&items);
        let mut keep = keep.into_iter();
        items.retain(|_| keep.next().unwrap_or(false));
        items
    }
}

/// For each diagnostic, whether it is the first of its equals: a finding reached twice (a
/// path-level parameter seen from each of its operations) is shown once.
pub(crate) fn first_of_each<D: std::borrow::Borrow<Diagnostic>>(items: &[D]) -> Vec<bool> {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.iter().map(|d| seen.insert(d.borrow())).collect()
}

/// Silences the codes named by `--allow` (`cli`) and by `[check] allow` (`file`, located at
/// `check.allow.N`). A name that is no code, or names an error, is an error with a suggestion.
pub fn allow(cli: &[String], file: &[String], diags: &mut Diagnostics) {
    let mut codes = Vec::new();
    let names = cli
        .iter()
        .map(|n| (n, None))
        .chain(file.iter().enumerate().map(|(i, n)| (n, Some(i))));
    for (name, index) in names {
        let located = |d: Diagnostic| match index {
            Some(i) => d.at(format!("check.allow.{i}")),
            None => d,
        };
        match Code::parse(name.trim()) {
            Some(code) if code.severity() == Severity::Error => diags.push(located(
                Diagnostic::new(
                    Code::UnknownCode,
                    format!("`{code}` is an error; errors cannot be allowed"),
                )
                .help("fix what the error says; only warnings and notes can be silenced"),
            )),
            Some(code) => codes.push(code),
            None => {
                let d = Diagnostic::new(
                    Code::UnknownCode,
                    format!("`{name}` is not a diagnostic code"),
                );
                let names = Code::ALL
                    .iter()
                    .filter(|c| c.severity() != Severity::Error)
                    .map(|c| c.as_str());
                diags.push(located(match did_you_mean(name, names) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help("the codes are listed in docs/diagnostics.md"),
                }));
            }
        }
    }
    diags.allow(&codes);
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

    /// Where `field` is written, or else the nearest table that holds it: a diagnostic about a
    /// key the author left out (`capabilities.0.example`) points at its capability.
    fn locate(&self, field: &str) -> Option<Range<usize>> {
        let locator = self.locator?;
        let steps = field_steps(field);
        (1..=steps.len()).rev().find_map(|n| {
            let path: Vec<String> = steps[..n]
                .iter()
                .map(|s| field_key(s).into_owned())
                .collect();
            locator.locate(&path.join("."))
        })
    }

    /// The line and column a diagnostic points at, if it can be located in this text.
    pub fn position(&self, d: &Diagnostic) -> Option<Position> {
        self.position_and_line(d).map(|(p, _)| p)
    }

    /// No position for a value from elsewhere (a flag, the environment, another document):
    /// the file's line, if it has one, holds another value or nothing of it.
    fn position_and_line(&self, d: &Diagnostic) -> Option<(Position, &str)> {
        if d.origin.is_some() {
            return None;
        }
        let span = d
            .span
            .clone()
            .or_else(|| self.locate(d.field.as_deref()?))?;
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

    /// The diagnostic as every format prints it: each secret in its message, field path and
    /// help masked, whichever stage wrote it, along with any shortened quote of a secret held
    /// by the source text it points at.
    pub fn masked<'d>(&self, d: &'d Diagnostic) -> Cow<'d, Diagnostic> {
        masked(d, &self.known_secrets(d))
    }

    /// The secrets in the source text a diagnostic points at (its first `KNOWN_SCAN` bytes): a
    /// message quoting that text shortened may hold a piece of one too short to be found alone.
    fn known_secrets(&self, d: &Diagnostic) -> Vec<String> {
        let Some(span) = d.span.clone().or_else(|| self.locate(d.field.as_deref()?)) else {
            return Vec::new();
        };
        let start = floor_char_boundary(self.text, span.start.min(self.text.len()));
        let end = span
            .end
            .clamp(start, self.text.len())
            .min(start + KNOWN_SCAN);
        redact::secrets_in(&self.text[start..floor_char_boundary(self.text, end)])
    }

    /// Where a diagnostic's first line says it is: `file:line:col`, the place in another
    /// document it is about, or the file.
    fn head(&self, d: &Diagnostic, at: Option<Position>) -> String {
        match (at, d.origin.as_deref()) {
            (Some(p), _) => format!("{}:{}:{}", self.file(), p.line, p.column),
            (None, Some(Origin::Document(place))) => place.clone(),
            (None, _) => self.file(),
        }
    }

    /// The first line of [`SourceText::render`]: `file:line:col: severity[code]: message`.
    pub fn headline(&self, d: &Diagnostic) -> String {
        let at = self.position(d);
        let d = self.masked(d);
        format!(
            "{}: {}[{}]: {}",
            self.head(&d, at),
            d.severity.label(),
            d.code,
            d.message
        )
    }

    /// `file:line:col: severity: message`, then the line with a caret, then `help:`. Secrets
    /// are masked throughout; a long line is shown as a window around the caret. A value from
    /// a flag or the environment says so instead of pointing into the file.
    pub fn render(&self, d: &Diagnostic) -> String {
        let known = self.known_secrets(d);
        // Located by the field as found: the masked one may not name a key of the source.
        let at = self.position_and_line(d);
        let d = masked(d, &known);
        let label = format!("{}[{}]", d.severity.label(), d.code);
        let mut out = String::new();
        let head = self.head(&d, at.map(|(p, _)| p));
        let _ = writeln!(out, "{head}: {label}: {}", d.message);
        if let Some((
            Position {
                line: line_no,
                column: col,
                width,
            },
            line,
        )) = at
        {
            let gutter = " ".repeat(line_no.to_string().len());
            let _ = writeln!(out, "{gutter} |");
            let shown = Excerpt::new(line, col, width, d.conceal, &known);
            let _ = writeln!(out, "{line_no} | {}", shown.text);
            let _ = writeln!(out, "{gutter} | {}{}", shown.pad, "^".repeat(shown.width));
        }
        if let Some(field) = &d.field {
            let _ = writeln!(out, "  = field: {field}");
        }
        if let Some(origin @ (Origin::Flag(_) | Origin::Env(_))) = d.origin.as_deref() {
            let _ = writeln!(out, "  = from: {}", origin.describe());
        }
        if let Some(help) = &d.help {
            let _ = writeln!(out, "  = help: {help}");
        }
        out
    }
}

/// `d` as printed: secrets masked, then every value escaped and cut (`shown`). Masked first:
/// an escape (`\n` before a key) or a cut would hide a secret from the detector.
fn masked<'d>(d: &'d Diagnostic, known: &[String]) -> Cow<'d, Diagnostic> {
    let message = printed(redact::text(&d.message, known), shown::message);
    let field = d
        .field
        .as_deref()
        .map(|f| printed(redact::text(f, known), shown::field));
    let help = d
        .help
        .as_deref()
        .map(|h| printed(redact::text(h, known), shown::message));
    let place = match d.origin.as_deref() {
        Some(Origin::Document(p)) => Some(printed(redact::text(p, known), shown_place)),
        _ => None,
    };
    let owned = |c: &Option<Cow<str>>| matches!(c, Some(Cow::Owned(_)));
    if matches!(message, Cow::Borrowed(_)) && !owned(&field) && !owned(&help) && !owned(&place) {
        return Cow::Borrowed(d);
    }
    Cow::Owned(Diagnostic {
        message: message.into_owned(),
        field: field.map(Cow::into_owned),
        help: help.map(Cow::into_owned),
        origin: match place {
            Some(p) => Some(Box::new(Origin::Document(p.into_owned()))),
            None => d.origin.clone(),
        },
        ..d.clone()
    })
}

/// A place in another document, as printed: escaped and cut like a whole message.
fn shown_place(place: &str) -> Cow<'_, str> {
    shown::untrusted(place, shown::TEXT_MAX)
}

/// `text` through `show`, borrowed when neither changed it.
fn printed<'t>(text: Cow<'t, str>, show: fn(&str) -> Cow<'_, str>) -> Cow<'t, str> {
    match text {
        Cow::Borrowed(t) => show(t),
        Cow::Owned(t) => Cow::Owned(show(&t).into_owned()),
    }
}

/// How many bytes of the text a diagnostic points at are searched for secrets its message
/// may quote shortened (messages quote the start of a value).
const KNOWN_SCAN: usize = 64 * 1024;

/// How many characters of a source line are shown around the caret.
const WINDOW: usize = 120;

/// How far past a window's edges its text is searched for secrets, so a secret cut by the
/// window is still found and masked.
const MARGIN: usize = 1024;

/// The part of a source line shown under a diagnostic: at most `WINDOW` characters around
/// the caret, each cut side marked `…`, secrets masked, control characters made visible.
struct Excerpt {
    text: String,
    /// What goes before the caret: spaces, and tabs where the line has them.
    pad: String,
    /// The caret's width, cut at the window's end.
    width: usize,
}

impl Excerpt {
    fn new(line: &str, col: usize, width: usize, conceal: bool, known: &[String]) -> Self {
        let caret = col - 1;
        let len = line.chars().count();
        let (from, to) = if len <= WINDOW {
            (0, len)
        } else {
            let from = caret.saturating_sub(WINDOW / 3).min(len - WINDOW);
            (from, from + WINDOW)
        };
        // Masked with a margin on each side, then cut to the window.
        let (m_from, m_to) = (from.saturating_sub(MARGIN), (to + MARGIN).min(len));
        let bytes = |chars: usize| {
            line.char_indices()
                .nth(chars)
                .map_or(line.len(), |(i, _)| i)
        };
        let (b_from, b_to) = (bytes(m_from), bytes(m_to));
        let mut segment = line[b_from..b_to].to_string();
        if conceal {
            segment = self::conceal(&segment, col - m_from, width);
        }
        let mut segment: Vec<char> = redact::line(&segment, known).chars().collect();
        // A run of token characters longer than the margin may be a secret cut in two: masked
        // when what the margin holds of it looks like one.
        let token = |c: char| c.is_ascii_alphanumeric() || "_-.+/=".contains(c);
        let secret = |run: &[char]| redact::is_secret(&run.iter().collect::<String>());
        if m_from > 0 {
            let run = segment.iter().take_while(|&&c| token(c)).count();
            if run > from - m_from && secret(&segment[..run]) {
                segment[..run].fill('*');
            }
        }
        if m_to < len {
            let run = segment.iter().rev().take_while(|&&c| token(c)).count();
            let n = segment.len();
            if run > m_to - to && secret(&segment[n - run..]) {
                segment[n - run..].fill('*');
            }
        }
        // Each character escaped as `shown` escapes it, a tab kept: the caret lines up
        // under the escaped text.
        let window = &segment[from - m_from..to - m_from];
        let shown = |c: char| if c == '\t' { 1 } else { shown::width(c) };
        let mut text = String::new();
        let mut pad = String::new();
        if from > 0 {
            text.push('…');
            pad.push(' ');
        }
        for &c in window {
            if c == '\t' {
                text.push(c);
            } else {
                shown::push_char(&mut text, c);
            }
        }
        if to < len {
            text.push('…');
        }
        for &c in window.iter().take(caret - from) {
            if c == '\t' {
                pad.push('\t');
            } else {
                pad.extend(std::iter::repeat_n(' ', shown(c)));
            }
        }
        let under = width.min(to - caret).max(1);
        let width = window
            .iter()
            .skip(caret - from)
            .take(under)
            .map(|&c| shown(c))
            .sum::<usize>()
            .max(1);
        Excerpt { text, pad, width }
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

/// A key as one step of a field path: bare when it is made of letters, digits, `_` and `-`
/// (a TOML bare key), else quoted, so `a.b` (two steps) and `"a.b"` (one key) differ.
pub fn field_key(key: &str) -> Cow<'_, str> {
    if !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
    {
        return Cow::Borrowed(key);
    }
    let mut out = String::with_capacity(key.len() + 2);
    out.push('"');
    for c in key.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    Cow::Owned(out)
}

/// The steps of a field path, as `field_key` writes them: split at dots outside quotes, quoted
/// keys unquoted.
pub fn field_steps(field: &str) -> Vec<Cow<'_, str>> {
    let mut steps = Vec::new();
    let mut rest = field;
    loop {
        if let Some(quoted) = rest.strip_prefix('"') {
            let mut key = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => key.extend(chars.next().map(|(_, c)| c)),
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    c => key.push(c),
                }
            }
            steps.push(Cow::Owned(key));
            rest = &quoted[end..];
            match rest.strip_prefix('.') {
                Some(r) => rest = r,
                None => return steps,
            }
        } else {
            match rest.split_once('.') {
                Some((step, r)) => {
                    steps.push(Cow::Borrowed(step));
                    rest = r;
                }
                None => {
                    steps.push(Cow::Borrowed(rest));
                    return steps;
                }
            }
        }
    }
}

fn display_path(path: &Path) -> String {
    shown::path(path)
}

/// 1-based line and column (in characters) of a byte offset, and the text of that line.
/// `path:line:col` of byte `offset` of `text`, as a diagnostic's location is printed: for a
/// message about a file other than the one the diagnostics are rendered against.
pub fn place(path: &Path, text: &str, offset: usize) -> String {
    let (line, column, _) = line_of(text, offset);
    format!("{}:{line}:{column}", display_path(path))
}

fn line_of(text: &str, offset: usize) -> (usize, usize, &str) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    // A byte order mark is no column: editors do not show it.
    let bom = '\u{feff}'.len_utf8();
    let start = if start == 0 && offset >= bom && text.starts_with('\u{feff}') {
        bom
    } else {
        start
    };
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

/// An I/O error as a message says it: the common two in plain words, the rest as the OS puts it.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
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
    fn printable_escapes_exactly_the_control_characters_but_line_breaks_and_tabs() {
        for c in (0..0x3000)
            .chain([0xfeff, 0x1f600])
            .filter_map(char::from_u32)
        {
            let text = format!("a{c}é{c}");
            let hidden = c.is_control() && c != '\n' && c != '\t';
            let expected = if hidden {
                format!("a{}é{}", c.escape_debug(), c.escape_debug())
            } else {
                text.clone()
            };
            assert_eq!(printable(text), expected, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn control_characters_in_messages_are_escaped() {
        let d = Diagnostic::new(
            Code::InvalidValue,
            "`\u{1b}[2Jhttp` and \u{9b}31m and \0 and \r",
        )
        .help("line\nbreak\tand tab stay; \u{7}bell does not");
        assert_eq!(d.message, "`\\u{1b}[2Jhttp` and \\u{9b}31m and \\0 and \\r");
        assert_eq!(
            d.help.as_deref(),
            Some("line\nbreak\tand tab stay; \\u{7}bell does not")
        );
        assert_eq!(
            Diagnostic::new(Code::InvalidValue, "plain é ❤️").message,
            "plain é ❤️"
        );
    }

    fn service_toml(text: &str) -> SourceText<'_> {
        SourceText {
            path: Path::new("service.toml"),
            text,
            locator: None,
        }
    }

    #[test]
    fn control_characters_in_the_source_line_are_escaped_under_a_caret() {
        let text = "[service]\nname = \"a\u{1b}[2Jb\u{7f}\u{9b}\"\n";
        let at = text.find("[2J").unwrap();
        let d = Diagnostic::new(Code::InvalidValue, "bad").with_span(at..at + 1);
        // The caret stays under `[`, after the escaped ESC.
        assert_eq!(
            service_toml(text).render(&d),
            "service.toml:2:11: error[E-invalid-value]: bad\n  |\n2 | name = \"a\\u{1b}[2Jb\\u{7f}\\u{9b}\"\n  |                ^\n"
        );
        let text = "x = \"\u{202e}abc\"\n";
        let at = text.find("abc").unwrap();
        let d = Diagnostic::new(Code::InvalidValue, "bad").with_span(at - 3..at + 3);
        assert_eq!(
            service_toml(text).render(&d),
            "service.toml:1:6: error[E-invalid-value]: bad\n  |\n1 | x = \"\\u{202e}abc\"\n  |      ^^^^^^^^^^^^\n"
        );
    }

    #[test]
    fn render_points_a_caret_at_the_span() {
        let text = "[service]\nname = \"\"\n";
        let src = service_toml(text);
        let start = text.find("\"\"").unwrap();
        let d = Diagnostic::new(Code::InvalidValue, "name is empty")
            .with_span(start..start + 2)
            .help("give it a name");
        assert_eq!(
            src.render(&d),
            "service.toml:2:8: error[E-invalid-value]: name is empty\n  |\n2 | name = \"\"\n  |        ^^\n  = help: give it a name\n"
        );
    }

    #[test]
    fn field_paths_quote_keys_that_are_not_bare_and_read_back() {
        assert_eq!(field_key("a_b-1"), "a_b-1");
        assert_eq!(field_key("a.b"), "\"a.b\"");
        assert_eq!(field_key("say \"hi\""), "\"say \\\"hi\\\"\"");
        let path = format!("x.0.{}.{}.y", field_key("a.b"), field_key("q\"."));
        let steps: Vec<String> = field_steps(&path)
            .into_iter()
            .map(Cow::into_owned)
            .collect();
        assert_eq!(steps, ["x", "0", "a.b", "q\".", "y"]);
    }

    #[test]
    fn a_long_line_is_a_window_around_the_caret() {
        let line = format!("{}X{}", "a ".repeat(500), "b ".repeat(500));
        let col = 1001;
        let e = Excerpt::new(&line, col, 3, false, &[]);
        assert_eq!(e.text.chars().count(), WINDOW + 2);
        assert!(e.text.starts_with('…') && e.text.ends_with('…'));
        let caret = e.pad.chars().count();
        assert_eq!(e.text.chars().nth(caret), Some('X'));
        // A secret cut by the window is still masked.
        let secret = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        let line = format!("{}x = \"{secret}\"", " ".repeat(100));
        let e = Excerpt::new(&line, 1, 1, false, &[]);
        assert!(
            e.text.contains("ghp_****") && !e.text.contains("a1B2"),
            "{}",
            e.text
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
