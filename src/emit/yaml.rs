//! YAML text for a JSON value, byte for byte what `serde_norway::to_string` (0.9.42, over
//! unsafe-libyaml-norway 0.2.15) writes for the same `serde_json::Value`.
//!
//! Why a port and not the library (STYLE: a hand port needs a measured reason): the AGIS YAML
//! document was the largest single cost of a big build. serde_norway turns every node into a
//! libyaml event, queues it, copies every scalar into the event, analyses it and writes it
//! through libyaml's buffered emitter. Measured with callgrind on a release build, writing
//! GitHub's AGIS document (api.github.com 23.0.2, 2.9 MB of YAML) takes 536 M instructions with
//! serde_norway and 111 M with this writer (about 90 ms against 26 ms of wall time); the whole
//! `wellgen build` of that description drops from 4.94 G to 4.46 G instructions, with every
//! output file identical. serde_norway stays the dependency that *reads* YAML.
//!
//! Only what a `Value` can produce is ported: no tags, anchors, directives or flow styles beyond
//! the `[]` and `{}` libyaml writes for empty collections, one implicit document, width
//! unlimited (`-1`), Unicode on, two-space indentation. The function names below follow
//! libyaml's (`yaml_emitter_analyze_scalar`, `yaml_emitter_select_scalar_style`,
//! `yaml_emitter_write_*`) so a reader can hold them side by side. The tests compare against
//! serde_norway on hand-picked edge cases, every fixture's AGIS document and generated values.

use std::fmt::Write as _;

use serde_json::{Map, Number, Value};

/// The YAML text of `value`, identical to `serde_norway::to_string(value)`.
pub fn to_string(value: &Value) -> String {
    let mut emitter = Emitter {
        out: String::new(),
        line_start: 0,
        indent: -1,
        whitespace: true,
        indention: true,
    };
    emitter.node(value, false);
    // The implicit document end.
    emitter.write_indent();
    emitter.out
}

/// The scalar style serde_norway asks libyaml for; libyaml may still pick a safer one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// libyaml's emitter state, reduced to what a `Value` reaches. The column is not counted as text
/// is written but derived from `line_start` when an indentation decision needs it.
struct Emitter {
    out: String,
    /// Byte offset in `out` where the current line starts.
    line_start: usize,
    indent: isize,
    /// The last thing written was whitespace (or nothing), so an indicator needs no space.
    whitespace: bool,
    /// Only indentation has been written on the current line.
    indention: bool,
}

impl Emitter {
    /// `mapping` is libyaml's `mapping_context`: the node is a mapping's key or value.
    fn node(&mut self, value: &Value, mapping: bool) {
        match value {
            Value::Null => self.plain_scalar("null"),
            Value::Bool(b) => self.plain_scalar(if *b { "true" } else { "false" }),
            Value::Number(n) => self.plain_scalar(&number(n)),
            Value::String(s) => {
                let analysis = analyze_scalar(s);
                self.scalar(s, requested_style(s, &analysis), &analysis, false);
            }
            Value::Array(items) if items.is_empty() => self.empty_flow("[", "]"),
            Value::Array(items) => self.block_sequence(items, mapping),
            Value::Object(map) if map.is_empty() => self.empty_flow("{", "}"),
            Value::Object(map) => self.block_mapping(map),
        }
    }

    fn plain_scalar(&mut self, text: &str) {
        self.scalar(text, Style::Plain, &analyze_scalar(text), false);
    }

    /// libyaml writes an empty collection in flow style, whatever style was asked for.
    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    fn block_sequence(&mut self, items: &[Value], mapping: bool) {
        let saved = self.indent;
        // A sequence that is a mapping's value on the key's line is written indentless.
        let indentless = mapping && !self.indention;
        self.indent = if saved < 0 {
            0
        } else if indentless {
            saved
        } else {
            saved + 2
        };
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, false);
        }
        self.indent = saved;
    }

    fn block_mapping(&mut self, map: &Map<String, Value>) {
        let saved = self.indent;
        self.indent = if saved < 0 { 0 } else { saved + 2 };
        for (key, value) in map {
            self.write_indent();
            let analysis = analyze_scalar(key);
            // yaml_emitter_check_simple_key: one line and at most 128 bytes.
            if !analysis.multiline && key.len() <= 128 {
                self.scalar(key, requested_style(key, &analysis), &analysis, true);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.scalar(key, requested_style(key, &analysis), &analysis, false);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(value, true);
        }
        self.indent = saved;
    }

    /// yaml_emitter_emit_scalar: choose the style, then write at one level deeper.
    fn scalar(&mut self, text: &str, requested: Style, analysis: &Analysis, simple_key: bool) {
        let style = select_scalar_style(text, requested, analysis, simple_key);
        let saved = self.indent;
        self.indent = if saved < 0 { 2 } else { saved + 2 };
        match style {
            Style::Plain => self.write_plain_scalar(text),
            Style::SingleQuoted => self.write_single_quoted_scalar(text),
            Style::DoubleQuoted => self.write_double_quoted_scalar(text),
            Style::Literal => self.write_literal_scalar(text),
        }
        self.indent = saved;
    }

    /// libyaml's column (characters since the last break), exact up to `limit`; above it, some
    /// number above `limit`, which is all an indentation decision asks.
    fn column_up_to(&self, limit: usize) -> usize {
        let line = &self.out[self.line_start..];
        // A character takes at most four bytes.
        if line.len() > 4 * (limit + 1) {
            limit + 1
        } else {
            line.chars().count()
        }
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.line_start = self.out.len();
    }

    /// WRITE_BREAK: `\n` is written as the line break; U+2028 and U+2029 are copied as they are
    /// and still start a new line for the column count.
    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.line_start = self.out.len();
        }
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        let mut column = self.column_up_to(indent);
        if !self.indention || column > indent || (column == indent && !self.whitespace) {
            self.put_break();
            column = 0;
        }
        for _ in column..indent {
            self.out.push(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.out.push(' ');
        }
        self.out.push_str(indicator);
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    /// Plain scalars never hold a line break (the analysis forbids it), and with an unlimited
    /// width libyaml never folds one, so the text goes out as it is.
    fn write_plain_scalar(&mut self, text: &str) {
        if !self.whitespace && !text.is_empty() {
            self.out.push(' ');
        }
        self.out.push_str(text);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single_quoted_scalar(&mut self, text: &str) {
        self.write_indicator("'", true, false, false);
        let mut breaks = false;
        for c in text.chars() {
            if c == ' ' {
                self.out.push(' ');
            } else if is_break(c) {
                // `\n` never reaches here: serde_norway asks for a literal block, and a
                // literal libyaml cannot write falls back to double quotes.
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.out.push('\'');
                }
                self.out.push(c);
                self.indention = false;
                breaks = false;
            }
        }
        if breaks {
            self.write_indent();
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted_scalar(&mut self, text: &str) {
        self.write_indicator("\"", true, false, false);
        for c in text.chars() {
            if !is_printable(c) || c == '\u{FEFF}' || is_break(c) || c == '"' || c == '\\' {
                self.out.push('\\');
                match c {
                    '\0' => self.out.push('0'),
                    '\u{07}' => self.out.push('a'),
                    '\u{08}' => self.out.push('b'),
                    '\t' => self.out.push('t'),
                    '\n' => self.out.push('n'),
                    '\u{0B}' => self.out.push('v'),
                    '\u{0C}' => self.out.push('f'),
                    '\r' => self.out.push('r'),
                    '\u{1B}' => self.out.push('e'),
                    '"' => self.out.push('"'),
                    '\\' => self.out.push('\\'),
                    '\u{85}' => self.out.push('N'),
                    '\u{A0}' => self.out.push('_'),
                    '\u{2028}' => self.out.push('L'),
                    '\u{2029}' => self.out.push('P'),
                    c if (c as u32) <= 0xFF => {
                        let _ = write!(self.out, "x{:02X}", c as u32);
                    }
                    c if (c as u32) <= 0xFFFF => {
                        let _ = write!(self.out, "u{:04X}", c as u32);
                    }
                    c => {
                        let _ = write!(self.out, "U{:08X}", c as u32);
                    }
                }
            } else {
                self.out.push(c);
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal_scalar(&mut self, text: &str) {
        self.write_indicator("|", true, false, false);
        self.write_block_scalar_hints(text);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
                rest = &rest[c.len_utf8()..];
            } else {
                if breaks {
                    self.write_indent();
                }
                // A run of text up to the next break goes out at once.
                let end = rest.find(is_break).unwrap_or(rest.len());
                self.out.push_str(&rest[..end]);
                self.indention = false;
                breaks = false;
                rest = &rest[end..];
            }
        }
    }

    /// The indentation indicator when the text starts with a space or break, and the chomping
    /// indicator: `-` without a final break, `+` with more than one (or only one).
    fn write_block_scalar_hints(&mut self, text: &str) {
        if text.starts_with(|c: char| c == ' ' || is_break(c)) {
            self.write_indicator("2", false, false, false);
        }
        let mut from_end = text.chars().rev();
        let chomp = match from_end.next() {
            None => Some("-"),
            Some(last) if !is_break(last) => Some("-"),
            Some(_) => match from_end.next() {
                None => Some("+"),
                Some(c) if is_break(c) => Some("+"),
                Some(_) => None,
            },
        };
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
    }
}

/// What yaml_emitter_analyze_scalar finds, reduced to the block context (a `Value` puts no
/// scalar inside a flow collection: only empty ones are written in flow style).
struct Analysis {
    /// A `\n` in particular: serde_norway asks for a literal block only then.
    newline: bool,
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// libyaml walks the scalar character by character with a dozen flags; this walks bytes and
/// looks around only at the few characters whose neighbours matter (`:`, `#`, breaks), which
/// gives the same answers: spaces, indicators and ASCII breaks are single bytes, and the
/// multi-byte characters libyaml singles out are recognised by their leading bytes as
/// IS_PRINTABLE and IS_BREAK do.
fn analyze_scalar(text: &str) -> Analysis {
    let bytes = text.as_bytes();
    let Some(&first) = bytes.first() else {
        return Analysis {
            newline: false,
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    };
    let mut block_indicators = text.starts_with("---")
        || text.starts_with("...")
        || matches!(
            first,
            b'#' | b','
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
        )
        || (matches!(first, b'?' | b':' | b'-') && blankz_at(bytes, 1));
    let mut newline = false;
    let mut line_breaks = false;
    let mut special_characters = false;
    let mut break_space = false;
    let mut space_break = false;
    for (i, &b) in bytes.iter().enumerate() {
        let break_len = match b {
            b' '..=b'~' => {
                if i > 0
                    && ((b == b':' && blankz_at(bytes, i + 1))
                        || (b == b'#' && blankz_before(bytes, i)))
                {
                    block_indicators = true;
                }
                continue;
            }
            b'\n' => {
                newline = true;
                1
            }
            b'\r' => {
                special_characters = true;
                1
            }
            0xC2 => {
                let next = bytes[i + 1];
                special_characters |= next < 0xA0;
                if next != 0x85 {
                    continue;
                }
                2
            }
            0xE2 if bytes[i + 1] == 0x80 && matches!(bytes[i + 2], 0xA8 | 0xA9) => 3,
            0xEF => {
                let (n1, n2) = (bytes[i + 1], bytes[i + 2]);
                special_characters |= (n1 == 0xBB && n2 == 0xBF) || (n1 == 0xBF && n2 >= 0xBE);
                continue;
            }
            // The other leading and continuation bytes of printable characters.
            0x80.. => continue,
            // Tab, the other C0 controls and DEL.
            _ => {
                special_characters = true;
                continue;
            }
        };
        line_breaks = true;
        space_break |= i > 0 && bytes[i - 1] == b' ';
        break_space |= bytes.get(i + break_len) == Some(&b' ');
    }
    let leading_space = first == b' ';
    let trailing_space = bytes.last() == Some(&b' ');
    let leading_break = line_breaks && text.starts_with(is_break);
    let trailing_break = line_breaks && text.ends_with(is_break);
    Analysis {
        newline,
        multiline: line_breaks,
        block_plain_allowed: !(leading_space
            || leading_break
            || trailing_space
            || trailing_break
            || break_space
            || space_break
            || special_characters
            || line_breaks
            || block_indicators),
        single_quoted_allowed: !(break_space || space_break || special_characters),
        block_allowed: !(trailing_space || space_break || special_characters),
    }
}

/// IS_BLANKZ of the character starting at byte `i`: a blank, a break, NUL or the end.
fn blankz_at(bytes: &[u8], i: usize) -> bool {
    matches!(
        bytes.get(i..),
        None | Some(
            [] | [b' ' | b'\t' | b'\0' | b'\r' | b'\n', ..]
                | [0xC2, 0x85, ..]
                | [0xE2, 0x80, 0xA8 | 0xA9, ..]
        )
    )
}

/// IS_BLANKZ of the character that ends just before byte `i` (`i > 0`).
fn blankz_before(bytes: &[u8], i: usize) -> bool {
    let before = &bytes[..i];
    matches!(before.last(), Some(b' ' | b'\t' | b'\0' | b'\r' | b'\n'))
        || before.ends_with(&[0xC2, 0x85])
        || before.ends_with(&[0xE2, 0x80, 0xA8])
        || before.ends_with(&[0xE2, 0x80, 0xA9])
}

fn select_scalar_style(
    text: &str,
    requested: Style,
    analysis: &Analysis,
    simple_key: bool,
) -> Style {
    let mut style = requested;
    if simple_key && analysis.multiline {
        style = Style::DoubleQuoted;
    }
    if style == Style::Plain && (!analysis.block_plain_allowed || (text.is_empty() && simple_key)) {
        style = Style::SingleQuoted;
    }
    if style == Style::SingleQuoted && !analysis.single_quoted_allowed {
        style = Style::DoubleQuoted;
    }
    if style == Style::Literal && (!analysis.block_allowed || simple_key) {
        style = Style::DoubleQuoted;
    }
    style
}

/// IS_PRINTABLE, decoded: `\n`, ASCII from space to `~`, and U+00A0 up, except the BOM and the
/// two noncharacters U+FFFE and U+FFFF.
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~')
        || (c >= '\u{A0}' && !matches!(c, '\u{FEFF}' | '\u{FFFE}' | '\u{FFFF}'))
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// serde_norway's `serialize_str`: a string with `\n` asks for a literal block; one that would
/// read back as null, a boolean or a number, or is a zero-led run of digits, asks for single
/// quotes; anything else lets libyaml choose (plain when it can).
fn requested_style(s: &str, analysis: &Analysis) -> Style {
    if analysis.newline {
        Style::Literal
    } else if reads_as_non_string(s) {
        Style::SingleQuoted
    } else {
        Style::Plain
    }
}

/// serde_norway's `visit_untagged_scalar` (null, a boolean, an integer or a finite float) and
/// `digits_but_not_number`. Each starts with one of a few bytes, which most text does not.
fn reads_as_non_string(s: &str) -> bool {
    match s.as_bytes().first() {
        None => true,
        Some(b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F') => matches!(
            s,
            "~" | "null" | "Null" | "NULL" | "true" | "True" | "TRUE" | "false" | "False" | "FALSE"
        ),
        // Whatever parses as u64 (i64) parses as u128 (i128), so the wider tries decide.
        Some(b'0'..=b'9' | b'+' | b'-' | b'.') => {
            parse_unsigned_int(s)
                || parse_negative_int(s)
                || parse_f64(s)
                || digits_but_not_number(s)
        }
        Some(_) => false,
    }
}

fn parse_unsigned_int(scalar: &str) -> bool {
    let unpositive = scalar.strip_prefix('+').unwrap_or(scalar);
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = unpositive.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return false;
            }
            if u128::from_str_radix(rest, radix).is_ok() {
                return true;
            }
        }
    }
    if unpositive.starts_with(['+', '-']) || digits_but_not_number(scalar) {
        return false;
    }
    unpositive.parse::<u128>().is_ok()
}

fn parse_negative_int(scalar: &str) -> bool {
    for (prefix, radix) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = scalar.strip_prefix(prefix)
            && i128::from_str_radix(&format!("-{rest}"), radix).is_ok()
        {
            return true;
        }
    }
    if digits_but_not_number(scalar) {
        return false;
    }
    scalar.parse::<i128>().is_ok()
}

fn parse_f64(scalar: &str) -> bool {
    let unpositive = match scalar.strip_prefix('+') {
        Some(unpositive) if unpositive.starts_with(['+', '-']) => return false,
        Some(unpositive) => unpositive,
        None => scalar,
    };
    if matches!(unpositive, ".inf" | ".Inf" | ".INF")
        || matches!(
            scalar,
            "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN" | ".NAN"
        )
    {
        return true;
    }
    unpositive.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Zero-led digits (`012`, `-007`) are strings in YAML 1.2 but would read as numbers elsewhere.
fn digits_but_not_number(scalar: &str) -> bool {
    let scalar = scalar.strip_prefix(['-', '+']).unwrap_or(scalar);
    scalar.len() > 1 && scalar.starts_with('0') && scalar[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Integers as itoa writes them; floats as ryu's `format_finite` does (serde_norway uses ryu,
/// while serde_json's own `Display` has moved to another algorithm with another layout).
fn number(n: &Number) -> String {
    match n.as_f64() {
        Some(f) if n.is_f64() => ryu_layout(f),
        _ => n.to_string(),
    }
}

/// ryu's layout over the shortest round-trip digits, which std's `{:e}` also produces:
/// `12340000000.0`, `12.34`, `0.001234`, `1e30`, `1.234e33`, `1e-7`.
fn ryu_layout(f: f64) -> String {
    let sign = if f.is_sign_negative() { "-" } else { "" };
    if f == 0.0 {
        return format!("{sign}0.0");
    }
    let scientific = format!("{:e}", f.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exponent: isize = exponent.parse().unwrap_or(0);
    let length = digits.len() as isize;
    let kk = exponent + 1; // 10^(kk-1) <= |f| < 10^kk
    let k = kk - length;
    if 0 <= k && kk <= 16 {
        format!("{sign}{digits}{}.0", "0".repeat(k as usize))
    } else if 0 < kk && kk <= 16 {
        let (int, frac) = digits.split_at(kk as usize);
        format!("{sign}{int}.{frac}")
    } else if -5 < kk && kk <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat(-kk as usize))
    } else if length == 1 {
        format!("{sign}{digits}e{}", kk - 1)
    } else {
        let (head, tail) = digits.split_at(1);
        format!("{sign}{head}.{tail}e{}", kk - 1)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// serde_norway is the oracle: any byte of difference fails.
    fn same_as_serde_norway(value: &Value) {
        let expected = serde_norway::to_string(value).expect("serde_norway writes any JSON value");
        let actual = to_string(value);
        assert_eq!(actual, expected, "for {value:?}");
    }

    /// Every rule of style inference and scalar analysis, and the characters libyaml treats
    /// apart: indicators, breaks, blanks, BOM, non-printables, YAML 1.1 words, number look-alikes.
    const EDGE_STRINGS: &[&str] = &[
        "",
        " ",
        "  ",
        "a",
        "null",
        "Null",
        "NULL",
        "nULL",
        "~",
        "~a",
        "true",
        "True",
        "TRUE",
        "tRUE",
        "false",
        "False",
        "FALSE",
        "yes",
        "no",
        "on",
        "off",
        "Yes",
        "NO",
        "y",
        "n",
        "0",
        "1",
        "-1",
        "+1",
        "++1",
        "-+1",
        "+-1",
        "00",
        "012",
        "-012",
        "+012",
        "0.5",
        "-.5",
        "+.5",
        ".5",
        "5.",
        "1e3",
        "1E3",
        "1e-3",
        "1e999",
        "-1e999",
        "1_000",
        "1,000",
        "0x1F",
        "0x1f",
        "0X1F",
        "+0x1F",
        "-0x1F",
        "0x+1",
        "0x-1",
        "-0x-1",
        "0x",
        "0o17",
        "0o8",
        "-0o17",
        "0b101",
        "0b2",
        "-0b1",
        "0b",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
        "-9223372036854775809",
        "-170141183460469231731687303715884105729",
        ".inf",
        ".Inf",
        ".INF",
        "+.inf",
        "-.inf",
        "-.Inf",
        "+.INF",
        ".nan",
        ".NaN",
        ".NAN",
        "+.nan",
        "inf",
        "-inf",
        "infinity",
        "nan",
        "NaN",
        "1.0",
        "1.",
        "-",
        "+",
        ".",
        "..",
        "...",
        "....",
        "...a",
        "---",
        "----",
        "---a",
        "-- -",
        ":",
        "::",
        ": ",
        ":a",
        "a:",
        "a:b",
        "a: b",
        "a :b",
        "a:\tb",
        "?",
        "? a",
        "?a",
        "- a",
        "-a",
        "-",
        "#",
        "#a",
        "a#b",
        "a #b",
        "a\t#b",
        "a# b",
        ",",
        ",a",
        "a,b",
        "[",
        "[a]",
        "a[b]",
        "]",
        "{",
        "{a}",
        "a{b}",
        "}",
        "&",
        "&a",
        "a&b",
        "*",
        "*a",
        "!",
        "!a",
        "!!str",
        "a!",
        "|",
        "|a",
        "a|b",
        ">",
        ">a",
        "'",
        "'a",
        "a'b",
        "a''b",
        "'a'",
        "\"",
        "\"a",
        "a\"b",
        "%",
        "%a",
        "@",
        "@a",
        "`",
        "`a",
        "a`",
        "\\",
        "a\\b",
        " lead",
        "trail ",
        " both ",
        "in side",
        "in  side",
        "tab\t",
        "\ttab",
        "a\tb",
        "multi\nline",
        "multi\nline\n",
        "multi\nline\n\n",
        "\n",
        "\n\n",
        "\na",
        "a\n",
        " \nx",
        "x\n ",
        "x \ny",
        "x\n y",
        "x\n\ny",
        "\n\nx\n\n",
        "x\n\n",
        " x\ny",
        "#x\ny",
        "x\r\ny",
        "x\ry",
        "\r",
        "x\u{85}y",
        "\u{85}",
        "x\u{2028}y",
        "\u{2028}",
        "x\u{2028}",
        "\u{2028}x",
        "x\u{2029}y",
        "x \u{2028}y",
        "x\u{2028} y",
        "x\n\u{2028}y",
        "a\u{2028}\u{2029}b",
        "'\u{2028}'",
        "\u{FEFF}",
        "\u{FEFF}a",
        "a\u{FEFF}",
        "\u{FFFE}",
        "\u{FFFF}",
        "\u{FFFD}",
        "\u{A0}",
        "a\u{A0}b",
        "\u{9F}",
        "\u{80}",
        "\u{7F}",
        "\u{0}",
        "a\u{0}b",
        "\u{1}",
        "\u{7}",
        "\u{8}",
        "\u{B}",
        "\u{C}",
        "\u{1B}",
        "\u{1F}",
        "\u{D7FF}",
        "\u{E000}",
        "\u{10FFFF}",
        "\u{1F600}",
        "😀",
        "émoji 😀 ok",
        "日本語",
        "Ελληνικά",
        "ascii and 日本",
        "a\u{0}\nb",
        "x\t\ny",
        "key: value\nnext: 1",
        "- item\n- two",
        "http://example.com/a?b=c#d",
        "C:\\path",
        "{{template}}",
        "${VAR}",
        "<html>",
        "snake_case",
        "kebab-case",
        "dot.case",
        "CamelCase",
        "2024-01-01",
        "12:30",
        "1:2:3",
        "0:0",
        "v1.2.3",
        "1.2.3",
        "+",
        "=",
        "<<",
        "a=b",
        "a  #b",
    ];

    fn long_strings() -> Vec<String> {
        vec![
            "k".repeat(128),
            "k".repeat(129),
            "é".repeat(64),
            "é".repeat(65),
            format!("{}\n", "x".repeat(200)),
            "word ".repeat(100).trim_end().to_owned(),
            "long line with spaces ".repeat(40),
            "😀".repeat(33),
        ]
    }

    fn all_strings() -> Vec<String> {
        let mut all: Vec<String> = EDGE_STRINGS.iter().map(|s| (*s).to_owned()).collect();
        all.extend(long_strings());
        all
    }

    #[test]
    fn edge_strings_in_every_position() {
        for s in all_strings() {
            let s = s.as_str();
            for value in [
                json!(s),
                json!({ "k": s }),
                json!({ s: "v" }),
                json!({ s: s, "after": 1 }),
                json!([s, s]),
                json!({ "a": [s, { s: s }], "b": { "c": s } }),
                json!([[s], { s: [s] }, [{ "k": s }]]),
                json!({ s: { s: [s, []] }, "z": {} }),
                json!({ s: [s], "n": null }),
                json!([{ s: {} }, { s: [] }]),
            ] {
                same_as_serde_norway(&value);
            }
        }
    }

    #[test]
    fn numbers_and_other_scalars() {
        let values = [
            json!(0),
            json!(-0),
            json!(1),
            json!(-1),
            json!(i64::MIN),
            json!(i64::MAX),
            json!(u64::MAX),
            json!(1.0),
            json!(-1.0),
            json!(-0.0),
            json!(0.0),
            json!(0.5),
            json!(1e300),
            json!(-1e300),
            json!(1.5e300),
            json!(1e-300),
            json!(5e-324),
            json!(f64::MAX),
            json!(f64::MIN_POSITIVE),
            json!(1e15),
            json!(1e16),
            json!(1e17),
            json!(1.234e16),
            json!(123456789012345680.0),
            json!(0.0001),
            json!(0.00001),
            json!(0.000123),
            json!(0.1 + 0.2),
            json!(std::f64::consts::PI),
            json!(true),
            json!(false),
            json!(null),
        ];
        for value in values {
            same_as_serde_norway(&value);
            same_as_serde_norway(&json!({ "n": value, "s": [value, { "m": value }] }));
        }
    }

    #[test]
    fn nested_structures_and_empties() {
        for value in [
            json!([]),
            json!({}),
            json!([[]]),
            json!([{}]),
            json!({ "a": [] }),
            json!({ "a": {} }),
            json!([[[]], [[1]], [{ "a": [[2, 3]] }]]),
            json!({ "a": { "b": { "c": { "d": { "e": [1, { "f": "g" }] } } } } }),
            json!({ "a": [[1, 2], [3]], "b": [{ "c": [] }, {}] }),
            json!({ "k".repeat(129): { "x": [1, [2]] }, "y": [{ "z".repeat(200): [] }] }),
            json!({ "a\nb": { "c": 1 }, "d\ne\n": [1, 2], "f\n\n": "g\n" }),
            json!({ "a\u{2028}b": [{ "c": "d\ne" }], "x": "y\u{2028}" }),
            json!([{ "k".repeat(130): "v\nw" }, { "a\nb": "c" }]),
        ] {
            same_as_serde_norway(&value);
        }
    }

    /// Every AGIS JSON document the fixtures expect, written both ways.
    #[test]
    fn every_fixture_agis_document() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let mut seen = 0;
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("tests folder is readable") {
                let path = entry.expect("directory entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.file_name().is_some_and(|n| n == "service.agis.json") {
                    let text = std::fs::read_to_string(&path).expect("fixture is text");
                    let value: Value = serde_json::from_str(&text).expect("fixture is JSON");
                    same_as_serde_norway(&value);
                    seen += 1;
                }
            }
        }
        assert!(seen >= 20, "found only {seen} AGIS fixtures");
    }

    /// SplitMix64: small, deterministic, no dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    const ALPHABET: &[char] = &[
        'a', 'b', 'z', 'e', 'x', 'n', 'u', 'l', 't', 'r', 'E', ' ', ' ', ' ', '\n', '\n', '\t',
        '\r', ':', ':', '#', '-', '-', '?', '\'', '"', '[', ']', '{', '}', ',', '&', '*', '!', '|',
        '>', '%', '@', '`', '.', '.', '0', '0', '1', '9', '+', '~', '_', '\\', '/', '=', '\u{0}',
        '\u{7}', '\u{1B}', '\u{7F}', '\u{85}', '\u{A0}', '\u{2028}', '\u{2029}', '\u{FEFF}',
        '\u{FFFE}', 'é', '日', '😀',
    ];

    const WORDS: &[&str] = &[
        "null", "~", "true", "False", "yes", "0x1F", "1e3", ".inf", "-.5", "012", "+1", "1_000",
        "---", "...", "- ", ": ", " #", "0o7", "-0b1", "1.0", "nan",
    ];

    fn random_string(rng: &mut Rng) -> String {
        if rng.below(8) == 0 {
            return WORDS[rng.below(WORDS.len())].to_owned();
        }
        let len = match rng.below(20) {
            0 => 120 + rng.below(20),
            n => n % 9,
        };
        let mut s = String::new();
        for _ in 0..len {
            if rng.below(6) == 0 {
                s.push_str(WORDS[rng.below(WORDS.len())]);
            } else {
                s.push(ALPHABET[rng.below(ALPHABET.len())]);
            }
        }
        s
    }

    fn random_number(rng: &mut Rng) -> Value {
        match rng.below(5) {
            0 => json!(rng.next()),
            1 => json!(-((rng.next() >> 1) as i64)),
            2 => json!(rng.below(1000) as f64 / 8.0),
            _ => {
                let f = f64::from_bits(rng.next());
                if f.is_finite() {
                    json!(f)
                } else {
                    json!(rng.below(100))
                }
            }
        }
    }

    fn random_value(rng: &mut Rng, depth: usize) -> Value {
        let pick = if depth >= 5 {
            rng.below(5)
        } else {
            rng.below(8)
        };
        match pick {
            0 => Value::Null,
            1 => Value::Bool(rng.below(2) == 0),
            2 => random_number(rng),
            3 | 4 => Value::String(random_string(rng)),
            5 => (0..rng.below(4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
            _ => {
                let mut map = Map::new();
                for _ in 0..rng.below(4) {
                    map.insert(random_string(rng), random_value(rng, depth + 1));
                }
                Value::Object(map)
            }
        }
    }

    #[test]
    fn generated_values_match_serde_norway() {
        let mut rng = Rng(0x5EED_0FA6_1500);
        for _ in 0..20_000 {
            let value = random_value(&mut rng, 0);
            same_as_serde_norway(&value);
        }
    }
}
