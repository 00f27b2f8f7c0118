//! The eight validation passes of AGIS §9.1, run on the values the document is written from, so
//! the document cannot break them: each problem is an error at the service.toml field that gave
//! the value, in the order and words of the passes.
//!
//! Rules that the model's lowering or the document's construction already guarantee are not
//! repeated here: the version, every field's type, `actor`, `capability` and
//! `confidence_guidance` (checked when declared, fixed when derived), a non-empty endpoint list,
//! `agtp` (checked when declared, built from the site when not), `negotiable` with its manifest,
//! `declared_verbs` (made from the methods in use, Pass 7) and the input schema (made from typed
//! parameters). The test suite's validator checks every one of them on the written JSON.

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::derive::agis::rules::{
    Pass, consistency, method_class, method_syntax, path_syntax, schema_shape, text_rules,
};
use crate::emit::derive::agis::{Endpoint, ToolName};
use crate::model::Service;
use crate::values::GENERIC_ERRORS;

/// The endpoint field a rule is about, by the service.toml field it comes from.
#[derive(Clone, Copy)]
enum Field {
    Method,
    Path,
    Intent,
    Outcome,
    StateTransition,
    McpToolName,
    Output,
    Errors,
}

/// Every rule of the eight passes that the model does not already guarantee, pass by pass.
pub(super) fn passes(
    service: &Service,
    endpoints: &[Endpoint],
    tool_names: &[ToolName],
    diags: &mut Diagnostics,
) {
    structural(service, endpoints, tool_names, diags);
    for e in endpoints {
        for rule in method_syntax(&e.method) {
            report(diags, Pass::MethodSyntax, e, Field::Method, rule);
        }
        for rule in method_class(&e.method) {
            report(diags, Pass::MethodClass, e, Field::Method, rule);
        }
    }
    for e in endpoints {
        for rule in path_syntax(&e.path, &e.method) {
            report(diags, Pass::PathSyntax, e, Field::Path, rule);
        }
    }
    for e in endpoints {
        for (key, text, field) in [
            ("intent", &e.intent, Field::Intent),
            ("outcome", &e.outcome, Field::Outcome),
        ] {
            if text.trim().is_empty() {
                let rule = format!("`{key}` is required: one plain-language sentence (§6.1)");
                report(diags, Pass::SemanticCompleteness, e, field, rule);
            } else {
                for rule in text_rules(key, text) {
                    report(diags, Pass::SemanticCompleteness, e, field, rule);
                }
            }
        }
    }
    for e in endpoints {
        if let Some(rule) = consistency(&e.method, &e.intent) {
            report(diags, Pass::SemanticConsistency, e, Field::Intent, rule);
        }
    }
    for e in endpoints {
        schemas(e, diags);
    }
}

/// Pass 1: a path on every endpoint, no method and path twice, well-formed state transitions
/// and tool names, a name on every data class.
fn structural(
    service: &Service,
    endpoints: &[Endpoint],
    tool_names: &[ToolName],
    diags: &mut Diagnostics,
) {
    let p = Pass::Structural;
    // A set: a large API has thousands of endpoints.
    let mut seen: foldhash::HashSet<(String, &str)> = Default::default();
    for (i, e) in endpoints.iter().enumerate() {
        if e.path.trim().is_empty() {
            let rule = "`path` is required and must be a non-empty string";
            report(diags, p, e, Field::Path, rule.into());
        }
        let key = (e.method.to_ascii_uppercase(), e.path.as_str());
        if !seen.insert(key) {
            let rule = format!("`{} {}` is defined twice", e.method, e.path);
            report(diags, p, e, Field::Path, rule);
        }
        let transitions_ok = e.capability.semantic.state_transition.values().all(|t| {
            t.split_once("->")
                .is_some_and(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty())
        });
        if !transitions_ok {
            let rule = "`state_transition` must map fields to `FROM -> TO` strings (§6.2)";
            report(diags, p, e, Field::StateTransition, rule.into());
        }
        // The document carries only names that are not the default (`explicit`).
        if let Some(t) = tool_names.get(i).filter(|t| t.explicit)
            && (t.name.is_empty()
                || t.name
                    .chars()
                    .any(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')))
        {
            let rule = "`mcp_tool_name` must be lowercase letters, digits and underscores (§6.2)";
            report(diags, p, e, Field::McpToolName, rule.into());
        }
    }
    if let Some(m) = &service.agis.data_manifest {
        for (i, d) in m.available_data.iter().enumerate() {
            if d.class.trim().is_empty() {
                diags.push(
                    Diagnostic::new(
                        Code::AgisPass,
                        format!("AGIS {p}: every data class needs a non-empty `class` (§8.3)"),
                    )
                    .at(format!("agis.data_manifest.available_data.{i}.class")),
                );
            }
        }
    }
}

/// Pass 8: the output a JSON Schema object, and every error condition named specifically.
fn schemas(e: &Endpoint, diags: &mut Diagnostics) {
    let p = Pass::SchemaCompleteness;
    match e.output.as_ref() {
        serde_json::Value::Object(output) => {
            if let Some(rule) = schema_shape(output) {
                let rule = format!("`output` is not a valid JSON Schema: {rule}");
                report(diags, p, e, Field::Output, rule);
            }
        }
        _ => {
            let rule = "`output` is required: a JSON Schema object for a successful response (§7)";
            report(diags, p, e, Field::Output, rule.into());
        }
    }
    for (name, _) in &e.errors {
        if name.trim().is_empty() {
            let rule = "error conditions must be named (§7)";
            report(diags, p, e, Field::Errors, rule.into());
        } else if GENERIC_ERRORS.contains(&name.to_ascii_lowercase().as_str()) {
            let rule = format!(
                "`{name}` is a generic error name; name the condition (e.g. `reservation_unavailable`) (§7)"
            );
            report(diags, p, e, Field::Errors, rule);
        }
    }
}

/// An error about one endpoint, at the service.toml field its value came from; a derived value
/// says so, since the fix is then to declare it.
fn report(diags: &mut Diagnostics, pass: Pass, e: &Endpoint, field: Field, rule: String) {
    let c = e.capability;
    let s = &c.semantic;
    let (key, authored) = match field {
        Field::Method if s.verb.is_some() => ("semantic.verb", true),
        Field::Method => ("id", false),
        Field::Path if s.path.is_some() => ("semantic.path", true),
        Field::Path => ("path", false),
        Field::Intent if s.intent.is_some() => ("semantic.intent", true),
        Field::Intent => ("description", false),
        Field::Outcome => ("semantic.outcome", s.outcome.is_some()),
        Field::StateTransition => ("semantic.state_transition", true),
        Field::McpToolName => ("semantic.mcp_tool_name", true),
        Field::Output => ("output_schema", c.output_schema.is_some()),
        Field::Errors => ("errors", !c.errors.is_empty()),
    };
    let d = Diagnostic::new(
        Code::AgisPass,
        format!("AGIS {pass}, endpoint `{} {}`: {rule}", e.method, e.path),
    )
    .at(c.field(key));
    diags.push(if authored {
        d
    } else {
        d.help("wellgen derived this value; declare it in `[capabilities.semantic]` to choose it yourself")
    });
}
