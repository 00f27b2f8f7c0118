//! The names a source gave its schemas (`#/components/schemas/AliasList`, Swagger's
//! `#/definitions/Pet`, a schema file `pet.yaml`), kept for the documents that publish shared
//! schemas under a name. The importer inlines every `$ref` (each target reads whole schemas),
//! so a name is recorded against the schema's structural hash, the one the sharing pass
//! (`emit::schemas`) computes for every schema position: a shared schema equal to a named
//! source schema takes its name.

use std::hash::{BuildHasher, Hash, Hasher};

use foldhash::HashMap;
use serde_json::Value;

/// Source names by structural hash ([`hash`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemaNames(HashMap<u64, String>);

impl SchemaNames {
    /// Records `name` for the schema hashing to `hash`. Two names for equal schemas keep the
    /// smaller, so the table is the same whatever order the importer's threads add them in.
    pub fn add(&mut self, hash: u64, name: &str) {
        match self.0.get_mut(&hash) {
            Some(kept) if name < kept.as_str() => name.clone_into(kept),
            Some(_) => {}
            None => {
                self.0.insert(hash, name.to_string());
            }
        }
    }

    /// The name of the schema hashing to `hash`, if the source named one.
    pub fn get(&self, hash: u64) -> Option<&str> {
        self.0.get(&hash).map(String::as_str)
    }

    /// Adds every name of `other` (an importer thread's).
    pub fn absorb(&mut self, other: Self) {
        for (hash, name) in other.0 {
            self.add(hash, &name);
        }
    }
}

/// The structural hash's hasher: foldhash with a fixed seed, the same in every run (SipHash
/// made hashing a fifth of the instructions of GitHub's build).
pub fn hasher() -> impl Hasher {
    foldhash::quality::FixedState::with_seed(0x5eed_5c4e_3a5f_0001).build_hasher()
}

/// One member of an object. Members are hashed apart and summed, so that the hash, like JSON
/// object equality, ignores member order: the importer writes the same schema with its keys
/// in different orders in request bodies and responses.
pub fn entry_hash(key: &str, value: u64) -> u64 {
    let mut h = hasher();
    (key, value).hash(&mut h);
    h.finish()
}

/// Tags that keep a value of one JSON type from hashing as one of another.
pub const NULL: u8 = 0;
pub const BOOL: u8 = 1;
pub const NUMBER: u8 = 2;
pub const STRING: u8 = 3;
pub const ARRAY: u8 = 4;
pub const OBJECT: u8 = 5;

/// The structural hash of `v`: equal JSON values (member order aside) hash the same.
pub fn hash(v: &Value) -> u64 {
    let mut h = hasher();
    match v {
        Value::Null => NULL.hash(&mut h),
        Value::Bool(b) => (BOOL, b).hash(&mut h),
        Value::Number(n) => (NUMBER, &n.to_string()).hash(&mut h),
        Value::String(s) => (STRING, s).hash(&mut h),
        Value::Array(items) => {
            ARRAY.hash(&mut h);
            for item in items {
                hash(item).hash(&mut h);
            }
        }
        Value::Object(map) => {
            let sum = map
                .iter()
                .fold(0u64, |sum, (k, v)| sum.wrapping_add(entry_hash(k, hash(v))));
            return object_hash(map.len(), sum);
        }
    }
    h.finish()
}

/// The hash of an object of `len` members whose [`entry_hash`]es add up to `sum`.
fn object_hash(len: usize, sum: u64) -> u64 {
    let mut h = hasher();
    OBJECT.hash(&mut h);
    (len, sum).hash(&mut h);
    h.finish()
}

/// The member the importer adds to an expanded schema that a `$ref` named, holding the name
/// until [`take_marks`] records it. The expansion drops every `x-` member of the source, so
/// no source schema holds it.
pub const MARK: &str = "x-wellgen-source-name";

/// Takes every [`MARK`] out of `v`, recording each marked schema's hash (as it is without its
/// marks) under the name it held; returns `v`'s hash. One walk, leaves first.
pub fn take_marks(v: &mut Value, names: &mut SchemaNames) -> u64 {
    match v {
        Value::Array(items) => {
            let mut h = hasher();
            ARRAY.hash(&mut h);
            for item in items {
                take_marks(item, names).hash(&mut h);
            }
            h.finish()
        }
        Value::Object(map) => {
            let mark = map.shift_remove(MARK);
            let sum = map.iter_mut().fold(0u64, |sum, (k, child)| {
                sum.wrapping_add(entry_hash(k, take_marks(child, names)))
            });
            let hash = object_hash(map.len(), sum);
            if let Some(Value::String(name)) = mark {
                names.add(hash, &name);
            }
            hash
        }
        v => hash(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn member_order_aside_equal_values_hash_the_same() {
        let a = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {}}});
        let b = json!({"properties": {"b": {}, "a": {"type": "string"}}, "type": "object"});
        assert_eq!(hash(&a), hash(&b));
        for other in [
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {}}}),
            json!(["object"]),
            json!("object"),
            json!(null),
        ] {
            assert_ne!(hash(&a), hash(&other), "{other}");
        }
        assert_ne!(hash(&json!([1, 2])), hash(&json!([2, 1])));
        assert_ne!(hash(&json!("1")), hash(&json!(1)));
    }

    #[test]
    fn the_smaller_of_two_names_stays_whatever_the_order() {
        let (mut one, mut two) = (SchemaNames::default(), SchemaNames::default());
        one.add(7, "Pet");
        one.add(7, "Animal");
        two.add(7, "Animal");
        two.add(7, "Pet");
        assert_eq!(one, two);
        assert_eq!(one.get(7), Some("Animal"));
        let mut merged = SchemaNames::default();
        merged.add(8, "Owner");
        merged.absorb(one);
        assert_eq!(
            (merged.get(7), merged.get(8), merged.get(9)),
            (Some("Animal"), Some("Owner"), None)
        );
    }

    #[test]
    fn marks_come_out_and_name_the_schema_they_marked() {
        let mut v = json!({"type": "object", "properties": {
            "owner": {"type": "object", MARK: "User", "properties": {"id": {"type": "integer"}}},
            "tags": {"type": "array", "items": {"type": "string", MARK: "Tag"}},
        }});
        let mut names = SchemaNames::default();
        let top = take_marks(&mut v, &mut names);
        assert!(!v.to_string().contains(MARK), "{v}");
        assert_eq!(top, hash(&v));
        let owner = hash(&json!({"properties": {"id": {"type": "integer"}}, "type": "object"}));
        assert_eq!(names.get(owner), Some("User"));
        assert_eq!(names.get(hash(&json!({"type": "string"}))), Some("Tag"));
        assert_eq!(names.get(top), None);
        // The members keep their order around the mark.
        let mut m = json!({"a": 1, MARK: "M", "b": 2});
        take_marks(&mut m, &mut names);
        assert_eq!(m.to_string(), r#"{"a":1,"b":2}"#);
    }
}
