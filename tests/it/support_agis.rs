//! The eight validation passes of AGIS §9.1, run on any AGIS document as JSON: the suite runs
//! them on every AGIS document wellgen writes (goldens, fixtures, imported OpenAPI documents,
//! generated services), and `examples/corpus.rs` on every document of the corpus.
//!
//! wellgen's lowering checks the same rules on the values the document is written from; this
//! validator reads only the JSON, so a document that is written wrongly is still caught. The
//! normative AGIS JSON Schema (§10) is unpublished, so Pass 1 checks the structure §8 and §6
//! describe in prose. Pass 6 uses wellgen's verb lexicon instead of an embedding model: it flags
//! only plain contradictions between the method's class and the intent's first verb.
#![allow(dead_code)]

use std::fmt;

use serde_json::{Map, Value};
use wellgen::emit::derive::agis::rules::{
    Pass, consistency, method_class, method_syntax, path_syntax, schema_shape, text_rules,
};
use wellgen::model::{ACTORS, CAPABILITY_CLASSES};
use wellgen::values::GENERIC_ERRORS;
/// The endpoint a violation is about: its position and how it reads (`BOOK /reservation`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointRef {
    pub index: usize,
    pub label: String,
}

/// One failed rule: which pass, which endpoint (none for document-level rules), which field
/// inside the document (`endpoints.0.semantic.intent`), and the rule in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub pass: Pass,
    pub endpoint: Option<EndpointRef>,
    pub field: String,
    pub rule: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AGIS {}", self.pass)?;
        if let Some(e) = &self.endpoint {
            write!(f, ", endpoint `{}`", e.label)?;
        }
        write!(f, ": {}", self.rule)
    }
}

/// Runs all eight passes in order and returns every violation (empty = a conforming document).
/// Later passes still run after a failure so that one report lists everything to fix.
pub fn validate(doc: &Value) -> Vec<Violation> {
    let mut v = Validator { out: Vec::new() };
    let Some(root) = doc.as_object() else {
        v.doc(Pass::Structural, "", "the document must be a JSON object");
        return v.out;
    };
    let endpoints: Vec<(EndpointRef, &Map<String, Value>)> = root
        .get("endpoints")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .enumerate()
                .filter_map(|(index, e)| {
                    let e = e.as_object()?;
                    let label = format!(
                        "{} {}",
                        e.get("method").and_then(Value::as_str).unwrap_or("?"),
                        e.get("path").and_then(Value::as_str).unwrap_or("?")
                    );
                    Some((EndpointRef { index, label }, e))
                })
                .collect()
        })
        .unwrap_or_default();
    v.structural(root, &endpoints);
    for (at, e) in &endpoints {
        let Some(method) = e.get("method").and_then(Value::as_str) else {
            continue;
        };
        for rule in method_syntax(method) {
            v.at(Pass::MethodSyntax, at, "method", rule);
        }
        for rule in method_class(method) {
            v.at(Pass::MethodClass, at, "method", rule);
        }
    }
    for (at, e) in &endpoints {
        if let Some(path) = e.get("path").and_then(Value::as_str) {
            let method = e.get("method").and_then(Value::as_str).unwrap_or_default();
            for rule in path_syntax(path, method) {
                v.at(Pass::PathSyntax, at, "path", rule);
            }
        }
    }
    for (at, e) in &endpoints {
        v.completeness(at, e);
    }
    for (at, e) in &endpoints {
        let method = e.get("method").and_then(Value::as_str).unwrap_or_default();
        let intent = e
            .get("semantic")
            .and_then(|s| s.get("intent"))
            .and_then(Value::as_str);
        if let Some(rule) = intent.and_then(|i| consistency(method, i)) {
            v.at(Pass::SemanticConsistency, at, "semantic.intent", rule);
        }
    }
    v.vocabulary(root, &endpoints);
    for (at, e) in &endpoints {
        v.schemas(at, e);
        v.references(at, e, doc);
    }
    v.out
}

struct Validator {
    out: Vec<Violation>,
}

impl Validator {
    fn doc(&mut self, pass: Pass, field: &str, rule: impl Into<String>) {
        self.out.push(Violation {
            pass,
            endpoint: None,
            field: field.into(),
            rule: rule.into(),
        });
    }

    fn at(&mut self, pass: Pass, at: &EndpointRef, field: &str, rule: impl Into<String>) {
        self.out.push(Violation {
            pass,
            endpoint: Some(at.clone()),
            field: format!("endpoints.{}.{field}", at.index),
            rule: rule.into(),
        });
    }

    /// Pass 1: required fields present and non-empty, and every field of a known type and
    /// enumeration (§6, §8).
    fn structural(
        &mut self,
        root: &Map<String, Value>,
        endpoints: &[(EndpointRef, &Map<String, Value>)],
    ) {
        let p = Pass::Structural;
        match root.get("agis") {
            Some(Value::String(s)) if s == "1.0" => {}
            Some(Value::String(s)) => self.doc(
                p,
                "agis",
                format!("`agis` is \"{s}\"; this validator knows version \"1.0\""),
            ),
            _ => self.doc(
                p,
                "agis",
                "`agis` (the specification version, \"1.0\") is required (§8.1)",
            ),
        }
        for key in ["service", "agtp"] {
            if !non_empty_str(root.get(key)) {
                self.doc(
                    p,
                    key,
                    format!("`{key}` is required and must be a non-empty string (§8.1)"),
                );
            }
        }
        if let Some(a) = root.get("agtp").and_then(Value::as_str)
            && !a.is_empty()
            && a.strip_prefix("agtp://").is_none_or(str::is_empty)
        {
            self.doc(
                p,
                "agtp",
                format!("`agtp` must be an `agtp://` address, not `{a}`"),
            );
        }
        for key in ["description", "version"] {
            if root.get(key).is_some_and(|v| !v.is_string()) {
                self.doc(p, key, format!("`{key}` must be a string"));
            }
        }
        match root.get("endpoints") {
            Some(Value::Array(list)) if !list.is_empty() => {
                for (i, e) in list.iter().enumerate() {
                    if !e.is_object() {
                        self.doc(
                            p,
                            &format!("endpoints.{i}"),
                            "every endpoint definition must be an object",
                        );
                    }
                }
            }
            _ => self.doc(
                p,
                "endpoints",
                "`endpoints` is required: an array of one or more endpoint definitions (§8.1)",
            ),
        }
        let mut seen: Vec<(String, &str)> = Vec::new();
        for (at, e) in endpoints {
            for key in ["method", "path"] {
                if !non_empty_str(e.get(key)) {
                    self.at(
                        p,
                        at,
                        key,
                        format!("`{key}` is required and must be a non-empty string"),
                    );
                }
            }
            if let (Some(m), Some(path)) = (
                e.get("method").and_then(Value::as_str),
                e.get("path").and_then(Value::as_str),
            ) {
                let key = (m.to_ascii_uppercase(), path);
                if seen.contains(&key) {
                    self.at(p, at, "path", format!("`{m} {path}` is defined twice"));
                }
                seen.push(key);
            }
            match e.get("semantic") {
                None => {}
                Some(Value::Object(s)) => self.semantic_types(at, s),
                Some(_) => self.at(p, at, "semantic", "`semantic` must be an object"),
            }
        }
        match root.get("vocabulary") {
            Some(Value::Object(voc)) => {
                match voc.get("declared_verbs") {
                    Some(Value::Array(list)) if list.iter().all(Value::is_string) => {}
                    _ => self.doc(
                        p,
                        "vocabulary.declared_verbs",
                        "`vocabulary.declared_verbs` must be an array of method identifiers (§8.2)",
                    ),
                }
                for key in ["domain", "namespace", "version"] {
                    if voc.get(key).is_some_and(|v| !v.is_string()) {
                        self.doc(
                            p,
                            &format!("vocabulary.{key}"),
                            format!("`vocabulary.{key}` must be a string"),
                        );
                    }
                }
                match voc.get("negotiable") {
                    None | Some(Value::Bool(false)) => {}
                    Some(Value::Bool(true)) => {
                        if !root.get("data_manifest").is_some_and(Value::is_object) {
                            self.doc(p, "data_manifest", "`vocabulary.negotiable` is true, so a `data_manifest` block is required (§8.2(e))");
                        }
                    }
                    Some(_) => self.doc(
                        p,
                        "vocabulary.negotiable",
                        "`vocabulary.negotiable` must be a boolean",
                    ),
                }
            }
            _ => self.doc(
                p,
                "vocabulary",
                "`vocabulary` is required: an object with `declared_verbs` (§8.2)",
            ),
        }
        if let Some(m) = root.get("data_manifest") {
            self.data_manifest(m);
        }
    }

    fn semantic_types(&mut self, at: &EndpointRef, s: &Map<String, Value>) {
        let p = Pass::Structural;
        let f = |k: &str| format!("semantic.{k}");
        if let Some(c) = s.get("capability") {
            let classes = CAPABILITY_CLASSES;
            if !c.as_str().is_some_and(|c| classes.contains(&c)) {
                self.at(
                    p,
                    at,
                    &f("capability"),
                    format!("`capability` must be one of {} (§6.2)", classes.join(", ")),
                );
            }
        }
        if let Some(c) = s.get("confidence_guidance")
            && !c.as_f64().is_some_and(|c| (0.0..=1.0).contains(&c))
        {
            self.at(
                p,
                at,
                &f("confidence_guidance"),
                "`confidence_guidance` must be a number from 0.0 to 1.0 (§6.2)",
            );
        }
        if let Some(i) = s.get("impact_tier")
            && !i
                .as_str()
                .is_some_and(|i| ["informational", "reversible", "irreversible"].contains(&i))
        {
            self.at(
                p,
                at,
                &f("impact_tier"),
                "`impact_tier` must be informational, reversible or irreversible (§6.2)",
            );
        }
        if s.get("is_idempotent").is_some_and(|v| !v.is_boolean()) {
            self.at(
                p,
                at,
                &f("is_idempotent"),
                "`is_idempotent` must be a boolean (§6.2)",
            );
        }
        if let Some(h) = s.get("parameter_hints") {
            let ok = h.as_object().is_some_and(|m| {
                m.values()
                    .all(|v| v.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
            });
            if !ok {
                self.at(
                    p,
                    at,
                    &f("parameter_hints"),
                    "`parameter_hints` must map parameter names to arrays of phrases (§6.2)",
                );
            }
        }
        if let Some(t) = s.get("state_transition") {
            let ok = t.as_object().is_some_and(|m| {
                m.values().all(|v| {
                    v.as_str().is_some_and(|s| {
                        s.split_once("->")
                            .is_some_and(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty())
                    })
                })
            });
            if !ok {
                self.at(
                    p,
                    at,
                    &f("state_transition"),
                    "`state_transition` must map fields to `FROM -> TO` strings (§6.2)",
                );
            }
        }
        if let Some(n) = s.get("mcp_tool_name")
            && !n.as_str().is_some_and(|n| {
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            })
        {
            self.at(
                p,
                at,
                &f("mcp_tool_name"),
                "`mcp_tool_name` must be lowercase letters, digits and underscores (§6.2)",
            );
        }
    }

    fn data_manifest(&mut self, m: &Value) {
        let p = Pass::Structural;
        let Some(m) = m.as_object() else {
            self.doc(
                p,
                "data_manifest",
                "`data_manifest` must be an object (§8.3)",
            );
            return;
        };
        if m.get("pre_auth_discovery").is_some_and(|v| !v.is_boolean()) {
            self.doc(
                p,
                "data_manifest.pre_auth_discovery",
                "`pre_auth_discovery` must be a boolean (§8.3)",
            );
        }
        let Some(list) = m.get("available_data").and_then(Value::as_array) else {
            self.doc(
                p,
                "data_manifest.available_data",
                "`data_manifest.available_data` must be an array of data classes (§8.3)",
            );
            return;
        };
        for (i, d) in list.iter().enumerate() {
            let f = format!("data_manifest.available_data.{i}");
            if !non_empty_str(d.get("class")) {
                self.doc(
                    p,
                    &format!("{f}.class"),
                    "every data class needs a non-empty `class` (§8.3)",
                );
            }
            if d.get("formats")
                .is_some_and(|v| !v.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
            {
                self.doc(
                    p,
                    &format!("{f}.formats"),
                    "`formats` must be an array of strings (§8.3)",
                );
            }
            if d.get("requires_authorization")
                .is_some_and(|v| !v.is_boolean())
            {
                self.doc(
                    p,
                    &format!("{f}.requires_authorization"),
                    "`requires_authorization` must be a boolean (§8.3)",
                );
            }
        }
    }

    /// Pass 5: intent, actor and outcome, with the §13 length cap and injection screen.
    fn completeness(&mut self, at: &EndpointRef, e: &Map<String, Value>) {
        let p = Pass::SemanticCompleteness;
        let Some(s) = e.get("semantic").and_then(Value::as_object) else {
            self.at(
                p,
                at,
                "semantic",
                "every endpoint needs a `semantic` block with intent, actor and outcome (§6)",
            );
            return;
        };
        for key in ["intent", "outcome"] {
            let field = format!("semantic.{key}");
            match s.get(key).and_then(Value::as_str) {
                Some(text) if !text.trim().is_empty() => {
                    for rule in text_rules(key, text) {
                        self.at(p, at, &field, rule);
                    }
                }
                _ => self.at(
                    p,
                    at,
                    &field,
                    format!("`{key}` is required: one plain-language sentence (§6.1)"),
                ),
            }
        }
        let actors = ACTORS;
        match s.get("actor").and_then(Value::as_str) {
            Some(a) if actors.contains(&a) => {}
            Some(a) => self.at(
                p,
                at,
                "semantic.actor",
                format!("`actor` is `{a}`; it must be agent, user or system (§6.1)"),
            ),
            None => self.at(
                p,
                at,
                "semantic.actor",
                "`actor` is required: agent, user or system (§6.1)",
            ),
        }
    }

    /// Pass 7: declared_verbs and the methods in use are the same set, compared case-insensitively.
    fn vocabulary(
        &mut self,
        root: &Map<String, Value>,
        endpoints: &[(EndpointRef, &Map<String, Value>)],
    ) {
        let p = Pass::VocabularyIntegrity;
        let Some(declared) = root.pointer_opt("vocabulary", "declared_verbs") else {
            return;
        };
        let declared: Vec<String> = declared
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_ascii_uppercase)
            .collect();
        for (at, e) in endpoints {
            if let Some(m) = e.get("method").and_then(Value::as_str)
                && !declared.contains(&m.to_ascii_uppercase())
            {
                self.at(
                    p,
                    at,
                    "method",
                    format!("`{m}` is used but not listed in vocabulary.declared_verbs (§8.2(a))"),
                );
            }
        }
        for d in &declared {
            let used = endpoints.iter().any(|(_, e)| {
                e.get("method")
                    .and_then(Value::as_str)
                    .is_some_and(|m| m.eq_ignore_ascii_case(d))
            });
            if !used {
                self.doc(
                    p,
                    "vocabulary.declared_verbs",
                    format!("`{d}` is declared but no endpoint uses it (§8.2(b))"),
                );
            }
        }
    }

    /// Pass 8, for shared schemas (§8.1 `schemas`): every `$ref` of `input` and `output` into
    /// the document's `schemas` points at a schema object there. (Other references are the
    /// source's own, left as written.)
    fn references(&mut self, at: &EndpointRef, e: &Map<String, Value>, doc: &Value) {
        fn refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
            match v {
                Value::Object(m) => {
                    if let Some(Value::String(r)) = m.get("$ref") {
                        out.push(r);
                    }
                    m.values().for_each(|c| refs(c, out));
                }
                Value::Array(a) => a.iter().for_each(|c| refs(c, out)),
                _ => {}
            }
        }
        for key in ["input", "output"] {
            let mut found = Vec::new();
            if let Some(schema) = e.get(key) {
                refs(schema, &mut found);
            }
            for r in found.into_iter().filter(|r| r.starts_with("#/schemas/")) {
                let target = r.strip_prefix('#').and_then(|p| doc.pointer(p));
                if !target.is_some_and(Value::is_object) {
                    self.at(
                        Pass::SchemaCompleteness,
                        at,
                        key,
                        format!("`$ref` `{r}` does not point at a schema in the document"),
                    );
                }
            }
        }
    }

    /// Pass 8: input (with `required`), output and named errors on every endpoint (§7).
    fn schemas(&mut self, at: &EndpointRef, e: &Map<String, Value>) {
        let p = Pass::SchemaCompleteness;
        match e.get("input") {
            Some(Value::Object(input)) => {
                if let Some(rule) = schema_shape(input) {
                    self.at(
                        p,
                        at,
                        "input",
                        format!("`input` is not a valid JSON Schema: {rule}"),
                    );
                }
                match input.get("required") {
                    Some(Value::Array(_)) => {}
                    _ => self.at(p, at, "input.required", "`input` must separate required parameters with a JSON Schema `required` array (§7)"),
                }
            }
            _ => self.at(
                p,
                at,
                "input",
                "`input` is required: a JSON Schema object (§7)",
            ),
        }
        match e.get("output") {
            Some(Value::Object(output)) => {
                if let Some(rule) = schema_shape(output) {
                    self.at(
                        p,
                        at,
                        "output",
                        format!("`output` is not a valid JSON Schema: {rule}"),
                    );
                }
            }
            _ => self.at(
                p,
                at,
                "output",
                "`output` is required: a JSON Schema object for a successful response (§7)",
            ),
        }
        let Some(errors) = e
            .get("errors")
            .and_then(Value::as_array)
            .filter(|l| !l.is_empty())
        else {
            self.at(
                p,
                at,
                "errors",
                "`errors` is required: an array of named error conditions (§7)",
            );
            return;
        };
        for (i, err) in errors.iter().enumerate() {
            let name = match err {
                Value::String(s) => Some(s.as_str()),
                Value::Object(o) => {
                    if o.get("description").is_some_and(|d| !d.is_string()) {
                        self.at(
                            p,
                            at,
                            &format!("errors.{i}.description"),
                            "an error's `description` must be a string",
                        );
                    }
                    o.get("name").and_then(Value::as_str)
                }
                _ => None,
            };
            match name {
                Some(n) if n.trim().is_empty() => self.at(p, at, &format!("errors.{i}"), "error conditions must be named (§7)"),
                Some(n) if GENERIC_ERRORS.contains(&n.to_ascii_lowercase().as_str()) => self.at(
                    p,
                    at,
                    &format!("errors.{i}.name"),
                    format!("`{n}` is a generic error name; name the condition (e.g. `reservation_unavailable`) (§7)"),
                ),
                Some(_) => {}
                None => self.at(p, at, &format!("errors.{i}"), "each error must be a name or an object with a `name` (§7)"),
            }
        }
    }
}

trait PointerOpt {
    fn pointer_opt(&self, a: &str, b: &str) -> Option<&Vec<Value>>;
}

impl PointerOpt for Map<String, Value> {
    fn pointer_opt(&self, a: &str, b: &str) -> Option<&Vec<Value>> {
        self.get(a)?.get(b)?.as_array()
    }
}

fn non_empty_str(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}
