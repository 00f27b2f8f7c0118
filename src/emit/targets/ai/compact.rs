//! The compact form of a capability, for documents over aiendpoint's 64 KB guidance (§4.5):
//! the draft's own aim is a document an agent reads in a few hundred tokens (§5), and a big
//! API's full descriptions cost more than its source's. Every capability and every required
//! parameter is kept; what is cut is prose: the first plain sentence of a description,
//! optional parameters by name and type, the returns by name. docs/openapi-import.md lists it.

use std::borrow::Cow;

use crate::model::param::Param;
use crate::text::{plain_text, shorten};

/// A description's first sentence, as plain text.
pub const DESCRIPTION_MAX: usize = 160;
/// A required parameter's description, after its type.
const PARAM_DESCRIPTION_MAX: usize = 100;
/// `returns`, usually a type name with its fields: the name is what is kept.
const RETURNS_MAX: usize = 80;
/// An enum is listed while it stays this short.
const ALLOWED_MAX: usize = 60;

/// The first sentence of `text` without markup, on one line, at most `max` characters.
pub fn first_sentence(text: &str, max: usize) -> String {
    let plain = plain_text(text);
    let plain = plain.trim();
    let end = sentence_end(plain).unwrap_or(plain.len());
    shorten(&plain[..end], max).0
}

/// The byte index just past the first sentence's full stop, when a sentence follows it.
fn sentence_end(text: &str) -> Option<usize> {
    text.char_indices().find_map(|(i, c)| {
        let rest = &text[i + c.len_utf8()..];
        let stop = matches!(c, '.' | '!' | '?');
        let spaced = rest.starts_with(char::is_whitespace);
        let capital = rest.trim_start().starts_with(char::is_uppercase);
        (stop && spaced && capital).then_some(i + 1)
    })
}

/// The draft's `type, required|optional` notation: a required parameter keeps its short enum
/// and the first sentence of its description, an optional one its type alone.
pub fn param(p: &Param) -> String {
    if !p.required {
        return format!("{}, optional", p.kind.as_str());
    }
    let mut out = format!("{}, required", p.kind.as_str());
    let values: Vec<String> = p
        .allowed
        .iter()
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
        .collect();
    let listed = values.join("|");
    if !values.is_empty() && listed.len() <= ALLOWED_MAX {
        out.push_str(", ");
        out.push_str(&listed);
    }
    if let Some(d) = &p.description {
        let d = first_sentence(d, PARAM_DESCRIPTION_MAX);
        if !d.is_empty() {
            out.push_str(" -- ");
            out.push_str(&d);
        }
    }
    out
}

/// `returns` by name: the text before a field list (`customer {id, …}` → `customer`), else
/// its first sentence.
pub fn returns(text: &str) -> Cow<'_, str> {
    if text.chars().count() <= RETURNS_MAX {
        return Cow::Borrowed(text);
    }
    let head = text.split(" {").next().unwrap_or(text);
    Cow::Owned(first_sentence(head, RETURNS_MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sentences_are_plain_and_short() {
        assert_eq!(
            first_sentence("<p>Retrieves a 3D Secure object.</p> More text.", 160),
            "Retrieves a 3D Secure object."
        );
        assert_eq!(
            first_sentence("Lists e.g. items. Then more.", 160),
            "Lists e.g. items."
        );
        assert_eq!(first_sentence("a < b &amp; c", 160), "a < b & c");
        assert_eq!(first_sentence("No stop at all", 160), "No stop at all");
        assert!(first_sentence(&"word ".repeat(100), 40).chars().count() <= 40);
        assert_eq!(first_sentence("Café… done. Next", 160), "Café… done.");
    }

    #[test]
    fn returns_keep_their_name() {
        let long = format!("customer {{{}}}", "field, ".repeat(30));
        assert_eq!(returns(&long), "customer");
        assert_eq!(returns("short {a, b}"), "short {a, b}");
    }
}
