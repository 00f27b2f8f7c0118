//! Schemas by structural hash ([`hash`]), the one the sharing pass (`emit::schemas`) computes
//! for every schema position, and names recorded against it: a document shared anew keeps the
//! names of the schemas it finds again (`emit::schemas::names_of`).

use std::hash::{BuildHasher, Hash, Hasher};

use foldhash::HashMap;
use serde_json::Value;

/// Source names by structural hash ([`hash`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemaNames(HashMap<u64, String>);

impl SchemaNames {
    /// Records `name` for the schema hashing to `hash`. Two names for equal schemas keep the
    /// smaller, so the table does not depend on the order they are added in.
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
        assert_eq!((one.get(7), one.get(8)), (Some("Animal"), None));
    }
}
