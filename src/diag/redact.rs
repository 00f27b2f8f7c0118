//! Masking secrets in what wellgen prints: every diagnostic text and source line goes through
//! here before it reaches a terminal, a CI log or a tool, whatever check or stage wrote it.
//!
//! A secret is what `secrets::find` (the detector the publication checks use) finds, a piece of
//! text the caller knows to be part of one (a message quoting a secret shortened), or the
//! password of a `user:password@` URL.

use std::borrow::Cow;
use std::ops::Range;

use crate::detect::secrets;

/// How much of a secret stays readable: enough to recognise it, not to use it.
const HINT: usize = 4;

/// The shortest piece of a known secret masked where it is quoted on its own.
const FRAGMENT: usize = 8;

/// A run longer than this many pieces is masked whole when it holds a secret, rather than
/// searched for the smallest span that does.
const MAX_PIECES: usize = 24;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A key or token: its first characters stay as a hint.
    Secret,
    /// A URL's password: nothing of it is shown.
    Password,
}

/// `text` with each secret replaced by its first four characters and `…`, and each URL
/// password by `****`. `known` are secrets (or their pieces) found elsewhere.
pub fn text<'t>(text: &'t str, known: &[String]) -> Cow<'t, str> {
    let spans = spans(text, known);
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, kind) in spans {
        out.push_str(&text[at..range.start]);
        match kind {
            Kind::Secret => {
                out.extend(text[range.clone()].chars().take(HINT));
                // A message that shortened the value already says so.
                if !text[range.end..].starts_with('…') {
                    out.push('…');
                }
            }
            Kind::Password => out.push_str("****"),
        }
        at = range.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// `line` with each secret's characters but its first four replaced by `*`, and each URL
/// password's all: one character for one, so a caret under the line still lines up.
pub fn line<'t>(line: &'t str, known: &[String]) -> Cow<'t, str> {
    let spans = spans(line, known);
    if spans.is_empty() {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for (range, kind) in spans {
        out.push_str(&line[at..range.start]);
        let shown = if kind == Kind::Secret { HINT } else { 0 };
        for (i, c) in line[range.clone()].chars().enumerate() {
            out.push(if i < shown { c } else { '*' });
        }
        at = range.end;
    }
    out.push_str(&line[at..]);
    Cow::Owned(out)
}

/// The secrets `text` holds, each as the smallest span the detector still finds: what a
/// message quoting part of `text` must not repeat.
pub fn secrets_in(text: &str) -> Vec<String> {
    spans(text, &[])
        .into_iter()
        .filter(|(_, kind)| *kind == Kind::Secret)
        .map(|(r, _)| text[r].to_string())
        .collect()
}

/// Whether the detector finds a secret in `text`.
pub fn is_secret(text: &str) -> bool {
    secrets::find(text).is_some()
}

/// The first eight hex digits of the value's SHA-256: names a value in `--allow-secret-like`
/// without repeating it (32 bits tell nothing usable about a random key).
pub fn fingerprint(value: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(value.as_bytes())[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A byte of a candidate token: what the detector reads as one word.
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'+' | b'/' | b'=')
}

/// A byte a key is made of; the other token bytes (`.`, `+`, `/`, `=`) separate its pieces.
fn is_key(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')
}

/// The sorted, disjoint spans of `text` to mask.
fn spans(text: &str, known: &[String]) -> Vec<(Range<usize>, Kind)> {
    let mut out = passwords(text);
    let has_secret = secrets::find(text).is_some();
    // A secret reshaped into a name (`glpat_x_y7k_…`): only such a name is masked then.
    let reshaped = !has_secret && reshaped_name(text);
    if has_secret || reshaped || !known.is_empty() {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if !is_token(bytes[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && is_token(bytes[i]) {
                i += 1;
            }
            run_spans(text, start..i, (has_secret, reshaped), known, &mut out);
        }
    }
    out.sort_by_key(|(r, _)| r.start);
    // A password span wins over a secret span it overlaps.
    let mut merged: Vec<(Range<usize>, Kind)> = Vec::with_capacity(out.len());
    for (r, k) in out {
        match merged.last_mut() {
            Some((last, lk)) if r.start < last.end => {
                last.end = last.end.max(r.end);
                if k == Kind::Password {
                    *lk = Kind::Password;
                }
            }
            _ => merged.push((r, k)),
        }
    }
    merged
}

/// The secrets of one run of token bytes.
fn run_spans(
    text: &str,
    run: Range<usize>,
    (detect, reshaped): (bool, bool),
    known: &[String],
    out: &mut Vec<(Range<usize>, Kind)>,
) {
    let word = &text[run.clone()];
    if word.len() < FRAGMENT {
        return;
    }
    let pieces = pieces(word);
    if pieces.is_empty() {
        return;
    }
    if detect && secrets::find(word).is_some() {
        smallest(text, run.start, &pieces, out);
    }
    if reshaped {
        for p in &pieces {
            if secrets::find_reshaped(&word[p.clone()]).is_some() {
                out.push((run.start + p.start..run.start + p.end, Kind::Secret));
            }
        }
    }
    if known.is_empty() {
        return;
    }
    // Case and separators aside: a message that reshapes a secret (an id suggestion,
    // `glpat_x_y7k_…` for `glpat-xY7k…`) still repeats it.
    let known: Vec<String> = known.iter().map(|k| squeezed(k)).collect();
    let is_known = |s: &str| {
        let s = squeezed(s);
        s.len() >= FRAGMENT && known.iter().any(|k| k.contains(&s))
    };
    let whole = pieces[0].start..pieces[pieces.len() - 1].end;
    if is_known(&word[whole.clone()]) {
        out.push((run.start + whole.start..run.start + whole.end, Kind::Secret));
        return;
    }
    for p in &pieces {
        if is_known(&word[p.clone()]) {
            out.push((run.start + p.start..run.start + p.end, Kind::Secret));
        }
    }
}

/// `text` in lower case without `_` and `-`: what survives of a secret reshaped into a name.
fn squeezed(text: &str) -> String {
    text.bytes()
        .filter(|b| !matches!(b, b'_' | b'-'))
        .map(|b| char::from(b.to_ascii_lowercase()))
        .collect()
}

/// Whether a word of `text` is a secret reshaped into a name (`secrets::find_reshaped`).
fn reshaped_name(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .any(|w| w.len() >= 16 && secrets::find_reshaped(w).is_some())
}

/// The maximal runs of key bytes in `word`, as ranges into it.
fn pieces(word: &str) -> Vec<Range<usize>> {
    let bytes = word.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_key(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_key(bytes[i]) {
            i += 1;
        }
        out.push(start..i);
    }
    out
}

/// Adds, left to right, the smallest spans of whole pieces in which the detector finds the
/// same kind of secret it finds in the rest of the run: `capabilities.0.params.ghp_…` masks
/// the token, not the field path around it, and a JSON Web Token is masked whole, not only
/// its random-looking signature.
fn smallest(text: &str, base: usize, pieces: &[Range<usize>], out: &mut Vec<(Range<usize>, Kind)>) {
    let word = |a: usize, b: usize| &text[base + pieces[a].start..base + pieces[b].end];
    let last = pieces.len() - 1;
    let mut from = 0;
    while from <= last {
        let Some(kind) = secrets::find(word(from, last)) else {
            return;
        };
        let widest = (last + 1 - from).min(MAX_PIECES);
        let found = (0..widest).find_map(|w| {
            (from..=last - w)
                .find(|&a| secrets::find(word(a, a + w)) == Some(kind))
                .map(|a| (a, a + w))
        });
        let (a, b) = found.unwrap_or((from, last));
        out.push((base + pieces[a].start..base + pieces[b].end, Kind::Secret));
        from = b + 1;
    }
}

/// The password of each `scheme://user:password@host` (or `//user:password@host`) in `text`.
fn passwords(text: &str) -> Vec<(Range<usize>, Kind)> {
    if !text.contains('@') {
        return Vec::new();
    }
    secrets::url_passwords(text)
        .into_iter()
        .map(|r| (r, Kind::Password))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GHP: &str = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    const JWT: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

    #[test]
    fn masks_the_secret_not_the_field_path_around_it() {
        let field = format!("capabilities.0.params.{GHP}");
        assert_eq!(text(&field, &[]), "capabilities.0.params.ghp_…");
        assert_eq!(
            text(&format!("use `{GHP}` or {GHP}."), &[]),
            "use `ghp_…` or ghp_…."
        );
        assert_eq!(text(&format!("Bearer {JWT}"), &[]), "Bearer eyJh…");
        assert_eq!(text("AKIAIOSFODNN7EXAMPLE", &[]), "AKIA…");
        assert_eq!(text("plain words", &[]), "plain words");
    }

    #[test]
    fn masks_snake_cased_and_known_pieces() {
        let snake = "{ghp_a1_b2c3_d4e5_f6g7_h8i9_j0k1_l2m3_n4o5_p6q7_r8}";
        assert_eq!(text(snake, &[]), "{ghp_…}");
        let known = secrets_in(&format!("token {JWT} please"));
        assert_eq!(known, [JWT]);
        assert_eq!(
            text("as `token eyJhbGciOiJIUzI1NiJ9.eyJzdWIi…`", &known),
            "as `token eyJh…`"
        );
    }

    #[test]
    fn masks_url_passwords_whole() {
        let url = "https://deploy:Hunter2Passw0rd@pay.example/v1";
        assert_eq!(text(url, &[]), "https://deploy:****@pay.example/v1");
        assert_eq!(
            line(&format!("base_url = \"{url}\""), &[]),
            "base_url = \"https://deploy:***************@pay.example/v1\""
        );
        assert_eq!(
            text("https://a@b.example/x:y@z", &[]),
            "https://a@b.example/x:y@z"
        );
    }

    #[test]
    fn secrets_reshaped_into_names_are_masked() {
        assert_eq!(
            text("(e.g. `glpat_x_y7k_q2m_n9p_l4v_b8c_r3t_z`)", &[]),
            "(e.g. `glpa…`)"
        );
        // Known at the source line, a reshaped quote of it is masked, separators aside.
        let known = ["glpat-xY7kQ2mN9pL4vB8cR3tZ".to_string()];
        assert_eq!(text("use `glpat_xy7kq2mn9`", &known), "use `glpa…`");
        assert_eq!(text("list_notes_by_owner", &known), "list_notes_by_owner");
    }

    #[test]
    fn protocol_relative_passwords_are_masked() {
        assert_eq!(
            text("served from //reader:R3ad3rPw@cdn.example/x", &[]),
            "served from //reader:****@cdn.example/x"
        );
    }

    #[test]
    fn lines_keep_their_length() {
        let l = format!("key = \"{GHP}\"");
        let masked = line(&l, &[]);
        assert_eq!(masked.chars().count(), l.chars().count());
        assert!(masked.starts_with("key = \"ghp_****") && masked.ends_with("*\""));
    }

    #[test]
    fn fingerprints_are_eight_hex_digits() {
        assert_eq!(fingerprint("x").len(), 8);
        assert_ne!(fingerprint("x"), fingerprint("y"));
    }
}
