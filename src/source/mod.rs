//! Front ends: reading what the author wrote, with enough kept to point back into it.

pub mod openapi;
pub mod service_toml;
pub mod toml_out;

use std::ops::Range;
use std::path::Path;

use toml::de::{DeTable, DeValue};

use crate::diag::{Code, Diagnostic, Locate, did_you_mean};
use service_toml::ServiceToml;

/// The default `--max-input-size`: far above any real service.toml or OpenAPI document.
pub const DEFAULT_MAX_INPUT_SIZE: u64 = 64 << 20;

/// Reads a source file as UTF-8 text, up to the default size limit.
pub fn read(path: &Path) -> Result<String, Diagnostic> {
    read_limited(path, DEFAULT_MAX_INPUT_SIZE)
}

/// Reads a source file as UTF-8 text, refusing one larger than `max` bytes. The limit is
/// enforced while reading, so a growing file or a device (`/dev/zero`) is refused too.
pub fn read_limited(path: &Path, max: u64) -> Result<String, Diagnostic> {
    use std::io::Read as _;
    let bytes = std::fs::File::open(path).and_then(|f| {
        // Sized from the file's length (a device's is 0): growing from nothing to 13 MB
        // touches twice the memory and copies it along the way.
        let len = f
            .metadata()
            .map_or(0, |m| m.len())
            .min(max.saturating_add(1));
        let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        f.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
        Ok(bytes)
    });
    let bytes = bytes.map_err(|e| {
        let d = Diagnostic::new(
            Code::SourceUnreadable,
            format!(
                "cannot read {}: {}",
                path.display(),
                crate::diag::io_reason(&e)
            ),
        );
        if e.kind() == std::io::ErrorKind::NotFound {
            d.help("run `wellgen init` to write a starter service.toml, or name the file to build")
        } else {
            d
        }
    })?;
    if bytes.len() as u64 > max {
        return Err(Diagnostic::new(
            Code::SourceUnreadable,
            format!(
                "{} is larger than {}; refusing to read it",
                path.display(),
                human_size(max)
            ),
        )
        .help(
            "raise the limit with `--max-input-size` if the file is really meant to be this large",
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::new(
            Code::SourceUnreadable,
            format!("{} is not UTF-8 text", path.display()),
        )
        .with_span(e.utf8_error().valid_up_to()..e.utf8_error().valid_up_to() + 1)
    })
}

/// `64 MB`, `512 KB`, `10 bytes`: sizes as the limit messages print them.
pub fn human_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Parses service.toml text into its serde mirror; a syntax error or an unknown key is one
/// diagnostic with the exact span.
pub fn parse_service_toml(text: &str) -> Result<ServiceToml, Diagnostic> {
    let doc = DeTable::parse(text).map_err(|e| toml_error(text, e))?;
    ServiceToml::deserialize(toml::de::Deserializer::from(doc)).map_err(|e| toml_error(text, e))
}

use serde::Deserialize as _;

fn toml_error(text: &str, e: toml::de::Error) -> Diagnostic {
    let message = e.message().trim_end().to_string();
    let span = e.span();
    let key = span.as_ref().and_then(|s| key_before(text, s.start));
    let unknown = message
        .strip_prefix("unknown field `")
        .and_then(|r| r.split_once('`'));
    let mut d = if let Some((key, _)) = unknown {
        Diagnostic::new(Code::UnknownKey, format!("unknown key `{key}`"))
    } else if let Some(rest) = message.strip_prefix("missing field `") {
        let key = rest.split('`').next().unwrap_or_default();
        Diagnostic::new(Code::MissingKey, format!("missing required key `{key}`"))
    } else if let Some(rest) = message.strip_prefix("invalid type: ") {
        type_error(text, span.clone(), key.as_deref(), rest)
    } else {
        Diagnostic::new(Code::TomlSyntax, first_line(&message))
    };
    if let Some(span) = span {
        d = d.with_span(span);
    }
    if let Some(help) = unknown_key_help(&message) {
        d = d.help(help);
    }
    d
}

/// `invalid type: string "60", expected i64` as a reader wants it: the key, the type it takes,
/// an example; `[capabilities]` written for `[[capabilities]]` says so.
fn type_error(text: &str, span: Option<Range<usize>>, key: Option<&str>, rest: &str) -> Diagnostic {
    let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
    let header = span
        .as_ref()
        .and_then(|s| text.get(s.start..s.end))
        .map(str::trim)
        .unwrap_or_default();
    for array in ["capabilities", "webhooks"] {
        let single = format!("[{array}]");
        if (found == "map" && expected.contains("sequence") && key.is_none_or(|k| k == array))
            || header.starts_with(&single)
        {
            return Diagnostic::new(
                Code::TableArray,
                format!(
                    "use `[[{array}]]`: each {} is an array-of-tables entry",
                    &array[..array.len() - 1].replace("capabilitie", "capability")
                ),
            )
            .help(format!(
                "write `[[{array}]]` (double brackets) before each entry"
            ));
        }
    }
    let (wanted, example) = match expected {
        e if e.starts_with('i') || e.starts_with('u') || e.contains("integer") => {
            let digits: String = found.chars().filter(char::is_ascii_digit).collect();
            (
                "an integer",
                if digits.is_empty() {
                    "60".to_string()
                } else {
                    digits
                },
            )
        }
        e if e.starts_with('f') || e.contains("float") || e.contains("number") => {
            ("a number", "0.5".to_string())
        }
        e if e.contains("bool") => ("true or false", "true".to_string()),
        e if e.contains("string") || e.contains("date") => ("a string", "\"…\"".to_string()),
        e if e.contains("sequence") => ("an array", "[\"…\"]".to_string()),
        e if e.contains("map") || e.contains("struct") => ("a table", "{ … }".to_string()),
        e => (e, String::new()),
    };
    let found = found.split(' ').next().unwrap_or(found);
    let message = match key {
        Some(key) => format!("`{key}` must be {wanted}, not {}", article(found)),
        None => format!("must be {wanted}, not {}", article(found)),
    };
    let d = Diagnostic::new(Code::TomlType, message);
    if example.is_empty() {
        d
    } else {
        d.help(format!(
            "write it as {wanted}, e.g. `{} = {example}`",
            key.unwrap_or("key")
        ))
    }
}

fn article(kind: &str) -> String {
    match kind {
        "map" => "a table".into(),
        "sequence" => "an array".into(),
        "integer" => "an integer".into(),
        "boolean" => "a boolean".into(),
        k => format!("a {k}"),
    }
}

/// The key written before the value at `at` on its line (`key = value`), if any.
fn key_before(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let before = text.get(..at)?;
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let key = line.trim_end().strip_suffix('=')?.trim();
    let key = key.rsplit('.').next()?.trim().trim_matches('"');
    (!key.is_empty()).then(|| key.to_string())
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().to_string()
}

/// serde says "unknown field `nmae`, expected one of `name`, `description`, …";
/// turn that into a suggestion.
fn unknown_key_help(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (key, rest) = rest.split_once('`')?;
    let expected: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    if expected.is_empty() {
        return Some(format!("`{key}` is not a key of this table"));
    }
    Some(match did_you_mean(key, expected.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!("the keys of this table are: {}", expected.join(", ")),
    })
}

/// Finds fields of a TOML document by dotted path (`capabilities.0.params.q`).
pub struct TomlLocator<'a> {
    root: Option<toml::Spanned<DeTable<'a>>>,
}

impl<'a> TomlLocator<'a> {
    pub fn new(text: &'a str) -> Self {
        Self {
            root: DeTable::parse(text).ok(),
        }
    }
}

impl Locate for TomlLocator<'_> {
    fn locate(&self, field: &str) -> Option<Range<usize>> {
        let root = self.root.as_ref()?;
        if field.is_empty() {
            return None;
        }
        let mut table = root.get_ref();
        let mut span = None;
        let steps = crate::diag::field_steps(field);
        let mut parts = steps.iter().map(|s| s.as_ref()).peekable();
        let mut current: Option<&DeValue> = None;
        while let Some(part) = parts.next() {
            let value = match current {
                None => table.get(part)?,
                Some(DeValue::Table(t)) => {
                    table = t;
                    table.get(part)?
                }
                Some(DeValue::Array(a)) => a.get(part.parse::<usize>().ok()?)?,
                Some(_) => return span,
            };
            span = Some(value.span());
            current = Some(value.get_ref());
            if parts.peek().is_none() {
                break;
            }
        }
        span
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_nested_fields_by_path() {
        let text = "[service]\nname = \"x\"\n\n[[capabilities]]\nid = \"a\"\n[[capabilities]]\nid = \"b\"\nparams = { q = \"string, required\" }\n";
        let loc = TomlLocator::new(text);
        let at = |f: &str| loc.locate(f).map(|r| &text[r]);
        assert_eq!(at("service.name"), Some("\"x\""));
        assert_eq!(at("capabilities.1.id"), Some("\"b\""));
        assert_eq!(at("capabilities.1.params.q"), Some("\"string, required\""));
        assert_eq!(at("capabilities.7.id"), None);
    }

    #[test]
    fn unknown_keys_get_a_suggestion() {
        let err = parse_service_toml("[service]\nnmae = \"x\"\n").unwrap_err();
        assert_eq!(err.message, "unknown key `nmae`");
        assert_eq!(err.help.as_deref(), Some("did you mean `name`?"));
        assert_eq!(err.span, Some(10..14));
    }
}
