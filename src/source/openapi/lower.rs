//! OpenAPI (2.0, 3.0, 3.1) → the raw service.toml mirror. One walker over `serde_json::Value`
//! serves every version; where versions differ (servers, security schemes, bodies), small
//! branches say so. Everything derived is checked against the model's limits here, so the
//! result lowers cleanly; what cannot be derived is left for service.toml and reported.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::load::Version;
use super::naming::{IdAllocator, glob, one_line, plural, shorten, snake_case};
use super::refs::{Documents, Expander, Node, Place};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{CATEGORIES, HttpsUrl, ParamType, PathTemplate};
use crate::source::service_toml as raw;

/// Which operations to keep: `tag:<glob>` / `op:<glob>` patterns (a bare glob means `op:`).
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

impl Filter {
    fn matches(patterns: &[String], op_id: Option<&str>, id: &str, tags: &[String]) -> bool {
        patterns.iter().any(|p| match p.split_once(':') {
            Some(("tag", g)) => tags.iter().any(|t| glob(g, t)),
            Some(("op", g)) => glob(g, id) || op_id.is_some_and(|o| glob(g, o)),
            _ => glob(p, id) || op_id.is_some_and(|o| glob(p, o)),
        })
    }

    fn keeps(&self, op_id: Option<&str>, id: &str, tags: &[String]) -> bool {
        (self.include.is_empty() || Self::matches(&self.include, op_id, id, tags))
            && !Self::matches(&self.exclude, op_id, id, tags)
    }

    /// Patterns that are neither `tag:` nor `op:` nor a plain glob are mistakes.
    pub fn check(&self) -> Result<(), Diagnostic> {
        for p in self.include.iter().chain(&self.exclude) {
            if let Some((kind, _)) = p.split_once(':')
                && kind != "tag"
                && kind != "op"
            {
                return Err(Diagnostic::error(format!(
                    "`{p}` is not a filter: write `tag:<glob>` or `op:<glob>`"
                ))
                .at("source.include"));
            }
        }
        Ok(())
    }
}

/// What an import produced.
pub struct Imported {
    pub doc: raw::ServiceToml,
    pub version: Version,
    /// For each capability, the place of its operation (`openapi.yaml#/paths/~1pets/get`).
    pub origins: Vec<String>,
    /// Problems a service.toml key can fix, keyed by that key (`service.base_url`): reported
    /// unless the completing service.toml sets the key.
    pub deferred: Vec<(String, Diagnostic)>,
    /// Operations found, and operations left out by the filter.
    pub operations: usize,
    pub filtered_out: usize,
}

pub const NAME_MAX: usize = 100;
pub const SERVICE_DESCRIPTION_MAX: usize = 300;
pub const DESCRIPTION_MAX: usize = 200;
pub const PARAM_DESCRIPTION_MAX: usize = 300;
pub const RETURNS_MAX: usize = 300;

const METHODS: [&str; 5] = ["get", "put", "post", "delete", "patch"];
const SKIPPED_METHODS: [&str; 4] = ["head", "options", "trace", "query"];

/// Lowers a loaded document. Errors go to `diags`; `None` when any was found.
pub fn lower(
    docs: &mut Documents,
    version: Version,
    filter: &Filter,
    diags: &mut Diagnostics,
) -> Option<Imported> {
    let before = diags.error_count();
    let mut lx = Lx {
        docs,
        version,
        diags,
        notes: BTreeMap::new(),
        deferred: Vec::new(),
    };
    let imported = lx.document(filter);
    lx.flush_notes();
    (lx.diags.error_count() == before).then_some(imported)
}

struct Lx<'a> {
    docs: &'a mut Documents,
    version: Version,
    diags: &'a mut Diagnostics,
    /// Repeated, minor findings, reported once per kind with a count and the first places.
    notes: BTreeMap<&'static str, Vec<String>>,
    deferred: Vec<(String, Diagnostic)>,
}

/// The security scheme chosen for `[auth]`.
struct Chosen {
    name: String,
    oauth2: bool,
}

impl Lx<'_> {
    fn at(&self, node: &Node) -> String {
        self.docs.describe(&node.place)
    }

    fn warn(&mut self, node: &Node, message: impl std::fmt::Display) {
        let place = self.at(node);
        self.diags
            .push(Diagnostic::warning(format!("{place}: {message}")));
    }

    fn note(&mut self, kind: &'static str, node: &Node) {
        let place = self.at(node);
        self.notes.entry(kind).or_default().push(place);
    }

    fn flush_notes(&mut self) {
        for (kind, places) in std::mem::take(&mut self.notes) {
            let shown: Vec<&str> = places.iter().take(3).map(String::as_str).collect();
            let more = if places.len() > 3 {
                format!(" and {} more", places.len() - 3)
            } else {
                String::new()
            };
            self.diags.push(Diagnostic::warning(format!(
                "{kind} ({} place{}: {}{more})",
                places.len(),
                if places.len() == 1 { "" } else { "s" },
                shown.join(", ")
            )));
        }
    }

    /// A warning that setting `key` in service.toml makes moot.
    fn defer_warning(&mut self, key: &str, node: &Node, message: impl std::fmt::Display) {
        let d = Diagnostic::warning(format!("{}: {message}", self.at(node)));
        self.defer(key, d);
    }

    fn defer(&mut self, key: &str, d: Diagnostic) {
        self.deferred.push((key.to_string(), d));
    }

    fn document(&mut self, filter: &Filter) -> Imported {
        let root = self.docs.root();
        let mut service = self.service(&root);
        let (auth, chosen) = self.auth(&root);
        let mut ids = IdAllocator::default();
        let mut capabilities = Vec::new();
        let mut origins = Vec::new();
        let mut tags_seen: Vec<String> = Vec::new();
        let (mut operations, mut filtered_out) = (0, 0);
        for (path, item) in root.child("paths").entries() {
            if path.starts_with("x-") {
                continue;
            }
            let item = match self.docs.deref(item) {
                Ok(i) => i,
                Err(d) => {
                    self.diags.push(d);
                    continue;
                }
            };
            for (method, op) in item.entries() {
                let lower = method.to_ascii_lowercase();
                if SKIPPED_METHODS.contains(&lower.as_str()) {
                    self.note(
                        "HEAD, OPTIONS, TRACE and QUERY operations are skipped: the agent documents describe GET, POST, PUT, PATCH and DELETE",
                        &op,
                    );
                    continue;
                }
                if !METHODS.contains(&lower.as_str()) {
                    continue;
                }
                operations += 1;
                let op = match self.docs.deref(op) {
                    Ok(o) => o,
                    Err(d) => {
                        self.diags.push(d);
                        continue;
                    }
                };
                let tags = string_list(op.get("tags"));
                let op_id = op.str("operationId").filter(|s| !s.trim().is_empty());
                let wanted = op_id.map_or_else(|| format!("{lower} {path}"), str::to_string);
                if !filter.keeps(op_id, &snake_case(&wanted), &tags) {
                    filtered_out += 1;
                    continue;
                }
                for t in &tags {
                    if !tags_seen.contains(t) {
                        tags_seen.push(t.clone());
                    }
                }
                match self.operation(
                    &path,
                    &lower,
                    &op,
                    &item,
                    &wanted,
                    &mut ids,
                    chosen.as_ref(),
                ) {
                    Ok(Some(c)) => {
                        origins.push(self.at(&op));
                        capabilities.push(c);
                    }
                    Ok(None) => {}
                    Err(d) => self.diags.push(d),
                }
            }
        }
        if filtered_out > 0 {
            self.diags.push(Diagnostic::warning(format!(
                "{}: {filtered_out} of {operations} operations left out by [source] include/exclude",
                self.docs.describe(&root.place)
            )));
        }
        if capabilities.is_empty() && self.diags.error_count() == 0 {
            let d = Diagnostic::error(format!(
                "{}#/paths: no operation to import ({operations} found, {filtered_out} filtered out)",
                self.docs.describe(&root.place).trim_end_matches('#')
            ));
            self.diags.push(d);
        }
        service.categories = self.categories(&root, &tags_seen);
        Imported {
            doc: raw::ServiceToml {
                service,
                auth,
                rate_limits: None,
                token_hints: None,
                meta: None,
                security: None,
                features: None,
                webhooks: Vec::new(),
                rfc002: None,
                plugin: None,
                pricing: None,
                agis: None,
                deploy: None,
                capabilities,
                source: None,
            },
            version: self.version,
            origins,
            deferred: std::mem::take(&mut self.deferred),
            operations,
            filtered_out,
        }
    }

    fn service(&mut self, root: &Node) -> raw::ServiceTable {
        let info = root.child("info");
        let title = info.str("title").map(one_line).filter(|t| !t.is_empty());
        let name = title.as_ref().map(|t| {
            let (name, cut) = shorten(t, NAME_MAX);
            if cut {
                self.defer_warning(
                    "service.name",
                    &info.child("title"),
                    format!("the title is shortened to {NAME_MAX} characters for `service.name`"),
                );
            }
            name
        });
        if name.is_none() {
            let d = Diagnostic::error(format!(
                "{}: no `info.title` to name the service",
                self.at(&info)
            ))
            .help("set `name` under [service] in service.toml");
            self.defer("service.name", d);
        }
        let text = info
            .str("description")
            .or_else(|| info.str("summary"))
            .map(one_line)
            .filter(|t| !t.is_empty());
        let description = match text {
            Some(t) => {
                let (d, cut) = shorten(&t, SERVICE_DESCRIPTION_MAX);
                if cut {
                    self.defer_warning(
                        "service.description",
                        &info.child("description"),
                        format!("the description is shortened to {SERVICE_DESCRIPTION_MAX} characters for `service.description`; set a better one in service.toml"),
                    );
                }
                Some(d)
            }
            None => name.as_ref().map(|n| {
                self.defer_warning(
                    "service.description",
                    &info,
                    format!(
                        "no description; using \"API for {n}\" (set `description` under [service])"
                    ),
                );
                shorten(&format!("API for {n}"), SERVICE_DESCRIPTION_MAX).0
            }),
        };
        let contact = info.child("contact");
        let contact = contact.value().is_object().then(|| raw::ContactTable {
            name: contact.str("name").map(one_line),
            email: contact
                .str("email")
                .filter(|e| e.contains('@') && !e.contains(char::is_whitespace))
                .map(str::to_string),
            url: self.https_link(&contact.child("url")),
        });
        let version = match info.get("version") {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        let license = info.child("license");
        raw::ServiceTable {
            name,
            description,
            base_url: self.base_url(root),
            version,
            license: license
                .str("identifier")
                .or_else(|| license.str("name"))
                .map(one_line),
            terms_url: self.https_link(&info.child("termsOfService")),
            docs_url: self.https_link(&root.child("externalDocs").child("url")),
            logo_url: self.https_link(&info.child("x-logo").child("url")),
            contact,
            ..raw::ServiceTable::default()
        }
    }

    /// An https link kept as it is; anything else dropped with a warning.
    fn https_link(&mut self, node: &Node) -> Option<String> {
        let url = node.value().as_str()?.trim();
        if url.is_empty() {
            return None;
        }
        if crate::model::url::check_https(url).is_ok() {
            Some(url.to_string())
        } else {
            self.note("links that are not https URLs are left out", node);
            None
        }
    }

    fn base_url(&mut self, root: &Node) -> Option<String> {
        let (url, node) = match self.version {
            Version::Swagger2 => {
                let Some(host) = root.str("host").filter(|h| !h.is_empty()) else {
                    let d = Diagnostic::error(format!(
                        "{}: no `host`, so no base URL",
                        self.docs.describe(&root.place)
                    ))
                    .help("set `base_url = \"https://…\"` under [service] in service.toml");
                    self.defer("service.base_url", d);
                    return None;
                };
                let schemes = string_list(root.get("schemes"));
                let scheme = if schemes.is_empty() {
                    self.warn(&root.child("schemes"), "no `schemes`; assuming https");
                    "https"
                } else if schemes.iter().any(|s| s.eq_ignore_ascii_case("https")) {
                    "https"
                } else {
                    schemes[0].as_str()
                };
                let base = root.str("basePath").unwrap_or("");
                (format!("{scheme}://{host}{base}"), root.child("host"))
            }
            _ => {
                let server = root.child("servers").child("0");
                let Some(url) = server.str("url") else {
                    let d = Diagnostic::error(format!(
                        "{}: no `servers`, so no base URL",
                        self.docs.describe(&root.place)
                    ))
                    .help("set `base_url = \"https://…\"` under [service] in service.toml");
                    self.defer("service.base_url", d);
                    return None;
                };
                let mut url = url.to_string();
                for (name, var) in server.child("variables").entries() {
                    let value = match var.get("default") {
                        Some(Value::String(s)) => s.clone(),
                        Some(v) if !v.is_null() => v.to_string(),
                        _ => continue,
                    };
                    url = url.replace(&format!("{{{name}}}"), &value);
                }
                (url, server.child("url"))
            }
        };
        let problem = if url.contains('{') {
            Some("has a variable without a default")
        } else if url.starts_with('/') || !url.contains("://") {
            Some("is relative: it only means something next to where the document is served")
        } else if url.starts_with("http://") {
            Some("uses http; the agent documents require https")
        } else {
            None
        };
        let problem = problem
            .map(str::to_string)
            .or_else(|| HttpsUrl::parse_base(&url).err());
        match problem {
            None => Some(url.trim_end_matches('/').to_string()),
            Some(p) => {
                let d =
                    Diagnostic::error(format!("{}: the server URL `{url}` {p}", self.at(&node)))
                        .help("set `base_url = \"https://…\"` under [service] in service.toml");
                self.defer("service.base_url", d);
                None
            }
        }
    }

    fn categories(&mut self, root: &Node, op_tags: &[String]) -> Option<Vec<String>> {
        let mut words: Vec<String> = root
            .child("tags")
            .items()
            .iter()
            .filter_map(|t| t.str("name").map(str::to_string))
            .collect();
        words.extend(op_tags.iter().cloned());
        words.extend(string_list(root.child("info").get("x-apisguru-categories")));
        let mut out: Vec<String> = Vec::new();
        for w in words {
            let w = w.trim().to_ascii_lowercase();
            if CATEGORIES.contains(&w.as_str()) && !out.contains(&w) {
                out.push(w);
            }
        }
        (!out.is_empty()).then_some(out)
    }

    fn auth(&mut self, root: &Node) -> (Option<raw::AuthTable>, Option<Chosen>) {
        let schemes = match self.version {
            Version::Swagger2 => root.child("securityDefinitions"),
            _ => root.child("components").child("securitySchemes"),
        };
        let declared = schemes.entries();
        if declared.is_empty() {
            return (None, None);
        }
        // Schemes the API actually requires come first, in the order it lists them.
        let mut order: Vec<String> = Vec::new();
        for req in root.child("security").items() {
            for (name, _) in req.entries() {
                if !order.contains(&name) {
                    order.push(name);
                }
            }
        }
        for (name, _) in &declared {
            if !order.contains(name) {
                order.push(name.clone());
            }
        }
        for name in order {
            let Some((_, node)) = declared.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            let node = match self.docs.deref(node.clone()) {
                Ok(n) => n,
                Err(d) => {
                    self.diags.push(d);
                    continue;
                }
            };
            match self.scheme(&node) {
                Ok(table) => {
                    let oauth2 = table.kind.as_deref() == Some("oauth2");
                    return (Some(table), Some(Chosen { name, oauth2 }));
                }
                Err(why) => self.warn(
                    &node,
                    format!("security scheme `{name}` is not published: {why}; set [auth] in service.toml to describe it"),
                ),
            }
        }
        (None, None)
    }

    /// One security scheme as `[auth]`, or why it cannot be one.
    fn scheme(&mut self, node: &Node) -> Result<raw::AuthTable, String> {
        let empty = raw::AuthTable {
            kind: None,
            header: None,
            docs_url: None,
            key_url: None,
            token_url: None,
            authorization_url: None,
            scopes: None,
            grant_types: None,
            pkce: None,
            token_lifetime: None,
            algorithm: None,
            header_prefix: None,
            key_rotation_days: None,
        };
        let kind = node.str("type").unwrap_or_default();
        match kind {
            "apiKey" => {
                let place = node.str("in").unwrap_or_default();
                let header = node.str("name").unwrap_or_default();
                if place != "header" {
                    return Err(format!(
                        "an API key in the {place} (only headers are described)"
                    ));
                }
                if header.is_empty()
                    || !header
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
                {
                    return Err(format!("`{header}` is not a header name"));
                }
                Ok(raw::AuthTable {
                    kind: Some("api_key".into()),
                    header: Some(header.to_string()),
                    ..empty
                })
            }
            "http"
                if node
                    .str("scheme")
                    .is_some_and(|s| s.eq_ignore_ascii_case("bearer")) =>
            {
                Ok(raw::AuthTable {
                    kind: Some("bearer".into()),
                    ..empty
                })
            }
            "oauth2" => {
                let (authorization_url, token_url, grants, scopes) = self.oauth2_flows(node);
                let check = |u: &Option<String>, what: &str| match u {
                    None => Err(format!("no {what}")),
                    Some(u) => crate::model::url::check_https(u)
                        .map(|_| ())
                        .map_err(|e| format!("its {what} `{u}`: {e}")),
                };
                check(&authorization_url, "authorizationUrl")?;
                check(&token_url, "tokenUrl")?;
                if grants.is_empty() {
                    return Err("only implicit or password flows, which agents do not use".into());
                }
                if scopes.is_empty() {
                    return Err("an OAuth 2 scheme without scopes".into());
                }
                Ok(raw::AuthTable {
                    kind: Some("oauth2".into()),
                    authorization_url,
                    token_url,
                    scopes: Some(scopes),
                    grant_types: Some(grants),
                    ..empty
                })
            }
            "http" | "basic" => Err(format!(
                "HTTP {} authentication",
                node.str("scheme").unwrap_or("basic")
            )),
            other => Err(format!("type `{other}`")),
        }
    }

    /// authorizationUrl, tokenUrl, wellgen grant types and the united scopes of every flow.
    fn oauth2_flows(
        &mut self,
        node: &Node,
    ) -> (
        Option<String>,
        Option<String>,
        Vec<String>,
        IndexMap<String, String>,
    ) {
        let mut flows: Vec<(String, Node)> = match self.version {
            Version::Swagger2 => {
                let flow = match node.str("flow").unwrap_or_default() {
                    "accessCode" => "authorizationCode",
                    "application" => "clientCredentials",
                    other => other,
                };
                vec![(flow.to_string(), node.clone())]
            }
            _ => node.child("flows").entries(),
        };
        // Authorization code first: it is the flow that has both URLs.
        flows.sort_by_key(|(name, _)| name != "authorizationCode");
        let (mut auth_url, mut token_url) = (None, None);
        let mut grants = Vec::new();
        let mut scopes = IndexMap::new();
        for (flow, f) in flows {
            auth_url = auth_url.or_else(|| f.str("authorizationUrl").map(str::to_string));
            token_url = token_url.or_else(|| f.str("tokenUrl").map(str::to_string));
            match flow.as_str() {
                "authorizationCode" => grants.push("authorization_code".to_string()),
                "clientCredentials" => grants.push("client_credentials".to_string()),
                _ => {}
            }
            for (scope, d) in f.child("scopes").entries() {
                let text = d.value().as_str().map(one_line).unwrap_or_default();
                scopes.entry(scope).or_insert(text);
            }
        }
        (auth_url, token_url, grants, scopes)
    }

    #[allow(clippy::too_many_arguments)]
    fn operation(
        &mut self,
        path: &str,
        method: &str,
        op: &Node,
        item: &Node,
        wanted_id: &str,
        ids: &mut IdAllocator,
        chosen: Option<&Chosen>,
    ) -> Result<Option<raw::CapabilityTable>, Diagnostic> {
        let Some((path, renamed)) = self.path(path, op) else {
            return Ok(None);
        };
        let id = ids.allocate(wanted_id);
        let text = op
            .str("summary")
            .or_else(|| op.str("description"))
            .map(one_line)
            .filter(|t| !t.is_empty());
        let description = match text {
            Some(t) => {
                let (d, cut) = shorten(&t, DESCRIPTION_MAX);
                if cut {
                    self.note(
                        "operation descriptions are shortened to 200 characters at a word boundary",
                        op,
                    );
                }
                d
            }
            None => {
                self.note(
                    "operations without summary or description are described by method and path",
                    op,
                );
                format!("{} {path}", method.to_ascii_uppercase())
            }
        };
        let mut params: IndexMap<String, raw::ParamValue> = IndexMap::new();
        let mut content_type = None;
        self.parameters(item, op, &renamed, &path, &mut params, &mut content_type)?;
        if self.version != Version::Swagger2 {
            self.request_body(op, &mut params, &mut content_type)?;
        }
        let (returns, output_schema) = self.response(op)?;
        let (access, scopes) = self.access(op, chosen);
        let errors = self.errors(op);
        let semantic = self.semantic(op);
        let tags = string_list(op.get("tags"));
        Ok(Some(raw::CapabilityTable {
            id: Some(id),
            description: Some(description),
            method: Some(method.to_ascii_uppercase()),
            path: Some(path),
            access: Some(access.into()),
            scopes,
            returns,
            deprecated: (op.get("deprecated") == Some(&Value::Bool(true))).then_some(true),
            rate_limit: None,
            content_type,
            confirm: None,
            tags: (!tags.is_empty()).then_some(tags),
            params,
            example: None,
            errors,
            semantic,
            output_schema,
        }))
    }

    /// The path as a wellgen template: query strings dropped, parameter names made valid
    /// (the renames are returned so parameters follow). `None` when it cannot be represented.
    fn path(&mut self, path: &str, op: &Node) -> Option<(String, Vec<(String, String)>)> {
        let mut p = path
            .split(['?', '#'])
            .next()
            .unwrap_or_default()
            .to_string();
        if p.len() != path.len() {
            self.note(
                "query strings and fragments written into paths are dropped",
                op,
            );
        }
        if !p.starts_with('/') {
            p.insert(0, '/');
        }
        let mut renamed = Vec::new();
        let mut out = String::new();
        let mut rest = p.as_str();
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let Some(close) = rest[open..].find('}') else {
                break;
            };
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
            if valid != name {
                renamed.push((name.to_string(), valid.clone()));
            }
            out.push('{');
            out.push_str(&valid);
            out.push('}');
            rest = &rest[open + close + 1..];
        }
        out.push_str(rest);
        if !renamed.is_empty() {
            self.note(
                "path parameter names are made of letters, digits, `_` and `-` (others became `_`)",
                op,
            );
        }
        // A literal `:word` after a `/` would read as a parameter: escape nothing, just refuse.
        match PathTemplate::parse(&out) {
            Ok(_) if !(out.contains("/:") && out.contains('{')) => Some((out, renamed)),
            Ok(_) | Err(_) => {
                let why = PathTemplate::parse(&out).err().unwrap_or_else(|| {
                    "it mixes `{param}` with a segment starting with `:`".into()
                });
                self.warn(op, format!("operation skipped: its path `{path}` cannot be represented ({why}); describe it by hand in service.toml"));
                None
            }
        }
    }

    fn parameters(
        &mut self,
        item: &Node,
        op: &Node,
        renamed: &[(String, String)],
        path: &str,
        params: &mut IndexMap<String, raw::ParamValue>,
        content_type: &mut Option<String>,
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
            let key = (
                node.str("name").unwrap_or_default().to_string(),
                node.str("in").unwrap_or_default().to_string(),
            );
            if !keys.contains(&key) {
                keys.push(key);
                list.push(node);
            }
        }
        let template = PathTemplate::parse(path).ok();
        let mut form = false;
        for node in list {
            let Some(name) = node.str("name").map(str::to_string) else {
                continue;
            };
            let location = node.str("in").unwrap_or_default().to_string();
            match location.as_str() {
                "body" => {
                    let schema = node.child("schema");
                    let required = node.get("required") == Some(&Value::Bool(true));
                    let description = node.str("description").map(str::to_string);
                    self.body_schema(&schema, required, description, params)?;
                    continue;
                }
                "cookie" => {
                    self.note("cookie parameters are left out (agents send path, query, header and body values)", &node);
                    continue;
                }
                "header"
                    if ["accept", "content-type", "authorization"]
                        .contains(&name.to_ascii_lowercase().as_str()) =>
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
            if location == "path"
                && !template
                    .as_ref()
                    .is_some_and(|t| t.params().any(|p| p == name))
            {
                self.note(
                    "path parameters that the path does not name are left out",
                    &node,
                );
                continue;
            }
            let schema = match self.version {
                Version::Swagger2 => Expander::new(self.docs).expand(&node)?,
                _ => {
                    let schema = if node.get("schema").is_some() {
                        node.child("schema")
                    } else {
                        node.child("content")
                            .entries()
                            .into_iter()
                            .next()
                            .map_or_else(|| node.child("schema"), |(_, m)| m.child("schema"))
                    };
                    Expander::new(self.docs).expand(&schema)?
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
            let required = default_required || node.get("required") == Some(&Value::Bool(true));
            let example = node
                .get("example")
                .cloned()
                .or_else(|| first_example(node.get("examples")));
            let description = node.str("description").map(str::to_string);
            let table = self.param_table(&schema, required, description, in_, example, &node);
            self.insert_param(params, name, table, &node);
        }
        if form {
            let consumes = string_list(op.get("consumes"))
                .into_iter()
                .chain(string_list(self.docs.root().get("consumes")))
                .find(|c| c.contains("form"));
            *content_type =
                Some(consumes.unwrap_or_else(|| "application/x-www-form-urlencoded".into()));
        }
        Ok(())
    }

    fn insert_param(
        &mut self,
        params: &mut IndexMap<String, raw::ParamValue>,
        name: String,
        table: raw::ParamTable,
        node: &Node,
    ) {
        if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
            self.note("parameters whose names hold white space are left out", node);
            return;
        }
        if params.contains_key(&name) {
            self.note("a parameter with the name of an earlier one (e.g. a body field named like a query parameter) is left out", node);
            return;
        }
        params.insert(name, raw::ParamValue::Table(table));
    }

    fn request_body(
        &mut self,
        op: &Node,
        params: &mut IndexMap<String, raw::ParamValue>,
        content_type: &mut Option<String>,
    ) -> Result<(), Diagnostic> {
        if op.get("requestBody").is_none() {
            return Ok(());
        }
        let body = self.docs.deref(op.child("requestBody"))?;
        let Some((media, node)) = pick_media(&body.child("content")) else {
            return Ok(());
        };
        if media != "application/json" {
            *content_type = Some(media);
        }
        let required = body.get("required") == Some(&Value::Bool(true));
        let description = body.str("description").map(str::to_string);
        self.body_schema(&node.child("schema"), required, description, params)
    }

    /// A request body's schema: the top-level properties become `in = "body"` parameters;
    /// any other shape becomes one `body` parameter that describes it.
    fn body_schema(
        &mut self,
        schema: &Node,
        required: bool,
        description: Option<String>,
        params: &mut IndexMap<String, raw::ParamValue>,
    ) -> Result<(), Diagnostic> {
        if schema.value().is_null() {
            return Ok(());
        }
        let expanded = Expander::new(self.docs).expand(schema)?;
        if let Some(props) = expanded.get("properties").and_then(Value::as_object)
            && !props.is_empty()
        {
            let required_names = string_list(expanded.get("required"));
            for (name, prop) in props {
                let req = required_names.contains(name);
                let table = self.param_table(prop, req, None, "body", None, schema);
                self.insert_param(params, name.clone(), table, schema);
            }
            return Ok(());
        }
        let variants = expanded
            .get("oneOf")
            .or_else(|| expanded.get("anyOf"))
            .and_then(Value::as_array);
        let mut table = self.param_table(&expanded, required, description, "body", None, schema);
        if let Some(variants) = variants {
            let shapes: Vec<String> = variants.iter().map(|v| compact(v, "", 1)).collect();
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
        Ok(())
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
        let kind = schema_type(schema);
        let typed = |v: &Value| coerce(kind, v);
        let dropped = std::cell::Cell::new(false);
        let keep = |v: Option<&Value>| -> Option<Value> {
            let v = v?;
            if v.is_null() {
                return None;
            }
            let t = typed(v);
            if t.is_none() {
                dropped.set(true);
            }
            t
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
        );
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
            self.note("defaults, examples, enum values and bounds that do not fit the parameter's type are left out", node);
        }
        let description = description
            .or_else(|| {
                schema
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .map(|d| shorten(&d, PARAM_DESCRIPTION_MAX).0)
            .filter(|d| !d.is_empty());
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
            location: Some(location.into()),
        }
    }

    /// `returns` and `output_schema` from the first success response with a schema.
    fn response(&mut self, op: &Node) -> Result<(Option<String>, Option<toml::Value>), Diagnostic> {
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
            let mut expander = Expander::new(self.docs);
            let expanded = expander.expand(&schema)?;
            if expander.cut {
                self.note("response schemas nested deeper than 8 levels or larger than 2000 nodes are cut to `{}` in output_schema", op);
            }
            let mut returns = compact(&expanded, &noun, 2);
            if returns.chars().count() > RETURNS_MAX {
                returns = compact(&expanded, &noun, 1);
            }
            let returns = shorten(&returns, RETURNS_MAX).0;
            let output = to_toml(expanded).filter(toml::Value::is_table);
            return Ok((Some(returns), output));
        }
        Ok((None, None))
    }

    /// The noun a `returns` line starts with: the component's name (`Pet` → `pet`,
    /// an array of them → `pets[]`), else `result`.
    fn noun(&mut self, schema: &Node) -> Result<String, Diagnostic> {
        let name_of = |this: &mut Self, n: &Node| -> Result<Option<String>, Diagnostic> {
            Ok(this
                .docs
                .ref_target(n)?
                .map(|p: Place| snake_case(&this.docs.name(&p))))
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

    fn errors(&mut self, op: &Node) -> Vec<raw::ErrorTable> {
        let mut out: Vec<raw::ErrorTable> = Vec::new();
        for (code, response) in op.child("responses").entries() {
            let Ok(status) = code.parse::<i64>() else {
                continue;
            };
            if !(400..=599).contains(&status) {
                continue;
            }
            let description = self
                .docs
                .deref(response)
                .ok()
                .and_then(|r| r.str("description").map(|d| shorten(d, DESCRIPTION_MAX).0))
                .filter(|d| !d.is_empty());
            let mut name = reason(status as u16).to_string();
            if out.iter().any(|e| e.name.as_deref() == Some(name.as_str())) {
                name = format!("{name}_{status}");
            }
            out.push(raw::ErrorTable {
                name: Some(name),
                status: Some(status),
                description,
            });
        }
        out
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

/// The preferred media type of a `content` map: JSON, then any JSON flavour, then forms.
fn pick_media(content: &Node) -> Option<(String, Node)> {
    let entries = content.entries();
    let rank = |m: &str| {
        let m = m.to_ascii_lowercase();
        if m.starts_with("application/json") {
            0
        } else if m.contains("json") {
            1
        } else if m.starts_with("application/x-www-form-urlencoded") {
            2
        } else if m.starts_with("multipart/form-data") {
            3
        } else {
            4
        }
    };
    entries.into_iter().min_by_key(|(m, _)| rank(m))
}

fn string_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn first_example(examples: Option<&Value>) -> Option<Value> {
    examples?
        .as_object()?
        .values()
        .find_map(|e| e.get("value").cloned())
}

/// The parameter type of a schema; 3.1 type lists take their first non-null entry.
fn schema_type(schema: &Value) -> ParamType {
    let named = match schema.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    };
    if let Some(t) = named.and_then(ParamType::parse) {
        return t;
    }
    if schema.get("properties").is_some() {
        ParamType::Object
    } else if schema.get("items").is_some() {
        ParamType::Array
    } else if let Some(first) = schema.get("enum").and_then(|e| e.get(0)) {
        match first {
            Value::Bool(_) => ParamType::Boolean,
            Value::Number(n) if n.is_i64() || n.is_u64() => ParamType::Integer,
            Value::Number(_) => ParamType::Number,
            _ => ParamType::String,
        }
    } else {
        // No type, `file` (Swagger 2.0) or a composition: a string is what a client sends.
        ParamType::String
    }
}

/// A value as the parameter type wants it (`"10"` for an integer becomes 10), or `None`.
fn coerce(kind: ParamType, v: &Value) -> Option<Value> {
    if kind.admits(v) {
        return Some(v.clone());
    }
    let s = v.as_str()?;
    let parsed = match kind {
        ParamType::Integer => s.parse::<i64>().ok().map(Value::from),
        ParamType::Number => s
            .parse::<f64>()
            .ok()
            .and_then(|f| serde_json::Number::from_f64(f).map(Value::Number)),
        ParamType::Boolean => s.parse::<bool>().ok().map(Value::Bool),
        _ => None,
    };
    parsed.filter(|p| kind.admits(p))
}

/// JSON → TOML: `null` has no TOML spelling and is left out (in arrays and tables too).
pub fn to_toml(v: Value) -> Option<toml::Value> {
    Some(match v {
        Value::Null => return None,
        Value::Bool(b) => toml::Value::Boolean(b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64()?),
        },
        Value::String(s) => toml::Value::String(s),
        Value::Array(a) => toml::Value::Array(a.into_iter().filter_map(to_toml).collect()),
        Value::Object(m) => toml::Value::Table(
            m.into_iter()
                .filter_map(|(k, v)| Some((k, to_toml(v)?)))
                .collect(),
        ),
    })
}

/// The compact `returns` notation of a schema: `pets[] {id, name, tag}`; nested objects are
/// shown `depth` levels deep.
pub fn compact(schema: &Value, noun: &str, depth: usize) -> String {
    let shape = shape(schema, depth);
    if shape.starts_with("[]") {
        format!("{noun}{shape}")
    } else if shape.starts_with('{') {
        format!("{noun} {shape}")
    } else if shape.is_empty() || noun != "result" {
        noun.to_string()
    } else {
        shape
    }
}

/// `{a, b[], c {d}}` for objects, `[]` plus the item shape for arrays, the type name for
/// primitives, alternatives joined by ` | `.
fn shape(schema: &Value, depth: usize) -> String {
    if let Some(items) = schema.get("items") {
        let inner = shape(items, depth);
        return if inner.starts_with('{') {
            format!("[] {inner}")
        } else {
            "[]".into()
        };
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        if depth == 0 {
            return String::new();
        }
        let fields: Vec<String> = props
            .iter()
            .map(|(name, sub)| {
                let inner = shape(sub, depth - 1);
                if inner == "[]" {
                    format!("{name}[]")
                } else if inner.starts_with("[] ") {
                    format!("{name}{inner}").replacen("[] ", "[] ", 1)
                } else if inner.starts_with('{') {
                    format!("{name} {inner}")
                } else {
                    name.clone()
                }
            })
            .collect();
        return format!("{{{}}}", fields.join(", "));
    }
    if let Some(variants) = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
    {
        let parts: Vec<String> = variants
            .iter()
            .map(|v| shape(v, depth))
            .filter(|s| !s.is_empty())
            .collect();
        return parts.join(" | ");
    }
    match schema.get("type") {
        Some(Value::String(t)) if t != "object" => t.clone(),
        _ => String::new(),
    }
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
        s if s < 500 => "client_error",
        _ => "server_error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn returns_notation() {
        let s = json!({"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}},
            "owner": {"type": "object", "properties": {"name": {}}}
        }}});
        assert_eq!(compact(&s, "pets", 2), "pets[] {id, tags[], owner {name}}");
        assert_eq!(compact(&s, "pets", 1), "pets[] {id, tags[], owner}");
        assert_eq!(compact(&json!({"type": "string"}), "result", 2), "string");
        assert_eq!(compact(&json!({"type": "string"}), "pet", 2), "pet");
        let nested = json!({"properties": {"data": {"items": {"properties": {"id": {}}}}}});
        assert_eq!(compact(&nested, "list", 2), "list {data[] {id}}");
    }

    #[test]
    fn values_are_coerced_to_the_parameter_type() {
        assert_eq!(coerce(ParamType::Integer, &json!("10")), Some(json!(10)));
        assert_eq!(coerce(ParamType::Integer, &json!("ten")), None);
        assert_eq!(coerce(ParamType::String, &json!(3)), None);
        assert_eq!(
            schema_type(&json!({"type": ["null", "integer"]})),
            ParamType::Integer
        );
    }

    #[test]
    fn filters_by_tag_and_operation() {
        let f = Filter {
            include: vec!["tag:pet*".into(), "op:get_*".into()],
            exclude: vec!["op:*_delete".into()],
        };
        assert!(f.keeps(None, "list_things", &["pets".into()]));
        assert!(f.keeps(Some("getThing"), "get_thing", &[]));
        assert!(!f.keeps(None, "list_things", &["store".into()]));
        assert!(!f.keeps(None, "get_pet_delete", &[]));
    }
}
