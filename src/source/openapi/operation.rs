//! One OpenAPI operation → one capability: its id, path, parameters, request body, success
//! response (`returns`, `output_schema`), errors, access and `x-agent-*` semantics.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::sync::Arc;

use super::load::Version;
use super::lower::{
    Chosen, DESCRIPTION_MAX, Finding, Lx, PARAM_DESCRIPTION_MAX, RETURNS_MAX, first_example,
    pick_media, string_list,
};
use super::naming::{IdAllocator, capability_id, one_line, plural, shorten};
use super::refs::{COMPONENT_MARK, Expander, Level, Met, Node, Place, refer_to_components};
use super::schema::{
    coerce, compact, entropy_only, extra_keywords, fold_null, schema_type, to_toml, toml_shape,
};
use crate::detect::secrets;
use crate::diag::{Code, Diagnostic};
use crate::source::service_toml as raw;
use crate::text::{is_snake_case, plain_text, summary};
use crate::values::GENERIC_ERRORS;
use crate::values::param::ParamType;
use crate::values::path::PathTemplate;
use crate::values::schemas::Schemas;

/// An operation whose path and id are settled, in document order: the rest of its import
/// (`Lx::operation`) depends on nothing another operation did, so it may run on any thread.
pub(super) struct Job {
    pub(super) op: Node,
    item: Node,
    /// Lower case.
    method: String,
    pub(super) operation_id: Option<String>,
    path: String,
    renamed: Vec<(String, String)>,
    constants: Vec<(String, String)>,
    id: String,
}

impl Lx<'_> {
    /// The part of an operation's import that must run in document order: its path (a path's
    /// parameter names follow the first path of its shape) and its id (a collision's suffix
    /// follows document order). `None` when the path cannot be imported (reported).
    pub(super) fn job(
        &mut self,
        path: &str,
        method: &str,
        op: &Node,
        item: &Node,
        wanted_id: &str,
        ids: &mut IdAllocator,
    ) -> Option<Job> {
        let TemplatePath {
            path,
            renamed,
            constants,
        } = self.path(path, op, item)?;
        let id = ids.allocate(wanted_id);
        let operation_id = op
            .str("operationId")
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string);
        Some(Job {
            op: op.clone(),
            item: item.clone(),
            method: method.to_string(),
            operation_id,
            path,
            renamed,
            constants,
            id,
        })
    }

    /// The rest of an operation's import: the capability.
    pub(super) fn operation(
        &mut self,
        job: &Job,
        chosen: Option<&Chosen>,
    ) -> Result<raw::CapabilityTable, Diagnostic> {
        let Job {
            op,
            item,
            method,
            path,
            renamed,
            constants,
            id,
            ..
        } = job;
        let (path, method) = (path.as_str(), method.as_str());
        let text = op
            .str("summary")
            .or_else(|| op.str("description"))
            .map(|t| one_line(&plain_text(t)))
            .filter(|t| !t.is_empty());
        let mut cut = false;
        let description = match text {
            Some(t) => {
                let (d, shortened) = summary(&t, DESCRIPTION_MAX);
                cut = shortened;
                d
            }
            None => {
                self.note(DESCRIBED_BY_PATH, op);
                format!("{} {path}", method.to_ascii_uppercase())
            }
        };
        let details = op
            .str("description")
            .and_then(|d| self.details(d, &description, op));
        // Nothing is lost where `details` keeps the whole text.
        if cut && details.is_none() {
            self.note(DESCRIPTION_SHORTENED, op);
        }
        self.placeholders = PathTemplate::parse(path)
            .map(|t| t.params().map(str::to_string).collect())
            .unwrap_or_default();
        let mut params: IndexMap<String, raw::ParamValue> = IndexMap::new();
        let mut body = RequestBody::default();
        // `?city={city}` names a query parameter whose value the caller gives, not a constant.
        let (variables, constants): (Vec<_>, Vec<_>) = constants
            .iter()
            .cloned()
            .partition(|(_, v)| placeholder(v).is_some());
        self.parameters(
            item,
            op,
            (renamed, &variables),
            path,
            &mut params,
            &mut body,
        )?;
        constant_params(&mut params, &constants);
        variable_params(&mut params, &variables);
        if self.version != Version::Swagger2 {
            self.request_body(op, &mut params, &mut body)?;
        }
        let (returns, output_schema) = self.response(op)?;
        let (access, scopes) = self.access(op, chosen);
        let errors = self.errors(op, path)?;
        let semantic = self.semantic(op);
        let tags = string_list(op.get("tags"));
        // Read from the fields that are left: one named like another parameter is left out,
        // and may have been the body's only field, or its only required one.
        let body_fields = params.values().filter_map(|p| match p {
            raw::ParamValue::Table(t) if t.location.as_deref() == Some("body") => Some(t),
            _ => None,
        });
        let (mut any, mut required) = (false, false);
        for t in body_fields {
            any = true;
            required |= t.required == Some(true);
        }
        Ok(raw::CapabilityTable {
            id: Some(id.clone()),
            description: Some(description),
            details,
            method: Some(method.to_ascii_uppercase()),
            path: Some(path.to_string()),
            access: Some(access.into()),
            scopes,
            returns,
            deprecated: (op.get("deprecated") == Some(&Value::Bool(true))).then_some(true),
            rate_limit: None,
            content_type: body.content_type,
            body_required: (body.required && any && !required).then_some(true),
            confirm: None,
            tags: (!tags.is_empty()).then_some(tags),
            params,
            example: None,
            errors,
            semantic,
            output_schema,
        })
    }

    /// An operation's `description` as the capability's `details`: plain text, paragraphs
    /// apart by a blank line, random-looking words left out, when it says more than the short
    /// `description` (is longer than it, and not the same text cut shorter). Lowering bounds its
    /// length.
    fn details(&mut self, text: &str, description: &str, op: &Node) -> Option<String> {
        let text = paragraphs(&plain_text(text));
        let bare = |t: &str| {
            one_line(t)
                .trim_end_matches(|c: char| c == '…' || c == '.' || c.is_whitespace())
                .to_string()
        };
        // An operation description no longer than the summary (a title such as "Symbol
        // List", the summary's own words, or the text the summary was cut from when it fits)
        // says nothing more.
        if bare(&text).chars().count() <= bare(description).chars().count() {
            return None;
        }
        let mut random = false;
        let lines: Vec<String> = text
            .split('\n')
            .map(|line| match scrub_words(line) {
                Some(clean) => {
                    random = true;
                    clean
                }
                None => line.to_string(),
            })
            .collect();
        let details = lines.join("\n");
        // A key quoted in the long text (a curl example with an AWS key id) is the example's,
        // not the author's secret: leaving the text out keeps the build, where carrying it
        // would fail it.
        if secrets::find(&details).is_some() {
            self.note(
                Finding::new(
                    Code::ImportTextWithheld,
                    "operation descriptions that quote a credential-like value are not carried into `details`",
                ),
                op,
            );
            return None;
        }
        // The same for an invisible character (a zero-width space pasted from a web page), which
        // the publication check refuses.
        if crate::detect::hidden_char(&details).is_some() {
            self.note(
                Finding::new(
                    Code::ImportTextWithheld,
                    "operation descriptions holding an invisible character are not carried into `details`",
                ),
                op,
            );
            return None;
        }
        // And for text that reads like an instruction to the agent: where the short text did,
        // AGIS and MCP publish an intent made from the method and path instead.
        if crate::detect::injection(&details).is_some() {
            self.note(
                Finding::new(
                    Code::ImportTextWithheld,
                    "operation descriptions that read like an instruction to the agent are not carried into `details`",
                ),
                op,
            );
            return None;
        }
        if random {
            self.note(RANDOM_LEFT_OUT, op);
        }
        Some(details)
    }

    /// The path as a wellgen template. A query string written into the path key
    /// (`/rest?method=flickr.x`) becomes constant query parameters; a declared path parameter
    /// whose placeholder is missing but whose name is one literal segment
    /// (`/templates/templateId`) gets its placeholder back; parameter names are made valid and
    /// take the names of the first path of the same shape (`/a/{id}` after `/a/{name}` becomes
    /// `/a/{name}`); the renames are returned so parameters follow. `None` when the path
    /// cannot be represented.
    fn path(&mut self, path: &str, op: &Node, item: &Node) -> Option<TemplatePath> {
        // Query strings (and the `#Action=x` fragments AWS descriptions use the same way) name
        // constant query parameters; `?acl` alone is a parameter with an empty value.
        let (p, query) = path
            .split_once(['?', '#'])
            .map_or((path, ""), |(p, q)| (p, q));
        let mut constants: Vec<(String, String)> = Vec::new();
        let mut dropped = false;
        for pair in query.split(['&', '?', '#']).filter(|q| !q.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            // `/send/?env/v1/partners/{partnerId}`: more path after the `?`, not a query
            // string; what the author meant there (`{env}`?) is a guess.
            if k.contains(['/', '{', '}']) {
                self.report(Code::ImportOperationSkipped, op, format!("operation skipped: its path `{path}` goes on after a `?` or `#`, which ends a URL path; describe it by hand in service.toml"));
                return None;
            }
            if !is_query_name(k) || v.contains(|c: char| !c.is_ascii_graphic()) {
                dropped = true;
            } else if !constants.iter().any(|(n, _)| n == k) {
                constants.push((k.to_string(), v.to_string()));
            }
        }
        if !constants.is_empty() {
            self.note(CONSTANT_QUERY, op);
        }
        if dropped {
            self.note(
                Finding::lost(
                    "query-string parts written into paths that hold white space are dropped",
                ),
                op,
            );
        }
        let mut p = p.to_string();
        if !p.starts_with('/') {
            p.insert(0, '/');
        }
        p = self.restore_placeholders(p, op, item);
        let mut names: Vec<(String, String)> = Vec::new();
        let mut pieces: Vec<String> = Vec::new();
        let mut rest = p.as_str();
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            pieces.push(rest[..open].to_string());
            let name = &rest[open + 1..open + close];
            let valid: String = name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            names.push((name.to_string(), valid));
            rest = &rest[open + close + 1..];
        }
        pieces.push(rest.to_string());
        if names.iter().any(|(n, v)| n != v) {
            self.note(PARAM_NAMES_CLEANED, op);
        }
        // Paths that differ only in parameter names are one path to OpenAPI (and to a
        // caller): the first one's names win.
        let shape = pieces.join("{}");
        let valid: Vec<String> = names.iter().map(|(_, v)| v.clone()).collect();
        let mut finals = valid.clone();
        let distinct = |v: &[String]| (1..v.len()).all(|i| !v[..i].contains(&v[i]));
        match self.templates.get(&shape) {
            Some(first) if *first != valid && distinct(&valid) && distinct(first) => {
                finals = first.clone();
                self.note(PATH_NAMES_SHARED, op);
            }
            Some(_) => {}
            None => {
                self.templates.insert(shape, valid);
            }
        }
        let mut out = String::new();
        for (i, piece) in pieces.iter().enumerate() {
            out.push_str(piece);
            if let Some(name) = finals.get(i) {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
        let renamed: Vec<(String, String)> = names
            .iter()
            .zip(&finals)
            .filter(|((raw, _), fin)| raw != *fin)
            .map(|((raw, _), fin)| (raw.clone(), fin.clone()))
            .collect();
        // RFC 3986: a path carries only these characters unencoded. `/<upload_url>` (a
        // stand-in for a URL the API hands out) is no path an agent could call.
        let literal = out
            .split('{')
            .flat_map(|part| {
                part.split_once('}')
                    .map_or(part, |(_, after)| after)
                    .chars()
            })
            .find(|c| !(c.is_ascii_alphanumeric() || "/-._~!$&'()*+,;=:@%".contains(*c)));
        if let Some(c) = literal {
            self.report(Code::ImportOperationSkipped, op, format!("operation skipped: its path `{path}` holds `{c}`, which a URL path cannot carry unencoded; describe it by hand in service.toml"));
            return None;
        }
        // A literal `:word` after a `/` would read as a parameter: escape nothing, just refuse.
        match PathTemplate::parse(&out) {
            Ok(_) if !(out.contains("/:") && out.contains('{')) => Some(TemplatePath {
                path: out,
                renamed,
                constants,
            }),
            Ok(_) | Err(_) => {
                let why = PathTemplate::parse(&out).err().unwrap_or_else(|| {
                    "it mixes `{param}` with a segment starting with `:`".into()
                });
                self.report(Code::ImportOperationSkipped, op, format!("operation skipped: its path `{path}` cannot be represented ({why}); describe it by hand in service.toml"));
                None
            }
        }
    }

    /// `/templates/templateId` with a declared path parameter `templateId` and no
    /// `{templateId}`: the one literal segment equal to the name becomes its placeholder.
    /// Anything less clear (no such segment, or several) is left as it is.
    fn restore_placeholders(&mut self, path: String, op: &Node, item: &Node) -> String {
        let mut declared: Vec<String> = Vec::new();
        for node in op
            .child("parameters")
            .items()
            .into_iter()
            .chain(item.child("parameters").items())
        {
            let Ok(node) = self.docs.deref(node) else {
                continue;
            };
            if node.str("in") == Some("path")
                && let Some(name) = node.str("name").filter(|n| !n.is_empty())
                && !declared.iter().any(|d| d == name)
            {
                declared.push(name.to_string());
            }
        }
        let mut path = path;
        for name in declared {
            if path.contains(&format!("{{{name}}}")) {
                continue;
            }
            let segments: Vec<&str> = path.split('/').collect();
            let at: Vec<usize> = (0..segments.len())
                .filter(|&i| segments[i] == name)
                .collect();
            if let [i] = at[..] {
                let mut segments: Vec<String> = segments.iter().map(|s| s.to_string()).collect();
                segments[i] = format!("{{{name}}}");
                let repaired = segments.join("/");
                self.report(
                    Code::ImportLost,
                    op,
                    format!("the path `{path}` declares path parameter `{name}` but has no `{{{name}}}`: read as `{repaired}`"),
                );
                path = repaired;
            }
        }
        path
    }

    /// `renamed`: the path's parameter renames, and the query string's `name={placeholder}`
    /// pairs, which make the parameter the placeholder names the query parameter `name`.
    fn parameters(
        &mut self,
        item: &Node,
        op: &Node,
        (renamed, variables): (&Pairs, &Pairs),
        path: &str,
        params: &mut IndexMap<String, raw::ParamValue>,
        body: &mut RequestBody,
    ) -> Result<(), Diagnostic> {
        // Operation parameters override path-item ones with the same name and location.
        let mut list: Vec<Node> = Vec::new();
        let mut keys: Vec<(String, String)> = Vec::new();
        for node in op
            .child("parameters")
            .items()
            .into_iter()
            .chain(item.child("parameters").items())
        {
            let node = self.docs.deref(node)?;
            let v = node.value();
            let text = |key| v.get(key).and_then(Value::as_str).unwrap_or_default();
            let key = (text("name").to_string(), text("in").to_string());
            if !keys.contains(&key) {
                keys.push(key);
                list.push(node);
            }
        }
        let template = PathTemplate::parse(path).ok();
        let mut form = false;
        for node in list {
            // Each `Node` access walks its pointer from the root: read the value once.
            let v = node.value();
            let Some(name) = v.get("name").and_then(Value::as_str).map(str::to_string) else {
                continue;
            };
            let location = v
                .get("in")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            match location.as_str() {
                "body" => {
                    let schema = node.child("schema");
                    let required = v.get("required") == Some(&Value::Bool(true));
                    let description = v
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    body.required |=
                        self.body_schema(&schema, required, description, params)? == Some(true);
                    // A Swagger 2.0 body is sent as the operation's `consumes` (else the
                    // document's) says: JSON when it lists JSON, else its first media type.
                    let consumes = match string_list(op.get("consumes")) {
                        list if list.is_empty() => string_list(self.docs.root().get("consumes")),
                        list => list,
                    };
                    if !consumes.iter().any(|c| c.contains("json"))
                        && let Some(first) = consumes.into_iter().next()
                    {
                        body.content_type = Some(first);
                    }
                    continue;
                }
                "cookie" => {
                    self.note(Finding::lost("cookie parameters are left out (agents send path, query, header and body values)"), &node);
                    continue;
                }
                "header"
                    if ["accept", "content-type"].contains(&name.to_ascii_lowercase().as_str()) =>
                {
                    continue;
                }
                "header"
                    if name.eq_ignore_ascii_case("authorization")
                        && self.authorization_covered(op) =>
                {
                    continue;
                }
                "path" | "query" | "header" | "formData" => {}
                _ => continue,
            }
            let name = renamed
                .iter()
                .find(|(from, _)| *from == name)
                .map_or(name, |(_, to)| to.clone());
            let named = |n: &str| {
                template
                    .as_ref()
                    .is_some_and(|t| t.params().any(|p| p == n))
            };
            let (name, location) = match variables
                .iter()
                .find(|(_, v)| placeholder(v) == Some(name.as_str()))
            {
                Some((query, _))
                    if matches!(location.as_str(), "path" | "query") && !named(&name) =>
                {
                    (query.clone(), "query".to_string())
                }
                _ => (name, location),
            };
            if location == "path" && !named(&name) {
                self.note(
                    Finding::lost("path parameters that the path does not name are left out"),
                    &node,
                );
                continue;
            }
            let schema = match self.version {
                Version::Swagger2 => self.expand_input(&node, Level::Param)?,
                _ => {
                    let schema = if v.get("schema").is_some() {
                        node.child("schema")
                    } else {
                        node.child("content")
                            .entries()
                            .into_iter()
                            .next()
                            .map_or_else(|| node.child("schema"), |(_, m)| m.child("schema"))
                    };
                    self.expand_input(&schema, Level::Param)?
                }
            };
            let (in_, default_required) = match location.as_str() {
                "formData" => {
                    form = true;
                    ("body", false)
                }
                "path" => ("path", true),
                other => (other, false),
            };
            let required = default_required || v.get("required") == Some(&Value::Bool(true));
            let example = v
                .get("example")
                .cloned()
                .or_else(|| first_example(v.get("examples")));
            let description = v
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string);
            let table = self.param_table(&schema, required, description, in_, example, &node);
            self.insert_param(params, name, table, &node);
        }
        if form {
            let consumes = string_list(op.get("consumes"))
                .into_iter()
                .chain(string_list(self.docs.root().get("consumes")))
                .find(|c| c.contains("form"));
            body.content_type =
                Some(consumes.unwrap_or_else(|| "application/x-www-form-urlencoded".into()));
        }
        Ok(())
    }

    /// A placeholder of the path names a path parameter only. A body (or form) field with a
    /// placeholder's name is kept as `body_<name>`, since the request carries both; a header or
    /// query parameter with it is left out, since it is sent under its own name or not at all.
    /// The model then derives the path parameter the placeholder needs, when the input declares
    /// none.
    fn set_apart(
        &mut self,
        params: &mut IndexMap<String, raw::ParamValue>,
        name: &str,
        value: raw::ParamValue,
        node: &Node,
    ) {
        if location(&value) != "body" {
            self.note(
                Finding::lost("header and query parameters named like a path placeholder are left out (the placeholder is the path parameter)"),
                node,
            );
            return;
        }
        self.note(BODY_FIELD_RENAMED, node);
        let key = format!("body_{name}");
        if params.contains_key(&key) {
            self.note(SAME_NAME_LEFT_OUT, node);
            return;
        }
        let mut value = value;
        // The request still carries the field under its own name.
        if let raw::ParamValue::Table(t) = &mut value {
            t.wire_name = Some(name.to_string());
        }
        params.insert(key, value);
    }

    fn insert_param(
        &mut self,
        params: &mut IndexMap<String, raw::ParamValue>,
        name: String,
        table: raw::ParamTable,
        node: &Node,
    ) {
        if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
            self.note(
                Finding::lost("parameters whose names hold white space are left out"),
                node,
            );
            return;
        }
        if table.location.as_deref() != Some("path") && self.placeholders.contains(&name) {
            self.set_apart(params, &name, raw::ParamValue::Table(Box::new(table)), node);
            return;
        }
        if params.contains_key(&name) {
            self.note(SAME_NAME_LEFT_OUT, node);
            return;
        }
        params.insert(name, raw::ParamValue::Table(Box::new(table)));
    }

    fn request_body(
        &mut self,
        op: &Node,
        params: &mut IndexMap<String, raw::ParamValue>,
        facts: &mut RequestBody,
    ) -> Result<(), Diagnostic> {
        if op.get("requestBody").is_none() {
            return Ok(());
        }
        let body = self.docs.deref(op.child("requestBody"))?;
        let Some((media, node)) = pick_media(&body.child("content")) else {
            return Ok(());
        };
        let required = body.get("required") == Some(&Value::Bool(true));
        let description = body.str("description").map(str::to_string);
        let fields = self.body_schema(&node.child("schema"), required, description, params)?;
        facts.required |= fields == Some(true);
        if fields.is_some() && media != "application/json" {
            facts.content_type = Some(media);
        }
        Ok(())
    }

    /// A request body's schema: the top-level properties become `in = "body"` parameters;
    /// any other shape becomes one `body` parameter that describes it. An object schema with
    /// no properties and no others allowed (Stripe declares one on every GET) is no body.
    /// Returns `None` when the body gave no parameter, else whether it is a required body split
    /// into fields (the caller reads whether any of them is required).
    fn body_schema(
        &mut self,
        schema: &Node,
        required: bool,
        description: Option<String>,
        params: &mut IndexMap<String, raw::ParamValue>,
    ) -> Result<Option<bool>, Diagnostic> {
        if schema.value().is_null() {
            return Ok(None);
        }
        let expanded = self.expand_input(schema, Level::Body)?;
        if is_empty_object(&expanded) {
            self.note(EMPTY_BODY, schema);
            return Ok(None);
        }
        if let Some(props) = expanded.get("properties").and_then(Value::as_object)
            && !props.is_empty()
        {
            let required_names = string_list(expanded.get("required"));
            for (name, prop) in props {
                let req = required_names.contains(name);
                let table = self.param_table(prop, req, None, "body", None, schema);
                self.insert_param(params, name.clone(), table, schema);
            }
            return Ok(Some(required));
        }
        let variants = expanded
            .get("oneOf")
            .or_else(|| expanded.get("anyOf"))
            .and_then(Value::as_array);
        let mut table = self.param_table(&expanded, required, description, "body", None, schema);
        if let Some(variants) = variants {
            let none = Schemas::default();
            let shapes: Vec<String> = variants.iter().map(|v| compact(v, &none, "", 1)).collect();
            let (text, _) = shorten(
                &format!("one of: {}", shapes.join(" | ")),
                PARAM_DESCRIPTION_MAX,
            );
            table.description = Some(match table.description {
                Some(d) => shorten(&format!("{d} ({text})"), PARAM_DESCRIPTION_MAX).0,
                None => text,
            });
        }
        self.insert_param(params, "body".into(), table, schema);
        Ok(Some(false))
    }

    /// A parameter's or request body's schema, expanded for its parameters; the components
    /// it refers to below them are made.
    fn expand_input(&mut self, node: &Node, level: Level) -> Result<Value, Diagnostic> {
        let mut expander = Expander::input(self.docs, level);
        let expanded = expander.expand(node)?;
        let (misfit, mut opened) = (
            expander.misfit_defaults,
            std::mem::take(&mut expander.opened_required),
        );
        let random = expander.random_examples > 0;
        expander.make_components()?;
        if random {
            self.note(RANDOM_LEFT_OUT, node);
        }
        if misfit > 0 {
            self.note(MISFIT_DEFAULTS, node);
        }
        if !opened.is_empty() {
            opened.dedup();
            let names: Vec<String> = opened
                .iter()
                .map(|n| format!("`{}`", one_line(n)))
                .collect();
            self.report(
                Code::ImportAdjusted,
                node,
                format!(
                    "`required` names {} that no property of the schema describes: kept as properties that take any value, since a call must send them",
                    names.join(", ")
                ),
            );
        }
        Ok(expanded)
    }

    /// A parameter table from an (expanded) schema; values that do not fit the type are left out.
    fn param_table(
        &mut self,
        schema: &Value,
        required: bool,
        description: Option<String>,
        location: &str,
        example: Option<Value>,
        node: &Node,
    ) -> raw::ParamTable {
        // A parameter that is a whole component refers to it: its facts are read here, the
        // rest of its schema is the component's (alternatives of no one type there replace the
        // rendered type: `Param::extend_schema`).
        let alternatives = ["anyOf", "oneOf"]
            .into_iter()
            .find(|k| schema.get(*k).is_some());
        let mut component = schema
            .get(COMPONENT_MARK)
            .map(|name| Value::Object(Map::from_iter([(COMPONENT_MARK.into(), name.clone())])));
        let whole = component.is_some();
        let (folded, nullable) = fold_null(schema);
        // A component or `null` (read as the component, nullable) keeps its alternatives, the
        // component referred to: `null` beside a reference to an object would be refused.
        if let Some(key) =
            alternatives.filter(|_| !whole && nullable && folded.get(COMPONENT_MARK).is_some())
        {
            component = Some(Value::Object(Map::from_iter([(
                key.to_string(),
                schema[key].clone(),
            )])));
        }
        let schema = &folded;
        let kind = schema_type(schema);
        let random = std::cell::Cell::new(false);
        let typed = |v: &Value| coerce(kind, v);
        let dropped = std::cell::Cell::new(false);
        let keep = |v: Option<&Value>| -> Option<Value> {
            let v = v?;
            if v.is_null() {
                return None;
            }
            // As a service.toml holds it: an integer beyond i64 would become a float there.
            let t = typed(v).and_then(|mut t| (toml_shape(&mut t) && kind.admits(&t)).then_some(t));
            if t.is_none() {
                dropped.set(true);
            }
            t
        };
        // Values that only look random (no known key format) are examples, not credentials:
        // they are left out, with one note for the import. Known formats are kept, so the
        // publication check refuses them.
        let keep = |v: Option<&Value>| -> Option<Value> {
            let v = keep(v)?;
            if entropy_only(&v) {
                random.set(true);
                return None;
            }
            Some(v)
        };
        let allowed: Vec<Value> = schema
            .get("enum")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|v| keep(Some(v))).collect())
            .unwrap_or_default();
        let mut default = keep(schema.get("default"));
        if default
            .as_ref()
            .is_some_and(|d| !allowed.is_empty() && !allowed.contains(d))
        {
            default = None;
            dropped.set(true);
        }
        let example = keep(
            example
                .as_ref()
                .or_else(|| schema.get("example"))
                .or_else(|| schema.get("examples").and_then(|e| e.get(0))),
        )
        .filter(|e| {
            // An example the parameter's own schema refuses (the whole body's example given to
            // one of its fields) would lead an agent to a call the API refuses.
            let fits = (allowed.is_empty() || allowed.contains(e)) && has_required(e, schema, 8);
            dropped.set(dropped.get() || !fits);
            fits
        });
        let numeric = matches!(kind, ParamType::Integer | ParamType::Number);
        let (mut min, mut max) = if numeric {
            (
                schema.get("minimum").and_then(Value::as_f64),
                schema.get("maximum").and_then(Value::as_f64),
            )
        } else {
            (None, None)
        };
        if let (Some(lo), Some(hi)) = (min, max)
            && lo > hi
        {
            (min, max) = (None, None);
            dropped.set(true);
        }
        if dropped.get() {
            self.note(Finding::lost("defaults, examples, enum values and bounds that do not fit the parameter's type are left out"), node);
        }
        let description = description
            .or_else(|| {
                schema
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .map(|d| summary(&plain_text(&d), PARAM_DESCRIPTION_MAX).0)
            .map(|d| match scrub_words(&d) {
                Some(clean) => {
                    random.set(true);
                    clean
                }
                None => d,
            })
            .filter(|d| !d.is_empty());
        let mut keywords = extra_keywords(schema, kind);
        // Alternatives with no type beside them say `null` as one more alternative: the flag
        // alone would reach no rendered type.
        if nullable && !keywords.contains_key("type") {
            for key in ["anyOf", "oneOf"] {
                if let Some(Value::Array(list)) = keywords.get_mut(key) {
                    let null = serde_json::json!({"type": "null"});
                    if !list.contains(&null) {
                        list.push(null);
                    }
                }
            }
        }
        let mut extra = component.take().unwrap_or(Value::Object(keywords));
        // Items and alternatives that are whole components too, once their facts are read.
        refer_to_components(&mut extra);
        let random = scrub(&mut extra) | random.get();
        if random {
            self.note(RANDOM_LEFT_OUT, node);
        }
        let shaped = toml_shape(&mut extra);
        let extra = (shaped && extra.as_object().is_some_and(|m| !m.is_empty())).then_some(extra);
        raw::ParamTable {
            kind: Some(kind.as_str().into()),
            required: Some(required),
            description,
            default: default.and_then(to_toml),
            allowed: (!allowed.is_empty())
                .then(|| allowed.into_iter().filter_map(to_toml).collect()),
            min,
            max,
            pattern: (kind == ParamType::String)
                .then(|| {
                    schema
                        .get("pattern")
                        .and_then(Value::as_str)
                        .filter(|p| crate::text::is_portable_regex(p))
                        .map(str::to_string)
                })
                .flatten(),
            example: example.and_then(to_toml),
            items: (kind == ParamType::Array)
                .then(|| {
                    schema
                        .get("items")
                        .map(|i| schema_type(i).as_str().to_string())
                })
                .flatten(),
            nullable: nullable.then_some(true),
            schema: extra.and_then(to_toml),
            location: Some(location.into()),
            wire_name: None,
        }
    }

    /// `returns` and `output_schema` from the first success response with a schema.
    fn response(&mut self, op: &Node) -> Result<(Option<String>, Option<Arc<Value>>), Diagnostic> {
        let responses = op.child("responses");
        let mut codes: Vec<(String, Node)> = responses
            .entries()
            .into_iter()
            .filter(|(code, _)| code.starts_with('2'))
            .collect();
        codes.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, response) in codes {
            let response = self.docs.deref(response)?;
            let schema = match self.version {
                Version::Swagger2 => response.child("schema"),
                _ => match pick_media(&response.child("content")) {
                    Some((_, media)) => media.child("schema"),
                    None => continue,
                },
            };
            if schema.value().is_null() {
                continue;
            }
            let noun = self.noun(&schema)?;
            // A schema made into a response once is the same for every operation returning it:
            // what it makes depends on its text and its file alone.
            let key = self
                .docs
                .remembers()
                .then(|| response_key(schema.value()))
                .flatten()
                .map(|k| (schema.place.file, k));
            let responses = || {
                self.docs
                    .responses
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
            };
            let known = key.as_ref().and_then(|k| responses().get(k).cloned());
            let made = match known {
                Some(made) if made.bytes <= self.docs.expansion_left() => {
                    self.docs.spend(made.bytes);
                    made
                }
                _ => {
                    let made = Arc::new(self.make_response(&schema, &noun)?);
                    match key {
                        // Another thread may have made it meanwhile: the first one made is kept.
                        Some(key) => Arc::clone(
                            self.docs
                                .responses
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .entry(key)
                                .or_insert(made),
                        ),
                        None => made,
                    }
                }
            };
            for note in &made.notes {
                self.note(*note, op);
            }
            return Ok((Some(made.returns.clone()), made.schema.clone()));
        }
        Ok((None, None))
    }

    /// A success response's `returns` and `output_schema` made from its schema. Where there is
    /// an `output_schema`, `returns` is only its noun here: the line reads the named schemas it
    /// refers to, made when the whole import is ([`returns_line`]).
    fn make_response(&mut self, schema: &Node, noun: &str) -> Result<Response, Diagnostic> {
        let left = self.docs.expansion_left();
        let mut expander = Expander::referring(self.docs);
        let mut expanded = expander.expand(schema)?;
        // What a reuse spends again: this copy, not the components it refers to.
        let bytes = left - expander.docs.expansion_left();
        let notes = findings(expander.met());
        expander.make_components()?;
        let (returns, schema) = if toml_shape(&mut expanded) && expanded.is_object() {
            (noun.to_string(), Some(Arc::new(expanded)))
        } else {
            (returns_line(&expanded, &Schemas::default(), noun), None)
        };
        Ok(Response {
            returns,
            schema,
            bytes,
            notes,
        })
    }

    /// The noun a `returns` line starts with: the component's name (`Pet` → `pet`,
    /// an array of them → `pets[]`), else `result`.
    fn noun(&mut self, schema: &Node) -> Result<String, Diagnostic> {
        let name_of = |this: &mut Self, n: &Node| -> Result<Option<String>, Diagnostic> {
            Ok(this
                .docs
                .ref_target(n)?
                .map(|p: Place| capability_id(&this.docs.name(&p))))
        };
        // A schema that is only a reference to itself has no name worth taking; the
        // expansion reports it.
        let Ok(target) = self.docs.deref(schema.clone()) else {
            return Ok("result".into());
        };
        if target.get("items").is_some() && target.str("type").is_none_or(|t| t == "array") {
            let items = target.child("items");
            let name = name_of(self, &items)?.unwrap_or_else(|| "item".into());
            return Ok(plural(&name));
        }
        Ok(name_of(self, schema)?.unwrap_or_else(|| "result".into()))
    }

    fn access(
        &mut self,
        op: &Node,
        chosen: Option<&Chosen>,
    ) -> (&'static str, Option<Vec<String>>) {
        let root = self.docs.root();
        let requirements = if op.get("security").is_some() {
            op.child("security")
        } else {
            root.child("security")
        };
        let list = requirements.items();
        if list.is_empty()
            || list
                .iter()
                .any(|r| r.value().as_object().is_some_and(Map::is_empty))
        {
            return ("public", None);
        }
        let mut scopes: Vec<String> = Vec::new();
        if let Some(c) = chosen.filter(|c| c.oauth2) {
            for r in &list {
                for s in string_list(r.get(&c.name)) {
                    if !scopes.contains(&s) {
                        scopes.push(s);
                    }
                }
            }
        }
        if scopes.is_empty() {
            ("protected", None)
        } else {
            ("user_required", Some(scopes))
        }
    }

    /// Error responses as named conditions. Status names alone (`not_found`) are too generic
    /// for AGIS, so the resource the path names goes in front where that makes them specific.
    /// A response that lists its errors in `x-errors` (as wellgen's OpenAPI output does, also
    /// under `default` for errors without a status) gives their names and descriptions as
    /// written, so a build → import → build keeps them.
    fn errors(&mut self, op: &Node, path: &str) -> Result<Vec<raw::ErrorTable>, Diagnostic> {
        let noun = resource_noun(path);
        let mut out: Vec<raw::ErrorTable> = Vec::new();
        for (code, response) in op.child("responses").entries() {
            let status = match code.parse::<i64>() {
                Ok(s) if (400..=599).contains(&s) => Some(s),
                Err(_) if code == "default" => None,
                _ => continue,
            };
            // `default` was not read before it could carry `x-errors`: a broken ref there stays
            // no error.
            let response = match self.docs.deref(response) {
                Ok(r) => r,
                Err(_) if status.is_none() => continue,
                Err(e) => return Err(e),
            };
            let named = named_errors(response.get("x-errors"));
            if !named.is_empty() {
                for (name, description) in named {
                    if let Some(name) = unique(&out, name, status) {
                        out.push(raw::ErrorTable {
                            name: Some(name),
                            status,
                            description,
                        });
                    }
                }
                continue;
            }
            let Some(status) = status else {
                continue;
            };
            let description = response
                .str("description")
                .map(|d| summary(&plain_text(d), DESCRIPTION_MAX).0)
                .filter(|d| !d.is_empty());
            let name = match status {
                400 | 422 => "invalid_parameters".to_string(),
                404 | 410 => format!("{noun}_{}", reason(status as u16)),
                500 => "service_malfunction".to_string(),
                // No specific reason phrase: the status keeps the name specific for AGIS.
                _ if reason(status as u16) == "server_error" => format!("server_error_{status}"),
                _ => reason(status as u16).to_string(),
            };
            if let Some(name) = unique(&out, name, Some(status)) {
                out.push(raw::ErrorTable {
                    name: Some(name),
                    status: Some(status),
                    description,
                });
            }
        }
        Ok(out)
    }

    /// The `x-agent-*` vendor extensions → the semantic block.
    fn semantic(&mut self, op: &Node) -> Option<raw::SemanticTable> {
        let text = |k: &str| op.str(k).map(one_line);
        let semantic = raw::SemanticTable {
            verb: text("x-agent-verb"),
            path: None,
            intent: text("x-agent-intent"),
            actor: None,
            outcome: text("x-agent-outcome"),
            capability: None,
            confidence: None,
            impact: text("x-agent-impact"),
            idempotent: None,
            parameter_hints: None,
            state_transition: None,
            mcp_tool_name: None,
        };
        let any = semantic.verb.is_some()
            || semantic.intent.is_some()
            || semantic.outcome.is_some()
            || semantic.impact.is_some();
        any.then_some(semantic)
    }
}

/// What an operation's request body says besides its fields.
#[derive(Default)]
struct RequestBody {
    /// Its media type, when not JSON.
    content_type: Option<String>,
    /// Required, and split into fields.
    required: bool,
}

/// A path key made a template: the path, the parameter renames (`from`, `to`) its parameters
/// follow, and the `name=value` pairs of a query string written into it.
struct TemplatePath {
    path: String,
    renamed: Vec<(String, String)>,
    constants: Vec<(String, String)>,
}

/// A query parameter name a path key's query string may give: printable, no white space.
fn is_query_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_graphic() && c != '=')
}

/// The query string of a path key (`?beta=true`) as query parameters that must be sent with
/// exactly that value: a declared parameter of the same name is narrowed to it. A name without
/// a value names a declared parameter as required and keeps its schema (AWS descriptions key
/// `/exports/#name&version` apart from `/exports/` so); undeclared, it is sent empty (`?acl`).
fn constant_params(params: &mut IndexMap<String, raw::ParamValue>, constants: &[(String, String)]) {
    for (name, value) in constants {
        let fixed = vec![toml::Value::String(value.clone())];
        match params.get_mut(name) {
            Some(raw::ParamValue::Table(t))
                if t.location.as_deref() == Some("query") && value.is_empty() =>
            {
                t.required = Some(true);
            }
            Some(raw::ParamValue::Table(t)) if t.location.as_deref() == Some("query") => {
                t.kind = Some(ParamType::String.as_str().into());
                t.required = Some(true);
                t.allowed = Some(fixed);
                t.default = None;
                t.min = None;
                t.max = None;
                t.pattern = None;
                t.items = None;
                t.nullable = None;
                t.schema = None;
            }
            Some(_) => {}
            None => {
                let description = format!("Always `{value}`.");
                params.insert(
                    name.clone(),
                    query_string_param(Some(description), Some(fixed)),
                );
            }
        }
    }
}

/// Name pairs: (`from`, `to`) renames, or a query string's (`name`, `value`).
type Pairs = [(String, String)];

/// The name a whole `{placeholder}` value holds.
fn placeholder(value: &str) -> Option<&str> {
    value
        .strip_prefix('{')?
        .strip_suffix('}')
        .filter(|n| !n.is_empty() && !n.contains(['{', '}']))
}

/// The `name={placeholder}` pairs of a path key's query string: required query parameters the
/// caller fills in. A declared parameter (read as `name` by `parameters`) keeps its schema; an
/// undeclared one is a string.
fn variable_params(params: &mut IndexMap<String, raw::ParamValue>, variables: &[(String, String)]) {
    for (name, _) in variables {
        match params.get_mut(name) {
            Some(raw::ParamValue::Table(t)) if t.location.as_deref() == Some("query") => {
                t.required = Some(true);
            }
            Some(_) => {}
            None => {
                params.insert(name.clone(), query_string_param(None, None));
            }
        }
    }
}

/// A required string query parameter that a path key's query string names and the operation
/// does not declare.
fn query_string_param(
    description: Option<String>,
    allowed: Option<Vec<toml::Value>>,
) -> raw::ParamValue {
    raw::ParamValue::Table(Box::new(raw::ParamTable {
        kind: Some(ParamType::String.as_str().into()),
        required: Some(true),
        description,
        default: None,
        allowed,
        location: Some("query".into()),
        min: None,
        max: None,
        pattern: None,
        example: None,
        items: None,
        nullable: None,
        schema: None,
        wire_name: None,
    }))
}

/// The resource a path names: its last literal segment, singular, snake_case (`/pets/{id}` →
/// `pet`, `/records/{id}/more.{format}` → `more`); `resource` when the path has none.
fn resource_noun(path: &str) -> String {
    let segment = path
        .split('/')
        .rev()
        .find(|s| !s.is_empty() && !s.starts_with('{') && !s.starts_with(':'))
        .unwrap_or("resource");
    // A template inside the segment (`more.{format}`, `items('{id}')`) names no resource.
    let mut literal = String::with_capacity(segment.len());
    let mut depth = 0usize;
    for c in segment.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => literal.push(c),
            _ => {}
        }
    }
    // Words joined by one underscore each, whatever separated them: an error name is snake_case.
    let snake = crate::text::ascii_lower_or_underscore(&literal);
    let snake = snake
        .split('_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_");
    let singular = snake
        .strip_suffix('s')
        .filter(|s| s.len() > 1 && !s.ends_with('_'))
        .unwrap_or(&snake);
    match singular.chars().next() {
        Some(c) if c.is_ascii_lowercase() => singular.to_string(),
        _ => "resource".to_string(),
    }
}

/// The `(name, description)` entries of an `x-errors` list whose names an error can take
/// (snake_case, and not one of the generic names AGIS rejects); empty when there is none.
fn named_errors(list: Option<&Value>) -> Vec<(String, Option<String>)> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let name = e.get("name")?.as_str()?;
            let description = e
                .get("description")
                .and_then(Value::as_str)
                .filter(|d| !d.is_empty())
                .map(str::to_string);
            (is_snake_case(name) && !GENERIC_ERRORS.contains(&name))
                .then(|| (name.to_string(), description))
        })
        .collect()
}

/// `name`, else `<name>_<status>` when an earlier error took it; `None` when both are taken.
fn unique(out: &[raw::ErrorTable], name: String, status: Option<i64>) -> Option<String> {
    let taken = |n: &str| out.iter().any(|e| e.name.as_deref() == Some(n));
    if !taken(&name) {
        return Some(name);
    }
    let name = format!("{name}_{}", status?);
    (!taken(&name)).then_some(name)
}

/// snake_case names for HTTP error statuses, for `errors`.
fn reason(status: u16) -> &'static str {
    match status {
        400 => "bad_request",
        401 => "unauthorized",
        402 => "payment_required",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        406 => "not_acceptable",
        408 => "request_timeout",
        409 => "conflict",
        410 => "gone",
        412 => "precondition_failed",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        422 => "unprocessable_entity",
        423 => "locked",
        424 => "failed_dependency",
        428 => "precondition_required",
        429 => "too_many_requests",
        500 => "internal_error",
        501 => "not_implemented",
        502 => "bad_gateway",
        503 => "service_unavailable",
        504 => "gateway_timeout",
        505 => "http_version_not_supported",
        506 => "variant_also_negotiates",
        507 => "insufficient_storage",
        508 => "loop_detected",
        510 => "not_extended",
        511 => "network_authentication_required",
        s if s < 500 => "client_error",
        _ => "server_error",
    }
}

/// Where a parameter is sent, as the importer wrote it (`path`, `query`, `header`, `body`).
fn location(value: &raw::ParamValue) -> &str {
    match value {
        raw::ParamValue::Table(t) => t.location.as_deref().unwrap_or_default(),
        raw::ParamValue::Compact(_) => "",
    }
}

/// Whether a request body schema is an object that can hold nothing.
fn is_empty_object(schema: &Value) -> bool {
    let Some(object) = schema.as_object() else {
        return false;
    };
    let no_properties = object
        .get("properties")
        .is_none_or(|p| p.as_object().is_some_and(Map::is_empty));
    let closed = object.get("additionalProperties") == Some(&Value::Bool(false));
    let nothing_else = object.keys().all(|k| {
        matches!(
            k.as_str(),
            "type" | "properties" | "additionalProperties" | "required" | "description" | "title"
        ) || k == COMPONENT_MARK
    });
    object.get("type") == Some(&Value::String("object".into()))
        && no_properties
        && closed
        && nothing_else
}

/// The note on values and words left out for looking random.
/// What the import rewrites into a form the model holds, losing nothing an agent needs: said
/// as one grouped note each (`N-import-adjusted`), where what it leaves out is a warning.
/// What making a response schema (or a component it refers to) reports, from what it met.
pub(super) fn findings(met: Met) -> Vec<Finding> {
    [
        (met.misfit_defaults, MISFIT_DEFAULTS),
        (met.file_types, FILE_AS_BINARY),
        (met.opened_required, REQUIRED_OPENED),
        (met.random_examples, RANDOM_LEFT_OUT),
        (met.cut, DEEP_OUTPUT_CUT),
        (met.foreign_patterns, FOREIGN_PATTERNS),
    ]
    .into_iter()
    .filter_map(|(met, note)| met.then_some(note))
    .collect()
}

/// The `returns` line of a response `schema` whose references `named` holds: two levels of
/// fields, else one, at most `RETURNS_MAX` characters.
pub(super) fn returns_line(schema: &Value, named: &Schemas, noun: &str) -> String {
    // One level is never longer than two: where it is too long already, two are not made.
    let one = compact(schema, named, noun, 1);
    let returns = match one.chars().count() > RETURNS_MAX {
        true => one,
        false => Some(compact(schema, named, noun, 2))
            .filter(|two| two.chars().count() <= RETURNS_MAX)
            .unwrap_or(one),
    };
    shorten(&returns, RETURNS_MAX).0
}

/// A response schema made into `returns` and `output_schema`, with what making it reported,
/// for every operation that returns the same `$ref` (`Documents::responses`).
pub(super) struct Response {
    returns: String,
    schema: Option<Arc<Value>>,
    /// What the expansion copied: each reuse spends it again, as an expansion would.
    bytes: usize,
    notes: Vec<Finding>,
}

const DESCRIBED_BY_PATH: Finding =
    Finding::adjusted("operations without summary or description are described by method and path");
const CONSTANT_QUERY: Finding = Finding::adjusted(
    "query strings written into paths (`/rest?method=x`, `/search?q={q}`) become required query parameters, constant where a value is written",
);
const PARAM_NAMES_CLEANED: Finding = Finding::adjusted(
    "path parameter names are made of letters, digits, `_` and `-` (others became `_`)",
);
const PATH_NAMES_SHARED: Finding = Finding::adjusted(
    "paths that differ from an earlier path only in parameter names take its names (OpenAPI holds one template per path)",
);
const BODY_FIELD_RENAMED: Finding = Finding::adjusted(
    "body fields named like a path placeholder are renamed `body_<name>`, sent under their own name (`wire_name`; the placeholder is the path parameter)",
);
const FILE_AS_BINARY: Finding = Finding::adjusted(
    "Swagger 2.0 `type: file` response schemas, not a JSON Schema type, are published as `{\"type\": \"string\", \"format\": \"binary\"}` in output_schema and `[schemas]`",
);
/// The only body such a schema accepts is `{}`: leaving it out loses nothing.
const EMPTY_BODY: Finding = Finding::adjusted(
    "request bodies declared as an object with no properties (and no others allowed) are left out",
);
/// A validator of the documents would refuse each of them whole for one such value.
const MISFIT_DEFAULTS: Finding = Finding::adjusted(
    "schema defaults and examples that are not values of their own schema (its type, format, pattern, enum or bounds) are left out",
);
/// Nothing is lost: the schema says what the source's `required` said, and can be met.
const REQUIRED_OPENED: Finding = Finding::adjusted(
    "`required` names that no property of a response schema or named schema describes are kept as properties that take any value",
);
const FOREIGN_PATTERNS: Finding = Finding::lost(
    "schema patterns that not every JSON Schema validator reads are left out: another regex dialect than ECMA-262 (inline `(?i)` flags, `\\p{Alnum}`), or what Python's `re` cannot read (`\\p{L}`, `\\x{60}`)",
);
const DEEP_OUTPUT_CUT: Finding = Finding::adjusted(
    "response schemas nested deeper than 5 levels or larger than 200 schemas (a component counted from its own top) are cut to `{}` in output_schema and `[schemas]`",
);

pub(super) const RANDOM_LEFT_OUT: Finding = Finding::new(
    Code::ImportRandomLeftOut,
    "example, default and enum values, and words of descriptions, that look like random tokens (no known key format) are left out; known key formats stay errors",
);
const DESCRIPTION_SHORTENED: Finding = Finding::new(
    Code::ImportTextShortened,
    "operation descriptions are shortened to 200 characters at a word boundary",
);
const SAME_NAME_LEFT_OUT: Finding = Finding::lost(
    "a parameter with the name of an earlier one (e.g. a body field named like a query parameter) is left out",
);

/// What a success response's schema is remembered by (`Documents::responses`): its `$ref`, or
/// the text of a small inline schema (`{"type": "array", "items": {"$ref": …}}`, repeated by
/// every list operation of many APIs), told apart by their first character.
fn response_key(schema: &Value) -> Option<String> {
    /// Larger inline schemas are rarely repeated, and cost more to key than they save.
    const INLINE_MAX: usize = 1024;
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return Some(format!("${r}"));
    }
    (super::refs::size_at_most(schema, INLINE_MAX) <= INLINE_MAX)
        .then(|| format!("{{{}", serde_json::to_string(schema).unwrap_or_default()))
}

/// Plain text with its white space tidied: each line's spaces folded, paragraphs apart by one
/// blank line, the lines of a paragraph joined into one unless a line starts a list item
/// (`- `, `* `, `+ `, `1. `).
fn paragraphs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines().map(one_line) {
        if line.is_empty() {
            blank = true;
            continue;
        }
        if !out.is_empty() {
            let item = line.starts_with(['-', '*', '+']) && line[1..].starts_with(' ')
                || line
                    .split_once(". ")
                    .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            out.push_str(if blank {
                "\n\n"
            } else if item {
                "\n"
            } else {
                " "
            });
        }
        blank = false;
        out.push_str(&line);
    }
    out
}

/// `text` with each word that only looks random (see `entropy_only`) replaced by `…`, when it
/// has any: a description may quote a URL with a random-looking piece; known key formats are
/// kept, so the publication check still refuses them.
pub(super) fn scrub_words(text: &str) -> Option<String> {
    if secrets::find(text) != Some(secrets::RANDOM_TOKEN) {
        return None;
    }
    let words: Vec<&str> = text
        .split(' ')
        .map(|w| {
            if secrets::find(w) == Some(secrets::RANDOM_TOKEN) {
                "…"
            } else {
                w
            }
        })
        .collect();
    Some(words.join(" "))
}

/// Whether `value` holds every property its schema requires, at every level the schema
/// describes (to `depth`).
fn has_required(value: &Value, schema: &Value, depth: usize) -> bool {
    if depth == 0 {
        return true;
    }
    match value {
        Value::Object(fields) => {
            let required = schema.get("required").and_then(Value::as_array);
            let props = schema.get("properties").and_then(Value::as_object);
            required
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .all(|name| fields.contains_key(name))
                && fields.iter().all(|(name, v)| {
                    props
                        .and_then(|p| p.get(name))
                        .is_none_or(|s| has_required(v, s, depth - 1))
                })
        }
        Value::Array(items) => schema
            .get("items")
            .is_none_or(|s| items.iter().all(|v| has_required(v, s, depth - 1))),
        _ => true,
    }
}

/// Leaves out of a schema the `examples`, `enum`, `default` and `const` values that only look
/// random (see `entropy_only`), and their random-looking words from descriptions, at every
/// depth; whether it left any out.
fn scrub(schema: &mut Value) -> bool {
    let mut any = false;
    match schema {
        Value::Object(m) => {
            for key in ["description", "title"] {
                if let Some(Value::String(text)) = m.get_mut(key)
                    && let Some(clean) = scrub_words(text)
                {
                    *text = clean;
                    any = true;
                }
            }
            for key in ["default", "const"] {
                if m.get(key).is_some_and(entropy_only) {
                    m.remove(key);
                    any = true;
                }
            }
            for key in ["examples", "enum"] {
                if let Some(Value::Array(list)) = m.get_mut(key) {
                    let before = list.len();
                    list.retain(|v| !entropy_only(v));
                    any |= list.len() < before;
                    if list.is_empty() {
                        m.remove(key);
                    }
                }
            }
            for (_, v) in m.iter_mut() {
                any |= scrub(v);
            }
        }
        Value::Array(a) => {
            for v in a {
                any |= scrub(v);
            }
        }
        _ => {}
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn returns_says_two_levels_of_fields_where_they_fit_else_one() {
        let none = Schemas::default();
        let object = |names: &[String], inner: &Value| {
            let props: Map<String, Value> =
                names.iter().map(|n| (n.clone(), inner.clone())).collect();
            json!({"type": "object", "properties": props})
        };
        let few: Vec<String> = (0..3).map(|i| format!("f{i}")).collect();
        let leaf = object(&few, &json!({"type": "string"}));
        assert_eq!(
            returns_line(&object(&few, &leaf), &none, "x"),
            "x {f0 {f0, f1, f2}, f1 {f0, f1, f2}, f2 {f0, f1, f2}}"
        );
        // Two levels over the limit, one within it.
        let many: Vec<String> = (0..40).map(|i| format!("field{i}")).collect();
        let wide = object(&few, &object(&many, &json!({})));
        assert_eq!(returns_line(&wide, &none, "x"), "x {f0, f1, f2}");
        // One level over the limit: cut.
        let line = returns_line(&object(&many, &leaf), &none, "x");
        assert!(line.chars().count() <= RETURNS_MAX, "{line}");
        assert!(line.starts_with("x {field0, field1,"), "{line}");
        assert_eq!(line.matches('{').count(), 1, "{line}");
    }

    #[test]
    fn paragraphs_keep_blank_lines_and_list_items_and_join_the_rest() {
        assert_eq!(
            paragraphs("\n  Creates  a\ncharge.\n\n\n\nMore:\n- one\n* two\n10. ten\n  \nEnd.\n"),
            "Creates a charge.\n\nMore:\n- one\n* two\n10. ten\n\nEnd."
        );
        assert_eq!(paragraphs("-not an item\n-x"), "-not an item -x");
        assert_eq!(paragraphs(" \n "), "");
    }

    #[test]
    fn the_resource_noun_is_a_snake_case_word_whatever_the_segment() {
        for (path, noun) in [
            ("/pets/{id}", "pet"),
            ("/records/{id}/more.{format}", "more"),
            ("/datasources('{datasourceName}')", "datasource"),
            ("/a/b--c__d/{x}", "b_c_d"),
            ("/v1/{x}.json", "v1"),
            ("/{only}", "resource"),
            ("/2fa/{id}", "resource"),
            ("/s", "s"),
        ] {
            assert_eq!(resource_noun(path), noun, "{path}");
            assert!(is_snake_case(&format!("{noun}_not_found")), "{path}");
        }
    }

    #[test]
    fn x_errors_names_that_no_error_may_take_are_ignored() {
        let list = serde_json::json!([
            {"name": "quota_exhausted", "description": "Out of quota."},
            {"name": "server_error"},
            {"name": "Not Snake"},
            {"description": "no name"},
            {"name": "upstream_timeout", "description": ""},
        ]);
        assert_eq!(
            named_errors(Some(&list)),
            [
                (
                    "quota_exhausted".to_string(),
                    Some("Out of quota.".to_string())
                ),
                ("upstream_timeout".to_string(), None),
            ]
        );
        assert!(named_errors(Some(&serde_json::json!("x"))).is_empty());
    }

    #[test]
    fn an_example_must_hold_what_its_schema_requires() {
        let schema = json!({"type": "object", "required": ["id", "type"], "properties": {
            "id": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "object", "required": ["k"]}}}});
        assert!(has_required(&json!({"id": "1", "type": "a"}), &schema, 8));
        // The whole body's example, given to its `data` field.
        assert!(!has_required(
            &json!({"data": {"id": "1", "type": "a"}}),
            &schema,
            8
        ));
        assert!(!has_required(
            &json!({"id": "1", "type": "a", "tags": [{"v": 1}]}),
            &schema,
            8
        ));
        assert!(has_required(&json!("text"), &schema, 8));
    }

    #[test]
    fn only_a_closed_empty_object_is_no_body() {
        use serde_json::json;
        assert!(is_empty_object(
            &json!({"type": "object", "properties": {}, "additionalProperties": false})
        ));
        for body in [
            json!({"type": "object"}),
            json!({"type": "object", "properties": {}, "additionalProperties": true}),
            json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
            json!({"type": "array", "additionalProperties": false}),
        ] {
            assert!(!is_empty_object(&body), "{body}");
        }
    }

    #[test]
    fn random_looking_words_of_descriptions_are_scrubbed() {
        let token = "Zk3Jq9LmX2vR7tPq8WbN4cY6hD1sF5gA0eKxW2";
        assert_eq!(
            scrub_words(&format!("Pass it as {token} in the header.")).as_deref(),
            Some("Pass it as … in the header.")
        );
        assert_eq!(scrub_words("Plain words only."), None);
        // A known key format is not a random word: left for the publication check.
        assert_eq!(
            scrub_words("use sk_live_4eC39HqLyjWDarjtT1zdp7dc here"),
            None
        );
        let mut s =
            serde_json::json!({"properties": {"a": {"description": format!("see {token}")}}});
        assert!(scrub(&mut s));
        assert_eq!(s["properties"]["a"]["description"], "see …");
    }

    #[test]
    fn only_values_that_merely_look_random_are_scrubbed() {
        use serde_json::json;
        let random = "Zk3Jq9LmX2vR7tPq8WbN4cY6hD1sF5gA0eKx";
        let mut s = json!({"properties": {"a": {"examples": [random, "plain"], "default": random,
            "enum": ["AKIAIOSFODNN7EXAMPLE"]}}});
        assert!(scrub(&mut s));
        assert_eq!(
            s,
            json!({"properties": {"a": {"examples": ["plain"], "enum": ["AKIAIOSFODNN7EXAMPLE"]}}})
        );
        assert!(!entropy_only(&json!([
            random,
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
        ])));
    }

    #[test]
    fn statuses_above_504_have_no_generic_name() {
        for status in 505..=599 {
            let name = reason(status);
            assert!(
                name == "server_error" || !GENERIC_ERRORS.contains(&name),
                "{status}: {name}"
            );
        }
    }
}
