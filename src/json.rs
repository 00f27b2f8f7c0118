//! Key lookups in the small JSON objects that schemas are made of. `serde_json`'s map hashes
//! every key it is asked for (SipHash); a schema object holds a handful of keys, and comparing
//! them is several times cheaper than hashing one. The importer and the targets look up
//! hundreds of thousands of keywords in a big API's schemas (GitHub's: about 480,000).

use serde_json::{Map, Value};

/// Up to this many entries, an object is searched by comparing keys.
const SCAN_UP_TO: usize = 8;

/// `map.get(key)`, by comparing keys when the map is small.
pub fn get<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if map.len() <= SCAN_UP_TO {
        map.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get(key)
    }
}

/// `get` as a method: `schema.field("type")` reads as `schema.get("type")` does.
pub trait Field {
    fn field(&self, key: &str) -> Option<&Value>;
}

impl Field for Value {
    fn field(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|map| get(map, key))
    }
}

impl Field for Map<String, Value> {
    fn field(&self, key: &str) -> Option<&Value> {
        get(self, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small and large objects, present and absent keys, and values that are not objects: the
    /// same answers as `Value::get`.
    #[test]
    fn field_answers_as_get_does() {
        let mut values = vec![
            serde_json::json!(null),
            serde_json::json!([1, 2]),
            serde_json::json!("s"),
        ];
        for n in [0, 1, 2, 7, 8, 9, 40] {
            let map: Map<String, Value> =
                (0..n).map(|i| (format!("k{i}"), Value::from(i))).collect();
            values.push(Value::Object(map));
        }
        for v in &values {
            for key in ["k0", "k1", "k7", "k8", "k39", "k40", "", "K0", "k"] {
                assert_eq!(v.field(key), v.get(key), "{key} in {v}");
                if let Some(map) = v.as_object() {
                    assert_eq!(map.field(key), map.get(key));
                }
            }
        }
    }
}
