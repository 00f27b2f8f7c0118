//! OpenAPI (2.0, 3.0, 3.1) → the raw service.toml mirror. One walker over `serde_json::Value`
//! serves every version; where versions differ (servers, security schemes, bodies), small
//! branches say so. Everything derived is checked against the model's limits here, so the
//! result lowers cleanly; what cannot be derived is left for service.toml and reported.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;
use std::sync::Arc;

use super::load::Version;
use super::naming::{IdAllocator, capability_id, glob, one_line, shorten};
use super::operation::Job;
use super::refs::{Documents, Node};
use crate::diag::{Code, Diagnostic, Diagnostics, Origin};
use crate::source::service_toml as raw;
use crate::values::CATEGORIES;
use crate::values::url::HttpsUrl;

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
                return Err(Diagnostic::new(
                    Code::OpenapiInvalid,
                    format!("`{p}` is not a filter: write `tag:<glob>` or `op:<glob>`"),
                )
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
    /// For each capability, its operation's `operationId`, if it has one.
    pub operation_ids: Vec<Option<String>>,
    /// For each named schema (`[schemas]`), the place of its component
    /// (`openapi.yaml#/components/schemas/Pet`).
    pub schema_origins: HashMap<String, String>,
    /// Problems a service.toml key can fix, keyed by that key (`service.base_url`): reported
    /// unless the completing service.toml sets the key.
    pub deferred: Vec<(String, Diagnostic)>,
    /// Operations found, and operations left out by the filter.
    pub operations: usize,
    pub filtered_out: usize,
    /// The base path the document gives without a host (`/api`): a base URL given by
    /// `[service] base_url` is joined with it (see `join_base_path`).
    pub base_path: Option<String>,
}

pub const NAME_MAX: usize = 100;
/// The targets want a service description under 200 characters (aiendpoint §3.2, ADP).
pub const SERVICE_DESCRIPTION_MAX: usize = 200;
pub const DESCRIPTION_MAX: usize = 200;
pub const PARAM_DESCRIPTION_MAX: usize = 300;
pub const RETURNS_MAX: usize = 300;

const METHODS: [&str; 5] = ["get", "put", "post", "delete", "patch"];
const SKIPPED_METHODS: [&str; 4] = ["head", "options", "trace", "query"];
const SKIPPED_METHOD: Finding = Finding::new(
    Code::ImportOperationSkipped,
    "HEAD, OPTIONS, TRACE and QUERY operations are skipped: the agent documents describe GET, POST, PUT, PATCH and DELETE",
);

/// Lowers a loaded document. Errors go to `diags`; `None` when any was found.
pub fn lower(
    docs: &mut Documents,
    version: Version,
    options: &super::Options,
    diags: &mut Diagnostics,
) -> Option<Imported> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    lower_on(docs, version, options, diags, workers)
}

/// [`lower`] with operations imported on up to `workers` threads.
fn lower_on(
    docs: &mut Documents,
    version: Version,
    options: &super::Options,
    diags: &mut Diagnostics,
    workers: usize,
) -> Option<Imported> {
    let mut lx = Lx {
        docs,
        version,
        workers,
        diags: Diagnostics::default(),
        prior_errors: diags.error_count(),
        notes: BTreeMap::new(),
        deferred: Vec::new(),
        placeholders: Vec::new(),
        base_url_flag: options.base_url.clone(),
        command: options.command,
        base_path: None,
        templates: HashMap::new(),
    };
    let mut imported = lx.document(&options.filter);
    let (schemas, made) = lx.docs.take_components();
    for (name, at, met) in made {
        for finding in super::operation::findings(met) {
            lx.notes.entry(finding).or_default().push(at.clone());
        }
        imported.schema_origins.insert(name, at);
    }
    // Each `returns` is only its noun until the named schemas its response refers to are made.
    let mut lines: HashMap<(*const Value, String), String> = HashMap::new();
    for cap in &mut imported.doc.capabilities {
        if let (Some(schema), Some(returns)) = (&cap.output_schema, &mut cap.returns) {
            let key = (Arc::as_ptr(schema), std::mem::take(returns));
            let line = lines.entry(key).or_insert_with_key(|(_, noun)| {
                super::operation::returns_line(schema, &schemas, noun)
            });
            *returns = line.clone();
        }
    }
    imported.doc.schemas = schemas;
    lx.flush_notes();
    let ok = lx.diags.error_count() == 0;
    diags.append(lx.diags);
    ok.then_some(imported)
}

/// Operations from this many up are imported on every core (`Lx::operations`): below it, the
/// threads would cost more than they save.
const PARALLEL_FROM: usize = 128;

/// A finding the import meets at many places: one diagnostic each, grouped by the renderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Finding {
    /// First: findings are reported in the order of their texts.
    pub(super) text: &'static str,
    pub(super) code: Code,
}

impl Finding {
    /// Something left out, to describe in service.toml or accept.
    pub(super) const fn lost(text: &'static str) -> Self {
        Self::new(Code::ImportLost, text)
    }

    /// A rewrite into a form the model holds: said, but nothing to act on.
    pub(super) const fn adjusted(text: &'static str) -> Self {
        Self::new(Code::ImportAdjusted, text)
    }

    pub(super) const fn new(code: Code, text: &'static str) -> Self {
        Self { text, code }
    }
}

/// What the import reported over a stretch of it, in the order it found it.
#[derive(Default)]
pub(super) struct Sink {
    diags: Diagnostics,
    notes: BTreeMap<Finding, Vec<String>>,
    deferred: Vec<(String, Diagnostic)>,
}

pub(super) struct Lx<'a> {
    pub(super) docs: &'a mut Documents,
    pub(super) version: Version,
    /// Threads a large API's operations may be imported on.
    workers: usize,
    /// What this import reported; the caller's diagnostics get them at the end.
    pub(super) diags: Diagnostics,
    /// The errors the caller's diagnostics held before the import.
    prior_errors: usize,
    /// Repeated, minor findings by kind, with their places: one diagnostic each at the end.
    notes: BTreeMap<Finding, Vec<String>>,
    deferred: Vec<(String, Diagnostic)>,
    /// The `{placeholders}` of the path of the operation being imported: names only path
    /// parameters may take.
    pub(super) placeholders: Vec<String>,
    /// `--base-url`: wins over the document's servers.
    base_url_flag: Option<String>,
    /// The command the user ran (`build`, `check`, `import`), for helps that name it.
    command: &'static str,
    /// The base path the document gives without a host (Swagger `basePath`, a relative server
    /// URL), joined to the base URL the user gives.
    base_path: Option<String>,
    /// Each path shape seen (`/orgs/{}/attestations/{}`) → the parameter names of the first
    /// path with that shape: later paths of the same shape take them.
    pub(super) templates: HashMap<String, Vec<String>>,
}

/// The security scheme chosen for `[auth]`.
pub(super) struct Chosen {
    pub(super) name: String,
    pub(super) oauth2: bool,
}

impl Lx<'_> {
    pub(super) fn at(&self, node: &Node) -> String {
        self.docs.describe(&node.place)
    }

    pub(super) fn report(&mut self, code: Code, node: &Node, message: impl std::fmt::Display) {
        let place = self.at(node);
        self.diags
            .push(Diagnostic::new(code, format!("{place}: {message}")));
    }

    pub(super) fn note(&mut self, kind: Finding, node: &Node) {
        let place = self.at(node);
        self.notes.entry(kind).or_default().push(place);
    }

    /// One diagnostic per place of each repeated finding, its place as its origin: the
    /// renderer groups them by kind, `--verbose` and `--format json` list every one. A place
    /// reached twice (a path-level parameter, once from each of its operations) counts once.
    fn flush_notes(&mut self) {
        for (kind, places) in std::mem::take(&mut self.notes) {
            let mut seen = std::collections::HashSet::new();
            for place in places {
                if seen.insert(place.clone()) {
                    self.diags
                        .push(Diagnostic::new(kind.code, kind.text).from(Origin::Document(place)));
                }
            }
        }
    }

    /// One warning per file that refs name and that does not exist, with the refs' places:
    /// the import goes on with the open schema `{}` in place of what they refer to.
    fn report_missing_files(&mut self) {
        let missing = self.docs.missing_files();
        let mut files: Vec<(&str, Vec<&super::refs::MissingRef>)> = Vec::new();
        for m in &missing {
            match files.last_mut() {
                Some((file, refs)) if *file == m.file => refs.push(m),
                _ => files.push((&m.file, vec![m])),
            }
        }
        for (file, refs) in files {
            let first = refs[0];
            let more = match refs.len() {
                1 => String::new(),
                n => format!(" ({n} refs name it)"),
            };
            self.diags.push(
                Diagnostic::new(
                    Code::ImportRefMissing,
                    format!(
                        "{}: `{}` names the file {file}, which does not exist{more}: what it refers to is read as a schema that allows any value (`{{}}`)",
                        first.at,
                        one_line(&first.reference)
                    ),
                )
                .help("add the file beside the document, or fix the reference"),
            );
        }
    }

    /// A diagnostic at `node` that setting `key` in service.toml makes moot.
    fn defer_report(
        &mut self,
        code: Code,
        key: &str,
        node: &Node,
        message: impl std::fmt::Display,
    ) {
        let d = Diagnostic::new(code, format!("{}: {message}", self.at(node)));
        self.defer(key, d);
    }

    pub(super) fn defer(&mut self, key: &str, d: Diagnostic) {
        self.deferred.push((key.to_string(), d));
    }

    /// What was reported since the last take.
    fn take_sink(&mut self) -> Sink {
        Sink {
            diags: std::mem::take(&mut self.diags),
            notes: std::mem::take(&mut self.notes),
            deferred: std::mem::take(&mut self.deferred),
        }
    }

    fn append_sink(&mut self, sink: Sink) {
        self.diags.append(sink.diags);
        for (kind, places) in sink.notes {
            self.notes.entry(kind).or_default().extend(places);
        }
        self.deferred.extend(sink.deferred);
    }

    /// An importer on `docs` (a fork of this one's) for the operations of another thread.
    fn fork<'b>(&self, docs: &'b mut Documents) -> Lx<'b> {
        Lx {
            docs,
            version: self.version,
            workers: 1,
            diags: Diagnostics::default(),
            prior_errors: 0,
            notes: BTreeMap::new(),
            deferred: Vec::new(),
            placeholders: Vec::new(),
            base_url_flag: self.base_url_flag.clone(),
            command: self.command,
            base_path: self.base_path.clone(),
            templates: HashMap::new(),
        }
    }

    /// Every job's capability (or error) and what its import reported, in job order. A large
    /// API's operations are imported on every core, each thread on its own fork of the
    /// documents, which gives what one thread gives: an operation depends on no other, and a
    /// remembered expansion is the one a fresh expansion would give. The files refs reach are
    /// read once for all threads, against one input limit. If the threads together spent more
    /// than the budget for expanded schemas, or a referenced file could not be read (the
    /// limit may then refuse another file than on one thread), the import runs again on one
    /// thread, to fail where it always failed.
    fn operations(
        &mut self,
        jobs: &[Job],
        chosen: Option<&Chosen>,
    ) -> Vec<(Result<raw::CapabilityTable, Diagnostic>, Sink)> {
        let workers = self.workers;
        if jobs.len() >= PARALLEL_FROM && workers > 1 {
            let mark = self.docs.load_mark();
            let this = &*self;
            let (done, forks) = crate::parallel::map_with(
                jobs,
                workers,
                || this.docs.fork(),
                |docs, job| {
                    let left = docs.expansion_left();
                    let mut lx = this.fork(docs);
                    let result = lx.operation(job, chosen);
                    let sink = lx.take_sink();
                    (result, sink, left - docs.expansion_left())
                },
            );
            // Their remembered expansions are freed beside what comes next (20 ms of CPU for
            // GitHub's build), even when the process ends after the command: the targets then
            // reuse that memory instead of adding to the peak.
            crate::parallel::drop_aside(forks);
            let spent = done.iter().map(|(_, _, spent)| *spent).sum::<usize>();
            if spent <= self.docs.expansion_left() && !self.docs.failed_since(&mark) {
                // What the import on one thread would have spent, in the same steps.
                self.docs.spend(spent);
                return done.into_iter().map(|(r, s, _)| (r, s)).collect();
            }
            self.docs.rewind(mark);
        }
        jobs.iter()
            .map(|job| (self.operation(job, chosen), self.take_sink()))
            .collect()
    }

    fn document(&mut self, filter: &Filter) -> Imported {
        let root = self.docs.root();
        let mut service = self.service(&root);
        let (auth, chosen) = self.auth(&root);
        let mut ids = IdAllocator::reserving(self.wanted_ids(&root).iter().map(String::as_str));
        let mut tags_seen: Vec<String> = Vec::new();
        // Operations to import, and what was reported before each (see `Lx::operations`).
        let mut jobs = Vec::new();
        let mut reported = Vec::new();
        let (mut operations, mut filtered_out) = (0usize, 0usize);
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
                    self.note(SKIPPED_METHOD, &op);
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
                if !filter.keeps(op_id, &capability_id(&wanted), &tags) {
                    filtered_out += 1;
                    continue;
                }
                for t in &tags {
                    if !tags_seen.contains(t) {
                        tags_seen.push(t.clone());
                    }
                }
                if let Some(job) = self.job(&path, &lower, &op, &item, &wanted, &mut ids) {
                    reported.push(self.take_sink());
                    jobs.push(job);
                }
            }
        }
        let tail = self.take_sink();
        let done = self.operations(&jobs, chosen.as_ref());
        // Sized once: grown by doubling, the vector of capability tables (large structs)
        // was 4% of GitHub's build in fresh pages zeroed by the kernel (`perf`).
        let mut capabilities = Vec::with_capacity(jobs.len());
        let mut origins = Vec::with_capacity(jobs.len());
        let mut operation_ids = Vec::with_capacity(jobs.len());
        // Put back in document order: what was reported up to each operation, then what its
        // import reported, then its outcome.
        for ((before, job), (result, said)) in reported.into_iter().zip(&jobs).zip(done) {
            self.append_sink(before);
            self.append_sink(said);
            match result {
                Ok(c) => {
                    origins.push(self.at(&job.op));
                    operation_ids.push(job.operation_id.clone());
                    capabilities.push(c);
                }
                Err(d) => self.diags.push(d),
            }
        }
        self.append_sink(tail);
        self.report_missing_files();
        if filtered_out > 0 {
            self.diags.push(Diagnostic::new(Code::ImportFiltered, format!(
                "{}: {filtered_out} of {operations} operations left out by [source] include/exclude",
                self.docs.describe(&root.place)
            )));
        }
        if capabilities.is_empty() && self.prior_errors + self.diags.error_count() == 0 {
            // Operations whose path cannot be represented were skipped with a warning each,
            // which `-q` hides: the count says where the rest went.
            let skipped = operations.saturating_sub(filtered_out + jobs.len());
            let skipped = if skipped > 0 {
                format!(", {skipped} skipped as the warnings say")
            } else {
                String::new()
            };
            let mut d = Diagnostic::new(
                Code::OpenapiInvalid,
                format!(
                    "{}#/paths: no operation to import ({operations} found, {filtered_out} filtered out{skipped})",
                    self.docs.describe(&root.place).trim_end_matches('#')
                ),
            );
            let webhooks: usize = ["webhooks", "x-webhooks"]
                .iter()
                .map(|k| {
                    root.get(k)
                        .and_then(Value::as_object)
                        .map_or(0, serde_json::Map::len)
                })
                .sum();
            if operations == 0 && webhooks > 0 {
                d = d.help(format!(
                    "the document describes only webhooks ({webhooks}): requests the API sends to its subscribers, which no agent calls; import the description of the API itself"
                ));
            } else if operations > 0 && filtered_out == operations {
                d = d.help("[source] include/exclude left out every operation");
            }
            self.diags.push(d);
        }
        // Operations that need credentials, and no scheme to say which: every target that
        // describes auth would be wrong, so ask for `[auth]` (the warnings above say why each
        // declared scheme could not be published).
        let protected = capabilities
            .iter()
            .filter(|c| c.access.as_deref() == Some("protected"))
            .count();
        if auth.is_none() && protected > 0 {
            let d = Diagnostic::new(Code::OpenapiInvalid, format!(
                "{}: {protected} operation{} require{} authentication, but no security scheme of the document can be published, so no target could say how to authenticate",
                self.at(&root),
                if protected == 1 { "" } else { "s" },
                if protected == 1 { "s" } else { "" },
            ))
            .help("set [auth] in service.toml to the authentication the API takes");
            self.defer("auth", d);
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
                build: None,
                robots: None,
                capabilities,
                a2a: None,
                mcp: None,
                source: None,
                check: None,
                source_bytes: None,
                schemas: Default::default(),
            },
            version: self.version,
            origins,
            operation_ids,
            schema_origins: HashMap::new(),
            deferred: std::mem::take(&mut self.deferred),
            operations,
            filtered_out,
            base_path: self.base_path.clone(),
        }
    }

    /// The id every operation asks for (its operationId, else method and path), in document
    /// order, so a collision's suffix never takes an id another operation asks for.
    fn wanted_ids(&mut self, root: &Node) -> Vec<String> {
        let mut out = Vec::new();
        for (path, item) in root.child("paths").entries() {
            let Ok(item) = self.docs.deref(item) else {
                continue;
            };
            for (method, op) in item.entries() {
                let lower = method.to_ascii_lowercase();
                if !METHODS.contains(&lower.as_str()) {
                    continue;
                }
                let Ok(op) = self.docs.deref(op) else {
                    continue;
                };
                let op_id = op.str("operationId").filter(|s| !s.trim().is_empty());
                out.push(op_id.map_or_else(|| format!("{lower} {path}"), str::to_string));
            }
        }
        out
    }

    fn service(&mut self, root: &Node) -> raw::ServiceTable {
        let info = root.child("info");
        let title = info.str("title").map(one_line).filter(|t| !t.is_empty());
        let name = title.as_ref().map(|t| {
            let (name, cut) = shorten(t, NAME_MAX);
            if cut {
                self.defer_report(
                    Code::ImportTextShortened,
                    "service.name",
                    &info.child("title"),
                    format!("the title is shortened to {NAME_MAX} characters for `service.name`"),
                );
            }
            name
        });
        // No title: the service is named after its server's host, which is what agents see.
        let name = name.or_else(|| {
            let host = named_host(root)?;
            let d = Diagnostic::new(
                Code::ImportDerived,
                format!(
                    "{}: no `info.title`: the service is named `{host}` after its server",
                    self.at(&info)
                ),
            )
            .help("set `name` under [service] in service.toml");
            self.defer("service.name", d);
            Some(host)
        });
        if name.is_none() {
            let d = Diagnostic::new(
                Code::OpenapiInvalid,
                format!("{}: no `info.title` to name the service", self.at(&info)),
            )
            .help("set `name` under [service] in service.toml");
            self.defer("service.name", d);
        }
        let text = info
            .str("description")
            .or_else(|| info.str("summary"))
            .map(|t| one_line(&crate::text::plain_text(t)))
            .filter(|t| !t.is_empty());
        let description = match text {
            Some(t) => {
                let (d, cut) = crate::text::summary(&t, SERVICE_DESCRIPTION_MAX);
                if cut {
                    self.defer_report(
                        Code::ImportTextShortened,
                        "service.description",
                        &info.child("description"),
                        format!("the description is shortened to {SERVICE_DESCRIPTION_MAX} characters (after a sentence where one fits) for `service.description`; set a better one in service.toml"),
                    );
                }
                Some(d)
            }
            None => name.as_ref().map(|n| {
                // As plain text, as a description read from the source is: the next import
                // of the published documents reads it back unchanged.
                let derived = one_line(&crate::text::plain_text(&format!("API for {n}")));
                let derived = shorten(&derived, SERVICE_DESCRIPTION_MAX).0;
                self.defer_report(
                    Code::ImportDerived,
                    "service.description",
                    &info,
                    format!(
                        "no description; using \"{derived}\" (set `description` under [service])"
                    ),
                );
                derived
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
        if crate::values::url::check_https(url).is_ok() {
            Some(url.to_string())
        } else {
            self.note(
                Finding::lost("links that are not https URLs are left out"),
                node,
            );
            None
        }
    }

    /// The base URL: the first https server the document names (every `servers[]` entry, its
    /// variables at their defaults; Swagger 2.0 `schemes` + `host` + `basePath`, https first).
    /// A base path without a host (Swagger `basePath` alone, a relative server URL such as
    /// `/api`) is kept in `self.base_path`, to be joined to the base URL given by `--base-url`
    /// or `[service] base_url`. With `--base-url`, that URL wins and no server is required.
    fn base_url(&mut self, root: &Node) -> Option<String> {
        let candidates = self.servers(root);
        let usable = |url: &str| {
            url.starts_with("https://") && !url.contains('{') && HttpsUrl::parse_base(url).is_ok()
        };
        if self.base_url_flag.is_none()
            && let Some((url, _)) = candidates.iter().find(|(u, _)| usable(u))
        {
            return Some(url.trim_end_matches('/').to_string());
        }
        // No https server: a relative one still says where the API sits below the host.
        self.base_path = candidates
            .iter()
            .find_map(|(u, _)| u.starts_with('/').then(|| u.trim_end_matches('/')))
            .filter(|p| !p.is_empty() && !p.contains(['{', '?', '#']))
            .map(str::to_string);
        if let Some(flag) = self.base_url_flag.clone() {
            return Some(join_base_path(&flag, self.base_path.as_deref()));
        }
        let no_host = self.version == Version::Swagger2
            && root.str("host").is_none_or(|h| h.trim().is_empty());
        let first = candidates.into_iter().next().filter(|_| !no_host);
        let Some((url, node)) = first else {
            let what = match self.version {
                Version::Swagger2 => "no `host`",
                _ => "no `servers`",
            };
            let d = Diagnostic::new(
                Code::OpenapiInvalid,
                format!(
                    "{}: {what}, so no base URL",
                    self.docs.describe(&root.place)
                ),
            )
            .help(self.base_url_help(None));
            self.defer("service.base_url", d);
            return None;
        };
        let problem = if url.contains('{') {
            "has a variable without a default".to_string()
        } else if url.starts_with('/') || !url.contains("://") {
            "is relative: it only means something next to where the document is served".into()
        } else if url.starts_with("http://") {
            "uses http; the agent documents require https".into()
        } else {
            HttpsUrl::parse_base(&url)
                .err()
                .map_or_else(|| "is not usable".into(), |e| format!("is refused: {e}"))
        };
        let d = Diagnostic::new(
            Code::OpenapiInvalid,
            format!("{}: the server URL `{url}` {problem}", self.at(&node)),
        )
        .help(self.base_url_help(url.strip_prefix("http://")));
        self.defer("service.base_url", d);
        None
    }

    /// The servers a document names, in its order: `(url, node)`, OpenAPI 3.x variables
    /// replaced by their defaults; for Swagger 2.0 one URL per scheme, https first, or the
    /// bare `basePath` when there is no host.
    fn servers(&mut self, root: &Node) -> Vec<(String, Node)> {
        if self.version != Version::Swagger2 {
            let mut out = Vec::new();
            for server in root.child("servers").items() {
                let Some(url) = server.str("url") else {
                    continue;
                };
                let mut url = url.trim().to_string();
                // `//host/v1` takes the scheme of wherever the document is served: https.
                if url.starts_with("//") {
                    url.insert_str(0, "https:");
                }
                for (name, var) in server.child("variables").entries() {
                    let value = match var.get("default") {
                        Some(Value::String(s)) => s.clone(),
                        Some(v) if !v.is_null() => v.to_string(),
                        _ => continue,
                    };
                    url = url.replace(&format!("{{{name}}}"), &value);
                }
                out.push((url, server.child("url")));
            }
            return out;
        }
        let base = root.str("basePath").unwrap_or("").trim().to_string();
        let base = if base.is_empty() || base.starts_with('/') {
            base
        } else {
            format!("/{base}")
        };
        let Some(host) = root.str("host").map(str::trim).filter(|h| !h.is_empty()) else {
            return if base.is_empty() {
                Vec::new()
            } else {
                vec![(base, root.child("basePath"))]
            };
        };
        let mut schemes = string_list(root.get("schemes"));
        if schemes.is_empty() {
            self.report(
                Code::ImportDerived,
                &root.child("schemes"),
                "no `schemes`; assuming https",
            );
            schemes.push("https".into());
        }
        // https first, the others in the document's order.
        schemes.sort_by_key(|s| !s.eq_ignore_ascii_case("https"));
        schemes
            .iter()
            .map(|s| {
                let scheme = s.to_ascii_lowercase();
                (format!("{scheme}://{host}{base}"), root.child("host"))
            })
            .collect()
    }

    /// How to give the base URL the document lacks: the exact command, with the https form of
    /// its http URL when it has one.
    fn base_url_help(&self, http_rest: Option<&str>) -> String {
        let file = self
            .docs
            .describe(&self.docs.root().place)
            .trim_end_matches('#')
            .to_string();
        let file = if file.is_empty() || file.contains(char::is_whitespace) {
            "openapi.yaml".to_string()
        } else {
            file
        };
        let url = http_rest.map_or_else(
            || "https://…".to_string(),
            |rest| format!("https://{}", rest.trim_end_matches('/')),
        );
        format!(
            "pass the base URL: `wellgen {} {file} --base-url {url}` (or set `base_url = \"{url}\"` under [service] in a service.toml that completes it)",
            self.command
        )
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
}

/// `base` with `path` (a base path the document gives without a host) added, unless its path
/// already ends with it: `https://x.example` + `/api` → `https://x.example/api`.
pub fn join_base_path(base: &str, path: Option<&str>) -> String {
    let base = base.trim_end_matches('/');
    match path {
        Some(p) if !p.is_empty() && p != "/" => {
            let p = p.trim_end_matches('/');
            let after = base.split_once("://").map_or(base, |(_, a)| a);
            let own = after.find('/').map_or("", |i| &after[i..]);
            if own.ends_with(p) {
                base.to_string()
            } else {
                format!("{base}{p}")
            }
        }
        _ => base.to_string(),
    }
}

/// The host of the document's first server (`servers[0].url`, or Swagger 2.0's `host`), without
/// scheme and port: a name for a service whose document has no title.
fn named_host(root: &Node) -> Option<String> {
    let server = root.child("servers").child("0");
    let url = server.str("url").or_else(|| root.str("host"))?;
    let rest = url.split_once("//").map_or(url, |(_, rest)| rest);
    let host = rest.split(['/', ':', '?', '#']).next()?.trim();
    (!host.is_empty() && !host.contains('{')).then(|| shorten(host, NAME_MAX).0)
}

/// The preferred media type of a `content` map: JSON, then any JSON flavour, then forms.
pub(super) fn pick_media(content: &Node) -> Option<(String, Node)> {
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

pub(super) fn string_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn first_example(examples: Option<&Value>) -> Option<Value> {
    examples?
        .as_object()?
        .values()
        .find_map(|e| e.get("value").cloned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A made-up API of well over `PARALLEL_FROM` operations, with what makes an import report
    /// things between and inside operations: skipped methods, operations without text, long
    /// descriptions, colliding operationIds, path items and schemas whose `$ref` points to
    /// nothing, paths of one shape with other parameter names, and shared and circular
    /// components (remembered expansions). `enum_len`: the length of an enum every operation's
    /// response copies; `broken`: whether some `$ref`s point to nothing (errors: no import).
    fn big_api(enum_len: usize, broken: bool) -> Value {
        let long = "Lists things. ".repeat(30);
        let mut paths = serde_json::Map::new();
        for i in 0..400 {
            let name = if i % 17 == 0 { "other" } else { "id" };
            let path = format!("/group{}/items/{{{name}}}/{}", i % 9, i / 9);
            if broken && i % 31 == 0 {
                paths.insert(path, json!({"$ref": "#/components/pathItems/missing"}));
                continue;
            }
            let mut op = serde_json::Map::new();
            if i % 5 != 0 {
                op.insert("summary".into(), json!(format!("Thing {i}")));
            }
            if i % 4 == 0 {
                op.insert("description".into(), json!(long));
            }
            let id = if i % 7 == 0 {
                "dup".to_string()
            } else {
                format!("op{i}")
            };
            op.insert("operationId".into(), json!(id));
            op.insert(
                "parameters".into(),
                json!([
                    {"name": name, "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}}
                ]),
            );
            let response = if broken && i % 11 == 0 {
                "#/components/schemas/Nowhere"
            } else {
                "#/components/schemas/Page"
            };
            op.insert("responses".into(), json!({
                "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": response}}}},
                "404": {"description": "no such thing"}
            }));
            if i % 2 == 0 {
                op.insert("requestBody".into(), json!({"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Tree"}}}}));
            }
            let mut item = serde_json::Map::new();
            item.insert(
                if i % 2 == 0 {
                    "post".into()
                } else {
                    "get".into()
                },
                Value::Object(op),
            );
            if i % 3 == 0 {
                item.insert(
                    "head".into(),
                    json!({"responses": {"200": {"description": "ok"}}}),
                );
            }
            paths.insert(path, Value::Object(item));
        }
        let codes: Vec<String> = (0..enum_len).map(|i| format!("code-{i:040}")).collect();
        json!({
            "openapi": "3.0.3",
            "info": {"title": "Big", "version": "1"},
            "servers": [{"url": "https://api.example.com"}],
            "paths": paths,
            "components": {"schemas": {
                "Address": {"type": "object", "properties": {"line": {"type": "string"}, "city": {"type": "string"}}},
                "Tree": {"type": "object", "properties": {
                    "home": {"$ref": "#/components/schemas/Address"},
                    "child": {"$ref": "#/components/schemas/Tree"},
                    "code": {"type": "string", "enum": codes}
                }},
                "Page": {"type": "object", "properties": {
                    "items": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}},
                    "billing": {"$ref": "#/components/schemas/Address"}
                }}
            }}
        })
    }

    /// The import of `doc` on `workers` threads: everything it returns and reports, as text.
    fn import_on(doc: &Value, workers: usize) -> String {
        import_from(doc, None, crate::source::DEFAULT_MAX_INPUT_SIZE, workers).0
    }

    /// The import of `doc`, read from `path` (for refs to files beside it) with an input
    /// limit of `max_input`, and how many referenced files it read.
    fn import_from(
        doc: &Value,
        path: Option<&std::path::Path>,
        max_input: u64,
        workers: usize,
    ) -> (String, usize) {
        let text = doc.to_string();
        let mut docs =
            Documents::new(path, "big.json", doc.clone()).with_limits(max_input, text.len());
        if let Some(dir) = path.and_then(std::path::Path::parent) {
            docs = docs.with_ref_root(crate::confine::RefRoot::given(dir).unwrap());
        }
        let mut diags = Diagnostics::default();
        let imported = lower_on(
            &mut docs,
            Version::OpenApi30,
            &super::super::Options::default(),
            &mut diags,
            workers,
        );
        let imported = imported.map_or_else(
            || "no import".to_string(),
            |i| {
                let doc = serde_json::to_string_pretty(&i.doc).unwrap();
                format!(
                    "{doc}\n{:?}\n{:?}\n{:?}",
                    i.origins, i.operation_ids, i.deferred
                )
            },
        );
        let read = docs.load_mark().files();
        (format!("{imported}\n{diags:?}"), read)
    }

    /// `big_api`, with request bodies in files beside it, each named by many operations: two
    /// that can be read, and if `broken`, one that is missing and one that is not YAML.
    fn api_in_files(dir: &std::path::Path, broken: bool) -> (Value, std::path::PathBuf) {
        let mut doc = big_api(3, false);
        for (i, item) in doc["paths"]
            .as_object_mut()
            .unwrap()
            .values_mut()
            .enumerate()
        {
            // Responses refer to components of other files too, made on whichever thread
            // meets them first, each file numbered in that thread's own order.
            let response = "/get/responses/200/content/application~1json/schema";
            if let Some(schema) = item.pointer_mut(response) {
                match i % 8 {
                    3 => *schema = json!({"$ref": "parts/tree.json#/Tree"}),
                    5 => *schema = json!({"$ref": "parts/page.yaml"}),
                    _ => {}
                }
                continue;
            }
            let Some(body) = item.pointer_mut("/post/requestBody/content/application~1json/schema")
            else {
                continue;
            };
            let file = match i % 8 {
                0 | 4 => "parts/tree.json#/Tree",
                2 => "parts/page.yaml",
                6 if broken && i % 48 == 6 => "parts/missing.yaml",
                6 if broken && i % 48 == 30 => "parts/bad.yaml",
                _ => continue,
            };
            *body = json!({ "$ref": file });
        }
        std::fs::create_dir_all(dir.join("parts")).unwrap();
        let tree = json!({"Tree": {"type": "object", "properties": {
            "name": {"type": "string", "pattern": "(?i)^[a-z]+$"},
            "child": {"$ref": "#/Tree"}
        }}});
        std::fs::write(dir.join("parts/tree.json"), tree.to_string()).unwrap();
        let page = format!(
            "type: object\ndescription: '{}'\nproperties: {{code: {{type: string, pattern: '(?i)^x'}}}}\n",
            "p".repeat(2000)
        );
        std::fs::write(dir.join("parts/page.yaml"), page).unwrap();
        std::fs::write(dir.join("parts/bad.yaml"), "type: [object\n").unwrap();
        let path = dir.join("big.json");
        std::fs::write(&path, doc.to_string()).unwrap();
        (doc, path.canonicalize().unwrap())
    }

    #[test]
    fn operations_imported_on_several_threads_are_those_of_one() {
        let doc = big_api(3, false);
        let one = import_on(&doc, 1);
        assert!(one.matches("\"method\"").count() > PARALLEL_FROM, "{one}");
        for needle in [
            "HEAD, OPTIONS",
            "without summary",
            "\"dup_2\"",
            "\"details\"",
            "{other}",
        ] {
            assert!(one.contains(needle), "{needle} not in {one}");
        }
        let broken = big_api(3, true);
        let one_broken = import_on(&broken, 1);
        // The errors of path items and of operations come in document order: operation `i`
        // sits at `/group{i % 9}/items/{…}/{i / 9}`.
        let order: Vec<usize> = one_broken
            .split("big.json#/paths/~1group")
            .skip(1)
            .filter(|rest| {
                rest.split("Diagnostic {")
                    .next()
                    .unwrap()
                    .contains("points to nothing")
            })
            .map(|rest| {
                let number = |s: &str| s.parse::<usize>().unwrap();
                let (group, rest) = rest.split_once("~1items~1").unwrap();
                let (_, rest) = rest.split_once("}~1").unwrap();
                let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap();
                number(&rest[..end]) * 9 + number(group)
            })
            .collect();
        assert!(order.len() > 40, "{one_broken}");
        assert!(order.is_sorted(), "{order:?}");
        for workers in [2, 3, 8] {
            assert!(one == import_on(&doc, workers), "{workers} threads differ");
            assert!(
                one_broken == import_on(&broken, workers),
                "{workers} threads differ"
            );
        }
    }

    #[test]
    fn threads_share_the_response_schemas_they_make() {
        let doc = big_api(3, false);
        let mut docs = Documents::new(None, "big.json", doc.clone());
        let mut diags = Diagnostics::default();
        let options = super::super::Options::default();
        let imported = lower_on(&mut docs, Version::OpenApi30, &options, &mut diags, 4).unwrap();
        let pages: Vec<&std::sync::Arc<Value>> = imported
            .doc
            .capabilities
            .iter()
            .filter_map(|c| c.output_schema.as_ref())
            .collect();
        assert!(pages.len() > PARALLEL_FROM, "{}", pages.len());
        // Every operation returns `Page`: one schema, whichever thread made it first.
        assert!(
            pages.iter().all(|p| std::sync::Arc::ptr_eq(p, pages[0])),
            "{} operations hold more than one copy",
            pages.len()
        );
    }

    #[test]
    fn threads_that_spend_the_expansion_budget_together_fail_as_one_does() {
        // Each request body copies about 175 KB of enum (responses refer to their components,
        // copying none): the 200 are over the 32 MB budget, which neither half reaches alone.
        let doc = big_api(4_000, false);
        let one = import_on(&doc, 1);
        assert!(one.contains("a `$ref` bomb"), "{one}");
        assert!(one == import_on(&doc, 2), "two threads differ");
    }

    #[test]
    fn threads_read_each_referenced_file_once_against_one_input_limit() {
        let dir = tempfile::tempdir().unwrap();
        let unlimited = u64::MAX / 2;
        let (broken, broken_path) = api_in_files(&dir.path().join("broken"), true);
        let (one_broken, _) = import_from(&broken, Some(&broken_path), unlimited, 1);
        for needle in ["parts/missing.yaml", "parts/bad.yaml"] {
            assert!(one_broken.contains(needle), "{needle} not in {one_broken}");
        }
        let (doc, path) = api_in_files(dir.path(), false);
        let (one, read) = import_from(&doc, Some(&path), unlimited, 1);
        assert!(one.contains("\"child\"") && one.contains("ppp"), "{one}");
        assert_eq!(read, 2, "{one}");
        // The response components of other files are kept by name, and what making one met is
        // reported at it, whichever thread made it.
        assert!(
            one.contains("\"$ref\": \"#/schemas/parts/page.yaml\""),
            "{one}"
        );
        let at_page = "origin: Some(Document(\"parts/page.yaml#\"))";
        assert_eq!(one.matches(at_page).count(), 1, "{one}");
        // tree.json (the first read on one thread) and page.yaml each fit, but not both: the
        // limit refuses the second one read, which on several threads may be either.
        let tight = doc.to_string().len() as u64 + 2_100;
        let (one_tight, _) = import_from(&doc, Some(&path), tight, 1);
        assert!(
            one_tight.contains("page.yaml is larger than"),
            "{one_tight}"
        );
        for workers in [2, 3, 8] {
            let (many, read) = import_from(&doc, Some(&path), unlimited, workers);
            assert!(one == many, "{workers} threads differ");
            assert_eq!(read, 2, "{workers} threads read files more than once");
            let (many_broken, _) = import_from(&broken, Some(&broken_path), unlimited, workers);
            assert!(one_broken == many_broken, "{workers} threads differ");
            let (many_tight, _) = import_from(&doc, Some(&path), tight, workers);
            assert!(
                one_tight == many_tight,
                "{workers} threads differ at the limit"
            );
        }
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
