//! Named schemas (`[schemas]` in service.toml): JSON Schemas kept once each under a name, that
//! output schemas and one another refer to with `{"$ref": "#/schemas/<name>"}` ([`PREFIX`]). An
//! OpenAPI import keeps the components its response schemas use here, under the source's names,
//! instead of copying them into every operation. The documents whose specifications allow
//! references (OpenAPI's `components/schemas`, AGIS's `schemas`) publish each one reached under
//! its name (`emit::schemas::publish_named`); whatever needs a schema whole (an example, a
//! summary, a format without references) asks for [`Schemas::inline`], which stops at cycles,
//! at [`INLINE_DEPTH`] levels and at [`INLINE_NODES`] schemas, as the import cuts the schemas it
//! expands, and makes each bare reference once.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use indexmap::IndexMap;
use serde_json::{Map, Value};

/// How a reference to a named schema starts, in the model.
pub const PREFIX: &str = "#/schemas/";

/// The most schema levels and schema objects one inlined schema holds, as the import keeps a
/// response schema it expands: past them the rest is `{}` (a chain of components that each name
/// the next many times would otherwise grow exponentially).
pub const INLINE_DEPTH: usize = 5;
pub const INLINE_NODES: usize = 200;
/// The most bytes of data (enums, defaults, descriptions) one inlined schema copies: a large
/// enum named by many properties would otherwise be copied as often. Past it, such members are
/// left out.
pub const INLINE_BYTES: usize = 128 << 10;
/// The deepest schema level whose `description` an inlined schema keeps, as the import keeps
/// a response schema's: descriptions are most of a large API's bulk.
pub const INLINE_DESCRIBED_DEPTH: usize = 1;

/// The JSON Schema (2020-12, plus draft 4–7's `definitions`, `additionalItems` and array
/// `items`) keywords whose values hold subschemas.
#[derive(PartialEq)]
pub enum Keyword {
    Schema,
    SchemaList,
    SchemaMap,
    Other,
}

impl Keyword {
    pub fn of(k: &str) -> Self {
        match k {
            "items"
            | "additionalProperties"
            | "not"
            | "contains"
            | "propertyNames"
            | "if"
            | "then"
            | "else"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "additionalItems"
            | "contentSchema" => Self::Schema,
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => Self::SchemaList,
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                Self::SchemaMap
            }
            _ => Self::Other,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Schemas {
    by_name: IndexMap<String, Entry>,
}

impl serde::Serialize for Schemas {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter().map(|(name, schema)| (name, &**schema)))
    }
}

#[derive(Debug, Clone)]
struct Entry {
    schema: Arc<Value>,
    /// The schema with every reference inlined, made the first time it is asked for.
    inlined: OnceLock<Arc<Value>>,
}

impl Schemas {
    /// The schemas, in the order given (the import gives them sorted by name).
    pub fn new(schemas: impl IntoIterator<Item = (String, Arc<Value>)>) -> Self {
        let by_name = schemas
            .into_iter()
            .map(|(name, schema)| {
                let entry = Entry {
                    schema,
                    inlined: OnceLock::new(),
                };
                (name, entry)
            })
            .collect();
        Self { by_name }
    }

    /// These schemas with `over`'s, which replace the ones of their names.
    pub fn merged(mut self, over: Self) -> Self {
        for (name, entry) in over.by_name {
            self.by_name.insert(name, entry);
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The name as the store holds it, and its schema.
    pub fn get_key_value(&self, name: &str) -> Option<(&str, &Arc<Value>)> {
        self.by_name
            .get_key_value(name)
            .map(|(n, e)| (n.as_str(), &e.schema))
    }

    pub fn get(&self, name: &str) -> Option<&Arc<Value>> {
        self.by_name.get(name).map(|e| &e.schema)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Arc<Value>)> {
        self.by_name.iter().map(|(n, e)| (n.as_str(), &e.schema))
    }

    /// The name `schema` refers to, when it is a reference to a named schema.
    pub fn name_of(schema: &Value) -> Option<&str> {
        reference(schema.as_object()?)?.strip_prefix(PREFIX)
    }

    /// The schemas that are only a reference, through others that are only references, back
    /// to themselves: they say nothing, and send a reader round for ever. In the store's order;
    /// linear in the store's size, however long the chains.
    pub fn only_self_referring(&self) -> Vec<&str> {
        let alias = |i: usize| {
            let schema = &self.by_name[i].schema;
            let bare = schema.as_object().is_some_and(|m| m.len() == 1);
            Self::name_of(schema)
                .filter(|_| bare)
                .and_then(|n| self.by_name.get_index_of(n))
        };
        // 0: not seen, 1: on the chain being followed, 2: done.
        let mut state = vec![0u8; self.by_name.len()];
        let mut in_cycle = vec![false; self.by_name.len()];
        for start in 0..self.by_name.len() {
            let mut chain = Vec::new();
            let mut at = Some(start);
            while let Some(i) = at.filter(|i| state[*i] == 0) {
                state[i] = 1;
                chain.push(i);
                at = alias(i);
            }
            if let Some(i) = at.filter(|i| state[*i] == 1) {
                let from = chain.iter().position(|c| *c == i).unwrap_or(0);
                chain[from..].iter().for_each(|c| in_cycle[*c] = true);
            }
            chain.iter().for_each(|c| state[*c] = 2);
        }
        self.by_name
            .keys()
            .zip(in_cycle)
            .filter_map(|(name, cycle)| cycle.then_some(name.as_str()))
            .collect()
    }

    /// These schemas with each one that [`Schemas::only_self_referring`] lists replaced by the
    /// description the import writes where it cuts a cycle.
    pub fn self_reference_cut(mut self) -> Self {
        let cut: Vec<String> = self
            .only_self_referring()
            .into_iter()
            .map(str::to_string)
            .collect();
        for name in cut {
            if let Some(entry) = self.by_name.get_mut(&name) {
                *entry = Entry {
                    schema: Arc::new(circular(&name)),
                    inlined: OnceLock::new(),
                };
            }
        }
        self
    }

    /// The references in `schema` to names the store does not hold, each once, in the order met.
    pub fn unknown<'a>(&self, schema: &'a Value) -> Vec<&'a str> {
        let mut out: Vec<&'a str> = Vec::new();
        let mut todo = vec![schema];
        while let Some(v) = todo.pop() {
            match v {
                Value::Object(m) => {
                    if let Some(name) = Self::name_of(v)
                        && self.get(name).is_none()
                        && !out.contains(&name)
                    {
                        out.push(name);
                    }
                    todo.extend(m.values().rev());
                }
                Value::Array(a) => todo.extend(a.iter().rev()),
                _ => {}
            }
        }
        out
    }

    /// `key`'s value in `schema`, else in the named schema it refers to, and so on through
    /// references that hold no `key`: a parameter's own keywords (`format`, `anyOf`), read
    /// through `{"$ref": "#/schemas/Code"}` as the schema the reference stands for. Stops after
    /// as many references as the store has names (an alias cycle holds no keyword).
    pub fn keyword<'a>(&'a self, mut schema: &'a Value, key: &str) -> Option<&'a Value> {
        for _ in 0..=self.by_name.len() {
            if let Some(v) = schema.get(key) {
                return Some(v);
            }
            schema = self.get(Self::name_of(schema)?)?;
        }
        None
    }

    /// `schema` with every reference to a named schema replaced by that schema, inlined in turn:
    /// borrowed when it holds none. A reference back to a schema being inlined (a tree of
    /// nodes that hold nodes) becomes `{"description": "circular reference to `<name>`; not
    /// expanded"}`, as the import writes a cycle it meets; past [`INLINE_DEPTH`] levels or
    /// [`INLINE_NODES`] schemas the rest is `{}`.
    pub fn inline<'a>(&self, schema: &'a Value) -> Cow<'a, Value> {
        match self.inlined(schema) {
            Some(inlined) => Cow::Owned((*inlined).clone()),
            None => Cow::Borrowed(schema),
        }
    }

    /// [`Schemas::inline`] for a reader: `None` where `schema` holds no reference, else the
    /// inlined schema, shared with every other reader when `schema` is a bare reference.
    pub fn inlined(&self, schema: &Value) -> Option<Arc<Value>> {
        (!self.is_empty() && has_reference(schema)).then(|| self.inline_value(schema))
    }

    /// [`Schemas::inline`], shared where it can be: `schema` itself when it holds no
    /// reference, the named schema inlined once when it is a bare reference to one.
    pub fn inline_shared(&self, schema: &Arc<Value>) -> Arc<Value> {
        self.inlined(schema).unwrap_or_else(|| Arc::clone(schema))
    }

    fn inline_value(&self, schema: &Value) -> Arc<Value> {
        let mut walk = Inline::new(self);
        let bare = schema.as_object().is_some_and(|m| m.len() == 1);
        match Self::name_of(schema)
            .filter(|_| bare)
            .and_then(|n| self.by_name.get_key_value(n))
        {
            Some((name, entry)) => Arc::clone(entry.inlined.get_or_init(|| {
                walk.stack.push(name.clone());
                Arc::new(walk.value(&entry.schema, 0, false))
            })),
            None => Arc::new(walk.value(schema, 0, false)),
        }
    }
}

/// The size of `value` as compact JSON, roughly, counting no further than `limit + 1` (so a
/// huge value costs no more to measure than the budget it would exceed).
pub fn size_at_most(value: &Value, limit: usize) -> usize {
    let mut size = 0usize;
    let mut todo = vec![value];
    while let Some(v) = todo.pop() {
        size += match v {
            Value::Null | Value::Bool(_) | Value::Number(_) => 8,
            Value::String(s) => s.len() + 2,
            Value::Array(a) => {
                todo.extend(a);
                2 + a.len()
            }
            Value::Object(m) => {
                for (k, v) in m {
                    size += k.len() + 4;
                    todo.push(v);
                }
                2
            }
        };
        if size > limit {
            return size;
        }
    }
    size
}

/// An object's `$ref`, found by a scan: walks over whole documents ask every object, few
/// hold one, and hashing the key for each was most of such a walk's time.
fn reference(m: &Map<String, Value>) -> Option<&str> {
    m.iter()
        .find(|(k, _)| *k == "$ref")
        .and_then(|(_, r)| r.as_str())
}

/// Whether `v` holds a reference to a named schema anywhere.
pub fn has_reference(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            reference(m).is_some_and(|r| r.starts_with(PREFIX)) || m.values().any(has_reference)
        }
        Value::Array(a) => a.iter().any(has_reference),
        _ => false,
    }
}

struct Inline<'s> {
    store: &'s Schemas,
    /// The names being inlined, outermost first.
    stack: Vec<String>,
    nodes_left: usize,
    bytes_left: usize,
}

impl<'s> Inline<'s> {
    fn new(store: &'s Schemas) -> Self {
        Self {
            store,
            stack: Vec::new(),
            nodes_left: INLINE_NODES,
            bytes_left: INLINE_BYTES,
        }
    }

    /// Member `key` of a schema `depth` levels down; `None` for data past [`INLINE_BYTES`], and
    /// for a description deeper than [`INLINE_DESCRIBED_DEPTH`].
    fn member(&mut self, key: &str, v: &Value, depth: usize) -> Option<Value> {
        match Keyword::of(key) {
            Keyword::SchemaMap => return Some(self.value(v, depth + 1, true)),
            Keyword::Schema | Keyword::SchemaList => return Some(self.value(v, depth + 1, false)),
            Keyword::Other => {}
        }
        if key == "description" && depth > INLINE_DESCRIBED_DEPTH {
            None
        } else {
            let size = size_at_most(v, self.bytes_left) + key.len();
            self.bytes_left = self.bytes_left.checked_sub(size)?;
            Some(v.clone())
        }
    }

    /// `v` inlined, `depth` schema levels down; `map`: `v` maps names to schemas.
    fn value(&mut self, v: &Value, depth: usize, map: bool) -> Value {
        match v {
            Value::Object(m) if map => Value::Object(
                m.iter()
                    .map(|(k, sub)| (k.clone(), self.value(sub, depth, false)))
                    .collect(),
            ),
            Value::Object(m) => {
                if depth > INLINE_DEPTH || self.nodes_left == 0 {
                    return Value::Object(Map::new());
                }
                self.nodes_left -= 1;
                if let Some(name) = Schemas::name_of(v) {
                    if self.stack.iter().any(|n| n == name) {
                        return circular(name);
                    }
                    let Some(target) = self.store.get(name) else {
                        return Value::Object(Map::new());
                    };
                    self.stack.push(name.to_string());
                    let mut out = self.value(target, depth, false);
                    self.stack.pop();
                    // Keywords beside the reference (a 3.1 `description`) apply too.
                    if let Value::Object(out) = &mut out {
                        for (k, sub) in m.iter().filter(|(k, _)| *k != "$ref") {
                            if let Some(sub) = self.member(k, sub, depth) {
                                out.insert(k.clone(), sub);
                            }
                        }
                    }
                    return out;
                }
                Value::Object(
                    m.iter()
                        .filter_map(|(k, sub)| Some((k.clone(), self.member(k, sub, depth)?)))
                        .collect(),
                )
            }
            Value::Array(a) => {
                Value::Array(a.iter().map(|sub| self.value(sub, depth, false)).collect())
            }
            other => other.clone(),
        }
    }
}

/// What a reference back to a schema being inlined is written as: the import's words for a cycle.
pub fn circular(name: &str) -> Value {
    Value::Object(Map::from_iter([(
        "description".to_string(),
        Value::String(format!("circular reference to `{name}`; not expanded")),
    )]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn store(entries: Value) -> Schemas {
        Schemas::new(
            entries
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), Arc::new(v.clone()))),
        )
    }

    #[test]
    fn a_keyword_is_read_through_references_and_alias_cycles_end() {
        let s = store(json!({
            "Code": {"$ref": "#/schemas/Text", "maxLength": 8},
            "Text": {"type": "string", "format": "uri", "maxLength": 99},
            "A": {"$ref": "#/schemas/B"},
            "B": {"$ref": "#/schemas/A"},
        }));
        let own = json!({"$ref": "#/schemas/Code", "format": "email"});
        assert_eq!(s.keyword(&own, "format"), Some(&json!("email")));
        assert_eq!(s.keyword(&own, "maxLength"), Some(&json!(8)));
        assert_eq!(s.keyword(&own, "type"), Some(&json!("string")));
        assert_eq!(s.keyword(&own, "pattern"), None);
        assert_eq!(s.keyword(&json!({"$ref": "#/schemas/A"}), "type"), None);
        assert_eq!(s.keyword(&json!({"$ref": "#/schemas/None"}), "type"), None);
    }

    #[test]
    fn references_inline_to_their_schemas_and_cycles_stop() {
        let s = store(json!({
            "Pet": {"type": "object", "properties": {"owner": {"$ref": "#/schemas/User"}}},
            "User": {"type": "object", "properties": {"pets": {"type": "array", "items": {"$ref": "#/schemas/Pet"}}}},
            "Tag": {"type": "string"}
        }));
        let inlined = s.inline(&json!({"$ref": "#/schemas/Pet"})).into_owned();
        assert_eq!(
            inlined,
            json!({"type": "object", "properties": {"owner": {"type": "object", "properties": {
                "pets": {"type": "array", "items": {"description": "circular reference to `Pet`; not expanded"}}
            }}}})
        );
        let plain = json!({"type": "string"});
        assert!(matches!(s.inline(&plain), Cow::Borrowed(_)));
        assert_eq!(
            s.inline(&json!({"$ref": "#/schemas/Tag", "description": "a tag"}))
                .into_owned(),
            json!({"type": "string", "description": "a tag"})
        );
        assert_eq!(
            s.inline(&json!({"$ref": "#/schemas/None"})).into_owned(),
            json!({})
        );
    }

    #[test]
    fn an_exponential_chain_is_cut_not_expanded() {
        let mut entries = Map::new();
        for i in 0..30 {
            let next = json!({"$ref": format!("#/schemas/S{}", i + 1)});
            entries.insert(
                format!("S{i}"),
                json!({"anyOf": [next.clone(), next.clone(), next]}),
            );
        }
        entries.insert("S30".into(), json!({"type": "string"}));
        let s = store(Value::Object(entries));
        let root = json!({"$ref": "#/schemas/S0"});
        let inlined = s.inline(&root);
        let text = serde_json::to_string(&*inlined).unwrap();
        assert!(text.len() < INLINE_NODES * 40, "{}", text.len());
        assert!(text.contains(r#""anyOf":[{},{},{}]"#), "{text}");
    }

    #[test]
    fn aliases_inline_through_chains_and_unknown_names_are_listed() {
        let s = store(json!({
            "A": {"$ref": "#/schemas/B"},
            "B": {"type": "string"},
        }));
        let a = json!({"$ref": "#/schemas/A"});
        assert_eq!(*s.inline(&a), json!({"type": "string"}));
        let v = json!({"anyOf": [{"$ref": "#/schemas/Z"}, a, {"$ref": "#/schemas/Z"}]});
        assert_eq!(s.unknown(&v), ["Z"]);
        assert_eq!(
            *s.inline(&v),
            json!({"anyOf": [{}, {"type": "string"}, {}]})
        );
    }

    #[test]
    fn names_that_only_refer_to_one_another_are_found_and_cut() {
        let loops = store(json!({
            "A": {"$ref": "#/schemas/B"},
            "B": {"$ref": "#/schemas/A"},
            "C": {"$ref": "#/schemas/A"},
            "D": {"$ref": "#/schemas/D"},
            "E": {"$ref": "#/schemas/D", "description": "more than a reference"},
            "F": {"type": "string"},
        }));
        assert_eq!(loops.only_self_referring(), ["A", "B", "D"]);
        let cut = loops.self_reference_cut();
        assert_eq!(**cut.get("D").unwrap(), circular("D"));
        assert_eq!(**cut.get("C").unwrap(), json!({"$ref": "#/schemas/A"}));
        assert!(cut.only_self_referring().is_empty());
        // A chain far longer than the store is wide is followed once.
        let chain = Schemas::new((0..20_000).map(|i| {
            let next = json!({"$ref": format!("#/schemas/C{}", (i + 1) % 20_000)});
            (format!("C{i}"), Arc::new(next))
        }));
        assert_eq!(chain.only_self_referring().len(), 20_000);
    }
}
