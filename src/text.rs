//! Small text helpers shared by front and back ends.

/// The SHA-256 of `bytes` as `sha256:<64 lower-case hex digits>`: the manifest's hashes and
/// the skills index's digests alike.
pub fn sha256_digest(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(bytes);
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for b in digest.iter() {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    out
}

/// Folds white space, line breaks included, into single spaces.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut push = |word: &str| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    };
    // ASCII text without a vertical tab splits the same on bytes, without decoding chars (a
    // large API has a description on every schema).
    if text.is_ascii() && !text.contains('\x0B') {
        text.split_ascii_whitespace().for_each(&mut push);
    } else {
        text.split_whitespace().for_each(&mut push);
    }
    out
}

/// `text` in ASCII lower case with every other character a `_`: the raw stuff of an id or a
/// file name (`Issues-2` → `issues_2`, `ü` → `_`).
pub fn ascii_lower_or_underscore(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// `listPets`, `get-HTTPStatus`, `GET /pets/{petId}` → `list_pets`, `get_http_status`,
/// `get_pets_pet_id`: the words of `text` in lower case, joined by `_`. Words break where heck
/// breaks them (a capital after a lower-case letter; the last capital of an acronym), before a
/// capital that follows a digit, and at every character that is not an ASCII letter or digit: what
/// this names (capability ids, parameter names, path words) must be ASCII, and heck alone keeps
/// `ü` and splits nothing at it. Empty when `text` has no ASCII letter or digit; it may start
/// with a digit (callers that need a letter first add one).
pub fn snake_case(text: &str) -> String {
    heck::AsSnakeCase(ascii_words(text)).to_string()
}

/// `text` as a name in URLs and files: lower-case ASCII letters and digits (and the characters
/// of `keep`), every run of other characters one `-`, none at either end. `Weather API!` →
/// `weather-api`.
pub fn slug(text: &str, keep: &[char]) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || keep.contains(&c) {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let end = out.trim_end_matches('-').len();
    out.truncate(end);
    out
}

/// An id made of `text`: its [`snake_case`], with `op_` before a leading digit, or `fallback`
/// when `text` has no ASCII letter or digit. `2fa.enable` → `op_2fa_enable`.
pub fn snake_id(text: &str, fallback: &str) -> String {
    let id = snake_case(text);
    match id.chars().next() {
        None => fallback.to_string(),
        Some(c) if c.is_ascii_digit() => format!("op_{id}"),
        Some(_) => id,
    }
}

/// [`snake_case`] joined by `-`: `productReviews`, `product_reviews` → `product-reviews`.
pub fn kebab_case(text: &str) -> String {
    heck::AsKebabCase(ascii_words(text)).to_string()
}

/// `text` with every character that is not an ASCII letter or digit a space, which heck reads
/// as a word break, and a space between a digit and a capital after it, where heck sees none:
/// `CoreV1Get` is `core_v1_get`, `ICD10CM` `icd10_cm`, not `core_v1get`, `icd10cm`.
fn ascii_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut after_digit = false;
    for c in text.chars() {
        if after_digit && c.is_ascii_uppercase() {
            out.push(' ');
        }
        after_digit = c.is_ascii_digit();
        out.push(if c.is_ascii_alphanumeric() { c } else { ' ' });
    }
    out
}

/// Words of `[a-z0-9]` joined by single underscores, starting with a letter: `search_products`,
/// `v2_get`; not `a__b`, `a_`, `_a`, `2a`, `A`. What capability ids, ia.json endpoint names and
/// AGIS error names must be.
pub fn is_snake_case(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.split('_').all(|word| {
            !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// `text` on one line and at most `max` characters, cut at a word boundary with `…` when
/// longer; the flag says whether it was cut.
pub fn shorten(text: &str, max: usize) -> (String, bool) {
    let text = one_line(text);
    if text.chars().count() <= max {
        return (text, false);
    }
    let keep: String = text.chars().take(max - 1).collect();
    let cut = match keep.rfind(' ') {
        Some(i) if i > max / 2 => &keep[..i],
        _ => keep.as_str(),
    };
    let cut = cut.trim_end_matches(|c: char| c.is_whitespace() || ",;:.-".contains(c));
    (format!("{cut}…"), true)
}

/// HTML tags that descriptions in real API files carry: markup in any form, attributes or
/// not. Any other name is markup only where the form says so (see `tag`).
const HTML_TAGS: [&str; 38] = [
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "dd",
    "del",
    "details",
    "div",
    "dl",
    "dt",
    "em",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "kbd",
    "li",
    "ol",
    "p",
    "pre",
    "s",
    "section",
    "small",
    "span",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "td",
    "ul",
];

/// Tags that end a block: they become a line break, so words on either side stay apart.
/// `important` and `note` are the call-out blocks of AWS's descriptions.
const BLOCK_TAGS: [&str; 16] = [
    "blockquote",
    "br",
    "dd",
    "div",
    "dt",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "important",
    "li",
    "note",
    "p",
    "td",
];

/// A description written in HTML or Markdown as plain text, for targets whose descriptions are
/// plain: markup tags dropped (a block tag leaves a line break, a link its text), character
/// references decoded, Markdown links, images, emphasis, code spans and heading marks reduced
/// to their text. Plain text comes back unchanged. Hand-written rather than a crate: the
/// packages at hand convert whole documents (html2text renders tables and wraps lines), and
/// descriptions need only this much.
///
/// A tag is markup when its name is an HTML tag, or its form says so whatever the name
/// (AWS writes `<note>`, `<important>`, `<fullname>`): a closing tag `</name>`, an empty-element
/// tag `<name/>`, attributes `<name key="value">`, or a bare `<name>` closed later in the text.
/// A bare `<name>` never closed is text: in real API files it is a placeholder
/// (`/pets/<id>`, `arn:aws:iam::<account_id>`, `https://<ServiceName>.<AWSRegion>.example`) or
/// a type (`List<ChatMessage>`), and leaving it out would change what the text says.
pub fn plain_text(text: &str) -> String {
    // A byte order mark inside a text is left over from joining files: it hides nothing the
    // author meant, and the publication check refuses invisible characters.
    if text.contains('\u{feff}') {
        return plain_text(&text.replace('\u{feff}', ""));
    }
    if !text.contains(['<', '&', '[', '*', '_', '`', '#']) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut closers = None;
    let mut gt = NextGt::default();
    let mut rest = text;
    while let Some(i) = rest.find(['<', '&']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if rest.starts_with('<') {
            let at = text.len() - rest.len();
            match tag(rest, at, &mut gt, || {
                closers.get_or_insert_with(|| Closers::of(text))
            }) {
                Some((len, name)) => {
                    if BLOCK_TAGS.contains(&name.as_str()) {
                        out.push('\n');
                    }
                    rest = &rest[len..];
                }
                None if rest.starts_with("<!--") => {
                    rest = rest.find("-->").map_or("", |end| &rest[end + 3..]);
                }
                None => {
                    out.push('<');
                    rest = &rest[1..];
                }
            }
        } else {
            match entity(rest) {
                Some((len, c)) => {
                    out.push(c);
                    rest = &rest[len..];
                }
                None => {
                    out.push('&');
                    rest = &rest[1..];
                }
            }
        }
    }
    out.push_str(rest);
    markdown(&out)
}

/// Whether `text` holds a markup tag, as `plain_text` tells one from text between `<` and `>`.
pub fn has_markup_tag(text: &str) -> bool {
    let mut closers = None;
    let mut gt = NextGt::default();
    text.match_indices('<').any(|(at, _)| {
        tag(&text[at..], at, &mut gt, || {
            closers.get_or_insert_with(|| Closers::of(text))
        })
        .is_some()
    })
}

/// Where each name's last closing tag (`</name>`, any case) starts in a text: a bare `<name>`
/// before it is markup. Found once per text, so a text of many `<` stays linear.
struct Closers(std::collections::HashMap<String, usize>);

impl Closers {
    fn of(text: &str) -> Self {
        let mut last = std::collections::HashMap::new();
        for (at, _) in text.match_indices("</") {
            if let Some((_, name)) = closing_tag(&text[at..]) {
                last.insert(name, at);
            }
        }
        Self(last)
    }

    fn after(&self, name: &str, at: usize) -> bool {
        self.0.get(name).is_some_and(|&end| end > at)
    }
}

/// The length and lower-case name of the markup tag `text` starts with (see `plain_text`);
/// `at` is where `text` starts in the whole text, `closers` finds the closing tags after it.
fn tag<'c>(
    text: &str,
    at: usize,
    gt: &mut NextGt,
    closers: impl FnOnce() -> &'c Closers,
) -> Option<(usize, String)> {
    if let Some(found) = closing_tag(text) {
        return Some(found);
    }
    let inner = text.strip_prefix('<')?;
    let closing = inner.starts_with('/');
    let inner = inner.strip_prefix('/').unwrap_or(inner);
    let len = name_len(inner);
    if len == 0 {
        return None;
    }
    let name = inner[..len].to_ascii_lowercase();
    let after = &inner[len..];
    if HTML_TAGS.contains(&name.as_str()) {
        // Known names keep whatever stands before the `>`.
        if !after.starts_with(['>', ' ', '/', '\n', '\t']) {
            return None;
        }
        let end = gt.at_or_after(text, at)? - at;
        return Some((end + 1, name));
    }
    if closing {
        return None;
    }
    // Attributes are looked for in a bounded window, so a text of many `<x a="` stays linear.
    let window = &after[..after.floor_char_boundary(TAG_MAX)];
    let (attrs_len, form) = attributes(window)?;
    let markup = match form {
        Form::Bare => closers().after(&name, at),
        Form::Empty | Form::Attributes => true,
    };
    markup.then(|| (1 + len + attrs_len, name))
}

/// The first `>` at or after a position of a text, remembered: the `<`s of a run that no `>`
/// closes (`<b <b <b …`) share the one after them, so a text of many stays linear.
#[derive(Default)]
struct NextGt {
    /// `(from, found)`: the first `>` at or after `from` is at `found` (`None`: there is none).
    last: Option<(usize, Option<usize>)>,
}

impl NextGt {
    /// The first `>` of `text`, which starts at `at` in the whole text, as a position there.
    fn at_or_after(&mut self, text: &str, at: usize) -> Option<usize> {
        match self.last {
            // No `>` lies between `from` and `found`, so none between `at` and it either.
            Some((from, found)) if from <= at && found.is_none_or(|g| g >= at) => found,
            _ => {
                let found = text.find('>').map(|i| at + i);
                self.last = Some((at, found));
                found
            }
        }
    }
}

/// The most bytes after a name that a tag of another name than an HTML one may take.
const TAG_MAX: usize = 1024;

/// What the part of a tag after its name says about it.
enum Form {
    /// `<name>`: markup only when closed later.
    Bare,
    /// `<name/>` or `<name key="value"/>`.
    Empty,
    /// `<name key="value">`.
    Attributes,
}

/// `</name>` (space allowed before the `>`) at the start of `text`: its length and lower-case
/// name. A closing tag is markup whatever its name.
fn closing_tag(text: &str) -> Option<(usize, String)> {
    let inner = text.strip_prefix("</")?;
    let len = name_len(inner);
    if len == 0 {
        return None;
    }
    let after = &inner[len..];
    let space = after.len() - after.trim_start().len();
    after[space..]
        .starts_with('>')
        .then(|| (2 + len + space + 1, inner[..len].to_ascii_lowercase()))
}

/// The length of the XML name `text` starts with (ASCII: a letter or `_`, then letters,
/// digits, `_`, `-`, `.` and `:`), 0 when it starts with none.
fn name_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    if !bytes
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return 0;
    }
    bytes
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':')))
        .unwrap_or(bytes.len())
}

/// What follows a tag's name up to and with its `>`: attributes each written `key="value"`,
/// `key='value'` or `key=value`, then `>` or `/>`. Its length and form; `None` when it is not
/// that (`<image id>`, a `<` never closed).
fn attributes(text: &str) -> Option<(usize, Form)> {
    let mut rest = text;
    let mut any = false;
    loop {
        let trimmed = rest.trim_start();
        let spaced = trimmed.len() < rest.len();
        rest = trimmed;
        if let Some(r) = rest.strip_prefix("/>") {
            return Some((text.len() - r.len(), Form::Empty));
        }
        if let Some(r) = rest.strip_prefix('>') {
            let form = if any { Form::Attributes } else { Form::Bare };
            return Some((text.len() - r.len(), form));
        }
        let key = name_len(rest);
        if !spaced || key == 0 {
            return None;
        }
        rest = rest[key..].trim_start().strip_prefix('=')?.trim_start();
        rest = match rest.chars().next()? {
            quote @ ('"' | '\'') => {
                let close = rest[1..].find(quote)?;
                &rest[close + 2..]
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "<>\"'".contains(c))
                    .unwrap_or(rest.len());
                if end == 0 {
                    return None;
                }
                &rest[end..]
            }
        };
        any = true;
    }
}

/// A character reference (`&amp;`, `&#39;`, `&#x2014;`) `text` starts with, and its length.
fn entity(text: &str) -> Option<(usize, char)> {
    let end = text.bytes().take(12).position(|b| b == b';')?;
    let body = &text[1..end];
    let c = match body {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "mdash" => '\u{2014}',
        "ndash" => '\u{2013}',
        "hellip" => '\u{2026}',
        "copy" => '\u{a9}',
        _ => {
            let number = body.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code).filter(|c| !c.is_control() || c.is_whitespace())?
        }
    };
    Some((end + 1, c))
}

/// Markdown reduced to its text: `[text](url)` and `![alt](url)` to the text, `**strong**`,
/// `__strong__` and `` `code` `` to their words, `#` heading marks dropped. Single `*` and `_`
/// stay: they are as often part of names (`snake_case`) and formulas as emphasis.
fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        let line = if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with(' ') {
            trimmed[hashes..].trim_start()
        } else {
            line
        };
        out.push_str(&links(line));
    }
    out.replace("**", "").replace("__", "").replace('`', "")
}

/// `[text](target)` and `![alt](target)` as their text.
fn links(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else {
            break;
        };
        let label = &rest[open + 1..close];
        if label.contains('[') || rest[close + 2..end].contains(char::is_whitespace) {
            out.push_str(&rest[..open + 1]);
            rest = &rest[open + 1..];
            continue;
        }
        let before = &rest[..open];
        out.push_str(before.strip_suffix('!').unwrap_or(before));
        out.push_str(label);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// `text` on one line and at most `max` characters: whole sentences while they fit (the first
/// sentence of a long description is its summary), else cut at a word as `shorten` does.
pub fn summary(text: &str, max: usize) -> (String, bool) {
    let text = one_line(text);
    if text.chars().count() <= max {
        return (text, false);
    }
    // A sentence ends at `.`, `!` or `?` followed by a space and an upper-case letter or digit
    // (not `e.g. the`, not `v1.2`).
    let mut end = None;
    for (i, c) in text.char_indices() {
        if text[..i].chars().count() >= max {
            break;
        }
        if matches!(c, '.' | '!' | '?') {
            let next = text[i + 1..].chars().take(2).collect::<Vec<_>>();
            if next.first() == Some(&' ')
                && next
                    .get(1)
                    .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
            {
                end = Some(i + 1);
            }
        }
    }
    match end {
        Some(e) if e > max / 4 => (text[..e].to_string(), true),
        _ => shorten(&text, max),
    }
}

/// Whether a regular expression avoids the syntax that JSON Schema's dialect (ECMA-262) lacks
/// but other engines accept: inline flags `(?i)`, Python's `(?P<name>` and `(?#comments)`,
/// the anchors `\A`, `\Z`, `\z`, Java's POSIX classes (`\p{Alnum}`, `\p{IsLatin}`), and a
/// class escape as the end of a range (`[\w- ]`, which ECMA-262's Unicode mode and Python
/// refuse). Validators reject schemas holding such patterns.
pub fn is_ecma_regex(pattern: &str) -> bool {
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    // Whether the class has an atom yet (a `-` first in it is a plain character), and whether
    // its last atom was a class escape such as `\w`.
    let (mut class_atoms, mut after_class_escape) = (false, false);
    while let Some(c) = chars.next() {
        let escape_before = std::mem::take(&mut after_class_escape);
        let first_in_class = in_class && !std::mem::replace(&mut class_atoms, true);
        match c {
            '\\' => match chars.next() {
                Some('A' | 'Z' | 'z') => return false,
                Some('p' | 'P') if chars.peek() == Some(&'{') => {
                    chars.next();
                    let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
                    if !ecma_property(&name) {
                        return false;
                    }
                }
                Some('w' | 'W' | 'd' | 'D' | 's' | 'S') if in_class => after_class_escape = true,
                _ => {}
            },
            '[' if !in_class => {
                in_class = true;
                class_atoms = false;
                if chars.peek() == Some(&'^') {
                    chars.next();
                }
            }
            ']' if in_class => in_class = false,
            '-' if in_class && !first_in_class => {
                let mut ahead = chars.clone();
                let next = ahead.next();
                let class_end = next == Some('\\')
                    && matches!(ahead.next(), Some('w' | 'W' | 'd' | 'D' | 's' | 'S'));
                if (escape_before && next.is_some_and(|n| n != ']')) || class_end {
                    return false;
                }
            }
            '(' if chars.peek() == Some(&'?') => {
                chars.next();
                match chars.peek() {
                    Some(':' | '=' | '!' | '<') => {
                        // `(?<name>` and look-behind are ECMA-262; Python's `(?P<` is not.
                    }
                    _ => return false,
                }
            }
            _ => {}
        }
    }
    true
}

/// Whether a regular expression is ECMA-262 ([`is_ecma_regex`]) without Unicode property
/// escapes (`\p{L}`): ECMA-262 has those only in its Unicode mode, and Python's `re`, which
/// Python's JSON Schema validators (and so many agents) use, cannot read them at all. What an
/// import publishes: a pattern left out only accepts more.
pub fn is_portable_regex(pattern: &str) -> bool {
    // `\p` and `\P`, with their braces or without, are letter escapes Python refuses.
    is_ecma_regex(pattern) && letter_escapes_both_read(pattern)
}

/// Whether every escape of an ASCII letter in `pattern` is one that ECMA-262 and Python's `re`
/// both read alike: Python refuses any other (`\e`, `\k<name>`, `\cA`), and reads `\x` only
/// before two hexadecimal digits and `\u` before four (AWS Location's `\x{60}` is neither).
fn letter_escapes_both_read(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            continue;
        }
        let hex = |chars: &mut std::str::Chars, n: usize| {
            (0..n).all(|_| chars.next().is_some_and(|h| h.is_ascii_hexdigit()))
        };
        let ok = match chars.next() {
            Some('b' | 'B' | 'd' | 'D' | 'w' | 'W' | 's' | 'S' | 't' | 'n' | 'v' | 'f' | 'r') => {
                true
            }
            Some('x') => hex(&mut chars, 2),
            Some('u') => hex(&mut chars, 4),
            Some(l) => !l.is_ascii_alphabetic(),
            None => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Whether `name` in `\p{name}` can be an ECMA-262 Unicode property: not one of Java's POSIX
/// classes or `Is`/`In`/`java` names, which ECMA-262 spells otherwise (`\p{Alpha}`,
/// `\p{Lower}` and `\p{ASCII}` are Unicode aliases, so they pass).
fn ecma_property(name: &str) -> bool {
    const POSIX: [&str; 9] = [
        "Alnum", "Punct", "Blank", "Digit", "Space", "XDigit", "Print", "Graph", "Cntrl",
    ];
    let java = ["Is", "In", "java"].iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
    });
    !name.is_empty() && !POSIX.contains(&name) && !java
}

/// Lowercases the first letter of a sentence that starts a clause, unless it opens an acronym.
pub fn clause(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => a
            .to_lowercase()
            .chain(text[a.len_utf8()..].chars())
            .collect(),
        _ => text.to_string(),
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_keep_ascii_words_apart_by_one_hyphen() {
        assert_eq!(slug("Weather API!", &[]), "weather-api");
        assert_eq!(slug("  --Über  uns_2--", &[]), "ber-uns-2");
        assert_eq!(slug("pets_v2 / Store", &['_']), "pets_v2-store");
        assert_eq!(slug("天気", &[]), "");
    }

    #[test]
    fn snake_and_kebab_case_break_words_at_case_and_non_ascii() {
        for (text, snake) in [
            ("listPets", "list_pets"),
            ("getHTTPStatus", "get_http_status"),
            ("get-HTTPStatus", "get_http_status"),
            ("GET /pets/{petId}", "get_pets_pet_id"),
            ("repos/get-content", "repos_get_content"),
            ("SearchProducts", "search_products"),
            ("v2Get", "v2_get"),
            ("UTF8Decode", "utf8_decode"),
            ("AKIAIOSFODNN7EXAMPLE", "akiaiosfodnn7_example"),
            (
                "connectCoreV1GetNamespacedPodProxy",
                "connect_core_v1_get_namespaced_pod_proxy",
            ),
            ("getCoreV1APIResources", "get_core_v1_api_resources"),
            ("InferICD10CM", "infer_icd10_cm"),
            (
                "ListDistributionsByWebACLId",
                "list_distributions_by_web_acl_id",
            ),
            ("get2Things", "get2_things"),
            ("2fa.enable", "2fa_enable"),
            ("créerCompte", "cr_er_compte"),
            ("__a__b__", "a_b"),
            ("$$$", ""),
        ] {
            assert_eq!(snake_case(text), snake, "{text}");
        }
        assert_eq!(snake_id("1st", "x"), "op_1st");
        assert_eq!(snake_id("$$$", "operation"), "operation");
        assert_eq!(kebab_case("productReviews"), "product-reviews");
        assert_eq!(kebab_case("product_reviews"), "product-reviews");
        assert_eq!(kebab_case("Widgets"), "widgets");
    }

    #[test]
    fn snake_case_is_strict() {
        for good in ["search_products", "v2_get", "a", "a_b1"] {
            assert!(is_snake_case(good), "{good}");
        }
        for bad in ["a__b", "a_", "_a", "A", "2a", "a-b", "aB", ""] {
            assert!(!is_snake_case(bad), "{bad}");
        }
    }

    #[test]
    fn one_line_joins_words_as_split_whitespace_does() {
        for text in [
            "",
            "  a  b\tc\r\nd  ",
            "a\x0Bb\x0Cc",
            "naïve\u{2003}text\u{a0}here",
            "\u{85}x",
            "one",
        ] {
            let want = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(one_line(text), want, "{text:?}");
        }
    }

    #[test]
    fn byte_order_marks_inside_a_text_are_dropped() {
        assert_eq!(
            plain_text("\u{feff}An API\u{feff} for things."),
            "An API for things."
        );
    }

    #[test]
    fn ecma_regexes_are_told_from_other_dialects() {
        for ok in [
            "^[a-z]+$",
            "(?:a|b)",
            "x(?=y)",
            "(?<year>\\d{4})",
            "(?<!a)b",
            "a\\.b",
            "^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$",
            "\\p{Script=Greek}\\p{Alpha}\\p{ASCII}",
            "[\\w-]",
            "[\\w\\-.]",
            "[-\\w]",
            "[a-z0-9-]+",
        ] {
            assert!(is_ecma_regex(ok), "{ok}");
        }
        for bad in [
            "([^\\s]+(\\.(?i)(jpeg|pdf))$)",
            "(?P<x>a)",
            "\\Aabc\\z",
            "a(?#note)b",
            "(?s).*",
            "^[\\p{Alnum}\\p{Punct}\\p{Blank}]*$",
            "\\p{IsLatin}+",
            "\\P{javaLowerCase}",
            "^((`[\\w- ]+`)|([\\w\\-]+))$",
            "[a-\\d]",
        ] {
            assert!(!is_ecma_regex(bad), "{bad}");
            assert!(!is_portable_regex(bad), "{bad}");
        }
        // Unicode property escapes are ECMA-262 (in its Unicode mode), not portable.
        for unicode in ["^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$", "[^\\P{C}]"] {
            assert!(
                is_ecma_regex(unicode) && !is_portable_regex(unicode),
                "{unicode}"
            );
        }
        assert!(!is_portable_regex("^\\([\\p\\{L\\}]*\\)$"));
        assert!(is_portable_regex("^[a-z0-9-]+$"));
        // Escapes Python's `re` cannot read (AWS Location Service's `\x{60}`), or reads otherwise.
        for bad in [
            "^([$\\-._+!*\\x{60}(),;/?:@=&\\w])+$",
            "\\u{1F600}",
            "\\cA",
            "\\e",
            "(?<a>x)\\k<a>",
            "\\x4",
        ] {
            assert!(!is_portable_regex(bad), "{bad}");
        }
        for ok in [
            "\\x41\\u00e9[\\b]\\t\\n\\r\\f\\v",
            "\\.\\-\\/\\(\\)\\1",
            "^\\d{3}\\s\\S\\w\\W\\D\\B$",
        ] {
            assert!(is_portable_regex(ok), "{ok}");
        }
    }

    #[test]
    fn html_and_markdown_become_plain_text() {
        assert_eq!(
            plain_text(
                "<p>Creates a <a href=\"/docs\">charge</a>.</p><p>Fees&nbsp;&amp; taxes apply.</p>"
            ),
            "\nCreates a charge.\n\nFees & taxes apply.\n"
        );
        assert_eq!(
            one_line(&plain_text(
                "# Title\nSee [the guide](https://x.example/g) and **bold** `code`."
            )),
            "Title See the guide and bold code."
        );
        assert_eq!(
            plain_text("&#39;a&#x27; &lt;b&gt; &unknown; & c"),
            "'a' <b> &unknown; & c"
        );
        for unchanged in [
            "GET /pets/<id> returns a < b",
            "snake_case_name and *args",
            "[not a link] (here)",
        ] {
            assert_eq!(plain_text(unchanged), unchanged);
        }
        assert_eq!(plain_text("a <!-- note --> b"), "a  b");
        // A multi-byte character close after `&` is no entity and no panic.
        assert_eq!(plain_text("&ééééééé; &é"), "&ééééééé; &é");
        assert_eq!(plain_text("<br/>x<BR>"), "\nx\n");
    }

    #[test]
    fn markup_tags_of_any_name_are_dropped_and_placeholders_kept() {
        // AWS's own elements: closed, so markup; its call-outs are blocks.
        assert_eq!(
            one_line(&plain_text(
                "Updates a ledger. <important> Before you switch, read this. </important>"
            )),
            "Updates a ledger. Before you switch, read this."
        );
        assert_eq!(
            plain_text("<fullname>Amazon QLDB</fullname> The ledger.<note>Slow.</note>"),
            "Amazon QLDB The ledger.\nSlow.\n"
        );
        // The form says markup whatever the name: a closing tag, attributes, an empty element.
        assert_eq!(plain_text("x <custom>y</Custom >"), "x y");
        assert_eq!(plain_text("a</stray>b"), "ab");
        assert_eq!(
            plain_text("<DeviceFamily name='ios' v=2>Phones</DeviceFamily>"),
            "Phones"
        );
        assert_eq!(
            plain_text("See <SchemaDefinition/> and <x-y a=\"1\" />."),
            "See  and ."
        );
        // Text between `<` and `>` that is no markup tag stays, tag-like or not.
        for unchanged in [
            "GET /pets/<id> returns a < b",
            "x<5 and y > 3",
            "Map<String, Value> and List<ChatMessage>",
            "arn:aws:iam::<account_id>:role/<role-name>",
            "https://<ServiceName>.<RandomGUID>.<AWSRegion>.cs.amazonlightsail.com/",
            "<prefix>/job-<job-id>/report.json",
            "the <container name> or <image id>",
            "label=<key>=<value>",
            "<x a=\"unclosed>",
            "</>, <>, < b>, </ b>",
        ] {
            assert_eq!(plain_text(unchanged), unchanged, "{unchanged}");
            assert!(!has_markup_tag(unchanged), "{unchanged}");
        }
        // A closing tag before the opener does not close it.
        assert_eq!(plain_text("</id> then <id>"), " then <id>");
        // Many unclosed attributes take linear time (each is looked for in a bounded window).
        let many = "<x a=\"é".repeat(200_000);
        assert_eq!(plain_text(&many), many);
        // So do many HTML tags that no `>` closes, with or without one far after them.
        let open = "<b ".repeat(200_000);
        assert_eq!(plain_text(&open), open);
        assert!(!has_markup_tag(&open));
        let closed = format!("{open}>x");
        assert_eq!(plain_text(&closed), "x");
        assert!(has_markup_tag(&closed));
        for markup in ["<b>x", "a <note>b</note>", "<p/>", "</important>"] {
            assert!(has_markup_tag(markup), "{markup}");
        }
    }

    #[test]
    fn summaries_keep_whole_sentences() {
        let text = "Creates a payment. The payment is captured later, unless you say otherwise. See the guide.";
        assert_eq!(summary(text, 200), (text.to_string(), false));
        assert_eq!(summary(text, 60), ("Creates a payment.".to_string(), true));
        assert_eq!(
            summary(text, 80),
            (
                "Creates a payment. The payment is captured later, unless you say otherwise."
                    .to_string(),
                true
            )
        );
        // `e.g. the` ends no sentence; with no sentence end in reach, the cut is at a word.
        let (s, cut) = summary(
            "Use a key, e.g. the live one, and more words that go on and on",
            30,
        );
        assert!(cut && s.ends_with('…'), "{s}");
    }

    #[test]
    fn shortening_cuts_at_a_word_and_says_so() {
        assert_eq!(shorten("short\n text", 20), ("short text".into(), false));
        let (s, cut) = shorten("one two three four five six", 15);
        assert!(cut && s.chars().count() <= 15, "{s}");
        assert_eq!(s, "one two three…");
    }

    #[test]
    fn clauses_and_lists_read_as_prose() {
        assert_eq!(clause("Search products"), "search products");
        assert_eq!(clause("ID lookups"), "ID lookups");
        assert_eq!(clause("É"), "É");
        assert_eq!(clause(""), "");
        let words = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(list(&words(&[])), "");
        assert_eq!(list(&words(&["a"])), "a");
        assert_eq!(list(&words(&["a", "b"])), "a and b");
        assert_eq!(list(&words(&["a", "b", "c"])), "a, b and c");
    }
}
