//! Reading a large JSON document on two cores. Parsing GitHub's 13 MB description took a
//! fifth of its build on one core while the other waited. The text is cut at a member key
//! near its middle, in an object at most [`LEVELS`] objects deep (a path item, a component
//! schema): this thread reads up to the cut, another finds the cut with a byte scan and reads
//! from it, and the parts are joined in document order.
//!
//! Each member's value is read by the same reader as a whole document ([`super::Exact`]), so
//! values come out as they would. Anything this reader does not take back whole (a syntax
//! error, a cut the two sides do not agree on, nesting past serde_json's recursion limit) makes
//! it give up, and the document is read again in one piece, with serde_json's own error.

use std::cell::{Cell, RefCell};

use serde::de::{Deserialize, DeserializeSeed, Deserializer};
use serde_json::{Map, Value};

use super::{Exact, Scratch};

/// The smallest document read in two halves: below it a thread costs more than it saves.
pub const FROM: usize = 1 << 20;

/// How deep in objects a cut may be: `paths` → a path item is 2, `components` → `schemas` →
/// a schema is 3, which splits every large description seen.
const LEVELS: usize = 3;

/// serde_json fails a document whose arrays and objects nest 128 deep.
const RECURSION_LIMIT: u32 = 127;

/// Where the cut is aimed: past the middle, because the other half starts only once its scan
/// has found the cut (the scan costs about a fifth of the parse).
pub fn middle(text: &str) -> usize {
    text.len() / 5 * 3
}

/// `text` read whole, cut at the first member key at or after byte `aim`; `None` where this
/// reader gives up.
pub fn read(text: &str, aim: usize) -> Option<Value> {
    std::thread::scope(|s| {
        let second = s.spawn(|| {
            let (at, depth) = cut(text.as_bytes(), aim)?;
            let tail = walk(text, Start::Cut(at, depth), usize::MAX)?;
            Some((at, tail))
        });
        let first = walk(text, Start::Document, aim);
        let second = second.join().ok().flatten();
        match (first?, second) {
            (Walked::Done(value), _) => Some(value),
            (Walked::Stopped(at, open), Some((cut_at, Walked::Tails(tails))))
                if at == cut_at && open.len() == tails.len() =>
            {
                Some(join(open, tails))
            }
            _ => None,
        }
    })
}

/// The first member key at or after `aim` in an object at most [`LEVELS`] objects deep, each
/// inside the one before: its byte offset and how many objects enclose it. No validation:
/// the walk from the start must stop at the same place, or the cut is not taken.
fn cut(text: &[u8], aim: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    // Whether the containers down to each of the first levels are all objects.
    let mut objects = [false; LEVELS + 1];
    objects[0] = true;
    let mut key_next = false;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'"' => {
                if key_next && i >= aim && (1..=LEVELS).contains(&depth) && objects[depth] {
                    return Some((i, depth));
                }
                key_next = false;
                i += 1;
                loop {
                    match text.get(i)? {
                        b'"' => break,
                        b'\\' => i += 2,
                        _ => i += 1,
                    }
                }
            }
            c @ (b'{' | b'[') => {
                depth += 1;
                if depth <= LEVELS {
                    objects[depth] = objects[depth - 1] && c == b'{';
                }
                key_next = c == b'{';
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                key_next = false;
            }
            b',' => key_next = depth <= LEVELS && objects[depth],
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where a walk starts: at the document's start, or at a cut `depth` objects deep.
#[derive(Clone, Copy)]
enum Start {
    Document,
    Cut(usize, usize),
}

/// An object being read member by member: where it is, and the members read so far.
struct Open {
    key: Key,
    members: Vec<(String, Value)>,
}

enum Key {
    /// The document itself.
    Document,
    /// An object a walk from a cut started inside: what is read of it is a tail.
    Cut,
    /// A member's value, under this key.
    Member(String),
}

enum Walked {
    /// The whole document.
    Done(Value),
    /// Stopped at a member key at this offset, inside these objects (outermost first).
    Stopped(usize, Vec<Open>),
    /// From a cut to the end: the members read in each object the cut was inside, innermost
    /// first.
    Tails(Vec<Vec<(String, Value)>>),
}

/// Reads from `start` member by member, down to [`LEVELS`] objects deep, stopping at the
/// first member key at or after `stop`.
fn walk(text: &str, start: Start, stop: usize) -> Option<Walked> {
    let mut r = Reader { text, at: 0 };
    let mut stack: Vec<Open> = Vec::new();
    let mut tails = Vec::new();
    match start {
        Start::Document => {
            r.expect(b'{')?;
            if r.peek()? == b'}' {
                r.at += 1;
                return r.end().then(|| Walked::Done(Value::Object(Map::new())));
            }
            stack.push(Open {
                key: Key::Document,
                members: Vec::new(),
            });
        }
        Start::Cut(at, depth) => {
            if depth == 0 {
                return None;
            }
            r.at = at;
            stack.extend((0..depth).map(|_| Open {
                key: Key::Cut,
                members: Vec::new(),
            }));
        }
    }
    loop {
        // At a member key of the innermost open object.
        r.skip_whitespace();
        if r.at >= stop {
            return Some(Walked::Stopped(r.at, stack));
        }
        let key: String = r.next()?;
        r.expect(b':')?;
        let level = stack.len();
        if level < LEVELS && r.peek()? == b'{' {
            r.at += 1;
            if r.peek()? != b'}' {
                stack.push(Open {
                    key: Key::Member(key),
                    members: Vec::new(),
                });
                continue;
            }
            r.at += 1;
            stack
                .last_mut()?
                .members
                .push((key, Value::Object(Map::new())));
        } else {
            let value = r.value(u32::try_from(level).ok()?)?;
            stack.last_mut()?.members.push((key, value));
        }
        // After a member: a comma, or the end of one object or more.
        loop {
            match r.peek()? {
                b',' => {
                    r.at += 1;
                    break;
                }
                b'}' => {
                    r.at += 1;
                    let done = stack.pop()?;
                    match done.key {
                        Key::Member(key) => {
                            let object = object(done.members);
                            stack.last_mut()?.members.push((key, object));
                        }
                        Key::Document => {
                            return r.end().then(|| Walked::Done(object(done.members)));
                        }
                        Key::Cut => {
                            tails.push(done.members);
                            if stack.is_empty() {
                                return r.end().then_some(Walked::Tails(tails));
                            }
                        }
                    }
                }
                _ => return None,
            }
        }
    }
}

/// The document from the walk that stopped at the cut (its open objects, outermost first) and
/// the walk from the cut (what it read in each of them, innermost first).
fn join(open: Vec<Open>, tails: Vec<Vec<(String, Value)>>) -> Value {
    let mut inner: Option<(Key, Value)> = None;
    for (mut o, tail) in open.into_iter().rev().zip(tails) {
        if let Some((Key::Member(key), value)) = inner.take() {
            o.members.push((key, value));
        }
        o.members.extend(tail);
        inner = Some((o.key, object(o.members)));
    }
    inner.map_or(Value::Null, |(_, v)| v)
}

/// An object as the whole-document reader builds it: sized to its members, later duplicates
/// replacing earlier ones in place.
fn object(members: Vec<(String, Value)>) -> Value {
    let mut map = Map::with_capacity(members.len());
    for (k, v) in members {
        map.insert(k, v);
    }
    Value::Object(map)
}

struct Reader<'t> {
    text: &'t str,
    at: usize,
}

impl Reader<'_> {
    fn skip_whitespace(&mut self) {
        let bytes = self.text.as_bytes();
        while matches!(bytes.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_whitespace();
        self.text.as_bytes().get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// Whether only whitespace is left.
    fn end(&mut self) -> bool {
        self.skip_whitespace();
        self.at == self.text.len()
    }

    /// One value of type `T` (a key) at the reader's place.
    fn next<T: for<'de> Deserialize<'de>>(&mut self) -> Option<T> {
        let mut values =
            serde_json::Deserializer::from_str(self.text.get(self.at..)?).into_iter::<T>();
        let value = values.next()?.ok()?;
        self.at += values.byte_offset();
        Some(value)
    }

    /// One member's value, inside `depth` objects.
    fn value(&mut self, depth: u32) -> Option<Value> {
        DEPTH.set(depth);
        self.next::<Member>().map(|m| m.0)
    }
}

thread_local! {
    /// The reader's lists, kept per thread as the whole-document reader keeps them per read.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    /// How many objects enclose the member value being read.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// A member's value, read by the whole-document reader ([`Exact`]) as deep as [`DEPTH`] says.
struct Member(Value);

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        SCRATCH
            .with(|scratch| Exact::new(scratch, DEPTH.get(), RECURSION_LIMIT).deserialize(d))
            .map(Member)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(text: &str) -> Result<String, String> {
        super::super::sequential(text)
            .map(|v| v.to_string())
            .map_err(|e| e.to_string())
    }

    /// Cut anywhere, the halves read what the whole-document reader reads, or give up.
    /// Returns at how many of the `text.len() + 2` places they did not give up.
    fn agrees_everywhere(text: &str) -> usize {
        let mut taken = 0;
        for aim in 0..=text.len() + 1 {
            if let Some(v) = read(text, aim) {
                assert_eq!(Ok(v.to_string()), whole(text), "cut at {aim}: {text}");
                taken += 1;
            }
        }
        taken
    }

    #[test]
    fn halves_read_what_the_whole_reader_reads() {
        let valid = [
            "{}",
            " { } ",
            r#"{"a": 1}"#,
            r#"{"a": {"b": {"c": {"d": [1, {"e": 2}]}, "f": {}}, "g": "h"}, "i": [], "j": null}"#,
            r#"{"p": {"/x": {"get": {"x": 1}}, "/y": {"post": {}}}, "c": {"s": {"A": {"type": "object"}, "B": {"t": "s"}}}}"#,
            r#"{"z": 1, "a": {"z": 2, "y": 3, "z": 4}, "z": {"k": "v"}}"#,
            r#"{"a": {"b": {"c": 1, "d": 2}, "e": {"f": {"g": 1}}}, "h": {"i": {"j": 1}}}"#,
            r#"{"k\"": {"a,\"b": "}{,\\", "\u00e9": {"x": -1.5e3}}}"#,
            "\n{\t\"a\"\r:\n{ \"b\" : 1 ,\n \"c\":{\"d\":true} } }\n",
        ];
        for text in valid {
            // A valid object is read wherever the cut is aimed.
            assert_eq!(agrees_everywhere(text), text.len() + 2, "{text}");
        }
        // A cut deep in a nest of objects is joined back level by level.
        let text = r#"{"a": {"b": {"c": 1, "d": 2, "e": 3}, "f": 4}, "g": 5}"#;
        let aim = text.find("\"d\"").unwrap();
        assert_eq!(cut(text.as_bytes(), aim), Some((aim, 3)));
        assert_eq!(read(text, aim).map(|v| v.to_string()), whole(text).ok());
    }

    #[test]
    fn halves_give_up_on_what_the_whole_reader_refuses() {
        let invalid = [
            r#"{"a": 1,}"#,
            r#"{"a": 1 "b": 2}"#,
            r#"{"a": {"b": 1,}, "c": 2}"#,
            r#"{"a": {"b": 1}} x"#,
            r#"{"a": {"b": 1}}}"#,
            r#"{"a": {"b": 1]}"#,
            r#"{"a": [1}, "b": 2}"#,
            r#"{"a": 1: "b"}"#,
            r#"{"a": nul, "b": 1}"#,
            r#"{"a": 1e400, "b": 1}"#,
            r#"{1: 2, "b": 1}"#,
            r#"{"a": "\x", "b": 1}"#,
            r#"{"a": {"b": 1}"#,
            "{\"a\": \"\u{1}\", \"b\": 1}",
        ];
        for text in invalid {
            assert!(whole(text).is_err(), "{text}");
            assert_eq!(agrees_everywhere(text), 0, "{text}");
        }
        // Not an object: read whole.
        assert_eq!(agrees_everywhere(r#"[{"a": 1}, {"b": 2}]"#), 0);
    }

    /// A member read on its own counts the objects around it toward serde_json's limit.
    #[test]
    fn halves_keep_the_recursion_limit() {
        for depth in [124, 125, 126, 127, 128] {
            let nest = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
            for (prefix, suffix, around) in [
                (r#"{"a": "#, r#", "b": 1}"#, 1),
                (r#"{"a": {"b": "#, r#", "c": 1}, "d": 2}"#, 2),
                (r#"{"a": {"b": {"c": "#, r#", "e": 1}, "f": 2}, "g": 3}"#, 3),
            ] {
                let text = format!("{prefix}{}{suffix}", nest(depth - around));
                let taken = agrees_everywhere(&text);
                assert_eq!(whole(&text).is_ok(), depth < 128, "{depth} {around}");
                let expected = if depth < 128 { text.len() + 2 } else { 0 };
                assert_eq!(taken, expected, "{depth} {around}");
            }
        }
    }
}
