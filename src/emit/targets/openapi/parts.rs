//! Parameters, request bodies and responses shared through `components` in a large OpenAPI
//! document.

use std::hash::{BuildHasher, Hash, Hasher};

use serde_json::{Value, json};

use super::{Part, SHARING, operation_parts};
use crate::emit::schemas;

/// Where the operations' parts of a large document are shared: the Components Object's field,
/// and the reference prefix.
const PARTS: [(&str, &str); 3] = [
    ("responses", "#/components/responses/"),
    ("parameters", "#/components/parameters/"),
    ("requestBodies", "#/components/requestBodies/"),
];
/// The operations' parameters, request bodies and responses together (bytes of compact JSON)
/// from which equal ones are shared: the same threshold as for schemas, so below it the
/// document stays as it always was.
const PARTS_MIN_TOTAL: usize = SHARING.min_total;
/// The smallest part worth a reference: a reference to it takes about 40 bytes.
const PARTS_MIN_BYTES: usize = 96;

/// Parameters, request bodies and responses that several operations of a large document
/// repeat exactly (a large API's common query parameters, its one error response) go once
/// into `components` and are referenced: OpenAPI allows a Reference Object in each place
/// (§4.8.10–4.8.12). Returns each Components field with its parts, in first-use order; none
/// when the parts together stay under `PARTS_MIN_TOTAL`.
pub(super) fn share(paths: &mut Value) -> Vec<(&'static str, Vec<(String, Value)>)> {
    // Every part's place: its Components field and the name it would take.
    let places: Vec<(usize, String, &mut Value)> = operation_parts(paths)
        .into_iter()
        .map(|part| match part {
            Part::Response {
                operation,
                status,
                value,
            } => (0, format!("{operation}_{status}"), value),
            Part::Parameter { name, value } => (1, name, value),
            Part::RequestBody { operation, value } => (2, format!("{operation}_request"), value),
        })
        .collect();
    // Equal compact JSON is an equal part, as the same function wrote both (member order
    // included): parts are grouped by a hash of that text, measured and hashed by walking the
    // values rather than writing them (a large API's parts are megabytes), and confirmed equal.
    let measured: Vec<(usize, u64)> = places.iter().map(|(_, _, v)| measure(v)).collect();
    if measured.iter().map(|(len, _)| len).sum::<usize>() < PARTS_MIN_TOTAL {
        return Vec::new();
    }
    // Each part worth sharing, by the first place holding an equal part.
    let mut first: Vec<Option<usize>> = vec![None; places.len()];
    let mut seen: foldhash::HashMap<(usize, usize, u64), Vec<usize>> = Default::default();
    let mut count = vec![0u32; places.len()];
    for (i, (len, hash)) in measured.iter().enumerate() {
        if *len < PARTS_MIN_BYTES {
            continue;
        }
        let kind = places[i].0;
        let earlier = seen.entry((kind, *len, *hash)).or_default();
        let f = match earlier
            .iter()
            .find(|&&e| same_text(places[e].2, places[i].2))
        {
            Some(&e) => e,
            None => {
                earlier.push(i);
                i
            }
        };
        first[i] = Some(f);
        count[f] += 1;
    }
    let mut names: Vec<Option<String>> = vec![None; places.len()];
    let mut taken: [schemas::Names; 3] = Default::default();
    let mut shared: [Vec<(String, Value)>; 3] = Default::default();
    for (i, (kind, hint, v)) in places.into_iter().enumerate() {
        let Some(f) = first[i].filter(|&f| count[f] >= 2) else {
            continue;
        };
        let name = match &names[f] {
            Some(n) => n.clone(),
            None => {
                let name = taken[kind].unique(&hint, "part");
                shared[kind].push((name.clone(), v.clone()));
                names[f] = Some(name.clone());
                name
            }
        };
        *v = json!({ "$ref": format!("{}{name}", PARTS[kind].1) });
    }
    PARTS
        .iter()
        .zip(shared)
        .filter(|(_, s)| !s.is_empty())
        .map(|((field, _), s)| (*field, s))
        .collect()
}

/// The length of `v` written as compact JSON (`serde_json::to_vec`), and a hash of that text.
fn measure(v: &Value) -> (usize, u64) {
    let mut h = foldhash::fast::FixedState::with_seed(0x9a27_5ba2_7c11_0e01).build_hasher();
    let len = walk(v, &mut h);
    (len, h.finish())
}

fn walk(v: &Value, h: &mut impl Hasher) -> usize {
    match v {
        Value::Null => {
            0u8.hash(h);
            4
        }
        Value::Bool(b) => {
            (1u8, b).hash(h);
            if *b { 4 } else { 5 }
        }
        Value::Number(n) => {
            (2u8, n).hash(h);
            let mut len = Counter(0);
            serde_json::to_writer(&mut len, n).map_or(0, |()| len.0)
        }
        Value::String(s) => {
            (3u8, s).hash(h);
            string_len(s)
        }
        Value::Array(items) => {
            (4u8, items.len()).hash(h);
            1 + items.len().max(1) + items.iter().map(|i| walk(i, h)).sum::<usize>()
        }
        Value::Object(map) => {
            (5u8, map.len()).hash(h);
            let members: usize = map
                .iter()
                .map(|(k, v)| {
                    k.hash(h);
                    string_len(k) + 1 + walk(v, h)
                })
                .sum();
            1 + map.len().max(1) + members
        }
    }
}

/// A JSON string's written length: quoted, with `"`, `\\` and control characters escaped.
fn string_len(s: &str) -> usize {
    let escapes: usize = s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
            0..0x20 => 5,
            _ => 0,
        })
        .sum();
    s.len() + 2 + escapes
}

struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len();
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether `a` and `b` are written as the same compact JSON: equal, members in the same order,
/// and a float zero with the same sign.
fn same_text(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same_text(vx, vy))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_text(v, w))
        }
        (Value::Number(x), Value::Number(y)) => {
            x == y && x.as_f64().map(f64::is_sign_negative) == y.as_f64().map(f64::is_sign_negative)
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_lengths_are_those_written() {
        let values = [
            json!(null),
            json!([]),
            json!({}),
            json!([
                true,
                false,
                null,
                0,
                -3,
                1.5,
                -0.0,
                1e300,
                12345678901234567890u64
            ]),
            json!({"a\"b": "line\nbreak\ttab\u{1}\u{1f}\u{7f} \\ / é 𝄞", "n": {"x": [1, {"y": ""}]}}),
        ];
        for v in &values {
            assert_eq!(measure(v).0, serde_json::to_vec(v).unwrap().len(), "{v}");
        }
    }

    #[test]
    fn parts_are_the_same_only_when_written_the_same() {
        let a = json!({"a": 1, "b": [0.0, "x"]});
        assert!(same_text(&a, &json!({"a": 1, "b": [0.0, "x"]})));
        assert_eq!(measure(&a), measure(&json!({"a": 1, "b": [0.0, "x"]})));
        for other in [
            json!({"b": [0.0, "x"], "a": 1}),
            json!({"a": 1, "b": [-0.0, "x"]}),
            json!({"a": 1.0, "b": [0.0, "x"]}),
            json!({"a": 1, "b": [0.0, "y"]}),
        ] {
            assert!(!same_text(&a, &other), "{other}");
            assert_ne!(
                serde_json::to_vec(&a).unwrap(),
                serde_json::to_vec(&other).unwrap()
            );
        }
    }
}
