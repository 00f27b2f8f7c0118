//! Writing a service.toml back out: `wellgen import` renders the imported mirror as an
//! editable, commented file that parses back to the very same mirror.
//!
//! Lines stay within [`WIDTH`] characters wherever TOML allows it, so a person can read and
//! edit the file and a diff shows what changed:
//! - a value that fits on its line is written inline (`type = { type = "string" }`);
//! - a table that does not becomes a `[table.key]` section (a list of tables `[[table.key]]`),
//!   or, where a key still follows it in the same table, dotted keys (`properties.id.type = …`),
//!   since a section must come after its table's own keys;
//! - a list that does not fit is written one item a line; a long string is cut at spaces into
//!   a multi-line string whose line-ending backslashes join it back together;
//! - a table inside a list (or under a long dotted key) that does not fit is an inline table
//!   over several lines: TOML 1.1, which wellgen's reader takes, and which the file then names
//!   at its top, since TOML 1.0 has no shorter way to write it.
//!
//! The mirror's own tables (`[service]`, each `[[capabilities]]`, …) are read by field name, so
//! their tables come last as sections. Everything else, JSON Schemas, examples and maps such as
//! `params`, keeps its key order exactly: the documents built from the file list keys in that
//! order. Only a single word longer than [`WIDTH`] (a URL, a pattern) can still make a long
//! line, or a dotted key of a schema nested deep.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::source::service_toml::ServiceToml;

/// The longest line the writer aims for.
pub const WIDTH: usize = 100;

/// The longest dotted key whose table is written as more dotted keys (`properties.id.type`);
/// a longer one's table is a multi-line inline table, which reads better than a key that
/// repeats a deep path on every line.
const DOTTED_MAX: usize = 60;

/// The longest `[section.path]` written: deeper tables are written as keys of the last
/// section, for the same reason.
const SECTION_MAX: usize = 60;

/// Comments a rendering carries: a header, a line above each capability, and keys the author
/// must still set (written commented out, with the reason).
#[derive(Debug, Default)]
pub struct Notes {
    /// Comment lines at the top; a line longer than [`WIDTH`] is wrapped.
    pub header: Vec<String>,
    /// Comment lines above each capability, in order (e.g. `GET /pets (operationId listPets)`).
    pub capabilities: Vec<Vec<String>>,
    /// (`service.base_url` or a whole table such as `auth`, why it is missing).
    pub missing: Vec<(String, String)>,
}

/// Tables of the mirror's own tables that are tables of the mirror too (read by field name):
/// any other nested table is a value whose key order is kept.
const MIRROR_TABLES: [&str; 5] = ["contact", "example", "semantic", "errors", "also"];

/// Text made safe for a TOML comment, which may not hold control characters (a DEL in a
/// server URL once made `wellgen import` write a file it could not read back): each becomes
/// its `\u{..}` escape, on the same line.
fn comment(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' => c.to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// `# text`, cut at spaces into lines of at most [`WIDTH`] characters (a word longer than that
/// stands alone). Leading spaces are kept; continuation lines hang two spaces further in.
fn comment_block(out: &mut String, text: &str) {
    let text = comment(text);
    let body = text.trim_start_matches(' ');
    let lead = " ".repeat(text.len() - body.len());
    let mut line = format!("# {lead}");
    let mut empty = true;
    for word in body.split(' ') {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            let _ = writeln!(out, "{}", line.trim_end());
            line = format!("# {lead}  ");
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    let _ = writeln!(out, "{}", line.trim_end());
}

pub fn render(doc: &ServiceToml, notes: &Notes) -> String {
    let mut head = String::new();
    for line in &notes.header {
        comment_block(&mut head, line);
    }
    let Ok(Value::Object(root)) = serde_json::to_value(doc) else {
        return head;
    };
    let body = tables(&root, notes);
    // Only a multi-line inline table ends a line in `{`: a string's lines end in a quote or a
    // backslash.
    if body
        .lines()
        .any(|l| !l.starts_with('#') && l.ends_with('{'))
    {
        comment_block(&mut head, "");
        comment_block(&mut head, TOML_1_1);
    }
    head + &body
}

/// Said at the top of a file that holds a multi-line inline table.
const TOML_1_1: &str = "Tables too wide for one line inside a list or an inline table span \
    several lines, as TOML 1.1 allows: wellgen reads it, a TOML 1.0 tool may not.";

fn tables(root: &Map<String, Value>, notes: &Notes) -> String {
    let mut out = String::new();
    for (key, value) in root {
        match value {
            Value::Object(table) => {
                let missing: Vec<&(String, String)> = notes
                    .missing
                    .iter()
                    .filter(|(k, _)| k.split_once('.').is_some_and(|(t, _)| t == key))
                    .collect();
                if is_empty(value) && missing.is_empty() {
                    continue;
                }
                let _ = writeln!(out, "\n[{}]", bare(key));
                for (k, why) in missing {
                    let leaf = k.rsplit('.').next().unwrap_or(k);
                    // The reason above, so the key's line is the one to uncomment.
                    comment_block(&mut out, &format!("set this: {why}"));
                    let _ = writeln!(out, "# {leaf} = \"…\"   # set this");
                }
                body(&mut out, &bare(key), table, true);
            }
            Value::Array(list) if list.iter().all(Value::is_object) => {
                for (i, item) in list.iter().enumerate() {
                    let Value::Object(table) = item else { continue };
                    out.push('\n');
                    if key == "capabilities"
                        && let Some(lines) = notes.capabilities.get(i)
                    {
                        // Not cut: a JSON pointer is one word.
                        for line in lines {
                            let _ = writeln!(out, "# {}", comment(line));
                        }
                    }
                    let _ = writeln!(out, "[[{}]]", bare(key));
                    body(&mut out, &bare(key), table, true);
                }
            }
            _ => {}
        }
    }
    // Whole tables the author must add: written commented out at the end, where a table
    // header may stand once uncommented.
    for (key, why) in notes.missing.iter().filter(|(k, _)| !k.contains('.')) {
        if root.get(key.as_str()).is_none_or(is_empty) {
            out.push('\n');
            comment_block(&mut out, &format!("set this: {why}"));
            let _ = writeln!(out, "# [{}]", bare(key));
        }
    }
    out
}

/// A table, or a list of tables, that may be written as sections of its own. A reference to
/// a named schema (`{ "$ref" = "#/schemas/Pet" }`) stays on its key's line: a section of one
/// key would only spread it over three.
fn sectionable(v: &Value) -> bool {
    match v {
        Value::Object(m) => !is_datetime(m) && !is_reference(m),
        Value::Array(a) => {
            !a.is_empty()
                && a.iter()
                    .all(|i| i.as_object().is_some_and(|m| !is_datetime(m)))
        }
        _ => false,
    }
}

/// Writes the keys of the table at `path` (its header already written, or implied by its
/// sections). In a table of the mirror (`mirror`), tables and lists of tables always become
/// sections, after the other keys; elsewhere keys keep their order (see the module doc).
fn body(out: &mut String, path: &str, table: &Map<String, Value>, mirror: bool) {
    let mut entries: Vec<(&String, &Value)> = table
        .iter()
        .filter(|(_, v)| if mirror { !is_empty(v) } else { !v.is_null() })
        .collect();
    if mirror {
        entries.sort_by_key(|(_, v)| sectionable(v));
    }
    let first = if mirror {
        entries.iter().position(|(_, v)| sectionable(v))
    } else {
        entries
            .iter()
            .position(|(k, v)| (v.is_object() || v.is_array()) && !fits(&bare(k), v))
    }
    .unwrap_or(entries.len());
    let trailing = entries
        .iter()
        .rev()
        .take_while(|(_, v)| sectionable(v))
        .count();
    let cut = if path.chars().count() > SECTION_MAX && !mirror {
        entries.len()
    } else {
        first.max(entries.len() - trailing)
    };
    for (k, v) in &entries[..cut] {
        key_line(out, &bare(k), v);
    }
    for (k, v) in &entries[cut..] {
        let sub = format!("{path}.{}", bare(k));
        let mirror = mirror && MIRROR_TABLES.contains(&k.as_str());
        match v {
            Value::Object(m) => {
                let mut text = String::new();
                body(&mut text, &sub, m, mirror);
                // A header with no keys of its own is implied by its sections.
                if m.is_empty() || !text.starts_with('\n') {
                    let _ = writeln!(out, "\n[{sub}]");
                }
                out.push_str(&text);
            }
            Value::Array(list) => {
                for item in list {
                    let Value::Object(m) = item else { continue };
                    let _ = writeln!(out, "\n[[{sub}]]");
                    body(out, &sub, m, mirror);
                }
            }
            _ => {}
        }
    }
}

/// `key = value` on one line when it fits. Otherwise a table becomes dotted keys (inside an
/// inline table: a multi-line inline table), a list is written one item a line, and a string
/// is cut into a multi-line string.
fn key_line(out: &mut String, key: &str, v: &Value) {
    entry(out, 0, Some(key), v, false);
}

/// One line, or the lines, of a value at `indent`: `key = value` (`key` is `None` for an item
/// of a list). `inside`: within a list or an inline table, where each value ends in a comma
/// and where a table can only be an inline table, written over several lines when it does not
/// fit on one (TOML 1.1; TOML 1.0 has no way to write it shorter).
fn entry(out: &mut String, indent: usize, key: Option<&str>, v: &Value, inside: bool) {
    let pad = " ".repeat(indent);
    let lead = key.map_or_else(|| pad.clone(), |k| format!("{pad}{k} = "));
    let end = if inside { "," } else { "" };
    if let (Value::String(s), Some(_), false) = (v, key, inside)
        && indent == 0
        && s.contains('\n')
    {
        let _ = writeln!(out, "{}", lines(&lead, s));
        return;
    }
    let mut line = lead.clone();
    if inline_within(&mut line, v, WIDTH - end.len()) {
        let _ = writeln!(out, "{line}{end}");
        return;
    }
    match v {
        Value::Object(m) if !is_datetime(m) && m.values().any(|v| !v.is_null()) => {
            let entries = m.iter().filter(|(_, sv)| !sv.is_null());
            match key {
                // Dotted keys stay TOML 1.0: while the key is short, or when each of them
                // then fits on its line.
                Some(key)
                    if !inside
                        && (key.chars().count() <= DOTTED_MAX
                            || m.iter()
                                .all(|(k, sv)| fits(&format!("{key}.{}", bare(k)), sv))) =>
                {
                    for (k, sv) in entries {
                        entry(out, indent, Some(&format!("{key}.{}", bare(k))), sv, false);
                    }
                }
                _ => {
                    let _ = writeln!(out, "{lead}{{");
                    for (k, sv) in entries {
                        entry(out, indent + 2, Some(&bare(k)), sv, true);
                    }
                    let _ = writeln!(out, "{pad}}}{end}");
                }
            }
        }
        Value::Array(a) if a.iter().any(|i| !i.is_null()) => {
            let _ = writeln!(out, "{lead}[");
            for item in a.iter().filter(|i| !i.is_null()) {
                entry(out, indent + 2, None, item, true);
            }
            let _ = writeln!(out, "{pad}]{end}");
        }
        Value::String(s) => match wrapped(&lead, indent + 2, s) {
            Some(text) => {
                out.push_str(&text);
                let _ = writeln!(out, "{end}");
            }
            None => {
                let _ = writeln!(out, "{lead}{}{end}", inline(v));
            }
        },
        _ => {
            let _ = writeln!(out, "{lead}{}{end}", inline(v));
        }
    }
}

/// Whether `key = value` fits on one line.
fn fits(key: &str, v: &Value) -> bool {
    let mut line = format!("{key} = ");
    inline_within(&mut line, v, WIDTH)
}

/// A string too long for its line as a multi-line basic string cut after spaces, its lines at
/// `indent`: each line ends in a backslash, which TOML removes with the line break and the
/// next line's leading spaces. `lead` is what comes before the string (`key = `); the text
/// ends with the closing quotes, without a line break. `None` when there is no space to cut at.
fn wrapped(lead: &str, indent: usize, s: &str) -> Option<String> {
    let mut escaped = escape(s);
    // The backslash after the opening quotes swallows the spaces that start a line, so a
    // leading space is written as an escape, and the pieces each end after a space that a
    // non-space follows.
    if escaped.starts_with(' ') {
        escaped.replace_range(..1, "\\u0020");
    }
    let mut pieces: Vec<String> = vec![String::new()];
    let mut chars = escaped.chars().peekable();
    while let Some(c) = chars.next() {
        pieces.last_mut()?.push(c);
        if c == ' ' && chars.peek().is_some_and(|n| *n != ' ') {
            pieces.push(String::new());
        }
    }
    if pieces.len() < 2 {
        return None;
    }
    let pad = " ".repeat(indent);
    let mut text = format!("{lead}\"\"\"\\\n");
    let mut line = pad.clone();
    for piece in pieces {
        // Room for the backslash, or for the closing quotes and a comma.
        if line.len() > indent && line.chars().count() + piece.chars().count() + 4 > WIDTH {
            let _ = writeln!(text, "{line}\\");
            line.clone_from(&pad);
        }
        line.push_str(&piece);
    }
    let _ = write!(text, "{line}\"\"\"");
    Some(text)
}

/// A string holding line breaks (a capability's `details`) as a multi-line basic string that
/// keeps them, its lines from the first column so the text reads as written: the line break
/// after the opening quotes is not part of the string, and a line too long is cut after a
/// space with a line-ending backslash, which TOML removes with the line break. `lead` is what
/// comes before the string (`key = `); the text ends with the closing quotes.
fn lines(lead: &str, s: &str) -> String {
    let mut text = format!("{lead}\"\"\"\n");
    for (n, line) in s.split('\n').enumerate() {
        if n > 0 {
            text.push('\n');
        }
        // Pieces end after a space that a non-space follows: the backslash also swallows the
        // white space that starts the next line, so no piece may start with it.
        let escaped = escape(line);
        let mut pieces: Vec<String> = vec![String::new()];
        let mut chars = escaped.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(piece) = pieces.last_mut() {
                piece.push(c);
            }
            if c == ' ' && chars.peek().is_some_and(|n| *n != ' ') {
                pieces.push(String::new());
            }
        }
        let mut current = String::new();
        for piece in pieces {
            // Room for the backslash, or for the closing quotes.
            if !current.is_empty() && current.chars().count() + piece.chars().count() + 3 > WIDTH {
                text.push_str(&current);
                text.push_str("\\\n");
                current.clear();
            }
            current.push_str(&piece);
        }
        text.push_str(&current);
    }
    text.push_str("\"\"\"");
    text
}

/// `null`, an empty table and an empty list are all "not set" in the mirror.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(m) => m.values().all(Value::is_null),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// A string's characters escaped for a basic string, one-line or multi-line (where `"` needs
/// no escape but gets one, so no `"""` can end the string early).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// A key, quoted when it is not a bare TOML key: always as a one-line basic string, since a
/// key may not be a multi-line string.
fn bare(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return key.to_string();
    }
    format!("\"{}\"", escape(key))
}

const DATETIME: &str = "$__toml_private_datetime";

fn is_reference(m: &Map<String, Value>) -> bool {
    m.len() == 1 && m.get("$ref").is_some_and(Value::is_string)
}

fn is_datetime(m: &Map<String, Value>) -> bool {
    m.len() == 1 && m.contains_key(DATETIME)
}

/// One value in TOML's inline syntax; `null`s are left out (TOML has none).
fn inline(v: &Value) -> String {
    let mut out = String::new();
    inline_within(&mut out, v, usize::MAX);
    out
}

/// Appends `v` in TOML's inline syntax to `out`; `false` (with `out` cut short) as soon as
/// `out` is longer than `limit` characters, so a large schema is not written out whole only to
/// learn that it does not fit.
fn inline_within(out: &mut String, v: &Value, limit: usize) -> bool {
    match v {
        Value::Null => {}
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_i64() {
            Some(i) => {
                let _ = write!(out, "{i}");
            }
            None => out.push_str(&toml::Value::Float(n.as_f64().unwrap_or_default()).to_string()),
        },
        Value::String(s) => {
            out.push('"');
            out.push_str(&escape(s));
            out.push('"');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, item) in a.iter().filter(|v| !v.is_null()).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if !inline_within(out, item, limit) {
                    return false;
                }
            }
            out.push(']');
        }
        // A TOML date serialised through serde: write it back as a date.
        Value::Object(m) if is_datetime(m) => {
            out.push_str(m[DATETIME].as_str().unwrap_or_default());
        }
        Value::Object(m) => {
            let mut items = m.iter().filter(|(_, v)| !v.is_null()).peekable();
            if items.peek().is_none() {
                out.push_str("{}");
            } else {
                out.push_str("{ ");
                for (i, (k, v)) in items.enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&bare(k));
                    out.push_str(" = ");
                    if !inline_within(out, v, limit) {
                        return false;
                    }
                }
                out.push_str(" }");
            }
        }
    }
    limit == usize::MAX || out.chars().count() <= limit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::parse_service_toml;

    #[test]
    fn any_key_is_written_as_a_key_toml_reads_back() {
        for key in [
            "plain",
            "a b",
            "line\nbreak",
            "\"quoted\"",
            "back\\slash",
            "tab\there",
            "del\u{7f}",
            "nul\u{0}",
            "c1\u{85}",
            "crlf\r\n",
            "ünï",
            "",
            "'single'",
            "\"\"\"",
        ] {
            let text = format!("{} = 1\n", bare(key));
            let table: toml::Table = text
                .parse()
                .unwrap_or_else(|e| panic!("{key:?}: {e}\n{text}"));
            assert_eq!(table.keys().collect::<Vec<_>>(), [key], "{text}");
        }
    }

    /// `text` rendered, after checking that the rendering parses back to the same mirror.
    fn renders_back(text: &str) -> String {
        let doc = parse_service_toml(text).unwrap();
        let rendered = render(&doc, &Notes::default());
        let again = parse_service_toml(&rendered).unwrap_or_else(|e| panic!("{e:?}\n{rendered}"));
        assert_eq!(
            serde_json::to_value(&doc).unwrap(),
            serde_json::to_value(&again).unwrap(),
            "{rendered}"
        );
        rendered
    }

    #[test]
    fn a_reference_to_a_named_schema_stays_on_its_line() {
        let text = r##"
[service]
name = "Pets"
description = "Pet store"
base_url = "https://api.example.com/v1"

[[capabilities]]
id = "list_pets"
description = "List pets"
output_schema = { "$ref" = "#/schemas/Pets" }

[schemas]
Pets = { "$ref" = "#/schemas/Pet" }
Pet = { type = "object", properties = { name = { type = "string" } } }
"##;
        let rendered = renders_back(text);
        assert!(
            rendered.contains("output_schema = { \"$ref\" = \"#/schemas/Pets\" }\n"),
            "{rendered}"
        );
        assert!(
            !rendered.contains("[capabilities.output_schema]"),
            "{rendered}"
        );
        assert!(
            rendered.contains("Pets = { \"$ref\" = \"#/schemas/Pet\" }\n"),
            "{rendered}"
        );
    }

    #[test]
    fn rendering_parses_back_to_the_same_mirror() {
        let text = r#"
[service]
name = "Pets"
description = "Pet store"
base_url = "https://api.example.com/v1"
contact = { name = "Ops", email = "ops@example.com" }

[auth]
type = "oauth2"
authorization_url = "https://example.com/auth"
token_url = "https://example.com/token"
scopes = { "read:pets" = "read your pets" }

[[capabilities]]
id = "list_pets"
description = "List \"all\" pets"
path = "/pets/{id}"
scopes = ["read:pets"]
output_schema = { type = "object", properties = { "a b" = { type = "number", minimum = 1.5 } } }
errors = [{ name = "not_found", status = 404 }]
[capabilities.params]
"ids[]" = { type = "array", items = "integer", in = "query", default = [1, 2] }
id = "string, required -- the id"
[capabilities.semantic]
verb = "FIND"
"#;
        let rendered = renders_back(text);
        assert!(rendered.contains("[service.contact]"), "{rendered}");
        assert!(rendered.contains("[capabilities.params]"), "{rendered}");
    }

    /// A capability whose values are all too wide for one line, in an order a section cannot
    /// keep (`anyOf` and `properties` before `type`, as in Stripe's alphabetical schemas).
    fn wide_capability() -> String {
        let long = "word ".repeat(40);
        let prop = |n: usize| {
            format!(
                "p{n} = {{ description = \"{long}\", enum = [\"a\", \"b\"], maxLength = 5000, type = \"string\" }}"
            )
        };
        let props: Vec<String> = (0..4).map(prop).collect();
        format!(
            r#"
[service]
name = "Wide"
description = "{long}  two  spaces, a \"quote\", a back\\slash, a\ttab and ünïcode "
base_url = "https://api.example.com"

[[capabilities]]
id = "get_wide"
description = "Get it"
path = "/wide"
tags = ["{tags}"]
output_schema = {{ anyOf = [{{ properties = {{ {props} }}, type = "object" }}, {{ type = "null" }}], description = "{long}", properties = {{ {props} }}, required = ["p0", "p1", "p2", "p3", "p0", "p1", "p2", "p3", "p0", "p1", "p2"], type = "object" }}
[capabilities.params]
short = {{ type = "string", in = "query" }}
long = {{ type = "string", in = "query", description = "{long}" }}
after = {{ type = "string", in = "query" }}
"#,
            tags = vec!["tag"; 30].join("\", \""),
            props = props.join(", ")
        )
    }

    #[test]
    fn wide_values_keep_their_order_and_lines_stay_short() {
        let text = wide_capability();
        let doc = parse_service_toml(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let rendered = render(&doc, &Notes::default());
        let again = parse_service_toml(&rendered).unwrap_or_else(|e| panic!("{e:?}\n{rendered}"));
        // Equal as JSON values with their key order: serialised text compares the order too.
        assert_eq!(
            serde_json::to_string(&doc).unwrap(),
            serde_json::to_string(&again).unwrap(),
            "{rendered}"
        );
        for line in rendered.lines() {
            assert!(line.chars().count() <= WIDTH, "{line}\n{rendered}");
        }
        // Parameters after a wide one keep their place as sections; strings are cut.
        assert!(
            rendered.contains("short = { type = \"string\", in = \"query\" }"),
            "{rendered}"
        );
        assert!(
            rendered.contains("\n[capabilities.params.long]\n"),
            "{rendered}"
        );
        assert!(
            rendered.contains("\n[capabilities.params.after]\n"),
            "{rendered}"
        );
        assert!(
            rendered.contains("description = \"\"\"\\\n  word word"),
            "{rendered}"
        );
        assert!(rendered.contains("tags = [\n  \"tag\",\n"), "{rendered}");
        // `anyOf` comes before `type`, so its tables are inline tables over several lines,
        // and the file says it needs TOML 1.1.
        assert!(rendered.contains("anyOf = [\n  {\n"), "{rendered}");
        assert!(rendered.contains("TOML 1.1"), "{rendered}");
    }

    #[test]
    fn a_file_that_needs_no_toml_1_1_does_not_say_so() {
        let text = "[service]\nname = \"N\"\n\n[[capabilities]]\nid = \"a\"\noutput_schema = { type = \"object\", properties = { a = { type = \"string\", description = \"a long enough description to need its own section in the file\" } } }\n";
        let doc = parse_service_toml(text).unwrap();
        let rendered = render(&doc, &Notes::default());
        assert!(!rendered.contains("TOML 1.1"), "{rendered}");
        assert!(
            rendered.contains("\n[capabilities.output_schema.properties.a]\n"),
            "{rendered}"
        );
    }

    #[test]
    fn any_string_cut_over_lines_reads_back_the_same() {
        for s in [
            "a b",
            "  leading and trailing  ",
            "one  two   three",
            "tab\there \" quote \\ back\\ slash \\",
            "ends with a backslash \\",
            "\"\"\" triple quotes \"\"\" inside",
            "line\nbreak and \r\n crlf and \u{7f} del",
            "ünï cödé ✓ words",
        ] {
            let long = format!("{s} {}", "word ".repeat(30)) + s;
            let text = wrapped("k = ", 2, &long).expect("it has spaces") + "\n";
            let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(table["k"].as_str(), Some(long.as_str()), "{text}");
        }
        assert_eq!(wrapped("k = ", 2, &"x".repeat(200)), None);
    }
    #[test]
    fn a_string_with_line_breaks_keeps_them_and_reads_back_the_same() {
        let long = format!(
            "{}\n\n- item\n- {}",
            "long words ".repeat(40),
            "x".repeat(150)
        );
        for s in [
            "First paragraph.\n\nSecond paragraph.",
            "\nstarts with a line break\n",
            "ends with a backslash \\\nand \"\"\" quotes \"",
            "  indented\n\n\n\ntabs\there\r\n",
            long.as_str(),
        ] {
            let text = lines("k = ", s) + "\n";
            let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(table["k"].as_str(), Some(s), "{text}");
            assert!(text.starts_with("k = \"\"\"\n"), "{text}");
        }
        let text = lines("k = ", &format!("{}\n\nb", "word ".repeat(50)));
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
    }
}
