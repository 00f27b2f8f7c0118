//! Shared schemas: a big API repeats the same sub-schema (an address, a customer, a list
//! envelope) in every operation that carries it. The components the source named come from the
//! model's named-schema store (`values::schemas`) and are published under their names
//! ([`publish_named`]); the rest (a parameter's own levels, which the importer rebuilds from
//! their facts, and inline parts) the model holds whole. The documents
//! whose specifications allow references (OpenAPI `components/schemas`, the AGIS top-level
//! `schemas`, a `$defs` inside an MCP `inputSchema`) emit each repeated schema once and point at
//! it with `{"$ref": "<prefix><name>"}`.
//!
//! The schemas are read where the model holds them and the document gets a copy, so a part
//! that becomes a reference is never copied: cloning the expanded schemas first and cutting
//! them after cost GitHub's build a sixth of its time. Equal sub-schemas (as JSON values:
//! member order aside) are found by a structural hash, confirmed by comparing values, so a hash
//! collision only costs a missed share. A schema is shared only where it pays: it occurs at
//! least twice, its JSON is at least [`Policy::min_bytes`] long, and the document's schemas
//! together reach [`Policy::min_total`]; a small service's documents hold no references but to
//! its named schemas.
//! Everything runs in document order, so the output is deterministic: a shared schema takes the
//! name a document shared anew gave it before ([`names_of`]), else its `title` or the property
//! (or the caller's hint) where it first occurs, in first-occurrence order, never a name a named
//! schema takes.

use foldhash::{HashMap, HashMapExt, HashSet};
use std::hash::{Hash, Hasher};

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::values::schemas::{Keyword, Schemas};

use crate::values::schema_names::{
    ARRAY, BOOL, NULL, NUMBER, OBJECT, STRING, SchemaNames, entry_hash, hasher,
};

/// When and how a document shares schemas.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    /// What a reference starts with: `#/components/schemas/`, `#/schemas/`, `#/$defs/`.
    pub prefix: &'static str,
    /// The smallest schema (in bytes of compact JSON, roughly) worth a reference. A reference
    /// costs about 40 bytes and a level of indirection for the reader.
    pub min_bytes: usize,
    /// The schemas of the document together (same measure) from which sharing starts: below
    /// it the document is small enough to read inline, and stays as it always was.
    pub min_total: usize,
    /// Whether a schema is shared only where its references and its one definition take fewer
    /// bytes than its copies (for a document over its size budget), not from `min_bytes` up.
    pub only_where_smaller: bool,
}

/// What a reference and a definition's key cost, roughly, in bytes of compact JSON: the
/// component names come from property names and endpoint paths.
const REFERENCE_BYTES: u64 = 48;
const DEFINITION_BYTES: u64 = 32;

impl Policy {
    /// Whether a schema of `size` bytes that occurs `count` times (at least twice) is shared.
    fn pays(&self, size: u32, count: u32) -> bool {
        if size < u32::try_from(self.min_bytes).unwrap_or(u32::MAX) {
            return false;
        }
        let (size, count) = (u64::from(size), u64::from(count));
        !self.only_where_smaller || (count - 1) * size > count * REFERENCE_BYTES + DEFINITION_BYTES
    }
}

/// `text` as an OpenAPI component key (`^[a-zA-Z0-9._-]+$`: every other character `_`), or
/// `fallback` when nothing of it is left.
pub fn component_key(text: &str, fallback: &str) -> String {
    let key: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if key.trim_matches('_').is_empty() {
        fallback.to_string()
    } else {
        key
    }
}

/// The names a document's components take: each one made a component key
/// ([`component_key`]) and unique with `_2`, `_3`, ….
#[derive(Default)]
pub struct Names {
    taken: HashSet<String>,
    /// The last suffix tried per key.
    suffix: HashMap<String, usize>,
}

impl Names {
    /// Names none of which takes one of `taken` (the model's named schemas, published beside).
    pub fn taking(taken: &[String]) -> Self {
        Self {
            taken: taken.iter().cloned().collect(),
            suffix: HashMap::new(),
        }
    }

    /// `text` as a component key not yet taken (`fallback` when nothing of it is left).
    pub fn unique(&mut self, text: &str, fallback: &str) -> String {
        let base = component_key(text, fallback);
        let mut name = base.clone();
        while !self.taken.insert(name.clone()) {
            let n = self.suffix.entry(base.clone()).or_insert(1);
            *n += 1;
            name = format!("{base}_{n}");
        }
        name
    }
}

/// One schema of the document that may hold shared parts, borrowed from the model: the
/// document gets a copy, so a part that becomes a reference is never copied at all.
pub struct Root<'a> {
    pub schema: &'a Value,
    /// Whether the whole root may become a reference (AGIS `input` must keep its `required`
    /// array in place, and an MCP `inputSchema` must stay an object schema).
    pub replaceable: bool,
    /// The component name to use when the root itself is shared first.
    pub hint: String,
}

/// The document's copy of each root (in `roots`' order), its repeated sub-schemas replaced by
/// references, and the shared schemas, named, in first-occurrence order (none when nothing
/// pays, and then the copies are plain copies).
/// `taken`: names the shared schemas must not take (the model's named schemas the document
/// publishes beside them, [`publish_named`]).
pub fn share(
    roots: &[Root<'_>],
    policy: Policy,
    source: &[&SchemaNames],
    taken: &[String],
) -> (Vec<Value>, Vec<(String, Value)>) {
    let plain = || roots.iter().map(|r| r.schema.clone()).collect();
    let mut nodes = Vec::new();
    let mut total = 0;
    // A schema the model holds once for several capabilities (an imported response) has the
    // same positions at each of them: scanned once, its positions copied after.
    let mut scanned: HashMap<*const Value, (std::ops::Range<usize>, usize)> = HashMap::new();
    for r in roots {
        let key = std::ptr::from_ref(r.schema);
        let size = match scanned.get(&key) {
            Some((range, size)) => {
                nodes.extend_from_within(range.clone());
                *size
            }
            None => {
                let start = nodes.len();
                let size = scan(r.schema, true, &mut nodes).1;
                scanned.insert(key, (start..nodes.len(), size));
                size
            }
        };
        total += size;
    }
    if total < policy.min_total {
        return (plain(), Vec::new());
    }
    let min_bytes = u32::try_from(policy.min_bytes).unwrap_or(u32::MAX);
    let mut count: HashMap<u64, u32> = HashMap::new();
    for n in &nodes {
        if n.size >= min_bytes {
            *count.entry(n.hash).or_default() += 1;
        }
    }
    if !count.values().any(|c| *c >= 2) {
        return (plain(), Vec::new());
    }
    // Each node's size is needed no more: it becomes how many positions before it could become
    // references (see `Sharer::before`).
    let mut candidates = 0;
    for n in &mut nodes {
        let c = count
            .get(&n.hash)
            .is_some_and(|c| *c >= 2 && policy.pays(n.size, *c));
        n.size = candidates;
        candidates += u32::from(c);
    }
    let mut s = Sharer {
        nodes,
        candidates,
        policy,
        cursor: 0,
        slots: HashMap::new(),
        shared: Vec::new(),
        names: Names::taking(taken),
        taken,
        source,
    };
    let copies = roots
        .iter()
        .map(|r| s.node(r.schema, r.replaceable, &r.hint))
        .collect();
    s.finish(copies)
}

/// The component key each of the model's named schemas (`values::schemas`) takes in a
/// document: its name made a key ([`component_key`]) and unique, in the store's order; the
/// name a schema of another file has in it ([`own_name`]) where no other schema's key is that.
/// A target's lowering makes them once; the document's own shared schemas never take them.
#[derive(Debug, Default)]
pub struct NamedKeys {
    by_name: IndexMap<String, String>,
    /// The keys, in the same order.
    taken: Vec<String>,
}

impl NamedKeys {
    pub fn of(store: &Schemas) -> Self {
        let mut count: HashMap<String, usize> = HashMap::new();
        for (name, _) in store.iter() {
            *count
                .entry(component_key(own_name(name), "schema"))
                .or_default() += 1;
        }
        let mut names = Names::default();
        let by_name: IndexMap<String, String> = store
            .iter()
            .map(|(name, _)| {
                let own = own_name(name);
                let text = match count.get(&component_key(own, "schema")) {
                    Some(1) => own,
                    _ => name,
                };
                (name.to_string(), names.unique(text, "schema"))
            })
            .collect();
        let taken = by_name.values().cloned().collect();
        Self { by_name, taken }
    }

    /// Every key, for [`share`] not to take.
    pub fn taken(&self) -> &[String] {
        &self.taken
    }
}

/// The name a schema has in its own file: `Error` for the import's `common.yaml#Error`, `pet`
/// for the whole file `definitions/pet.yaml`; any other name as it is.
fn own_name(name: &str) -> &str {
    if let Some((_, own)) = name.rsplit_once('#')
        && !own.is_empty()
    {
        return own;
    }
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let lower = file.to_ascii_lowercase();
    match [".yaml", ".yml", ".json"]
        .iter()
        .find(|e| lower.ends_with(*e))
    {
        Some(ext) if file.len() > ext.len() => &file[..file.len() - ext.len()],
        _ => name,
    }
}

/// The model's named schemas that `parts` (a document's schemas, shared ones among them)
/// reach, each under its key from `keys`, in the order first met; every reference to one, in
/// `parts` and in them, is spelled `prefix` and that key.
pub fn publish_named<'v>(
    store: &Schemas,
    keys: &NamedKeys,
    prefix: &str,
    parts: impl IntoIterator<Item = &'v mut Value>,
) -> Vec<(String, Value)> {
    let mut parts: Vec<&mut Value> = parts.into_iter().collect();
    if store.is_empty() {
        return Vec::new();
    }
    // The store's own names: borrowed from it, not from what is being changed.
    let held = |names: Vec<&str>| -> Vec<&str> {
        let names = names.into_iter().rev();
        names
            .filter_map(|n| store.get_key_value(n).map(|(k, _)| k))
            .collect()
    };
    let mut published: IndexMap<&str, Value> = IndexMap::new();
    for part in &parts {
        let mut found = Vec::new();
        references(part, &mut found);
        let mut todo = held(found);
        while let Some(name) = todo.pop() {
            if published.contains_key(name) {
                continue;
            }
            let Some(schema) = store.get(name) else {
                continue;
            };
            let mut inner = Vec::new();
            references(schema, &mut inner);
            todo.extend(held(inner));
            published.insert(name, (**schema).clone());
        }
    }
    if published.is_empty() {
        return Vec::new();
    }
    // Only the store's names: AGIS spells its own shared schemas with the same prefix.
    let key = |name: &str| keys.by_name.get(name).map(String::as_str);
    for part in &mut parts {
        respell(part, prefix, &key);
    }
    published
        .into_iter()
        .map(|(name, mut schema)| {
            respell(&mut schema, prefix, &key);
            (key(name).unwrap_or(name).to_string(), schema)
        })
        .collect()
}

/// The names of the references to named schemas in `v`, in document order.
fn references<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(m) => {
            if let Some(name) = Schemas::name_of(v) {
                out.push(name);
            }
            m.values().for_each(|sub| references(sub, out));
        }
        Value::Array(a) => a.iter().for_each(|sub| references(sub, out)),
        _ => {}
    }
}

/// Each reference to a named schema in `v` that `name_in` names spelled `prefix` and that name.
fn respell<'k>(v: &mut Value, prefix: &str, name_in: &impl Fn(&str) -> Option<&'k str>) {
    match v {
        Value::Object(m) => {
            for (k, sub) in m.iter_mut() {
                match sub {
                    Value::String(r) if k == "$ref" => {
                        if let Some(name) = r.strip_prefix(crate::values::schemas::PREFIX)
                            && let Some(key) = name_in(name)
                        {
                            *r = format!("{prefix}{key}");
                        }
                    }
                    _ => respell(sub, prefix, name_in),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|sub| respell(sub, prefix, name_in)),
        _ => {}
    }
}

/// The names of a document's shared schemas (`shared`, name → schema), by the hash of each
/// with its references put back (`target`): a document shared anew keeps the names of the
/// schemas it finds again.
pub fn names_of<'a>(
    shared: &'a Map<String, Value>,
    target: &dyn Fn(&str) -> Option<&'a Value>,
) -> SchemaNames {
    let mut names = SchemaNames::default();
    for (name, schema) in shared {
        names.add(
            crate::values::schema_names::hash(&inlined(schema, target)),
            name,
        );
    }
    names
}

/// `v` with each reference (an object holding only `$ref`) that `target` resolves replaced by
/// what it resolves to, itself inlined: a shared document's schemas put back in place before
/// they are shared anew.
pub fn inlined<'a>(v: &Value, target: &dyn Fn(&str) -> Option<&'a Value>) -> Value {
    match v {
        Value::Object(m) => {
            let entry = m
                .get("$ref")
                .filter(|_| m.len() == 1)
                .and_then(Value::as_str)
                .and_then(target);
            match entry {
                Some(entry) => inlined(entry, target),
                None => Value::Object(
                    m.iter()
                        .map(|(k, v)| (k.clone(), inlined(v, target)))
                        .collect(),
                ),
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| inlined(v, target)).collect()),
        v => v.clone(),
    }
}

/// A schema position seen by `scan`, in pre-order. 16 bytes: a large API's schemas hold
/// millions of positions.
#[derive(Clone, Copy)]
struct Node {
    hash: u64,
    /// Its size (saturated), then, for `Sharer`, how many positions before it could become
    /// references.
    size: u32,
    /// How many schema positions its subtree holds, itself included.
    span: u32,
}

/// Hashes `v` (any JSON) and records every object in a schema position. Returns the hash and
/// an estimate of the compact JSON's length.
fn scan(v: &Value, is_schema: bool, nodes: &mut Vec<Node>) -> (u64, usize) {
    let at = nodes.len();
    let schema = is_schema && v.is_object();
    if schema {
        nodes.push(Node {
            hash: 0,
            size: 0,
            span: 0,
        });
    }
    let mut h = hasher();
    let size = match v {
        Value::Null => {
            NULL.hash(&mut h);
            4
        }
        Value::Bool(b) => {
            (BOOL, b).hash(&mut h);
            5
        }
        Value::Number(n) => {
            let s = n.to_string();
            (NUMBER, &s).hash(&mut h);
            s.len()
        }
        Value::String(s) => {
            (STRING, s).hash(&mut h);
            s.len() + 2
        }
        Value::Array(items) => {
            ARRAY.hash(&mut h);
            let mut size = 2;
            for item in items {
                let (ih, is) = scan(item, false, nodes);
                ih.hash(&mut h);
                size += is + 1;
            }
            size
        }
        Value::Object(map) => {
            OBJECT.hash(&mut h);
            let mut size = 2;
            let mut members = 0u64;
            for (k, child) in map {
                let (ch, cs) = if is_schema {
                    scan_keyword(k, child, nodes)
                } else {
                    scan(child, false, nodes)
                };
                members = members.wrapping_add(entry_hash(k, ch));
                size += k.len() + 4 + cs;
            }
            (map.len(), members).hash(&mut h);
            size
        }
    };
    let hash = h.finish();
    if schema {
        nodes[at] = Node {
            hash,
            size: u32::try_from(size).unwrap_or(u32::MAX),
            // Positions in memory: far below 2^32.
            span: u32::try_from(nodes.len() - at).unwrap_or(u32::MAX),
        };
    }
    (hash, size)
}

/// The value of keyword `k` of a schema: which of its parts are schemas themselves.
fn scan_keyword(k: &str, v: &Value, nodes: &mut Vec<Node>) -> (u64, usize) {
    match (Keyword::of(k), v) {
        (Keyword::Schema, _) => scan(v, true, nodes),
        (Keyword::SchemaList, Value::Array(items)) => {
            let mut h = hasher();
            ARRAY.hash(&mut h);
            let mut size = 2;
            for item in items {
                let (ih, is) = scan(item, true, nodes);
                ih.hash(&mut h);
                size += is + 1;
            }
            (h.finish(), size)
        }
        (Keyword::SchemaMap, Value::Object(map)) => {
            let mut h = hasher();
            OBJECT.hash(&mut h);
            let mut size = 2;
            let mut members = 0u64;
            for (name, s) in map {
                let (sh, ss) = scan(s, true, nodes);
                members = members.wrapping_add(entry_hash(name, sh));
                size += name.len() + 4 + ss;
            }
            (map.len(), members).hash(&mut h);
            (h.finish(), size)
        }
        _ => scan(v, false, nodes),
    }
}

struct Sharer<'a> {
    /// Each `size` is how many positions before it occur twice or more and are big enough.
    nodes: Vec<Node>,
    /// How many positions in all do.
    candidates: u32,
    policy: Policy,
    /// The next schema position of `nodes`, walked in the same order as `scan`.
    cursor: usize,
    /// Hash → index into `shared`.
    slots: HashMap<u64, usize>,
    shared: Vec<Shared<'a>>,
    names: Names,
    taken: &'a [String],
    /// The names the source gave its schemas (the model's, a target's own for its parameters).
    source: &'a [&'a SchemaNames],
}

struct Shared<'a> {
    name: String,
    /// What the name was made from, before a number made it unique.
    base: String,
    /// The schema as first met, to confirm that a later one with the same hash is equal.
    original: &'a Value,
    /// The schema as published (its own shared parts already references).
    body: Value,
    uses: u32,
}

impl<'a> Sharer<'a> {
    /// The copy of a schema position: a reference when sharing it pays, else its parts
    /// looked at.
    fn node(&mut self, v: &'a Value, replaceable: bool, hint: &str) -> Value {
        if !v.is_object() {
            // Positions that are not objects (`true`) are not nodes: `scan` skipped them too.
            return v.clone();
        }
        let at = self.cursor;
        let Node { hash, span, .. } = self.nodes[at];
        let span = span as usize;
        let pays = replaceable && self.before(at + 1) > self.before(at);
        if pays {
            match self.slots.get(&hash) {
                Some(&slot) if same(self.shared[slot].original, v) => {
                    self.shared[slot].uses += 1;
                    self.cursor = at + span;
                    return self.reference(slot);
                }
                Some(_) => {} // a hash collision: keep this one inline
                None => {
                    let slot = self.shared.len();
                    let (name, base) = self.name(v, hint, hash);
                    self.slots.insert(hash, slot);
                    self.shared.push(Shared {
                        name,
                        base,
                        original: v,
                        body: Value::Null,
                        uses: 1,
                    });
                    self.shared[slot].body = self.below(v, hint, at, span);
                    return self.reference(slot);
                }
            }
        }
        self.below(v, hint, at, span)
    }

    /// How many positions before node `i` could become references.
    fn before(&self, i: usize) -> u32 {
        self.nodes.get(i).map_or(self.candidates, |n| n.size)
    }

    /// The copy of the schema object `v` at node `at`, its own position decided.
    fn below(&mut self, v: &'a Value, hint: &str, at: usize, span: usize) -> Value {
        if self.before(at + span) == self.before(at + 1) {
            // Nothing below can become a reference: copied whole, which copies each map's
            // table instead of hashing every key again.
            self.cursor = at + span;
            return v.clone();
        }
        self.cursor = at + 1;
        let copy = self.parts(v, hint);
        debug_assert_eq!(self.cursor, at + span);
        copy
    }

    /// The copy of the schema object `v`, its subschemas copied by `node` in `scan`'s order.
    fn parts(&mut self, v: &'a Value, hint: &str) -> Value {
        let Value::Object(map) = v else {
            return v.clone();
        };
        let mut out = Map::with_capacity(map.len());
        for (k, child) in map {
            let copy = match (Keyword::of(k), child) {
                (Keyword::Schema, c) => {
                    let h = if k == "items" { hint } else { k.as_str() };
                    self.node(c, true, h)
                }
                (Keyword::SchemaList, Value::Array(items)) => Value::Array(
                    items
                        .iter()
                        .map(|item| self.node(item, true, hint))
                        .collect(),
                ),
                (Keyword::SchemaMap, Value::Object(m)) => Value::Object(
                    m.iter()
                        .map(|(name, s)| (name.clone(), self.node(s, true, name)))
                        .collect(),
                ),
                // Plain data (`enum`, `default`, `example`) and odd shapes: `scan` found no
                // schema positions inside them.
                (_, c) => c.clone(),
            };
            out.insert(k.clone(), copy);
        }
        Value::Object(out)
    }

    fn reference(&self, slot: usize) -> Value {
        let mut m = Map::new();
        m.insert(
            "$ref".into(),
            format!("{}{}", self.policy.prefix, self.shared[slot].name).into(),
        );
        Value::Object(m)
    }

    /// The name the source gave the schema, else its own `title`, else the property it sits
    /// under; made a valid OpenAPI component key (`^[a-zA-Z0-9._-]+$`) and unique with `_2`,
    /// `_3`, …; and what it was made from.
    fn name(&mut self, v: &Value, hint: &str, hash: u64) -> (String, String) {
        let base = (self.source.iter().find_map(|names| names.get(hash)))
            .or_else(|| v.get("title").and_then(Value::as_str))
            .unwrap_or(hint);
        (self.names.unique(base, "schema"), base.to_string())
    }

    /// Puts back inline every schema referenced only once (it sat only inside another shared
    /// schema), and numbers the rest's names again; returns the copies and the rest.
    fn finish(self, mut copies: Vec<Value>) -> (Vec<Value>, Vec<(String, Value)>) {
        let prefix = self.policy.prefix;
        let mut once: HashMap<String, Value> = HashMap::new();
        let mut kept = Vec::new();
        for s in self.shared {
            if s.uses == 1 {
                once.insert(format!("{prefix}{}", s.name), s.body);
            } else {
                kept.push((s.name, s.base, s.body));
            }
        }
        if !once.is_empty() {
            for c in &mut copies {
                inline(c, &mut once);
            }
            for (.., body) in &mut kept {
                inline(body, &mut once);
            }
        }
        // A name numbered past one put back inline (`Address_2`, no `Address` left) takes the
        // first number free again, in first-occurrence order.
        let mut names = Names::taking(self.taken);
        let mut renamed: HashMap<String, String> = HashMap::new();
        for (name, base, _) in &mut kept {
            let name_now = names.unique(base, "schema");
            if name_now != *name {
                let old = std::mem::replace(name, name_now);
                renamed.insert(format!("{prefix}{old}"), format!("{prefix}{name}"));
            }
        }
        if !renamed.is_empty() {
            for v in copies
                .iter_mut()
                .chain(kept.iter_mut().map(|(.., body)| body))
            {
                rename_refs(v, &renamed);
            }
        }
        let kept = kept
            .into_iter()
            .map(|(name, _, body)| (name, body))
            .collect();
        (copies, kept)
    }
}

/// `a == b` (objects equal whatever their member order), faster where both list their
/// members in the same order, as the importer writes one schema everywhere: members are then
/// compared pairwise instead of looking each key up in the other map (a SipHash each).
fn same(a: &Value, b: &Value) -> bool {
    if std::ptr::eq(a, b) {
        // One schema held once by the model, met at two of its capabilities.
        return true;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() {
                return false;
            }
            for ((kx, vx), (ky, vy)) in x.iter().zip(y) {
                if kx != ky {
                    // Another order: equal only as maps.
                    return x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)));
                }
                if !same(vx, vy) {
                    return false;
                }
            }
            true
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w))
        }
        _ => a == b,
    }
}

/// Calls `f` on each reference in `v` (an object holding only a `$ref` string), which `f` may
/// replace; what replaces it is not walked.
fn each_reference(v: &mut Value, f: &mut impl FnMut(&mut Value)) {
    match v {
        Value::Object(map) if map.len() == 1 && map.get("$ref").is_some_and(Value::is_string) => {
            f(v);
        }
        Value::Object(map) => map.values_mut().for_each(|child| each_reference(child, f)),
        Value::Array(items) => items.iter_mut().for_each(|item| each_reference(item, f)),
        _ => {}
    }
}

/// Points each `{"$ref": r}` with `r` in `renamed` at its new name.
fn rename_refs(v: &mut Value, renamed: &HashMap<String, String>) {
    each_reference(v, &mut |reference| {
        if let Some(Value::String(r)) = reference.get_mut("$ref")
            && let Some(to) = renamed.get(r.as_str())
        {
            r.clone_from(to);
        }
    });
}

/// Replaces each `{"$ref": r}` with `r` in `once` by its schema (itself inlined).
fn inline(v: &mut Value, once: &mut HashMap<String, Value>) {
    each_reference(v, &mut |reference| {
        let r = reference
            .get("$ref")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if let Some(mut body) = once.remove(r) {
            inline(&mut body, once);
            *reference = body;
        }
    });
}

/// Removes `description` from every schema below `schema` (not its own), walking the keywords
/// that hold subschemas; returns how many it removed. What a document over its source's
/// budget leaves out first (`emit::budget::source_budget`): the text nearest the top (a parameter's,
/// a response's) stays, and every type and constraint stays, so a schema accepts exactly what
/// it accepted before.
pub fn drop_nested_descriptions(schema: &mut Value) -> usize {
    drop_descriptions(schema, false)
}

/// What a document still over its source's budget leaves out next: every `description` of
/// `schema` and below, its own included (a parameter's); types and constraints stay.
pub fn drop_all_descriptions(schema: &mut Value) -> usize {
    drop_descriptions(schema, true)
}

/// How deep a document over its source's budget cuts the descriptions of its schemas, in the
/// order it tries: below each schema's top, then all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    Nested,
    All,
}

impl Cut {
    pub const ORDER: [Cut; 2] = [Cut::Nested, Cut::All];

    /// The cut applied to one schema; how many descriptions it removed.
    pub fn apply(self, schema: &mut Value) -> usize {
        match self {
            Cut::Nested => drop_nested_descriptions(schema),
            Cut::All => drop_all_descriptions(schema),
        }
    }
}

/// [`keep_levels`] of `schema` with the named schemas it refers to inlined ([`Schemas::inline`]):
/// what a document over its budget keeps of a response, whole to that depth.
pub fn keep_levels_inlined(
    store: &Schemas,
    schema: &Value,
    levels: usize,
    cut: &mut usize,
) -> Value {
    match store.inlined(schema) {
        Some(inlined) => keep_levels(&inlined, levels, cut),
        None => keep_levels(schema, levels, cut),
    }
}

/// A copy of `schema` that keeps `levels` levels of subschemas below it: each one deeper is
/// `{}` (any value), counted in `cut`. What a document still over its source's budget with no
/// description left to leave out does with its output schemas, shallowest cut last: a
/// response keeps its type and its top fields, and stays valid, only less specific.
pub fn keep_levels(schema: &Value, levels: usize, cut: &mut usize) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let below = |s: &Value, cut: &mut usize| match levels.checked_sub(1) {
        Some(rest) => keep_levels(s, rest, cut),
        None if s.as_object().is_some_and(|m| !m.is_empty()) => {
            *cut += 1;
            Value::Object(Map::new())
        }
        None => s.clone(),
    };
    let mut out = Map::with_capacity(map.len());
    for (k, v) in map {
        let copy = match (Keyword::of(k), v) {
            (Keyword::Schema, s) => below(s, cut),
            (Keyword::SchemaList, Value::Array(items)) => {
                Value::Array(items.iter().map(|s| below(s, cut)).collect())
            }
            (Keyword::SchemaMap, Value::Object(m)) => Value::Object(
                m.iter()
                    .map(|(name, s)| (name.clone(), below(s, cut)))
                    .collect(),
            ),
            _ => v.clone(),
        };
        out.insert(k.clone(), copy);
    }
    Value::Object(out)
}

fn drop_descriptions(schema: &mut Value, own: bool) -> usize {
    let Value::Object(map) = schema else {
        return 0;
    };
    let mut n = usize::from(own && map.shift_remove("description").is_some());
    for (k, v) in map.iter_mut() {
        n += match (Keyword::of(k), v) {
            (Keyword::Schema, s) => drop_descriptions(s, true),
            (Keyword::SchemaList, Value::Array(items)) => {
                items.iter_mut().map(|s| drop_descriptions(s, true)).sum()
            }
            (Keyword::SchemaMap, Value::Object(m)) => {
                m.values_mut().map(|s| drop_descriptions(s, true)).sum()
            }
            _ => 0,
        };
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sharing with no name taken beforehand.
    fn share(
        roots: &[Root<'_>],
        policy: Policy,
        source: &[&SchemaNames],
    ) -> (Vec<Value>, Vec<(String, Value)>) {
        super::share(roots, policy, source, &[])
    }
    use serde_json::json;

    const POLICY: Policy = Policy {
        prefix: "#/$defs/",
        min_bytes: 40,
        min_total: 0,
        only_where_smaller: false,
    };

    fn address() -> Value {
        json!({"type": "object", "properties": {"line1": {"type": "string"}, "city": {"type": "string"}}})
    }

    #[test]
    fn a_schema_of_another_file_is_published_under_its_own_name_where_no_other_has_it() {
        let store = Schemas::new(
            [
                "pet",
                "definitions/pet.yaml",
                "definitions/child.yaml",
                "common.yaml#Error",
                "io.k8s.api.core.v1.Pod",
                "a.json#/x",
                "b.yaml#/x",
            ]
            .map(|n| {
                (
                    n.to_string(),
                    std::sync::Arc::new(json!({"type": "string"})),
                )
            }),
        );
        let keys = NamedKeys::of(&store);
        let key = |n: &str| keys.by_name[n].as_str();
        assert_eq!(key("pet"), "pet");
        // `pet` is taken by the entry document's own component: the file keeps its path.
        assert_eq!(key("definitions/pet.yaml"), "definitions_pet.yaml");
        assert_eq!(key("definitions/child.yaml"), "child");
        assert_eq!(key("common.yaml#Error"), "Error");
        assert_eq!(key("io.k8s.api.core.v1.Pod"), "io.k8s.api.core.v1.Pod");
        // Two files' `x`: neither takes it.
        assert_eq!(key("a.json#/x"), "a.json__x");
        assert_eq!(key("b.yaml#/x"), "b.yaml__x");
    }

    #[test]
    fn named_schemas_reached_are_published_once_each_in_first_met_order() {
        let store = Schemas::new(
            [
                ("A", json!({"properties": {"b": {"$ref": "#/schemas/B"}, "c": {"$ref": "#/schemas/C c"}}})),
                ("B", json!({"items": {"$ref": "#/schemas/A"}})),
                ("C c", json!({"type": "string"})),
                ("D", json!({"type": "string"})),
            ]
            .map(|(n, v)| (n.to_string(), std::sync::Arc::new(v))),
        );
        let keys = NamedKeys::of(&store);
        let mut paths =
            json!({"/a": {"schema": {"$ref": "#/schemas/A"}}, "/c": {"$ref": "#/schemas/C c"}});
        let published = publish_named(&store, &keys, "#/components/schemas/", [&mut paths]);
        let names: Vec<&str> = published.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["A", "B", "C_c"]);
        assert_eq!(paths["/c"], json!({"$ref": "#/components/schemas/C_c"}));
        assert_eq!(
            published[0].1["properties"]["c"],
            json!({"$ref": "#/components/schemas/C_c"})
        );
        assert_eq!(
            published[1].1["items"],
            json!({"$ref": "#/components/schemas/A"})
        );
    }

    #[test]
    fn a_repeated_schema_is_emitted_once_and_referenced() {
        let a =
            json!({"type": "object", "properties": {"billing": address(), "shipping": address()}});
        let b = json!({"type": "array", "items": address()});
        let (copies, shared) = share(
            &[
                Root {
                    schema: &a,
                    replaceable: false,
                    hint: "a".into(),
                },
                Root {
                    schema: &b,
                    replaceable: true,
                    hint: "b".into(),
                },
            ],
            POLICY,
            &[],
        );
        assert_eq!(shared, vec![("billing".to_string(), address())]);
        let r = json!({"$ref": "#/$defs/billing"});
        assert_eq!(
            copies,
            [
                json!({"type": "object", "properties": {"billing": r, "shipping": r}}),
                json!({"type": "array", "items": r}),
            ]
        );
    }

    /// A schema held once for several roots (one response schema, several operations) shares
    /// as its equal copies do.
    #[test]
    fn a_root_held_once_shares_as_its_copies_do() {
        let pet = json!({"type": "object", "properties": {"home": address(), "tags": {"type": "array", "items": address()}}});
        let copy = pet.clone();
        let other = json!({"type": "array", "items": pet.clone()});
        let roots = |second: &Value| {
            share(
                &[&pet, &other, second, &pet].map(|schema| Root {
                    schema,
                    replaceable: true,
                    hint: "r".into(),
                }),
                POLICY,
                &[],
            )
        };
        let (held_once, copies) = (roots(&pet), roots(&copy));
        assert_eq!(held_once, copies);
        assert_eq!(held_once.1.len(), 2, "{:?}", held_once.1);
    }

    /// `address` sat only inside the shared `customer` and went back inline: the other
    /// address schema, numbered past it, takes its name.
    #[test]
    fn a_name_numbered_past_one_put_back_inline_takes_its_place() {
        let customer = json!({"type": "object", "properties": {"address": address(), "name": {"type": "string"}}});
        let other = json!({"type": "object", "properties": {"line1": {"type": "string"}, "zip": {"type": "integer"}}});
        let holding = |k: &str, v: &Value| json!({"type": "object", "properties": {k: v}});
        let roots = [
            holding("customer", &customer),
            holding("customer", &customer),
            holding("address", &other),
            holding("address", &other),
        ];
        let (copies, shared) = share(
            &roots.each_ref().map(|schema| Root {
                schema,
                replaceable: false,
                hint: "r".into(),
            }),
            POLICY,
            &[],
        );
        assert_eq!(
            shared,
            vec![
                ("customer".to_string(), customer),
                ("address".to_string(), other)
            ]
        );
        assert_eq!(
            copies[3],
            holding("address", &json!({"$ref": "#/$defs/address"}))
        );
        assert_eq!(
            copies[0],
            holding("customer", &json!({"$ref": "#/$defs/customer"}))
        );
    }

    #[test]
    fn a_schema_the_source_named_keeps_its_name() {
        let a = json!({"properties": {"billing": address(), "shipping": address()}});
        let mut source = SchemaNames::default();
        source.add(crate::values::schema_names::hash(&address()), "Address");
        let root = Root {
            schema: &a,
            replaceable: false,
            hint: "a".into(),
        };
        let (copies, shared) = share(&[root], POLICY, &[&source]);
        assert_eq!(shared, vec![("Address".to_string(), address())]);
        assert_eq!(
            copies[0]["properties"]["billing"],
            json!({"$ref": "#/$defs/Address"})
        );
    }

    #[test]
    fn the_sharing_hash_is_the_structural_hash() {
        for v in [
            address(),
            json!({"allOf": [address(), {"required": ["city"]}], "enum": [1, 2.5, null, true]}),
            json!({"properties": {"allOf": {"type": "string"}}, "items": [{"x": "y"}]}),
            json!([address(), "s"]),
        ] {
            let hash = scan(&v, true, &mut Vec::new()).0;
            assert_eq!(hash, crate::values::schema_names::hash(&v), "{v}");
        }
    }

    #[test]
    fn only_where_smaller_shares_what_its_references_make_shorter() {
        let smaller = Policy {
            only_where_smaller: true,
            ..POLICY
        };
        // The address (about 90 bytes) twice: two references and a definition are longer.
        let twice = json!({"properties": {"billing": address(), "shipping": address()}});
        assert_eq!(share_one(&twice).len(), 1);
        assert!(share_with(&twice, smaller).is_empty());
        // Five times, it pays.
        let five: Map<String, Value> = (0..5).map(|i| (format!("a{i}"), address())).collect();
        let five = json!({"properties": five});
        assert_eq!(
            share_with(&five, smaller),
            vec![("a0".to_string(), address())]
        );
    }

    #[test]
    fn small_single_or_data_values_stay_inline() {
        let enum_of_address = json!({"enum": [address(), address()]});
        let a = json!({"properties": {"x": {"type": "string"}, "y": {"type": "string"}, "e": enum_of_address}});
        let (copies, shared) = share(
            &[Root {
                schema: &a,
                replaceable: true,
                hint: "a".into(),
            }],
            POLICY,
            &[],
        );
        assert!(shared.is_empty());
        assert_eq!(copies, [a]);
    }

    /// `share` of `a` alone, kept in place as a root: its shared schemas.
    fn share_one(a: &Value) -> Vec<(String, Value)> {
        share_with(a, POLICY)
    }

    fn share_with(a: &Value, policy: Policy) -> Vec<(String, Value)> {
        share(
            &[Root {
                schema: a,
                replaceable: false,
                hint: "a".into(),
            }],
            policy,
            &[],
        )
        .1
    }

    #[test]
    fn a_schema_only_inside_a_shared_one_is_put_back_inline() {
        let outer =
            json!({"type": "object", "properties": {"home": address(), "id": {"type": "string"}}});
        let a = json!({"properties": {"p": outer.clone(), "q": outer.clone()}});
        let shared = share_one(&a);
        assert_eq!(shared, vec![("p".to_string(), outer)]);
    }

    #[test]
    fn names_are_component_keys_numbered_past_every_name_taken() {
        let mut names = Names::default();
        let got: Vec<String> = ["x", "x_2", "x", "x", "a b", "a_b", "é", ""]
            .iter()
            .map(|t| names.unique(t, "part"))
            .collect();
        assert_eq!(
            got,
            ["x", "x_2", "x_3", "x_4", "a_b", "a_b_2", "part", "part_2"]
        );
    }

    #[test]
    fn names_are_titles_or_properties_made_unique() {
        let x = json!({"title": "a b", "type": "object", "properties": {"n": {"type": "integer"}}});
        let y = json!({"type": "object", "properties": {"m": {"type": "integer", "minimum": 1}}});
        let a = json!({"properties": {"p": x, "q": x, "a_b": y, "r": y}});
        let shared = share_one(&a);
        let names: Vec<&str> = shared.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a_b", "a_b_2"]);
    }

    #[test]
    fn same_is_equality_whatever_the_member_order() {
        let a = json!({"type": "object", "properties": {"x": {"type": "string"}, "y": [1, {"b": 2, "a": 1}]}});
        let reordered = json!({"properties": {"y": [1, {"a": 1, "b": 2}], "x": {"type": "string"}}, "type": "object"});
        let other = json!({"type": "object", "properties": {"x": {"type": "string"}, "y": [1, {"b": 2, "a": 3}]}});
        let partly = json!({"type": "object", "properties": {"y": [1, {"b": 2, "a": 1}], "x": {"type": "number"}}});
        for (x, y) in [
            (&a, &a),
            (&a, &reordered),
            (&a, &other),
            (&a, &partly),
            (&other, &partly),
        ] {
            assert_eq!(same(x, y), x == y, "{x} vs {y}");
            assert_eq!(same(y, x), x == y, "{y} vs {x}");
        }
        assert!(same(&a, &reordered));
        assert!(!same(&a, &other));
        assert!(!same(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
    }

    #[test]
    fn nested_descriptions_go_and_everything_else_stays() {
        let mut p = json!({"type": "object", "description": "kept", "properties": {
            "a": {"type": "string", "description": "gone", "maxLength": 3},
            "b": {"type": "array", "items": {"description": "gone", "enum": [{"description": "data"}]}},
        }});
        assert_eq!(drop_nested_descriptions(&mut p), 2);
        assert_eq!(
            p,
            json!({"type": "object", "description": "kept", "properties": {
                "a": {"type": "string", "maxLength": 3},
                "b": {"type": "array", "items": {"enum": [{"description": "data"}]}},
            }})
        );
        // The next cut takes the schema's own too; data (`enum`) is still not a description.
        assert_eq!(Cut::All.apply(&mut p), 1);
        assert_eq!(
            p,
            json!({"type": "object", "properties": {
                "a": {"type": "string", "maxLength": 3},
                "b": {"type": "array", "items": {"enum": [{"description": "data"}]}},
            }})
        );
    }

    #[test]
    fn levels_below_the_kept_ones_become_any_value_and_data_stays() {
        let order = json!({"type": "object", "required": ["id"], "properties": {
            "id": {"type": "string", "enum": [{"properties": {"x": {"type": "string"}}}]},
            "lines": {"type": "array", "items": {"type": "object", "properties": {
                "sku": {"type": "string"},
                "price": {"anyOf": [{"type": "number"}, {}]},
            }}},
            "any": {},
            "never": false,
        }});
        let mut cut = 0;
        assert_eq!(keep_levels(&order, 4, &mut cut), order);
        assert_eq!(cut, 0);
        // Two levels: `lines`' items keep their type; their fields become `{}`. An `enum`
        // is data, not a subschema; `{}` and `false` have nothing to cut.
        assert_eq!(
            keep_levels(&order, 2, &mut cut),
            json!({"type": "object", "required": ["id"], "properties": {
                "id": {"type": "string", "enum": [{"properties": {"x": {"type": "string"}}}]},
                "lines": {"type": "array", "items": {"type": "object", "properties": {
                    "sku": {}, "price": {},
                }}},
                "any": {},
                "never": false,
            }})
        );
        assert_eq!(cut, 2);
        cut = 0;
        assert_eq!(
            keep_levels(&order, 1, &mut cut),
            json!({"type": "object", "required": ["id"], "properties": {
                "id": {"type": "string", "enum": [{"properties": {"x": {"type": "string"}}}]},
                "lines": {"type": "array", "items": {}},
                "any": {},
                "never": false,
            }})
        );
        assert_eq!(cut, 1);
    }
}
