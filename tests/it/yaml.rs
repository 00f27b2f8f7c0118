//! The hand-written YAML writer (`wellgen::emit::yaml`) against serde_norway, whose output it
//! must reproduce byte for byte: on every AGIS document the examples and fixtures build, and on
//! generated values full of strings chosen to hit each of libyaml's scalar styles. What it
//! writes must also read back as the same value.

use proptest::prelude::*;
use serde_json::{Map, Value};
use wellgen::diag::Diagnostics;
use wellgen::emit::{Target, targets::agis, yaml};

use crate::common::sources;

fn serde_norway(value: &Value) -> String {
    serde_norway::to_string(value).expect("serde_norway writes any JSON value")
}

#[test]
fn every_agis_document_is_written_as_serde_norway_writes_it() {
    let mut compared = 0;
    for source in sources() {
        let mut diags = Diagnostics::default();
        let Some(service) = wellgen::source::load(&source, &mut diags) else {
            continue;
        };
        let artifacts = Target::Agis.emit(&service, &mut diags);
        let body = |path: &str| {
            &artifacts
                .iter()
                .find(|a| a.path == path)
                .unwrap_or_else(|| panic!("{}: {path} is emitted", source.display()))
                .body
        };
        let doc: Value = serde_json::from_slice(body(agis::JSON_PATH)).unwrap();
        let expected = serde_norway(&doc);
        assert_eq!(yaml::to_string(&doc), expected, "{}", source.display());
        assert_eq!(
            std::str::from_utf8(body(agis::YAML_PATH)).unwrap(),
            expected,
            "{}: the published .agis file",
            source.display()
        );
        compared += 1;
    }
    // Every example and fixture with a golden service.agis (28 when this test was written).
    assert!(
        compared >= 28,
        "only {compared} AGIS documents were compared"
    );
}

/// Whole strings that libyaml or serde_norway treat specially.
const TRICKY: &[&str] = &[
    "",
    " ",
    "~",
    "null",
    "Null",
    "NULL",
    "nil",
    "true",
    "True",
    "TRUE",
    "false",
    "FALSE",
    "yes",
    "no",
    "on",
    "off",
    "Y",
    "n",
    "0",
    "-0",
    "+0",
    "007",
    "-007",
    "+007",
    "0x1F",
    "0X1F",
    "-0x1F",
    "+0x1F",
    "0x",
    "0x+1",
    "0o17",
    "-0o17",
    "0b101",
    "-0b101",
    "0b2",
    "1_000",
    "12",
    "-12",
    "+12",
    "18446744073709551616",
    "-170141183460469231731687303715884105729",
    "340282366920938463463374607431768211456",
    "1e3",
    "1E3",
    "-1e-3",
    "1e400",
    ".5",
    "5.",
    "-.5",
    "+.5",
    "1.5e+3",
    "inf",
    "-inf",
    "infinity",
    "NaN",
    "nan",
    ".inf",
    "+.inf",
    "-.inf",
    ".Inf",
    ".NAN",
    ".nan",
    "+.nan",
    "2024-01-31",
    "2024-01-31T10:00:00Z",
    "12:30",
    "1:20:30",
    "---",
    "--- a",
    "...",
    "-",
    "- a",
    "-a",
    "--",
    "?",
    "? a",
    "?a",
    ":",
    ": a",
    ":a",
    "a:",
    "a: b",
    "a:b",
    "a #b",
    "a#b",
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
    "a,b",
    "[a]",
    "{a}",
    "a[b]{c}",
    "it's",
    "say \"hi\"",
    "back\\slash",
    "https://example.com/a?b=c#d",
    "/v1/items/{id}",
    "GET /items",
    "a\tb",
    "\t",
    "a\rb",
    "a\r\nb",
    "\0",
    "\u{7f}",
    "\u{1b}",
    "\u{85}",
    "a\u{85}b",
    "\u{a0}",
    "\u{feff}",
    "\u{feff}a",
    "\u{fffe}",
    "\u{ffff}",
    "\u{2028}",
    "a\u{2028}b",
    "a\u{2029}",
    "\u{2029}a",
    "a\u{2028}\u{2029}b",
    "a \u{2028}b",
    "a\u{2028} b",
    "é",
    "日本語",
    "🦀",
    "a\nb",
    "a\n",
    "a\n\n",
    "\n",
    "\n\n",
    "\na",
    " a\nb",
    "a\n b",
    "a \nb",
    "a\nb ",
    "a\n\nb\n",
    "a\n\u{2028}b",
    "a\n\tb",
    "- a\n- b",
    "key: value\nother: x",
];

/// Pieces that are glued together into new strings.
const PIECES: &[&str] = &[
    "a",
    "word",
    "0",
    "1",
    ".",
    " ",
    "  ",
    "\n",
    "\t",
    "\r",
    "#",
    ":",
    "-",
    "?",
    "'",
    "\"",
    "\\",
    ",",
    "[",
    "}",
    "&",
    "!",
    "|",
    ">",
    "%",
    "@",
    "`",
    "~",
    "e",
    "x",
    "null",
    "true",
    "é",
    "\u{85}",
    "\u{a0}",
    "\u{feff}",
    "\u{2028}",
    "\u{2029}",
    "\u{1F980}",
    "\0",
];

fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(TRICKY).prop_map(String::from),
        3 => prop::collection::vec(prop::sample::select(PIECES), 0..8).prop_map(|p| p.concat()),
        1 => "[a-z ]{0,20}",
        1 => "\\PC{0,12}",
        1 => any::<String>(),
        // Keys longer than 128 bytes are written as complex keys (`? key`).
        1 => "[a-z]{120,140}",
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => any::<u64>().prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f).map(Value::Number)),
        6 => string().prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((string(), inner), 0..5)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Any bit pattern, and full 53-bit mantissas scaled near 1: there, some floats lie exactly
/// halfway between two shortest decimal candidates, where ryu rounds to even.
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        (any::<u64>(), -70i32..20).prop_map(|(m, e)| (m >> 11) as f64 * 2f64.powi(e)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_value_is_written_as_serde_norway_writes_it_and_reads_back(v in value()) {
        let text = yaml::to_string(&v);
        prop_assert_eq!(&text, &serde_norway(&v));
        let back = agis::parse_yaml(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back, v);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_float_is_written_as_serde_norway_writes_it(f in float()) {
        if let Some(n) = serde_json::Number::from_f64(f) {
            let v = Value::Number(n);
            prop_assert_eq!(yaml::to_string(&v), serde_norway(&v));
        }
    }
}
