//! YAML text for a `serde_json::Value`, byte for byte what `serde_norway::to_string` writes,
//! written straight into one `String`. serde_norway drives libyaml's emitter one event at a
//! time (an event queue, a state machine, a copy of every scalar): on stripe's OpenAPI file
//! that was a fifth of the whole build, for the AGIS `.agis` document alone. Parsing YAML
//! stays with serde_norway, and nothing here calls it.
//!
//! What is reproduced, and where it comes from (serde_norway 0.9 `ser.rs` and the emitter of
//! unsafe-libyaml-norway 0.2, which serde_norway sets to Unicode output and unlimited width):
//! - Block mappings and sequences, two spaces per level; a sequence that is a mapping's value
//!   is not indented (`key:\n- a`); the first entry of a collection that is a sequence item
//!   shares the `- ` line; empty collections are `{}` and `[]`.
//! - A key longer than 128 bytes or holding a line break is a complex key (`? key\n: value`).
//! - Strings: serde_norway asks for a literal block when the string holds `\n`, for single
//!   quotes when the plain text would read back as null, a bool or a number (its own parsing
//!   rules, ported below), and for plain style otherwise; libyaml then falls back to single and
//!   then double quotes when its analysis of the text forbids the requested style.
//! - Numbers: integers in decimal, floats in ryu's layout (`1.0`, `1e-7`, `1.5e300`).
//! - No folding: with unlimited width libyaml never breaks a line inside a scalar.
//!
//! The differential tests (`tests/it/yaml.rs`, the unit tests below) compare every output with
//! serde_norway's.

use std::fmt::Write as _;

use serde_json::{Map, Number, Value};

/// The YAML document for `value`, as `serde_norway::to_string` would write it.
pub fn to_string(value: &Value) -> String {
    let mut out = String::with_capacity(4096);
    write(value, &mut out);
    out
}

/// Appends the YAML document for `value` to `out` (size `out` beforehand to avoid regrowth).
pub fn write(value: &Value, out: &mut String) {
    let mut w = Writer {
        out,
        at_line_start: true,
    };
    w.node(value, Place::Root);
    // libyaml's document end: a line break unless a block scalar already ended the line.
    if !w.at_line_start {
        w.out.push('\n');
    }
}

/// Where a node is written, which decides its indentation and what precedes it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Root,
    /// After `key:` of a simple key in a block mapping indented by `.0`.
    Value(usize),
    /// After the `?` or `:` of a complex key in a block mapping indented by `.0`.
    Complex(usize),
    /// After the `-` of a block sequence indented by `.0`.
    Item(usize),
}

impl Place {
    /// libyaml indents a scalar one level past its parent; at the root, one level past zero.
    fn scalar_indent(self) -> usize {
        match self {
            Place::Root => 2,
            Place::Value(n) | Place::Complex(n) | Place::Item(n) => n + 2,
        }
    }
}

struct Writer<'a> {
    out: &'a mut String,
    /// The last write ended a line and nothing follows it yet: only a block scalar ending in a
    /// line break leaves the output so (libyaml's `column == 0 && indention`), and then the next
    /// line starts without another break.
    at_line_start: bool,
}

const SPACES: &str = "                                                                ";

impl Writer<'_> {
    fn spaces(&mut self, mut n: usize) {
        while n > SPACES.len() {
            self.out.push_str(SPACES);
            n -= SPACES.len();
        }
        self.out.push_str(&SPACES[..n]);
    }

    /// libyaml's `write_indent` for a block entry: a new line (unless at one) indented by `n`.
    fn new_line(&mut self, n: usize) {
        if !self.at_line_start {
            self.out.push('\n');
        }
        self.spaces(n);
        self.at_line_start = false;
    }

    fn node(&mut self, value: &Value, place: Place) {
        match value {
            Value::Null => self.plain(place, "null"),
            Value::Bool(true) => self.plain(place, "true"),
            Value::Bool(false) => self.plain(place, "false"),
            Value::Number(n) => self.number(place, n),
            Value::String(s) => self.string(s, place),
            Value::Array(items) if items.is_empty() => self.plain(place, "[]"),
            Value::Object(map) if map.is_empty() => self.plain(place, "{}"),
            Value::Array(items) => self.sequence(items, place),
            Value::Object(map) => self.mapping(map, place),
        }
    }

    /// Text that needs no analysis (null, bools, numbers, empty flow collections).
    fn plain(&mut self, place: Place, text: &str) {
        if place != Place::Root {
            self.out.push(' ');
        }
        self.out.push_str(text);
        self.at_line_start = false;
    }

    fn number(&mut self, place: Place, n: &Number) {
        if place != Place::Root {
            self.out.push(' ');
        }
        if let Some(u) = n.as_u64() {
            write_u64(self.out, u);
        } else if let Some(i) = n.as_i64() {
            if i < 0 {
                self.out.push('-');
            }
            write_u64(self.out, i.unsigned_abs());
        } else if let Some(f) = n.as_f64() {
            write_f64(self.out, f);
        }
        self.at_line_start = false;
    }

    fn sequence(&mut self, items: &[Value], place: Place) {
        // (indent of the `-`, whether the first `-` shares the line the parent started)
        let (indent, inline) = match place {
            Place::Root => (0, false),
            Place::Value(n) => (n, false),
            Place::Complex(n) | Place::Item(n) => (n + 2, true),
        };
        for (i, item) in items.iter().enumerate() {
            if i == 0 && inline {
                self.out.push(' ');
            } else {
                self.new_line(indent);
            }
            self.out.push('-');
            self.at_line_start = false;
            self.node(item, Place::Item(indent));
        }
    }

    fn mapping(&mut self, map: &Map<String, Value>, place: Place) {
        let (indent, inline) = match place {
            Place::Root => (0, false),
            Place::Value(n) => (n + 2, false),
            Place::Complex(n) | Place::Item(n) => (n + 2, true),
        };
        for (i, (key, value)) in map.iter().enumerate() {
            if i == 0 && inline {
                self.out.push(' ');
            } else {
                self.new_line(indent);
            }
            let style = Style::of(key);
            // libyaml's `check_simple_key`: one line, at most 128 bytes.
            if !style.multiline && key.len() <= 128 {
                self.scalar(key, style.kind, indent + 2, false);
                self.out.push(':');
                self.at_line_start = false;
                self.node(value, Place::Value(indent));
            } else {
                self.out.push('?');
                self.scalar(key, style.kind, indent + 2, true);
                self.new_line(indent);
                self.out.push(':');
                self.node(value, Place::Complex(indent));
            }
        }
    }

    fn string(&mut self, s: &str, place: Place) {
        let style = Style::of(s);
        self.scalar(s, style.kind, place.scalar_indent(), place != Place::Root);
    }

    /// One string scalar in `kind`; `indent` is where continuation lines start, `space` whether
    /// a space separates it from the indicator before it.
    fn scalar(&mut self, s: &str, kind: Kind, indent: usize, space: bool) {
        if space {
            self.out.push(' ');
        }
        self.at_line_start = false;
        match kind {
            Kind::Plain => self.out.push_str(s),
            Kind::SingleQuoted => self.single_quoted(s, indent),
            Kind::DoubleQuoted => self.double_quoted(s),
            Kind::Literal => self.literal(s, indent),
        }
    }

    fn single_quoted(&mut self, s: &str, indent: usize) {
        self.out.push('\'');
        let mut breaks = false;
        for c in s.chars() {
            if is_break(c) {
                // Only U+2028 and U+2029 get here (a `\n` asks for a literal block, `\r` and
                // U+0085 force double quotes); libyaml copies them and indents the next line.
                if !breaks && c == '\n' {
                    self.out.push('\n');
                }
                self.out.push(c);
                breaks = true;
            } else {
                if breaks {
                    self.spaces(indent);
                }
                if c == '\'' {
                    self.out.push('\'');
                }
                self.out.push(c);
                breaks = false;
            }
        }
        if breaks {
            self.spaces(indent);
        }
        self.out.push('\'');
    }

    fn double_quoted(&mut self, s: &str) {
        self.out.push('"');
        let mut run = 0;
        for (i, c) in s.char_indices() {
            let escape = match c {
                '"' | '\\' => true,
                ' '..='~' => false,
                _ => !is_printable(c) || c == '\u{FEFF}' || is_break(c),
            };
            if !escape {
                continue;
            }
            self.out.push_str(&s[run..i]);
            run = i + c.len_utf8();
            self.out.push('\\');
            match c {
                '\0' => self.out.push('0'),
                '\u{7}' => self.out.push('a'),
                '\u{8}' => self.out.push('b'),
                '\t' => self.out.push('t'),
                '\n' => self.out.push('n'),
                '\u{B}' => self.out.push('v'),
                '\u{C}' => self.out.push('f'),
                '\r' => self.out.push('r'),
                '\u{1B}' => self.out.push('e'),
                '"' => self.out.push('"'),
                '\\' => self.out.push('\\'),
                '\u{85}' => self.out.push('N'),
                '\u{A0}' => self.out.push('_'),
                '\u{2028}' => self.out.push('L'),
                '\u{2029}' => self.out.push('P'),
                _ => {
                    let v = c as u32;
                    let (letter, digits) = match v {
                        0..=0xFF => ('x', 2),
                        0x100..=0xFFFF => ('u', 4),
                        _ => ('U', 8),
                    };
                    self.out.push(letter);
                    for k in (0..digits).rev() {
                        self.out
                            .push(b"0123456789ABCDEF"[(v >> (k * 4)) as usize & 0xF] as char);
                    }
                }
            }
        }
        self.out.push_str(&s[run..]);
        self.out.push('"');
    }

    fn literal(&mut self, s: &str, indent: usize) {
        self.out.push('|');
        let mut chars = s.chars();
        let first = chars.clone().next();
        if first.is_some_and(|c| c == ' ' || is_break(c)) {
            // The indentation indicator is libyaml's best_indent, whatever the nesting.
            self.out.push('2');
        }
        let last = chars.next_back();
        let before_last = chars.next_back();
        match (last, before_last) {
            (Some(l), _) if !is_break(l) => self.out.push('-'),
            (Some(_), None) => self.out.push('+'),
            (Some(_), Some(b)) if is_break(b) => self.out.push('+'),
            _ => {}
        }
        self.out.push('\n');
        let bytes = s.as_bytes();
        let mut start = 0;
        let mut breaks = true;
        while start < bytes.len() {
            let (end, width) = next_break(bytes, start);
            if end > start {
                if breaks {
                    self.spaces(indent);
                }
                self.out.push_str(&s[start..end]);
            }
            if width == 0 {
                breaks = false;
                break;
            }
            // libyaml writes `\n` as its line break and copies any other break as it is.
            self.out.push_str(&s[end..end + width]);
            breaks = true;
            start = end + width;
        }
        self.at_line_start = breaks;
    }
}

/// The next line break in `bytes` at or after `from`: its offset and byte width, or
/// `(bytes.len(), 0)` when there is none.
fn next_break(bytes: &[u8], from: usize) -> (usize, usize) {
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' | b'\r' => return (i, 1),
            0xC2 if bytes.get(i + 1) == Some(&0x85) => return (i, 2),
            0xE2 if bytes.get(i + 1) == Some(&0x80)
                && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) =>
            {
                return (i, 3);
            }
            _ => i += 1,
        }
    }
    (bytes.len(), 0)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

#[derive(Clone, Copy)]
struct Style {
    kind: Kind,
    /// Holds a line break (libyaml's `multiline`): such a key cannot be a simple key.
    multiline: bool,
}

impl Style {
    /// serde_norway's requested style, then libyaml's `select_scalar_style` for a block context.
    fn of(s: &str) -> Style {
        let a = Analysis::of(s);
        let requested = if a.newline {
            Kind::Literal
        } else if reads_as_non_string(s) {
            Kind::SingleQuoted
        } else {
            Kind::Plain
        };
        let kind = match requested {
            Kind::Plain if a.plain_allowed => Kind::Plain,
            Kind::Plain | Kind::SingleQuoted if a.single_quoted_allowed => Kind::SingleQuoted,
            Kind::Literal if a.block_allowed => Kind::Literal,
            _ => Kind::DoubleQuoted,
        };
        Style {
            kind,
            multiline: a.line_breaks,
        }
    }
}

/// libyaml's `yaml_emitter_analyze_scalar`, for the block context (flow indicators only matter
/// inside flow collections, and this writer only writes empty ones).
struct Analysis {
    /// Holds `\n` (what serde_norway checks to ask for a literal block).
    newline: bool,
    line_breaks: bool,
    plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// How `Analysis::one_line_ascii` treats each byte.
const INERT: u8 = 0;
const SPACE: u8 = 1;
const COLON: u8 = 2;
const HASH: u8 = 3;
/// Control characters, DEL and every byte of a non-ASCII character: the full analysis.
const OTHER: u8 = 4;

const BYTE_CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    let mut b = 0x21;
    while b < 0x7F {
        class[b] = INERT;
        b += 1;
    }
    class[b' ' as usize] = SPACE;
    class[b':' as usize] = COLON;
    class[b'#' as usize] = HASH;
    class
};

impl Analysis {
    fn of(s: &str) -> Analysis {
        let b = s.as_bytes();
        if let Some(a) = Analysis::one_line_ascii(b) {
            return a;
        }
        if b.is_empty() {
            return Analysis {
                newline: false,
                line_breaks: false,
                plain_allowed: true,
                single_quoted_allowed: true,
                block_allowed: false,
            };
        }
        let mut indicators = b.starts_with(b"---") || b.starts_with(b"...");
        let mut special = false;
        let mut newline = false;
        let mut line_breaks = false;
        let mut leading_space = false;
        let mut leading_break = false;
        let mut trailing_space = false;
        let mut trailing_break = false;
        let mut break_space = false;
        let mut space_break = false;
        let mut previous_space = false;
        let mut previous_break = false;
        let mut preceded_by_whitespace = true;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            let width = utf8_width(c);
            let next = i + width;
            let followed_by_whitespace = is_blankz_at(b, next);
            if i == 0 {
                match c {
                    b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>'
                    | b'\'' | b'"' | b'%' | b'@' | b'`' => indicators = true,
                    b'?' | b':' | b'-' if followed_by_whitespace => indicators = true,
                    _ => {}
                }
            } else {
                match c {
                    b':' if followed_by_whitespace => indicators = true,
                    b'#' if preceded_by_whitespace => indicators = true,
                    _ => {}
                }
            }
            let (printable, is_break) = if c < 0x80 {
                (
                    c == b'\n' || (0x20..=0x7E).contains(&c),
                    c == b'\n' || c == b'\r',
                )
            } else {
                let ch = s[i..].chars().next().expect("a char starts here");
                (is_printable(ch), self::is_break(ch))
            };
            if !printable {
                special = true;
            }
            if c == b'\n' {
                newline = true;
            }
            if c == b' ' {
                if i == 0 {
                    leading_space = true;
                }
                if next == b.len() {
                    trailing_space = true;
                }
                if previous_break {
                    break_space = true;
                }
                previous_space = true;
                previous_break = false;
            } else if is_break {
                line_breaks = true;
                if i == 0 {
                    leading_break = true;
                }
                if next == b.len() {
                    trailing_break = true;
                }
                if previous_space {
                    space_break = true;
                }
                previous_space = false;
                previous_break = true;
            } else {
                previous_space = false;
                previous_break = false;
            }
            preceded_by_whitespace = c == b' ' || c == b'\t' || c == 0 || is_break;
            i = next;
        }
        let mut plain_allowed =
            !(leading_space || leading_break || trailing_space || trailing_break);
        let mut single_quoted_allowed = true;
        let mut block_allowed = !trailing_space;
        if break_space {
            plain_allowed = false;
            single_quoted_allowed = false;
        }
        if space_break || special {
            plain_allowed = false;
            single_quoted_allowed = false;
            block_allowed = false;
        }
        if line_breaks || indicators {
            plain_allowed = false;
        }
        Analysis {
            newline,
            line_breaks,
            plain_allowed,
            single_quoted_allowed,
            block_allowed,
        }
    }
}

impl Analysis {
    /// The common case, decided in one cheap pass: printable ASCII and spaces only. Without
    /// line breaks, tabs or special characters, all that can forbid plain style is an
    /// indicator (a leading one, `: `, ` #`, a final `:`, a leading `---` or `...`) or a
    /// leading or trailing space. `None` for anything else.
    fn one_line_ascii(b: &[u8]) -> Option<Analysis> {
        let (&first, &last) = (b.first()?, b.last()?);
        let followed_by_space = b.len() == 1 || b[1] == b' ';
        let mut indicators = match first {
            b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
            | b'"' | b'%' | b'@' | b'`' => true,
            b'?' | b':' | b'-' => followed_by_space,
            _ => false,
        } || b.starts_with(b"---")
            || b.starts_with(b"...");
        for (i, &c) in b.iter().enumerate() {
            match BYTE_CLASS[c as usize] {
                INERT | SPACE => {}
                COLON => indicators |= b.get(i + 1).is_none_or(|n| *n == b' '),
                HASH => indicators |= i > 0 && b[i - 1] == b' ',
                _ => return None,
            }
        }
        let edge_space = first == b' ' || last == b' ';
        Some(Analysis {
            newline: false,
            line_breaks: false,
            plain_allowed: !indicators && !edge_space,
            single_quoted_allowed: true,
            block_allowed: last != b' ',
        })
    }
}

fn utf8_width(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// libyaml's `IS_BLANKZ_AT`: a space, tab, line break or NUL (the end of the string reads as
/// the NUL libyaml appends to its copy).
fn is_blankz_at(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        None | Some(b' ' | b'\t' | b'\r' | b'\n' | 0) => true,
        Some(0xC2) => b.get(i + 1) == Some(&0x85),
        Some(0xE2) => b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)),
        Some(_) => false,
    }
}

/// libyaml's `IS_BREAK`.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// libyaml's `IS_PRINTABLE`: what it writes as is rather than forcing double quotes.
fn is_printable(c: char) -> bool {
    match c {
        '\n' | ' '..='~' => true,
        '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}' => {
            c != '\u{FEFF}'
        }
        _ => false,
    }
}

/// Whether serde_norway would read the plain scalar `s` as something other than a string
/// (null, a bool, an integer or a float): its `visit_untagged_scalar`, ported. Such strings
/// are asked for in single quotes.
fn reads_as_non_string(s: &str) -> bool {
    match s.as_bytes().first() {
        None => true,
        // Every integer and finite float serde_norway reads starts so.
        Some(b'0'..=b'9' | b'+' | b'-' | b'.') => {
            parses_unsigned(s, |t, r| u64::from_str_radix(t, r).is_ok())
                || parses_negative(s, |t, r| i64::from_str_radix(t, r).is_ok())
                || parses_unsigned(s, |t, r| u128::from_str_radix(t, r).is_ok())
                || parses_negative(s, |t, r| i128::from_str_radix(t, r).is_ok())
                || digits_but_not_number(s)
                || parses_f64(s)
        }
        Some(_) => matches!(
            s,
            "null" | "Null" | "NULL" | "~" | "true" | "True" | "TRUE" | "false" | "False" | "FALSE"
        ),
    }
}

/// serde_norway's `parse_unsigned_int`.
fn parses_unsigned(scalar: &str, parses: fn(&str, u32) -> bool) -> bool {
    let unpositive = scalar.strip_prefix('+').unwrap_or(scalar);
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = unpositive.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return false;
            }
            if parses(rest, radix) {
                return true;
            }
        }
    }
    if unpositive.starts_with(['+', '-']) || digits_but_not_number(scalar) {
        return false;
    }
    parses(unpositive, 10)
}

/// serde_norway's `parse_negative_int`.
fn parses_negative(scalar: &str, parses: fn(&str, u32) -> bool) -> bool {
    for (prefix, radix) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = scalar.strip_prefix(prefix)
            && parses(&format!("-{rest}"), radix)
        {
            return true;
        }
    }
    if digits_but_not_number(scalar) {
        return false;
    }
    parses(scalar, 10)
}

/// serde_norway's `parse_f64`, as a yes or no.
fn parses_f64(scalar: &str) -> bool {
    let unpositive = match scalar.strip_prefix('+') {
        Some(u) if u.starts_with(['+', '-']) => return false,
        Some(u) => u,
        None => scalar,
    };
    matches!(unpositive, ".inf" | ".Inf" | ".INF")
        || matches!(
            scalar,
            "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN" | ".NAN"
        )
        || unpositive.parse::<f64>().is_ok_and(f64::is_finite)
}

/// serde_norway's `digits_but_not_number`: a leading zero then digits is a string in YAML 1.2.
fn digits_but_not_number(scalar: &str) -> bool {
    let scalar = scalar.strip_prefix(['-', '+']).unwrap_or(scalar);
    scalar.len() > 1 && scalar.starts_with('0') && scalar[1..].bytes().all(|b| b.is_ascii_digit())
}

/// An integer in decimal, as itoa (serde_norway's) writes it.
fn write_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[start..]).expect("ASCII digits"));
}

/// A float as serde_norway writes it: ryu's `format_finite` layout of ryu's digits.
fn write_f64(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str(".nan");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { ".inf" } else { "-.inf" });
        return;
    }
    if f.is_sign_negative() {
        out.push('-');
    }
    let (digits, exponent) = ryu_digits(f.abs());
    let digits = digits.as_str();
    let length = digits.len() as i32;
    let kk = exponent + 1; // 10^(kk-1) <= f < 10^kk
    let k = kk - length;
    if k >= 0 && kk <= 16 {
        // 1234e7 -> 12340000000.0
        out.push_str(digits);
        for _ in 0..k {
            out.push('0');
        }
        out.push_str(".0");
    } else if 0 < kk && kk <= 16 {
        // 1234e-2 -> 12.34
        out.push_str(&digits[..kk as usize]);
        out.push('.');
        out.push_str(&digits[kk as usize..]);
    } else if -5 < kk && kk <= 0 {
        // 1234e-6 -> 0.001234
        out.push_str("0.");
        for _ in 0..-kk {
            out.push('0');
        }
        out.push_str(digits);
    } else {
        // 1e30, 1234e30 -> 1.234e33
        out.push_str(&digits[..1]);
        if length > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        write!(out, "e{}", kk - 1).expect("writing to a String");
    }
}

/// The digits ryu writes for a finite `f >= 0`, and the power of ten of the first one.
///
/// Rust's `{:e}` prints the fewest digits that read back as `f`, as ryu does, and the one
/// nearest `f` among them; the two differ only when `f` lies exactly halfway between two such
/// candidates, where Rust rounds up and ryu to the even one. Rust's fixed-precision `{:.*e}`
/// rounds half to even, so with as many digits it gives ryu's choice whenever that choice
/// reads back as `f`.
fn ryu_digits(f: f64) -> (StackText, i32) {
    let mut shortest = StackText::default();
    write!(shortest, "{f:e}").expect("a float fits in 32 bytes");
    let (digits, exponent) = split_sci(shortest.as_str());
    let mut even = StackText::default();
    write!(even, "{:.*e}", digits.len - 1, f).expect("a float fits in 32 bytes");
    if even.as_str() != shortest.as_str() && even.as_str().parse::<f64>() == Ok(f) {
        return split_sci(even.as_str());
    }
    (digits, exponent)
}

/// `d.ddde±x` into its digits (without trailing zeros) and `x`.
fn split_sci(sci: &str) -> (StackText, i32) {
    let (mantissa, exponent) = sci.split_once('e').expect("`{:e}` writes an exponent");
    let mut digits = StackText::default();
    for b in mantissa.bytes().filter(|b| *b != b'.') {
        digits.push(b);
    }
    while digits.len > 1 && digits.bytes[digits.len - 1] == b'0' {
        digits.len -= 1;
    }
    let exponent = exponent.parse().expect("`{:e}` writes an integer exponent");
    (digits, exponent)
}

/// A few bytes of ASCII text on the stack, for formatting a float without allocating.
#[derive(Default)]
struct StackText {
    bytes: [u8; 32],
    len: usize,
}

impl StackText {
    fn push(&mut self, b: u8) {
        self.bytes[self.len] = b;
        self.len += 1;
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).expect("ASCII")
    }
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            return Err(std::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::to_string;

    fn same(v: &Value) {
        let expected = serde_norway::to_string(v).unwrap();
        assert_eq!(to_string(v), expected, "{v:?}");
    }

    /// `s` at the root, as a mapping value, a key, a sequence item, a complex key's value, and
    /// deeper in each, where indentation differs.
    fn same_everywhere(s: &str) {
        let long_key = "k".repeat(129);
        for v in [
            json!(s),
            json!({ "k": s }),
            json!({ s: 1 }),
            json!({ s: { "k": s } }),
            json!({ s: [s] }),
            json!([s]),
            json!([[s, s], { "k": s, s: s }]),
            json!({ "a": { "b": [{ "c": s }, s] } }),
            json!({ long_key.clone(): s }),
            json!({ long_key: [s, { s: s }] }),
            json!([s, 1, s]),
        ] {
            same(&v);
        }
    }

    fn all_same(strings: &[&str]) {
        for s in strings {
            same_everywhere(s);
        }
    }

    #[test]
    fn plain_words_sentences_urls_and_paths() {
        all_same(&[
            "word",
            "A sentence, with commas: and more.",
            "https://api.example.com/v1/items?q=a&b=c#frag",
            "/v1/items/{id}",
            "snake_case-and-kebab",
            "a-b",
            "-a",
            "a:b",
            "a#b",
            "yes",
            "no",
            "on",
            "off",
            "nan",
            "inf",
            "Infinity",
            "2024-01-31",
            "12:30",
            "1_000",
            "0x",
            "0x+1",
            "0b2",
            "e5",
            "é, 日本語 and 🦀",
            "\u{a0}",
        ]);
    }

    #[test]
    fn strings_that_read_as_other_types_are_single_quoted() {
        all_same(&[
            "",
            "~",
            "null",
            "Null",
            "NULL",
            "true",
            "True",
            "TRUE",
            "false",
            "False",
            "FALSE",
            "0",
            "12",
            "-12",
            "+12",
            "007",
            "-007",
            "0x1F",
            "-0x1F",
            "+0x1F",
            "0o17",
            "-0o17",
            "0b101",
            "-0b101",
            "1e3",
            "1E3",
            "-1e-3",
            ".5",
            "5.",
            "+.5",
            "1.5e+3",
            ".inf",
            "+.inf",
            "-.inf",
            ".Inf",
            ".NaN",
            ".nan",
            "18446744073709551616",
            "340282366920938463463374607431768211456",
            "-170141183460469231731687303715884105729",
        ]);
    }

    #[test]
    fn indicators_spaces_and_quotes_force_quotes() {
        all_same(&[
            "---",
            "--- a",
            "...",
            "-",
            "- a",
            "?",
            "? a",
            "?a",
            ":",
            ": a",
            ":a",
            "a:",
            "a: b",
            "a #b",
            "#a",
            "&a",
            "*a",
            "!a",
            "|a",
            ">a",
            "'a",
            "\"a",
            "%a",
            "@a",
            "`a",
            ",a",
            "[a]",
            "{a}",
            "]",
            "}",
            " a",
            "a ",
            " ",
            "  ",
            "a  b",
            "it's",
            "'",
            "say \"hi\"",
            "back\\slash",
        ]);
    }

    #[test]
    fn control_and_special_characters_are_double_quoted() {
        all_same(&[
            "a\tb",
            "\t",
            "a\rb",
            "\r",
            "\0",
            "\u{7}",
            "\u{8}",
            "\u{b}",
            "\u{c}",
            "\u{1b}",
            "\u{7f}",
            "\u{80}",
            "\u{85}",
            "a\u{85}b",
            "\u{9f}",
            "\u{feff}",
            "\u{feff}a",
            "\u{fffe}",
            "\u{ffff}",
            "\u{2028}",
            "a \u{2028}b",
            "a\u{2028} b",
        ]);
    }

    #[test]
    fn line_and_paragraph_separators_stay_in_single_quotes() {
        all_same(&[
            "a\u{2028}b",
            "a\u{2029}",
            "\u{2029}a",
            "a\u{2028}\u{2029}b",
            "-\u{2028}a",
        ]);
    }

    #[test]
    fn multi_line_strings_are_literal_blocks() {
        all_same(&[
            "a\nb",
            "a\n",
            "a\n\n",
            "a\n\n\n",
            "\n",
            "\n\n",
            "\na",
            " a\nb",
            "a\n b",
            "a\n\nb\n",
            "a\n\u{2028}b",
            "a\u{2028}\n",
            "- a\n- b",
            "key: value\nother: 'x'",
            "true\n",
            "'quoted'\n\"too\"",
        ]);
    }

    #[test]
    fn multi_line_strings_that_a_block_cannot_hold_are_double_quoted() {
        all_same(&[
            "a \nb",
            "a\nb ",
            "a\n\tb",
            "a\r\nb",
            "a\n\u{85}",
            "a\n\u{feff}",
        ]);
    }

    #[test]
    fn long_and_multi_line_keys_are_complex_keys() {
        for n in [127, 128, 129, 200] {
            all_same(&[
                &"k".repeat(n),
                &"é".repeat(n / 2),
                &format!("{}a", "é".repeat(n / 2)),
            ]);
        }
        same(&json!({ "a\nb": { "c": [1, { "d\n": "e\n" }] } }));
    }

    #[test]
    fn collections() {
        for v in [
            json!(null),
            json!(true),
            json!({}),
            json!([]),
            json!({ "a": {}, "b": [], "c": [[]], "d": [{}], "e": [[], {}] }),
            json!([[[1, 2], [3]], [{ "a": [1, { "b": [] }] }]]),
            json!({ "a": [{ "b": 1, "c": [2, 3] }, { "d": { "e": null } }] }),
            json!([{ "a": 1, "b": 2 }, [1, 2], "x"]),
        ] {
            same(&v);
        }
    }

    #[test]
    fn numbers() {
        for v in [
            json!(0),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(-1),
            json!(0.0),
            json!(-0.0),
            json!(1.0),
            json!(1.5),
            json!(0.1),
            json!(100.0),
            json!(1e15),
            json!(1e16),
            json!(1e17),
            json!(1.2345e16),
            json!(123456789012345680.0),
            json!(0.0001),
            json!(0.00001),
            json!(1e-7),
            json!(1.5e-7),
            json!(1e300),
            json!(f64::MAX),
            json!(f64::MIN),
            json!(f64::MIN_POSITIVE),
            json!(f64::EPSILON),
            json!(5e-324),
            // Exactly halfway between two shortest candidates: ryu takes the even one.
            json!(626_907_332_283_463.0 + 0.25),
            json!(-243_167_379_521_942.0 - 0.625),
            json!(280_933_781_516_319.0 + 0.125),
            json!(0.5),
            json!(2.5),
        ] {
            same(&v);
            same(&json!({ "k": [v] }));
        }
    }
}
