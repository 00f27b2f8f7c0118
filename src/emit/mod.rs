//! Back ends: each target lowers the model into artifacts (a URL path, bytes and how to serve
//! them). Emitters are pure; `write` is the only code that touches the disk.

pub mod catalog;
pub mod hosts;
pub mod publish;
pub mod schemas;
pub mod security;
pub mod targets;

use std::sync::Arc;

use crate::diag::{Code, Diagnostics};
use crate::model::Service;
pub use targets::Target;

/// How a host should serve one artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Serving {
    pub content_type: &'static str,
    pub cache_control: &'static str,
    pub cors: bool,
}

/// One generated file, addressed by its URL path on the published site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// URL path, e.g. `/.well-known/ai`; the file sits at the same path under the output folder.
    pub path: String,
    /// Shared: twins (`/ia.json` and `/.well-known/ia.json`, …) and the writer hold the same
    /// bytes, which for a large API are tens of megabytes. A `Vec` in the `Arc`, not a slice:
    /// the serialiser's buffer is kept, where `Arc<[u8]>` would copy it.
    pub body: Arc<Vec<u8>>,
    /// `None` for host configuration files (`_headers`), which are not served as documents.
    pub serving: Option<Serving>,
}

impl Artifact {
    pub fn document(
        path: impl Into<String>,
        body: impl Into<Arc<Vec<u8>>>,
        serving: Serving,
    ) -> Self {
        Self {
            path: path.into(),
            body: body.into(),
            serving: Some(serving),
        }
    }

    /// Whether hosts need to be told the Content-Type: they send application/octet-stream for
    /// extensionless files and guess from the extension otherwise (`.agis` they do not know).
    pub fn needs_content_type(&self) -> bool {
        let Some(serving) = &self.serving else {
            return false;
        };
        let name = self.path.rsplit('/').next().unwrap_or_default();
        let inferred = match name.rsplit_once('.').map(|(_, ext)| ext) {
            Some("json") => "application/json",
            Some("txt") => "text/plain",
            Some("html") => "text/html",
            Some("js") => "text/javascript",
            _ => return true,
        };
        serving
            .content_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            != inferred
    }
}

pub const JSON: &str = "application/json; charset=utf-8";

/// What a build decided beyond the model, handed to the targets' and the hosts' lowering: the
/// targets it publishes and whether it leaves the query route unrouted. The model says what the
/// service is and where it is deployed; this says what one build of it does.
#[derive(Debug, Clone, Copy)]
pub struct Build<'a> {
    /// The targets of the build, with those they require, in target order: documents that
    /// link to other documents link only to those.
    pub targets: &'a [Target],
    /// The build does not route the query route ([`targets::rfc002::QUERY`]) although the host
    /// could: it leaves the routing file out, or the site has its own worker
    /// ([`hosts::route_left_out`]).
    pub route_left_out: bool,
}

impl<'a> Build<'a> {
    /// A build of `targets` that leaves nothing of its host's routing out.
    pub fn of(targets: &'a [Target]) -> Self {
        Self {
            targets,
            route_left_out: false,
        }
    }

    /// Whether this build of `service` answers the query route; where it does not, documents
    /// link to the file the query is routed to.
    pub fn routes_query(&self, service: &Service) -> bool {
        service.host.routes_query() && !self.route_left_out
    }
}

impl<'a> From<&'a [Target]> for Build<'a> {
    fn from(targets: &'a [Target]) -> Self {
        Self::of(targets)
    }
}

impl<'a, const N: usize> From<&'a [Target; N]> for Build<'a> {
    fn from(targets: &'a [Target; N]) -> Self {
        Self::of(targets)
    }
}

impl<'a> From<&'a Vec<Target>> for Build<'a> {
    fn from(targets: &'a Vec<Target>) -> Self {
        Self::of(targets)
    }
}

/// Every chosen target lowered, ready to render: every check made.
pub struct Lowered<'a> {
    service: &'a Service,
    build: Build<'a>,
    workers: usize,
    targets: Vec<targets::Lowered<'a>>,
    /// `[source] split`'s sub-service documents, part of the `ai` target; after the targets
    /// in messages and files, as they always were.
    split: Option<targets::ai::split::Lowered<'a>>,
}

/// Services at least this large lower and render their targets on several threads: below it,
/// a build takes about a millisecond and threads would only cost (and batch builds are
/// parallel already).
const PARALLEL_FROM: usize = 64;

/// Whether `service` is large enough for its work to be spread over threads.
pub fn is_large(service: &Service) -> bool {
    service.capabilities.len() >= PARALLEL_FROM
}

fn workers(service: &Service, targets: usize) -> usize {
    if !is_large(service) {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(targets))
    }
}

/// Lowers every target of `build` (a [`Build`], or just its targets), in target order, the
/// targets shared among `workers` threads (by default one per core for a large service;
/// rendering uses as many). Each target keeps its own diagnostics, appended in target order,
/// so the result is the same whatever the number of workers.
pub fn lower<'a>(
    service: &'a Service,
    build: impl Into<Build<'a>>,
    shared: &'a targets::Shared<'a>,
    workers: Option<usize>,
    diags: &mut Diagnostics,
) -> Lowered<'a> {
    let build = build.into();
    let built = build.targets;
    let workers = workers.unwrap_or_else(|| self::workers(service, built.len()));
    let done = crate::parallel::map_here(built, workers, |t| {
        let mut d = Diagnostics::default();
        (t.lower(service, &build, shared, &mut d), d)
    });
    let mut lowered = Vec::with_capacity(done.len());
    for (l, mut d) in done {
        lowered.push(l);
        stated_elsewhere(built, &mut d);
        diags.append(d);
    }
    // A service too large for one document is split already, whatever `[source] split` says.
    let split_already = lowered
        .iter()
        .any(|l| matches!(l, targets::Lowered::AiEndpoint(ai) if ai.is_split()));
    let split = service
        .split
        .filter(|_| built.contains(&Target::AiEndpoint) && !split_already)
        .map(|split| targets::ai::split::lower(service, built, split, diags));
    Lowered {
        service,
        build,
        workers,
        targets: lowered,
        split,
    }
}

impl Lowered<'_> {
    /// Every document, in target order; pure.
    pub fn render(&self) -> Vec<Artifact> {
        let rendered = crate::parallel::map_here(&self.targets, self.workers, |l| {
            l.render(self.service, self.build.targets)
        });
        let mut artifacts: Vec<Artifact> = rendered.into_iter().flatten().collect();
        if let Some(split) = &self.split {
            artifacts.extend(targets::ai::split::render(self.service, split));
        }
        artifacts
    }
}

/// Every document of `build`, or `None` when a check (before or during the targets' lowering)
/// reports an error. Each target is lowered and, unless something is an error already, at once
/// rendered on the same worker: a target never waits for the others' lowering, and the dearest
/// start first, so that no core idles at the end. Diagnostics and artifacts come in target order,
/// as from [`lower`] then [`Lowered::render`], whatever the number of workers.
pub fn lower_and_render<'a>(
    service: &'a Service,
    build: impl Into<Build<'a>>,
    shared: &'a targets::Shared<'a>,
    workers: Option<usize>,
    diags: &mut Diagnostics,
) -> Option<Vec<Artifact>> {
    let build = build.into();
    let built = build.targets;
    let workers = workers.unwrap_or_else(|| self::workers(service, built.len()));
    let render = !diags.has_errors();
    let mut order: Vec<usize> = (0..built.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(cost(built[i])));
    let mut done = crate::parallel::map_here(&order, workers, |&i| {
        let mut d = Diagnostics::default();
        let lowered = built[i].lower(service, &build, shared, &mut d);
        let split = matches!(&lowered, targets::Lowered::AiEndpoint(ai) if ai.is_split());
        let artifacts = (render && !d.has_errors()).then(|| lowered.render(service, built));
        (i, d, split, artifacts)
    });
    done.sort_by_key(|(i, ..)| *i);
    let mut split_already = false;
    let mut rendered = Vec::with_capacity(done.len());
    for (_, mut d, split, artifacts) in done {
        stated_elsewhere(built, &mut d);
        diags.append(d);
        split_already |= split;
        rendered.push(artifacts);
    }
    // As in `lower`: a service too large for one document is split already.
    let split = service
        .split
        .filter(|_| built.contains(&Target::AiEndpoint) && !split_already)
        .map(|split| targets::ai::split::lower(service, built, split, diags));
    if diags.has_errors() {
        return None;
    }
    let mut artifacts: Vec<Artifact> = rendered.into_iter().flatten().flatten().collect();
    if let Some(split) = &split {
        artifacts.extend(targets::ai::split::render(service, split));
    }
    Some(artifacts)
}

/// A target that publishes the nearest scheme its vocabulary has loses nothing an agent needs
/// when the OpenAPI document, built beside it, states every scheme exactly: then the
/// approximation is a note, not a warning to act on.
fn stated_elsewhere(built: &[Target], d: &mut Diagnostics) {
    if built.contains(&Target::OpenApi) {
        for d in d.iter_mut().filter(|d| d.code == Code::AuthSchemeLost) {
            d.code = Code::AuthApproximated;
            d.severity = Code::AuthApproximated.info().severity;
        }
    }
}

/// A target's share, in percent, of a large build's lowering and rendering (GitHub's
/// description, sampled with `perf`, 2026-11): only the order in which [`lower_and_render`]
/// starts them. The dearest first, so that the last to finish are small ones and no core
/// idles long at the end (ADP, a tenth of the work, used to start after four smaller ones).
fn cost(target: Target) -> u8 {
    match target {
        Target::OpenApi => 33,
        Target::Agis => 32,
        Target::Adp => 10,
        Target::Mcp | Target::IaJson => 5,
        Target::AiEndpoint => 4,
        Target::LlmsTxt | Target::AgentSkills => 2,
        Target::Rfc002 | Target::A2a => 1,
        Target::ApiCatalog
        | Target::AiCatalog
        | Target::McpServerCard
        | Target::OAuthResource
        | Target::AiPlugin => 0,
    }
}

/// Documents whose compact form is larger than this are written compact. aiendpoint's size
/// guidance (a document SHOULD stay under 64 KB) marks where a document stops being read by
/// people: past it, indentation is a third or more of the bytes (stripe's OpenAPI description:
/// 19 MB pretty, 5 MB compact), costs agents tokens as well as bytes, and makes a large
/// document larger than the OpenAPI source it was built from. Below it, documents stay pretty.
pub const COMPACT_FROM: usize = 64 * 1024;

/// Imported OpenAPI documents at least this large are a budget: a generated document that
/// would be larger than its source leaves out what its specification lets it leave out (ia.json
/// its response schemas, MCP the descriptions deep inside input schemas), and says so in a note.
/// Smaller sources (and a plain service.toml, which has no source size) change nothing: a
/// small API's documents are larger than its source by nature (every target says it again).
pub const BUDGET_FROM: usize = 64 * 1024;

/// The note of a document that left `removed` descriptions inside `schemas` out to stay
/// within its large source's `budget` (`before` and `after`: its sizes in bytes), at most as
/// deep as `cut`.
pub fn descriptions_cut(
    document: &str,
    schemas: &str,
    removed: usize,
    cut: schemas::Cut,
    [before, budget, after]: [usize; 3],
) -> crate::diag::Diagnostic {
    let (which, kept) = match cut {
        schemas::Cut::Nested => ("nested inside", "each parameter keeps its own"),
        schemas::Cut::All => ("of", "the parameters' own too, as it was still larger"),
    };
    crate::diag::Diagnostic::new(
        crate::diag::Code::SizedToSource,
        format!(
            "{document} would be {} KB, larger than its {} KB OpenAPI source: {removed} descriptions \
             {which} {schemas} are left out ({kept}), making it {} KB",
            before.div_ceil(1024),
            budget.div_ceil(1024),
            after.div_ceil(1024),
        ),
    )
    .help(DESCRIPTIONS_KEPT_HELP)
}

/// The help of a note that a document left descriptions out to stay within its source.
pub const DESCRIPTIONS_KEPT_HELP: &str = "the OpenAPI description keeps them; import fewer operations (`[source] include`/`exclude`) to keep them here too";

/// `body`, the JSON of `doc`, made to fit its source's `budget` where it is over: `drop` leaves
/// out the descriptions of `doc`'s schemas one [`schemas::Cut`] at a time, while it is still
/// over, and a note says how many went (`document` and `schemas` name what, in the note).
pub fn cut_to_budget<T: serde::Serialize>(
    doc: &mut T,
    mut body: Vec<u8>,
    budget: usize,
    mut drop: impl FnMut(&mut T, schemas::Cut) -> usize,
    [document, schemas]: [&str; 2],
    diags: &mut Diagnostics,
) -> Vec<u8> {
    let before = body.len();
    let (mut removed, mut deepest) = (0, None);
    for cut in schemas::Cut::ORDER {
        if body.len() <= budget {
            break;
        }
        let n = drop(doc, cut);
        if n > 0 {
            removed += n;
            deepest = Some(cut);
            body = to_json_bytes_budgeted(doc, Some(budget));
        }
    }
    if let Some(cut) = deepest {
        diags.push(descriptions_cut(
            document,
            schemas,
            removed,
            cut,
            [before, budget, body.len()],
        ));
    }
    body
}

/// A document's schemas shared anew over its budget, where a reference is shorter than the
/// copies (which leaves nothing out), and the note's words.
pub struct Reshare {
    pub reshared: fn(&serde_json::Value) -> serde_json::Value,
    pub document: &'static str,
    /// What the sharing does, after "larger than its source: ".
    pub how: &'static str,
    pub help: &'static str,
}

impl Reshare {
    /// `doc` shared anew, if that makes it fit `budget` or saves a kilobyte or more, with a
    /// note (`Ok`); else `doc` and its `json` as they were (`Err`).
    pub fn if_smaller(
        &self,
        (doc, json): (serde_json::Value, Vec<u8>),
        budget: usize,
        diags: &mut Diagnostics,
    ) -> Result<(serde_json::Value, Vec<u8>), (serde_json::Value, Vec<u8>)> {
        let shared = (self.reshared)(&doc);
        let shared_json = to_json_bytes_budgeted(&shared, Some(budget));
        // A saving under a kilobyte is taken only when it makes the document fit: the note
        // counts in kilobytes.
        let fits = shared_json.len() <= budget;
        if shared_json.len() >= json.len() || !fits && shared_json.len() + 1024 > json.len() {
            return Err((doc, json));
        }
        diags.push(
            crate::diag::Diagnostic::new(
                crate::diag::Code::SizedToSource,
                format!(
                    "{} would be {} KB, larger than its {} KB OpenAPI source: {}, making it {} KB",
                    self.document,
                    json.len().div_ceil(1024),
                    budget.div_ceil(1024),
                    self.how,
                    shared_json.len().div_ceil(1024),
                ),
            )
            .help(self.help),
        );
        Ok((shared, shared_json))
    }
}

/// The levels of fields below each output schema's top a document tries, deepest first, when
/// it is still over its source's budget with no description left to leave out (the import
/// keeps five).
pub const OUTPUT_LEVELS: [usize; 4] = [4, 3, 2, 1];
/// The same for input schemas (MCP's, which carry the request body's fields): each parameter
/// keeps its own fields' types, at least.
pub const INPUT_LEVELS: [usize; 3] = [4, 3, 2];

/// `body`, a document still over its source's `budget` with no description left to leave
/// out, made again by `render(levels)` with its `schemas` kept to `levels` levels
/// (`schemas::keep_levels`; `render` returns the document and how many subschemas it cut),
/// at the first of `tried` (deepest first) that fits, with a note. Where none does, the
/// schemas stay whole: cutting them would lose what they say and still not fit.
pub fn cut_levels<T: serde::Serialize>(
    body: Vec<u8>,
    budget: usize,
    (tried, mut render): (&[usize], impl FnMut(usize) -> (T, usize)),
    [document, outputs]: [&str; 2],
    diags: &mut Diagnostics,
) -> (Vec<u8>, Option<T>) {
    let Some((&last, deeper)) = tried.split_last() else {
        return (body, None);
    };
    let before = body.len();
    let mut fits = |levels| {
        let (doc, cut) = render(levels);
        let json = to_json_bytes_budgeted(&doc, Some(budget));
        (cut > 0 && json.len() <= budget).then_some((json, doc, levels, cut))
    };
    // The shallowest first: where it does not fit, no level does, and nothing more is made.
    let Some(shallowest) = fits(last) else {
        return (body, None);
    };
    let deepest_fit = deeper.iter().find_map(|&l| fits(l));
    let (json, doc, levels, cut) = deepest_fit.unwrap_or(shallowest);
    diags.push(
        crate::diag::Diagnostic::new(
            crate::diag::Code::SizedToSource,
            format!(
                "{document} would be {} KB, larger than its {} KB OpenAPI source, with no \
                 description left to leave out: {outputs} keep {levels} level{} of fields, the \
                 {cut} schemas below becoming `{{}}` (any value), making it {} KB",
                before.div_ceil(1024),
                budget.div_ceil(1024),
                if levels == 1 { "" } else { "s" },
                json.len().div_ceil(1024),
            ),
        )
        .help(DESCRIPTIONS_KEPT_HELP),
    );
    (json, Some(doc))
}

/// The byte budget of every generated document of `service`, if it has one (`BUDGET_FROM`).
pub fn source_budget(service: &Service) -> Option<usize> {
    service.source_bytes.filter(|&n| n >= BUDGET_FROM)
}

/// JSON with a trailing newline, pretty unless its compact form is over `COMPACT_FROM`: the
/// one serialisation every JSON target uses.
pub fn to_json_bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
    // Nearly every document is small: written pretty at once, the compact form is never made.
    if let Some(pretty) = capped(value, COMPACT_FROM, true) {
        return pretty;
    }
    let mut out = serde_json::to_vec(value).expect("model views serialise to JSON");
    if out.len() <= COMPACT_FROM {
        out = serde_json::to_vec_pretty(value).expect("model views serialise to JSON");
    }
    out.push(b'\n');
    out
}

/// `to_json_bytes` for a document with a byte budget (`source_budget`): compact as soon as
/// its pretty form would be over the budget, as indentation is the cheapest thing to leave out.
pub fn to_json_bytes_budgeted<T: serde::Serialize>(value: &T, budget: Option<usize>) -> Vec<u8> {
    let Some(budget) = budget else {
        return to_json_bytes(value);
    };
    to_json_bytes_within(value, budget).unwrap_or_else(|| {
        let mut out = serde_json::to_vec(value).expect("model views serialise to JSON");
        out.push(b'\n');
        out
    })
}

/// What `to_json_bytes` writes, if that takes at most `limit` bytes, else `None`: what is past
/// the limit is never serialised.
pub fn to_json_bytes_within<T: serde::Serialize>(value: &T, limit: usize) -> Option<Vec<u8>> {
    laid_out_within(value, limit, false)
}

/// What `to_json_bytes` writes if that takes at most `limit` bytes, else the compact document
/// if that does, else `None`: each form is serialised once at most.
pub fn to_json_bytes_or_compact_within<T: serde::Serialize>(
    value: &T,
    limit: usize,
) -> Option<Vec<u8>> {
    laid_out_within(value, limit, true)
}

fn laid_out_within<T: serde::Serialize>(
    value: &T,
    limit: usize,
    or_compact: bool,
) -> Option<Vec<u8>> {
    if let Some(pretty) = capped(value, limit.min(COMPACT_FROM), true) {
        return Some(pretty);
    }
    // Pretty is over `COMPACT_FROM` (or `limit`): compact when its compact form is too.
    let compact = capped(value, limit, false)?;
    if compact.len() > COMPACT_FROM {
        return Some(compact);
    }
    // Compact within `COMPACT_FROM`: `to_json_bytes` writes it pretty, which may still fit.
    capped(value, limit, true).or(or_compact.then_some(compact))
}

/// The compact document (with its newline) if it takes at most `limit` bytes.
pub fn compact_json_bytes_within<T: serde::Serialize>(value: &T, limit: usize) -> Option<Vec<u8>> {
    capped(value, limit, false)
}

fn capped<T: serde::Serialize>(value: &T, limit: usize, pretty: bool) -> Option<Vec<u8>> {
    struct Capped(Vec<u8>, usize);
    impl std::io::Write for Capped {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            // One byte is kept for the trailing newline.
            if self.0.len() + bytes.len() >= self.1 {
                return Err(std::io::ErrorKind::FileTooLarge.into());
            }
            self.0.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Capped(Vec::new(), limit);
    if pretty {
        serde_json::to_writer_pretty(&mut out, value).ok()?;
    } else {
        serde_json::to_writer(&mut out, value).ok()?;
    }
    out.0.push(b'\n');
    Some(out.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_pretty_up_to_the_compact_threshold_and_compact_beyond() {
        let small = serde_json::json!({"name": "x", "tags": ["a", "b"]});
        let text = String::from_utf8(to_json_bytes(&small)).unwrap();
        assert_eq!(
            text,
            "{\n  \"name\": \"x\",\n  \"tags\": [\n    \"a\",\n    \"b\"\n  ]\n}\n"
        );

        // Just over the threshold in compact form: written compact, one line.
        let item = "y".repeat(1000);
        let n = COMPACT_FROM / (item.len() + 3) + 1;
        let big = serde_json::json!({ "items": vec![item; n] });
        let bytes = to_json_bytes(&big);
        assert!(bytes.len() > COMPACT_FROM);
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 1);
        assert!(bytes.ends_with(b"]}\n"));
        let back: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, big);

        // Just under it: still pretty.
        let under = serde_json::json!({ "items": vec!["y".repeat(1000); n - 2] });
        assert!(serde_json::to_vec(&under).unwrap().len() <= COMPACT_FROM);
        assert!(to_json_bytes(&under).starts_with(b"{\n  \"items\": [\n"));
    }

    #[test]
    fn a_document_over_64_kib_is_compact_and_a_budget_compacts_sooner() {
        // aiendpoint's guidance, not ia.json's 1 MB: 100 KB is written compact.
        let big = serde_json::json!({ "items": vec!["y".repeat(1000); 100] });
        let bytes = to_json_bytes(&big);
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(to_json_bytes_within(&big, bytes.len()), Some(bytes.clone()));
        assert_eq!(to_json_bytes_within(&big, bytes.len() - 1), None);

        // Small and within its budget: pretty, as without one; over it: compact.
        let small = serde_json::json!({"name": "x", "tags": ["a", "b"]});
        let pretty = to_json_bytes(&small);
        assert_eq!(to_json_bytes_budgeted(&small, None), pretty);
        assert_eq!(to_json_bytes_budgeted(&small, Some(pretty.len())), pretty);
        assert_eq!(
            to_json_bytes_budgeted(&small, Some(pretty.len() - 1)),
            b"{\"name\":\"x\",\"tags\":[\"a\",\"b\"]}\n"
        );
    }

    #[test]
    fn a_capped_document_is_the_same_bytes_or_none() {
        let v = serde_json::json!({"name": "x", "tags": ["a", "b"]});
        let full = to_json_bytes(&v);
        assert_eq!(to_json_bytes_within(&v, full.len()), Some(full.clone()));
        assert_eq!(to_json_bytes_within(&v, full.len() - 1), None);
        assert_eq!(to_json_bytes_within(&v, 1), None);
        let compact = b"{\"name\":\"x\",\"tags\":[\"a\",\"b\"]}\n".to_vec();
        assert_eq!(
            compact_json_bytes_within(&v, compact.len()),
            Some(compact.clone())
        );
        assert_eq!(compact_json_bytes_within(&v, compact.len() - 1), None);
        // Pretty when it fits, else compact when that fits.
        let or_compact = |limit| to_json_bytes_or_compact_within(&v, limit);
        assert_eq!(or_compact(full.len()), Some(full.clone()));
        assert_eq!(or_compact(full.len() - 1), Some(compact.clone()));
        assert_eq!(or_compact(compact.len()), Some(compact.clone()));
        assert_eq!(or_compact(compact.len() - 1), None);
        let big = serde_json::json!({ "items": vec!["y".repeat(1000); 100] });
        let bytes = to_json_bytes(&big);
        assert_eq!(
            to_json_bytes_or_compact_within(&big, bytes.len()),
            Some(bytes.clone())
        );
        assert_eq!(to_json_bytes_or_compact_within(&big, bytes.len() - 1), None);
    }
}
