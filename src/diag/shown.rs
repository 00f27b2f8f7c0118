//! The one way text that came from the input is printed: diagnostics in every format (message,
//! help, field path, source line, file name), the CLI's own lines and `serve`'s log.
//!
//! A terminal runs escape sequences (ESC, OSC, BEL), a CI log runs workflow commands found at
//! the start of a line (`::error`, `::stop-commands::`), bidirectional controls reorder what a
//! reviewer reads, and one value can be megabytes. So every character that could move the
//! cursor, start a line, reorder or hide text is escaped as Rust writes it (`\n`, `\u{1b}`,
//! `\u{202e}`), and every value is cut, the cut marked with `…` and the value's length. No
//! line of output then begins with text from the input: a value never holds a line break.

use std::borrow::Cow;
use std::path::Path;

use icu_properties::CodePointMapData;
use icu_properties::props::GeneralCategory;

/// The most characters of one quoted value (between backticks) that a message shows: room for
/// the `--allow-secret-like FIELD@FINGERPRINT` a help quotes, with a field path of an imported
/// API's nested schema.
pub const QUOTE_MAX: usize = 160;

/// The most characters of a whole message, help or field path.
pub const TEXT_MAX: usize = 1000;

/// The most characters of a file name.
pub const PATH_MAX: usize = 240;

/// Whether `c` is escaped: a control character (line breaks and tabs included, C1's NEL and
/// CSI too), a line or paragraph separator, or an invisible format character (bidirectional
/// embeddings, overrides, isolates and marks, zero-width characters, tag characters).
pub fn must_escape(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}')
        || CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::Format
}

/// `text` as it may be printed: each character of [`must_escape`] escaped, and cut after `max`
/// characters of the input with `…` and its length (`… (5000000 characters)`). Every other
/// function here is this one applied to the parts of a text.
pub fn untrusted(text: &str, max: usize) -> Cow<'_, str> {
    let plain = text.bytes().all(|b| matches!(b, b' '..=b'~'));
    if plain && text.len() <= max {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(max.saturating_mul(4)) + 24);
    for (count, (i, c)) in text.char_indices().enumerate() {
        if count == max {
            let total = count + text[i..].chars().count();
            out.push_str(&format!("… ({total} characters)"));
            return Cow::Owned(out);
        }
        push_char(&mut out, c);
    }
    Cow::Owned(out)
}

/// `c`, escaped when it must be.
pub fn push_char(out: &mut String, c: char) {
    if must_escape(c) {
        out.extend(c.escape_debug());
    } else {
        out.push(c);
    }
}

/// How many characters `c` takes once printed.
pub fn width(c: char) -> usize {
    if must_escape(c) {
        c.escape_debug().count()
    } else {
        1
    }
}

/// A diagnostic's message or help, composed of wellgen's words and quoted values: every value
/// between backticks cut at [`QUOTE_MAX`] characters, the whole at [`TEXT_MAX`], everything
/// escaped. An unclosed backtick quotes the rest.
pub fn message(text: &str) -> Cow<'_, str> {
    let plain = text.bytes().all(|b| matches!(b, b' '..=b'~'));
    if plain && text.len() <= QUOTE_MAX {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        let max = if i % 2 == 1 { QUOTE_MAX } else { TEXT_MAX };
        out.push_str(&untrusted(part, max));
    }
    match untrusted(&out, TEXT_MAX) {
        Cow::Borrowed(_) if out == text => Cow::Borrowed(text),
        Cow::Borrowed(_) => Cow::Owned(out),
        // Already escaped: cut only (its backslashes are no longer characters to escape).
        Cow::Owned(cut) => Cow::Owned(cut),
    }
}

/// A field path (`capabilities.0.params."a key"`): escaped, each step between dots cut at
/// [`QUOTE_MAX`] characters, the whole at [`TEXT_MAX`].
pub fn field(text: &str) -> Cow<'_, str> {
    let plain = text.bytes().all(|b| matches!(b, b' '..=b'~'));
    if plain && text.split('.').all(|step| step.len() <= QUOTE_MAX) {
        return untrusted(text, TEXT_MAX);
    }
    let steps: Vec<Cow<str>> = text.split('.').map(|s| untrusted(s, QUOTE_MAX)).collect();
    Cow::Owned(untrusted(&steps.join("."), TEXT_MAX).into_owned())
}

/// A file name: escaped and cut at [`PATH_MAX`] characters.
pub fn path(path: &Path) -> String {
    untrusted(&path.to_string_lossy(), PATH_MAX).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_bidi_and_separators_are_escaped() {
        for (text, shown) in [
            ("a\nb", "a\\nb"),
            ("a\r\n::error x", "a\\r\\n::error x"),
            ("\u{1b}]8;;x\u{7}", "\\u{1b}]8;;x\\u{7}"),
            ("tab\there", "tab\\there"),
            ("abc\u{202e}fed", "abc\\u{202e}fed"),
            ("x\u{2066}y\u{2069}", "x\\u{2066}y\\u{2069}"),
            (
                "a\u{2028}b\u{2029}c\u{85}d\u{9b}",
                "a\\u{2028}b\\u{2029}c\\u{85}d\\u{9b}",
            ),
            ("zero\u{200b}width\u{feff}", "zero\\u{200b}width\\u{feff}"),
            ("tag\u{e0041}", "tag\\u{e0041}"),
            ("plain é ❤️ 漢字", "plain é ❤️ 漢字"),
        ] {
            assert_eq!(untrusted(text, 100), shown, "{text:?}");
        }
    }

    #[test]
    fn long_values_are_cut_and_marked() {
        let long = "x".repeat(5000);
        assert_eq!(untrusted(&long, 10), "xxxxxxxxxx… (5000 characters)");
        let quoted = format!("`{long}` is not a valid capability id");
        let m = message(&quoted);
        assert!(m.len() < 300, "{m}");
        assert!(
            m.ends_with("… (5000 characters)` is not a valid capability id"),
            "{m}"
        );
        let everywhere = format!("{long} {long}");
        assert!(message(&everywhere).chars().count() <= TEXT_MAX + 30);
        let unclosed = format!("value `{long}");
        assert!(message(&unclosed).len() < 300);
        let path = format!("capabilities.0.params.{long}.description");
        assert_eq!(
            field(&path),
            format!(
                "capabilities.0.params.{}… (5000 characters).description",
                &long[..QUOTE_MAX]
            )
        );
    }

    #[test]
    fn ordinary_messages_are_unchanged() {
        let text = "`list notes` is not a valid capability id; use `list_notes`";
        assert!(matches!(message(text), Cow::Borrowed(_)));
        let long = format!("{} and `é`", "word ".repeat(40));
        assert_eq!(message(&long), long);
    }
}
