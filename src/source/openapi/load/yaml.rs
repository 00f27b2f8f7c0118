//! YAML into a `serde_json::Value`, built while the parser streams its events.
//!
//! serde_norway (libyaml underneath) first stores a document's every event, each with its
//! position (about 100 bytes an event), and then replays an alias's events once per use: a
//! 3 MB file of a million aliases takes 1.7 GB and 7 s there before a counter on the values
//! built could refuse it, and 24 MB of nested flow sequences without an alias 4.4 GB. Here the
//! events of the same parser ([`libyaml`]: documents read, and fail, as they do there) become
//! values as they come, and nothing else is kept. An anchored
//! collection is found again where it was put in the tree being built rather than copied when
//! it is defined; an alias is a copy whose every byte is counted before it is made, against a
//! budget that is a multiple of the text ([`super::alias_limit`]).
//!
//! Scalars are typed as serde_norway typed them ([`scalar`]); local tags (`!foo`) are refused,
//! core tags (`!!int`) convert or fail, and keys that YAML reads as numbers or booleans become
//! their JSON text.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::Scratch;
use libyaml::{Event, Mark, Parser};

mod libyaml;
mod scalar;

/// Why a text was not read: the message says where, `at` is the byte offset.
#[derive(Debug)]
pub struct Refusal {
    pub kind: Refused,
    pub message: String,
    pub at: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Not YAML, or YAML with no JSON meaning (a local tag, a collection as a key, a
    /// duplicate key, a second document).
    Invalid,
    /// Collections nested deeper than the limit, aliases' included.
    TooDeep,
    /// Aliases would copy more than the budget allows.
    AliasBudget,
}

/// What a document may cost.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// How many collections may be open at once.
    pub depth: usize,
    /// Bytes of values that anchors and aliases may copy, in all (as [`copy`] counts them).
    pub alias_bytes: usize,
}

/// Reads the one document of `text`; an empty text is `null`.
pub fn read(text: &str, limits: Limits) -> Result<Value, Refusal> {
    let mut parser = Parser::new(text);
    let mut tree = Tree::new(limits);
    let mut documents = 0;
    loop {
        let (event, start) = parser.next_event().map_err(|e| Refusal {
            kind: Refused::Invalid,
            message: e.message,
            at: e.at,
        })?;
        match event {
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    let message =
                        "a second YAML document starts here; wellgen reads one document a file";
                    return Err(invalid(start, message));
                }
            }
            Event::StreamEnd => break,
            Event::Other => {}
            Event::Scalar {
                anchor,
                tag,
                value,
                plain,
            } => {
                let value = scalar::value(value, plain, tag.as_deref())
                    .map_err(|message| tree.invalid_at(start, &path(&tree.stack), &message))?;
                if let Some(name) = anchor {
                    let copy = tree.copy(&value, start)?;
                    tree.anchors.insert(name, Anchor::Scalar(copy));
                }
                tree.add(value)?;
            }
            Event::SequenceStart { anchor, tag } => {
                tree.open(Kind::Sequence, anchor, tag.as_deref(), start)?;
            }
            Event::MappingStart { anchor, tag } => {
                tree.open(Kind::Mapping, anchor, tag.as_deref(), start)?;
            }
            Event::SequenceEnd | Event::MappingEnd => tree.close()?,
            Event::Alias(anchor) => {
                let copy = tree.alias(&anchor, start)?;
                tree.add(copy)?;
            }
        }
    }
    Ok(tree.root.unwrap_or(Value::Null))
}

/// A sequence this long is kept, not copied, when it closes.
const LONG: usize = 1024;

/// What an anchor names.
enum Anchor {
    /// A collection still being read: an alias to it would be inside it.
    Open,
    /// A scalar, kept (a scalar costs about the bytes of its text).
    Scalar(Value),
    /// A collection, where it was put (in a collection that may have been closed and moved
    /// since, see [`Tree::moved`]).
    At(Place),
    /// The whole document.
    Root,
}

/// Where a value went: element `index` of the collection `frame` was reading, under `key`
/// when that is a mapping (a closed mapping is looked into by key: serde_json's map has no
/// index).
struct Place {
    frame: usize,
    index: usize,
    key: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sequence,
    Mapping,
}

/// A collection being read.
struct Frame {
    /// Unique in the document, in the order collections open.
    id: usize,
    start: Mark,
    anchor: Option<String>,
    /// Whether an anchored collection is (or was moved) inside it.
    holds_anchor: bool,
    kind: Kind,
    /// A sequence's elements.
    elements: Vec<Value>,
    /// A mapping's entries, and the key waiting for its value.
    entries: Vec<(String, Value)>,
    key: Option<String>,
}

impl Frame {
    /// Element (or entry value) `index`.
    fn child(&self, index: usize) -> &Value {
        match self.kind {
            Kind::Sequence => &self.elements[index],
            Kind::Mapping => &self.entries[index].1,
        }
    }

    /// Where the next value added goes.
    fn next_place(&self) -> Place {
        match self.kind {
            Kind::Sequence => Place {
                frame: self.id,
                index: self.elements.len(),
                key: None,
            },
            Kind::Mapping => Place {
                frame: self.id,
                index: self.entries.len(),
                key: self.key.clone(),
            },
        }
    }
}

struct Tree {
    limits: Limits,
    /// The open collections, outermost first.
    stack: Vec<Frame>,
    next_id: usize,
    root: Option<Value>,
    /// By name; a name defined again names the new node from there on.
    anchors: HashMap<String, Anchor>,
    /// For a closed collection that holds an anchored one: where it went. An anchor's route
    /// is followed out through these to a collection still open.
    moved: HashMap<usize, Place>,
    /// Bytes anchors and aliases may still copy.
    alias_left: usize,
    /// Lists reused from collection to collection, so that each is allocated at its final
    /// size (as the JSON reader does).
    scratch: Scratch,
}

impl Tree {
    fn new(limits: Limits) -> Self {
        Self {
            limits,
            stack: Vec::new(),
            next_id: 0,
            root: None,
            anchors: HashMap::new(),
            moved: HashMap::new(),
            alias_left: limits.alias_bytes,
            scratch: Scratch::default(),
        }
    }

    fn open(
        &mut self,
        kind: Kind,
        anchor: Option<String>,
        tag: Option<&str>,
        start: Mark,
    ) -> Result<(), Refusal> {
        if let Some(tag) = tag
            && let Err(message) = scalar::collection_tag(tag)
        {
            return Err(self.invalid_at(start, &path(&self.stack), &message));
        }
        if self.stack.len() >= self.limits.depth {
            return Err(self.too_deep(start));
        }
        if let Some(name) = &anchor {
            self.anchors.insert(name.clone(), Anchor::Open);
        }
        let (elements, entries) = match kind {
            Kind::Sequence => (self.scratch.lists.pop().unwrap_or_default(), Vec::new()),
            Kind::Mapping => (Vec::new(), self.scratch.maps.pop().unwrap_or_default()),
        };
        self.stack.push(Frame {
            id: self.next_id,
            start,
            anchor,
            holds_anchor: false,
            kind,
            elements,
            entries,
            key: None,
        });
        self.next_id += 1;
        Ok(())
    }

    fn close(&mut self) -> Result<(), Refusal> {
        let mut frame = self.stack.pop().expect("the parser closes what it opened");
        let value = match frame.kind {
            // A long list is kept rather than copied (the copy would hold it twice at once),
            // at its length; a short one is copied and its room reused.
            Kind::Sequence if frame.elements.len() >= LONG => {
                frame.elements.shrink_to_fit();
                Value::Array(frame.elements)
            }
            Kind::Sequence => {
                let mut list = Vec::with_capacity(frame.elements.len());
                list.append(&mut frame.elements);
                self.scratch.lists.push(frame.elements);
                Value::Array(list)
            }
            Kind::Mapping => {
                let mut map = Map::with_capacity(frame.entries.len());
                let mut duplicate = None;
                for (key, value) in frame.entries.drain(..) {
                    if duplicate.is_none() && map.contains_key(&key) {
                        duplicate = Some(key);
                    } else {
                        map.insert(key, value);
                    }
                }
                self.scratch.maps.push(frame.entries);
                if let Some(key) = duplicate {
                    let message = format!("duplicate key `{key}`");
                    return Err(self.invalid_at(frame.start, &path(&self.stack), &message));
                }
                Value::Object(map)
            }
        };
        let Some(parent) = self.stack.last_mut() else {
            if let Some(name) = frame.anchor {
                self.anchors.insert(name, Anchor::Root);
            }
            return self.add(value);
        };
        // A collection read as a mapping's key is refused when added: it names nothing.
        let is_value = parent.kind == Kind::Sequence || parent.key.is_some();
        if is_value && (frame.anchor.is_some() || frame.holds_anchor) {
            parent.holds_anchor = true;
            let place = parent.next_place();
            if frame.holds_anchor {
                let key = place.key.clone();
                self.moved.insert(frame.id, Place { key, ..place });
            }
            if let Some(name) = frame.anchor {
                self.anchors.insert(name, Anchor::At(place));
            }
        }
        self.add(value)
    }

    /// Puts a finished value where it belongs: the open collection's next element, key or
    /// entry value, or the document.
    fn add(&mut self, value: Value) -> Result<(), Refusal> {
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(value);
            return Ok(());
        };
        match frame.kind {
            Kind::Sequence => frame.elements.push(value),
            Kind::Mapping => match frame.key.take() {
                Some(key) => frame.entries.push((key, value)),
                None => match scalar::key(value) {
                    Some(key) => frame.key = Some(key),
                    None => {
                        let start = frame.start;
                        let at = path(&self.stack[..self.stack.len() - 1]);
                        let message = "a mapping key must be a string, number or boolean";
                        return Err(self.invalid_at(start, &at, message));
                    }
                },
            },
        }
        Ok(())
    }

    /// A copy of what anchor `name` names, for an alias at `start`.
    fn alias(&mut self, name: &str, start: Mark) -> Result<Value, Refusal> {
        let target = match self.anchors.get(name) {
            Some(Anchor::Scalar(value)) => value,
            Some(Anchor::At(place)) => {
                // Out from the anchored collection to the first collection still open, then
                // back in.
                let mut route = vec![place];
                while let Some(next) = self.moved.get(&route[route.len() - 1].frame) {
                    route.push(next);
                }
                let outer = route.pop().expect("a route has a first step");
                let open = self
                    .stack
                    .iter()
                    .find(|f| f.id == outer.frame)
                    .expect("an anchored collection is inside an open one");
                let mut value = open.child(outer.index);
                while let Some(step) = route.pop() {
                    value = match (value, &step.key) {
                        (Value::Array(list), _) => &list[step.index],
                        (Value::Object(map), Some(key)) => &map[key.as_str()],
                        _ => unreachable!("a route goes through collections"),
                    };
                }
                value
            }
            Some(Anchor::Open | Anchor::Root) => {
                let message = "an alias inside the collection its anchor names (a recursive alias)";
                return Err(invalid(start, message));
            }
            None => return Err(invalid(start, "unknown anchor")),
        };
        let depth_left = self.limits.depth - self.stack.len();
        copy(target, &mut self.alias_left, depth_left).map_err(|over| match over {
            Over::Budget => self.over_budget(start),
            Over::Depth => self.too_deep(start),
        })
    }

    /// A copy of a scalar for its anchor, counted as an alias's copy is.
    fn copy(&mut self, value: &Value, start: Mark) -> Result<Value, Refusal> {
        copy(value, &mut self.alias_left, 0).map_err(|_| self.over_budget(start))
    }

    fn over_budget(&self, at: Mark) -> Refusal {
        let mb = self.limits.alias_bytes >> 20;
        Refusal {
            kind: Refused::AliasBudget,
            message: format!("YAML aliases expand to more than {mb} MB of values at {at}"),
            at: at.index,
        }
    }

    fn too_deep(&self, at: Mark) -> Refusal {
        Refusal {
            kind: Refused::TooDeep,
            message: format!(
                "YAML nested more than {} levels deep at {at}",
                self.limits.depth
            ),
            at: at.index,
        }
    }

    /// `message` about the node at `at`, whose path (serde_norway's spelling:
    /// `paths./pets.get`, `tags[2]`) is `path`.
    fn invalid_at(&self, at: Mark, path: &str, message: &str) -> Refusal {
        if path == "." {
            invalid(at, message)
        } else {
            invalid(at, &format!("{path}: {message}"))
        }
    }
}

fn invalid(at: Mark, message: &str) -> Refusal {
    Refusal {
        kind: Refused::Invalid,
        message: format!("{message} at {at}"),
        at: at.index,
    }
}

/// The path of the value the innermost of `frames` is reading: `.` for the document.
fn path(frames: &[Frame]) -> String {
    let mut out = String::new();
    let mut root = true;
    for frame in frames {
        match (frame.kind, &frame.key) {
            (Kind::Sequence, _) => {
                if root {
                    out.push('.');
                }
                out.push_str(&format!("[{}]", frame.elements.len()));
            }
            (Kind::Mapping, Some(key)) => {
                if !root {
                    out.push('.');
                }
                out.push_str(key);
            }
            // While a key is read, its path is the mapping's.
            (Kind::Mapping, None) => continue,
        }
        root = false;
    }
    if root { ".".to_owned() } else { out }
}

/// What a copy ran out of.
enum Over {
    Budget,
    Depth,
}

/// What a value costs in memory: itself, its string, and for a mapping entry its key and its
/// share of the index (serde_json's `preserve_order` map). An estimate, close enough to count
/// a budget in.
const VALUE_BYTES: usize = size_of::<Value>();
const ENTRY_BYTES: usize = size_of::<String>() + 24;

/// `value` copied, each node's bytes taken from `left` before the node is made; `depth_left`
/// collections may nest in it.
fn copy(value: &Value, left: &mut usize, depth_left: usize) -> Result<Value, Over> {
    match value {
        Value::String(s) => {
            spend(left, VALUE_BYTES + s.len())?;
            Ok(Value::String(s.clone()))
        }
        Value::Array(list) => {
            if depth_left == 0 {
                return Err(Over::Depth);
            }
            spend(left, VALUE_BYTES)?;
            let mut out = Vec::with_capacity(list.len());
            for v in list {
                out.push(copy(v, left, depth_left - 1)?);
            }
            Ok(Value::Array(out))
        }
        Value::Object(map) => {
            if depth_left == 0 {
                return Err(Over::Depth);
            }
            spend(left, VALUE_BYTES)?;
            let mut out = Map::with_capacity(map.len());
            for (k, v) in map {
                spend(left, ENTRY_BYTES + k.len())?;
                out.insert(k.clone(), copy(v, left, depth_left - 1)?);
            }
            Ok(Value::Object(out))
        }
        scalar => {
            spend(left, VALUE_BYTES)?;
            Ok(scalar.clone())
        }
    }
}

fn spend(left: &mut usize, bytes: usize) -> Result<(), Over> {
    *left = left.checked_sub(bytes).ok_or(Over::Budget)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::openapi::load::{alias_limit, parse_text};

    /// What `parse_text` gives for `text`, and the most it held at once beyond the text.
    fn metered(text: &str) -> (Result<Value, crate::diag::Diagnostic>, usize) {
        libyaml::meter::peak_of(|| parse_text(text, "metered.yaml"))
    }

    /// One anchored list of 41 numbers and `n` aliases to it, in a flow sequence.
    fn alias_bomb(n: usize) -> String {
        let values: Vec<String> = (0..41).map(|i| i.to_string()).collect();
        format!(
            "openapi: 3.0.3\na: &a [{}]\nb: [{}]\n",
            values.join(","),
            vec!["*a"; n].join(",")
        )
    }

    /// An alias bomb is refused once its copies reach the budget, at the alias that crossed
    /// it, having held little more than the budget (serde_norway held every event and 4
    /// values per byte of text before refusing: 20 times as much here).
    #[test]
    fn an_alias_bomb_is_refused_within_its_budget() {
        let text = alias_bomb(200_000);
        let (result, peak) = metered(&text);
        let err = result.unwrap_err();
        assert!(err.message.contains("an alias bomb?"), "{}", err.message);
        assert!(err.message.contains("at line 3 column"), "{}", err.message);
        let at = err.span.unwrap().start;
        assert_eq!(&text[at..at + 2], "*a");
        let limit = alias_limit(text.len());
        assert!(
            peak < limit + 4 * text.len(),
            "held {peak} bytes for {} of text",
            text.len()
        );
        // Below the budget the same shape reads whole.
        let (read, _) = metered(&alias_bomb(1_000));
        assert_eq!(read.unwrap()["b"][999][40], 40);
    }

    /// A document without aliases costs what its values cost, as the same document in JSON
    /// does: no stored events (serde_norway held about 100 bytes an event, 3 to 4 times what
    /// these values take).
    #[test]
    fn dense_flow_collections_cost_what_their_json_costs() {
        let flat = vec!["[]"; 100_000].join(",");
        let nested = vec!["[[[[1]]]]"; 10_000].join(",");
        for list in [flat, nested] {
            let (yaml, yaml_peak) = metered(&format!("openapi: 3.0.3\nx: [{list}]\n"));
            let (json, json_peak) =
                metered(&format!("{{\"openapi\": \"3.0.3\", \"x\": [{list}]}}"));
            assert_eq!(yaml.unwrap(), json.unwrap());
            assert!(
                yaml_peak < json_peak + json_peak / 4 + (256 << 10),
                "YAML held {yaml_peak} bytes, JSON {json_peak}"
            );
        }
    }

    /// What serde_norway reads (string keys, so that its `Value` can hold them) is read alike:
    /// anchors on collections found again inside closed sequences and mappings, redefined
    /// anchors, core tags, scalars of every type.
    #[test]
    fn documents_read_as_serde_norway_reads_them() {
        let texts = [
            "components:\n  schemas:\n    A: &a {type: object, properties: {x: &x {type: string}}}\n    B: {allOf: [*a]}\npaths:\n  /p: {get: {responses: {'200': {schema: *x}}}}\nagain: *a\n",
            "list: [&l [1, 2], *l, [*l, {k: *l}]]\nm: &m\n  deep:\n    - &d {z: [true, ~, 1.5]}\n    - *d\nn: [*m, *d]\n",
            "a: !!str 12\nb: !!int '0x1F'\nc: !!float 1\nd: !!bool true\ne: 012\nf: 0o17\ng: -0x10\nh: .inf\ni: 1e3\nk: ''\nl:\nm: |\n  x\n  y\n",
            "- [a, b]\n- {c: d}\n- &s [x]\n- - *s\n  - [*s]\n",
        ];
        for text in texts {
            let ours = parse_text(text, "f").unwrap();
            let theirs: Value = serde_norway::from_str(text).unwrap();
            assert_eq!(ours, theirs, "{text}");
        }
    }

    /// An anchor defined again names the new node from there on. (serde_norway numbered an
    /// anchor by how many names it had seen, so a name defined twice and then a new one shared
    /// a number, and this document failed with "recursion limit exceeded".)
    #[test]
    fn an_anchor_defined_again_names_its_new_node() {
        let text = "a: &x 1\nb: &x [2]\nc: *x\nd: &y\n  - *x\n  - &x three\ne: *x\nf: *y\n";
        let doc = parse_text(text, "f").unwrap();
        let expected = serde_json::json!({
            "a": 1, "b": [2], "c": [2], "d": [[2], "three"], "e": "three", "f": [[2], "three"]
        });
        assert_eq!(doc, expected);
    }

    /// An alias may not nest a document deeper than the limit, nor sit inside what it names.
    #[test]
    fn aliases_keep_the_nesting_limit_and_cannot_recurse() {
        // The document's mapping, `b`'s lists and `a`'s 100 lists: 128 fit, 129 do not.
        let deep = |around: usize| {
            let a = format!("{}1{}", "[".repeat(100), "]".repeat(100));
            let b = format!("{}*a{}", "[".repeat(around), "]".repeat(around));
            format!("a: &a {a}\nb: {b}\n")
        };
        assert!(parse_text(&deep(27), "f").is_ok());
        let err = parse_text(&deep(28), "f").unwrap_err();
        assert!(
            err.message.contains("nested more than 128"),
            "{}",
            err.message
        );
        let err = parse_text("a: &x [1, {b: *x}]\n", "f").unwrap_err();
        assert!(err.message.contains("recursive alias"), "{}", err.message);
    }

    /// Refusals point into the text and say where in the document: the path as serde_norway
    /// spelled it.
    #[test]
    fn refusals_name_the_place() {
        let cases = [
            (
                "x:\n  y:\n    a: 1\n    a: 2\n",
                "x.y: duplicate key `a` at line 3 column 5",
                3,
            ),
            (
                "x:\n  - a: 1\n  - b: 1\n    b: 2\n",
                "x[1]: duplicate key `b` at line 3 column 5",
                3,
            ),
            ("v: !foo bar\n", "v: the local tag `!foo`", 1),
            (
                "v: !!int abc\n",
                "v: invalid value: string \"abc\", expected an integer",
                1,
            ),
            (
                "? [a]\n: b\n",
                "a mapping key must be a string, number or boolean",
                1,
            ),
            ("a: 1\n---\nb: 2\n", "a second YAML document", 2),
            ("a: *nowhere\n", "unknown anchor at line 1 column 4", 1),
            ("a: [1, 2\n", "did not find expected ',' or ']'", 2),
        ];
        for (text, expected, line) in cases {
            let err = parse_text(text, "f").unwrap_err();
            assert!(err.message.contains(expected), "{text}: {}", err.message);
            let at = err.span.unwrap().start;
            assert_eq!(
                text[..at].matches('\n').count() + 1,
                line,
                "{text}: {}",
                err.message
            );
        }
    }
}
